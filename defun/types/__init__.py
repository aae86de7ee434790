"""tf.types: the public types of defun's own objects (only `experimental`, as in TF)."""
from defun.types import experimental  # noqa: F401
