"""`tf.experimental`: the names TF2 programs reach there (Optional, from tf.data; ExtensionType),
and `dtensor`, whose every name says that DTensor is not part of defun."""
from defun.core import unsupported
from defun.data.optional import Optional
from defun.ops.framework.extension_type import ExtensionType
from defun.tf_compat import dtensor  # noqa: F401  (a module: Keras imports it by path)

__all__ = ['Optional', 'ExtensionType']

__getattr__ = unsupported.missing_names(__name__, 'tf.experimental', {
    'numpy': 'tf.experimental.numpy',
    'BatchableExtensionType': 'extension types', 'DynamicRaggedShape': 'ragged tensors'})
