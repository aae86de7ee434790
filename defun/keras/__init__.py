"""`tf.keras`: only `optimizers` is part of defun; every other Keras name (layers, Model,
losses, ...) raises NotInDefunError saying so."""
from defun import optimizers  # noqa: F401
from defun.core import unsupported

__all__ = ['optimizers']

__getattr__ = unsupported.missing_names(
    __name__, 'tf.keras', reason='Of Keras, defun has only tf.keras.optimizers.')
