"""The `tf.linalg` namespace."""
from defun.ops.math import matmul  # noqa: F401
