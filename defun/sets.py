"""The `tf.sets` namespace."""
from defun.ops.sets.set_ops import difference, intersection, size, union  # noqa: F401
