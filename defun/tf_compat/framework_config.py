"""`tensorflow.python.framework.config`: op determinism, as Keras's `enable_op_determinism` sets it."""
from defun.config.experimental import enable_op_determinism, disable_op_determinism  # noqa: F401

__all__ = ['enable_op_determinism', 'disable_op_determinism']
