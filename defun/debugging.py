"""The `tf.debugging` namespace."""
from defun.ops.debug import Assert, assert_equal, assert_greater, check_numerics  # noqa: F401
