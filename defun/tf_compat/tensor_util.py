"""`tensorflow.python.framework.tensor_util`, as far as Keras reaches into it: `is_tf_type` (what
`tf.is_tensor` is in TF)."""
from defun.core.tensor import is_tensor

__all__ = ['is_tf_type']

is_tf_type = is_tensor
