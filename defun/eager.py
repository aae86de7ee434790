"""`tf.eager`-style functional gradients (early TF's `tf.contrib.eager`): re-exports only."""
from defun.autodiff.eager_functional import *  # noqa: F401,F403
