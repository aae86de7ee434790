"""`tensorflow.python.framework.tensor`: where TF defines `Tensor`. Keras's data adapters tell a
TF tensor from a NumPy-convertible value by a class named `Tensor` from a `tensorflow.python.`
module in its type's MRO (otherwise a string tensor given to `fit` or `predict` goes through NumPy
as an object array, which Keras refuses), so while defun stands in as `tensorflow` its Tensor
names this path as its module, which then imports this module."""
from defun.core.tensor import Tensor

__all__ = ['Tensor', 'PATH', 'CLASSES']

PATH = 'tensorflow.python.framework.tensor'
# The classes that name PATH as their module while defun is `tensorflow` (see finder.py).
CLASSES = (Tensor,)
