"""`tf.experimental`: the names TF2 programs reach there (Optional, from tf.data)."""
from defun.data.optional import Optional

__all__ = ['Optional']
