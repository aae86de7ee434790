"""The `tf.linalg` namespace."""
from defun.ops.linalg import det, einsum, inv, matmul, norm, solve, tensordot  # noqa: F401
