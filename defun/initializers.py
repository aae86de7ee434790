"""The `tf.initializers` namespace: re-exports only."""
from defun.state.initializers import *  # noqa: F401,F403
