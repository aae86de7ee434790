"""The `tf.bitwise` namespace."""
from defun.ops.math.bitwise import *  # noqa: F401,F403
