"""The `tf.sparse` namespace."""
from defun.ops.sparse.sparse_tensor import SparseTensor, to_dense, from_dense  # noqa: F401
