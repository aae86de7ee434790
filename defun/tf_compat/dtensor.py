"""`tf.experimental.dtensor`: a namespace Keras's TensorFlow backend imports by module path at
import time; DTensor is not part of defun, so each of its names raises NotInDefunError."""
from defun.core import unsupported

__all__ = []

__getattr__ = unsupported.missing_names(
    __name__, 'tf.experimental.dtensor', reason='DTensor (meshes and layouts) is not part of defun.')
