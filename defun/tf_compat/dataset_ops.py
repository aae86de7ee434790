"""`tensorflow.python.data.ops.dataset_ops`: where TF defines `DatasetV2`, the base class of
`tf.data` datasets. Libraries written for TF (Keras's data adapters) recognise a dataset by that
class name and this module path in its type's MRO, so while defun stands in as `tensorflow` its
`DatasetV2` (defun.data.base) names this path as its module, which then imports this module."""
from defun.data.base import DatasetV2

__all__ = ['DatasetV2', 'PATH', 'CLASSES']

PATH = 'tensorflow.python.data.ops.dataset_ops'
# The classes that name PATH as their module while defun is `tensorflow` (see finder.py).
CLASSES = (DatasetV2,)
