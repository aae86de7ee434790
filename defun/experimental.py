"""`tf.experimental`: the names TF2 programs reach there (Optional, from tf.data), and `dtensor`,
whose every name says that DTensor is not part of defun."""
from defun.core import unsupported
from defun.data.optional import Optional
from defun.tf_compat import dtensor  # noqa: F401  (a module: Keras imports it by path)

__all__ = ['Optional']

__getattr__ = unsupported.missing_names(__name__, 'tf.experimental', {
    'numpy': 'tf.experimental.numpy', 'ExtensionType': 'extension types',
    'BatchableExtensionType': 'extension types', 'DynamicRaggedShape': 'ragged tensors'})
