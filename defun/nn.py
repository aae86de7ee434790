"""The `tf.nn` namespace."""
from defun.ops.nn import *  # noqa: F401,F403
from defun.ops.nn_conv import *  # noqa: F401,F403
from defun.ops.sorting import top_k  # noqa: F401
from defun.ops.math import sigmoid, tanh  # noqa: F401  (shared with tf.math)
from defun.ops.nn_more import *  # noqa: F401,F403
from defun.ops.elementary import softplus  # noqa: F401  (shared with tf.math)
from defun.ops.math_more import in_top_k  # noqa: F401  (shared with tf.math)
from defun import nn_experimental as experimental  # noqa: F401  (tf.nn.experimental)
