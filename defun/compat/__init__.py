"""The `tf.compat` namespace (only `v1.placeholder` and friends that graph code needs)."""
from defun.compat import v1  # noqa: F401
