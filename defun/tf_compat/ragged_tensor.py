"""`tensorflow.python.ops.ragged.ragged_tensor`: where TF defines `RaggedTensor`. Keras's data
adapters recognise a TF ragged value by its class name and this module path, so while defun stands
in as `tensorflow` its RaggedTensor (and spec) name this path as their module, which then imports
this module."""
from defun.ops.ragged.ragged_tensor import RaggedTensor, RaggedTensorSpec

__all__ = ['RaggedTensor', 'RaggedTensorSpec', 'claim', 'release']

PATH = 'tensorflow.python.ops.ragged.ragged_tensor'
_CLASSES = (RaggedTensor, RaggedTensorSpec)
_HOME = RaggedTensor.__module__


def claim():
    """The classes name TF's module (done when defun becomes `tensorflow`)."""
    for cls in _CLASSES:
        cls.__module__ = PATH


def release():
    """The classes name their own module again (done when defun stops being `tensorflow`)."""
    for cls in _CLASSES:
        cls.__module__ = _HOME
