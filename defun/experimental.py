"""`tf.experimental`: the names TF2 programs reach there (Optional, from tf.data; ExtensionType)."""
from defun.core import unsupported
from defun.data.optional import Optional
from defun.ops.framework.extension_type import ExtensionType

__all__ = ['Optional', 'ExtensionType']

__getattr__ = unsupported.missing_names(__name__, 'tf.experimental', {
    'numpy': 'tf.experimental.numpy', 'dtensor': 'DTensor',
    'BatchableExtensionType': 'extension types', 'DynamicRaggedShape': 'ragged tensors'})
