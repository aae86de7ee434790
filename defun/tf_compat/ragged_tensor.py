"""`tensorflow.python.ops.ragged.ragged_tensor`: where TF defines `RaggedTensor`. Keras's data
adapters recognise a TF ragged value by its class name and this module path, so while defun stands
in as `tensorflow` its RaggedTensor (and spec) name this path as their module, which then imports
this module."""
from defun.ops.ragged.ragged_tensor import RaggedTensor, RaggedTensorSpec

__all__ = ['RaggedTensor', 'RaggedTensorSpec', 'PATH', 'CLASSES']

PATH = 'tensorflow.python.ops.ragged.ragged_tensor'
# The classes that name PATH as their module while defun is `tensorflow` (see finder.py).
CLASSES = (RaggedTensor, RaggedTensorSpec)
