"""The `tf.sparse` namespace."""
from defun.ops.sparse.sparse_tensor import SparseTensor, to_dense, from_dense  # noqa: F401
from defun.ops.sparse.sparse_ops import add, sparse_dense_matmul, reorder, retain  # noqa: F401
from defun.ops.sparse.sparse_ops import fill_empty_rows  # noqa: F401
from defun.ops.sparse.sparse_ops import reshape_sparse as reshape  # noqa: F401
from defun.ops.sparse.sparse_ops import slice_sparse as slice  # noqa: F401,A004
from defun.ops.sparse.sparse_ops import concat_sparse as concat  # noqa: F401
from defun.ops.sparse.sparse_reductions import *  # noqa: F401,F403
from defun.ops.sparse.sparse_elementwise import *  # noqa: F401,F403,E402
from defun.ops.sparse.sparse_shapes import eye, mask, reset_shape  # noqa: F401
from defun.ops.sparse.sparse_cross import cross, cross_hashed  # noqa: F401
