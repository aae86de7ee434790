"""`tensorflow.python.framework.tensor`: where TF defines `Tensor`. Keras's data adapters tell a
TF tensor from a NumPy-convertible value by a class named `Tensor` from a `tensorflow.python.`
module in its type's MRO (otherwise a string tensor given to `fit` or `predict` goes through NumPy
as an object array, which Keras refuses), so while defun stands in as `tensorflow` its Tensor
names this path as its module, which then imports this module."""
from defun.core.tensor import Tensor

__all__ = ['Tensor', 'claim', 'release']

PATH = 'tensorflow.python.framework.tensor'
_HOME = Tensor.__module__


def claim():
    """Tensor names TF's module (done when defun becomes `tensorflow`)."""
    Tensor.__module__ = PATH


def release():
    """Tensor names its own module again (done when defun stops being `tensorflow`)."""
    Tensor.__module__ = _HOME
