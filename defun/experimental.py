"""`tf.experimental`: the names TF2 programs reach there (Optional, from tf.data)."""
from defun.core import unsupported
from defun.data.optional import Optional

__all__ = ['Optional']

__getattr__ = unsupported.missing_names(__name__, 'tf.experimental', {
    'numpy': 'tf.experimental.numpy', 'dtensor': 'DTensor', 'ExtensionType': 'extension types',
    'BatchableExtensionType': 'extension types', 'DynamicRaggedShape': 'ragged tensors'})
