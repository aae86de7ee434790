"""`tensorflow.python.ops.linalg.sparse.sparse_csr_matrix_ops`: TF's CSR sparse matrices, which
Keras's TensorFlow backend imports at import time (for sparse-by-sparse matmul). They are not part
of defun, so each name raises NotInDefunError."""
from defun.core import unsupported

__all__ = []

__getattr__ = unsupported.missing_names(
    __name__, 'sparse_csr_matrix_ops', reason='CSR sparse matrices are not part of defun.')
