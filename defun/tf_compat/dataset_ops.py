"""`tensorflow.python.data.ops.dataset_ops`: where TF defines `DatasetV2`, the base class of
`tf.data` datasets. Libraries written for TF (Keras's data adapters) recognise a dataset by that
class name and this module path in its type's MRO, so while defun stands in as `tensorflow` its
`DatasetV2` (defun.data.base) names this path as its module, which then imports this module."""
from defun.data.base import DatasetV2

__all__ = ['DatasetV2', 'claim', 'release']

PATH = 'tensorflow.python.data.ops.dataset_ops'
_HOME = DatasetV2.__module__


def claim():
    """DatasetV2 names TF's module (done when defun becomes `tensorflow`)."""
    DatasetV2.__module__ = PATH


def release():
    """DatasetV2 names its own module again (done when defun stops being `tensorflow`)."""
    DatasetV2.__module__ = _HOME
