"""The `tf.math` namespace: the math tables, plus the ops TF also lists here from other tables."""
from defun.ops.math import *  # noqa: F401,F403
from defun.ops.nn import log_softmax, softmax  # noqa: F401
from defun.ops.sorting import top_k  # noqa: F401
from defun.ops.nn_more import l2_normalize, softsign  # noqa: F401
from defun.ops.clip_ops import reduce_euclidean_norm  # noqa: F401
from defun.ops.math_more import *  # noqa: F401,F403
from defun.ops.special import *  # noqa: F401,F403
from defun.ops.math_extra import *  # noqa: F401,F403
from defun.ops.nn_more import zero_fraction  # noqa: F401  (shared with tf.nn)
