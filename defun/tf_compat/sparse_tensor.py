"""`tensorflow.python.framework.sparse_tensor`: where TF defines `SparseTensor`. Keras's data
adapters recognise a TF sparse value by its class name and this module path, so while defun stands
in as `tensorflow` its SparseTensor (and spec) name this path as their module, which then imports
this module."""
from defun.ops.sparse.sparse_tensor import SparseTensor, SparseTensorSpec

__all__ = ['SparseTensor', 'SparseTensorSpec', 'claim', 'release']

PATH = 'tensorflow.python.framework.sparse_tensor'
_CLASSES = (SparseTensor, SparseTensorSpec)
_HOME = SparseTensor.__module__


def claim():
    """The classes name TF's module (done when defun becomes `tensorflow`)."""
    for cls in _CLASSES:
        cls.__module__ = PATH


def release():
    """The classes name their own module again (done when defun stops being `tensorflow`)."""
    for cls in _CLASSES:
        cls.__module__ = _HOME
