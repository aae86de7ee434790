"""The `tf.math` namespace: the math tables, plus the ops TF also lists here from other tables."""
from defun.ops.math.exports import *  # noqa: F401,F403
from defun.ops.nn.activations import log_softmax, softmax  # noqa: F401
from defun.ops.array.sorting import top_k  # noqa: F401
from defun.ops.nn.compositions import l2_normalize, softsign  # noqa: F401
from defun.ops.math.clipping import reduce_euclidean_norm  # noqa: F401
from defun.ops.math.math_ops import *  # noqa: F401,F403
from defun.ops.math.special import *  # noqa: F401,F403
from defun.ops.math.truncating import *  # noqa: F401,F403
from defun.ops.nn.compositions import zero_fraction  # noqa: F401  (shared with tf.nn)
from defun.ops.math.bessel import bessel_i0, bessel_i0e, bessel_i1, bessel_i1e  # noqa: F401
from defun import math_special as special  # noqa: F401  (tf.math.special)
