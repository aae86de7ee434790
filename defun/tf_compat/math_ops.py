"""`tensorflow.python.ops.math_ops`: the private module's names that Keras imports."""
from defun.math import is_nan

__all__ = ['is_nan']
