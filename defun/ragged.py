"""The `tf.ragged` namespace."""
from defun.ops.ragged.factories import *  # noqa: F401,F403
