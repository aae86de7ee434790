"""The `tf.random` namespace."""
from defun.context import set_random_seed as set_seed  # noqa: F401
from defun.ops.random import *  # noqa: F401,F403
