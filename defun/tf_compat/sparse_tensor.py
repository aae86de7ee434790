"""`tensorflow.python.framework.sparse_tensor`: where TF defines `SparseTensor`. Keras's data
adapters recognise a TF sparse value by its class name and this module path, so while defun stands
in as `tensorflow` its SparseTensor (and spec) name this path as their module, which then imports
this module."""
from defun.ops.sparse.sparse_tensor import SparseTensor, SparseTensorSpec

__all__ = ['SparseTensor', 'SparseTensorSpec', 'PATH', 'CLASSES']

PATH = 'tensorflow.python.framework.sparse_tensor'
# The classes that name PATH as their module while defun is `tensorflow` (see finder.py).
CLASSES = (SparseTensor, SparseTensorSpec)
