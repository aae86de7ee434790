"""The `tf.math` namespace."""
from defun.ops.math import *  # noqa: F401,F403
