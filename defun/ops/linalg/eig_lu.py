"""The general (non-symmetric) eigendecomposition and the LU decomposition of tf.linalg: eig,
eigvals (TF's Eig op), lu (Lu), and lu_solve, lu_matrix_inverse, lu_reconstruct written on lu's
factors, all batched over leading dimensions.

eig returns complex eigenvalues and unit-norm eigenvectors (complex64 for float32 or complex64
input, complex128 otherwise). An eigenvector is unique only up to a complex factor of modulus 1:
defun's are LAPACK's (numpy's), whose phase can differ from TF's; the eigenvalues and every
product v diag(e) v^-1 agree. eig's gradient is TF's.

lu packs L (unit lower triangle, diagonal implied) and U into one matrix, with the row
permutation p such that input[..., p, :] = L U, pivoting on the largest magnitude in each
column as TF (and LAPACK) do; a zero pivot is TF's "not invertible" error. As in TF, lu has no
gradient.
"""
import collections

import numpy as np

from defun.core import dtypes
from defun.core.dispatch import apply_op
from defun.core.registry import define_op
from defun.ops.array.creation import eye
from defun.ops.array.gathering import gather
from defun.ops.array.sorting import argsort
from defun.ops.framework.base_ops import cast, ones_like, shape, zeros_like
from defun.ops.linalg.cholesky import triangular_solve
from defun.ops.linalg.diagonals import adjoint, band_part, diag, diag_part, set_diag
from defun.ops.linalg.products import matmul, solve
from defun.ops.math.arithmetic import conj
from defun.ops.math.complex_numbers import complex as complex_, real
from defun.ops.support import validation
from defun.ops.support.helpers import dims, to_tensor

__all__ = ['eig', 'eigvals', 'lu', 'lu_solve', 'lu_matrix_inverse', 'lu_reconstruct']

Lu = collections.namedtuple('Lu', ['lu', 'p'])
_COMPLEX_OF = {dtypes.float32: dtypes.complex64, dtypes.complex64: dtypes.complex64,
               dtypes.float64: dtypes.complex128, dtypes.complex128: dtypes.complex128}


def _square(d, op):
    if d is not None and len(d) >= 2 and None not in d[-2:] and d[-1] != d[-2]:
        raise validation.invalid_argument(f'{op}: Input matrix must be square.')
    if d is not None and len(d) < 2:
        raise validation.invalid_argument(f'{op}: Input must have rank >= 2, got {list(d)}')
    return d


# ---------------------------------------------------------------- eig

def _eig_kernel(a, Tout, compute_v):
    _square(a.shape, 'eig')
    out = Tout.np_dtype
    if a.shape[-1] == 0:
        return np.zeros(a.shape[:-1], out), np.zeros(a.shape if compute_v else (0,), out)
    if not compute_v:
        return np.linalg.eigvals(a).astype(out), np.zeros((0,), out)
    e, v = np.linalg.eig(a)
    return e.astype(out), v.astype(out)


def _eig_infer(a, Tout, compute_v):
    d = _square(dims(a), 'eig')
    e = None if d is None else d[:-1]
    return [(Tout, e), (Tout, d if compute_v else (0,))]


def _safe_reciprocal(x, epsilon=1e-20):
    return x * (1 / (x * x + epsilon))   # TF's: finite where eigenvalues repeat


def _eig_grad(op, grad_e, grad_v):
    e = op.outputs[0]
    if op.get_attr('compute_v'):
        v = op.outputs[1]
        vt = adjoint(v)
        differences = _safe_reciprocal(e[..., None, :] - e[..., :, None])
        f = conj(set_diag(differences, zeros_like(e)))
        vgv = matmul(vt, grad_v)
        real_part = real(diag_part(vgv))
        real_diagonal = diag(complex_(real_part, zeros_like(real_part)))
        mid = diag(grad_e) + f * (vgv - matmul(matmul(vt, v), real_diagonal))
    else:
        vt = adjoint(eig(op.inputs[0])[1])
        mid = diag(grad_e)
    grad_a = solve(vt, matmul(mid, vt))
    x = op.inputs[0]
    return real(grad_a) if not x.dtype.is_complex else cast(grad_a, x.dtype)


EIG = define_op('Eig', _eig_kernel, _eig_infer, _eig_grad, num_outputs=2)


def _eig_input(tensor, op):
    x = to_tensor(tensor, name='tensor', op=op)
    if x.dtype not in _COMPLEX_OF:
        raise TypeError(f'{op}: the input must be float32, float64, complex64 or complex128, got '
                        f'{x.dtype.name}')
    return x


def eig(tensor, name=None):
    """(e, v): the eigenvalues and unit-norm eigenvectors (columns) of each square matrix."""
    x = _eig_input(tensor, 'eig')
    e, v = apply_op(EIG, (x,), {'Tout': _COMPLEX_OF[x.dtype], 'compute_v': True}, name)
    return e, v


def eigvals(tensor, name=None):
    """The eigenvalues of each square matrix (complex)."""
    x = _eig_input(tensor, 'eigvals')
    return apply_op(EIG, (x,), {'Tout': _COMPLEX_OF[x.dtype], 'compute_v': False}, name)[0]


# ---------------------------------------------------------------- lu

def _lu_factor(a):
    """Doolittle elimination with partial pivoting on a batch of square matrices at once."""
    n = a.shape[-1]
    lu = a.reshape((-1, n, n)).copy()
    perm = np.tile(np.arange(n), (lu.shape[0], 1))
    batch = np.arange(lu.shape[0])
    for k in range(n):
        pivot = k + np.argmax(np.abs(lu[:, k:, k]), axis=1)   # the first largest, as LAPACK
        lu[batch, [k], :], lu[batch, pivot, :] = lu[batch, pivot, :], lu[batch, [k], :].copy()
        perm[batch, k], perm[batch, pivot] = perm[batch, pivot], perm[batch, k].copy()
        head = lu[:, k, k]
        if np.any(head == 0):
            raise validation.invalid_argument('lu: Input is not invertible.')
        lu[:, k + 1:, k] /= head[:, None]
        lu[:, k + 1:, k + 1:] -= lu[:, k + 1:, k, None] * lu[:, k, None, k + 1:]
    return lu.reshape(a.shape), perm.reshape(a.shape[:-1])


def _lu_kernel(a, output_idx_type):
    _square(a.shape, 'lu')
    lu, p = _lu_factor(a)
    return lu, p.astype(output_idx_type.np_dtype)


def _lu_infer(a, output_idx_type):
    d = _square(dims(a), 'lu')
    return [(a.dtype, d), (output_idx_type, None if d is None else d[:-1])]


LU = define_op('Lu', _lu_kernel, _lu_infer, None, num_outputs=2)


def lu(input, output_idx_type=dtypes.int32, name=None):
    """Lu(lu, p): the LU decomposition of each square matrix with partial pivoting, L and U in
    one matrix and input[..., p, :] = L U."""
    x = to_tensor(input, name='input', op='lu')
    attrs = {'output_idx_type': dtypes.as_dtype(output_idx_type)}
    return Lu(*apply_op(LU, (x,), attrs, name))


def _factors(lower_upper):
    lower = set_diag(band_part(lower_upper, -1, 0), ones_like(diag_part(lower_upper)))
    return lower, band_part(lower_upper, 0, -1)


def _batch_dims(perm):
    rank = perm.shape.rank
    if rank is None:
        raise ValueError('lu_solve: the permutation needs a known rank')
    return rank - 1


def lu_solve(lower_upper, perm, rhs, validate_args=False, name=None):
    """The solution x of input x = rhs, from lu's factors of input."""
    validation.op_name(name)
    lower_upper = to_tensor(lower_upper, name='lower_upper', op='lu_solve')
    perm = to_tensor(perm, name='perm', op='lu_solve')
    rhs = to_tensor(rhs, dtype=lower_upper.dtype, name='rhs', op='lu_solve')
    permuted = gather(rhs, perm, axis=-2, batch_dims=_batch_dims(perm))
    lower, upper = _factors(lower_upper)
    return triangular_solve(upper, triangular_solve(lower, permuted), lower=False)


def lu_matrix_inverse(lower_upper, perm, validate_args=False, name=None):
    """The inverse of the matrix whose lu factors are given."""
    validation.op_name(name)
    lower_upper = to_tensor(lower_upper, name='lower_upper', op='lu_matrix_inverse')
    identity = eye(shape(lower_upper)[-1], batch_shape=shape(lower_upper)[:-2],
                   dtype=lower_upper.dtype)
    return lu_solve(lower_upper, perm, identity)


def lu_reconstruct(lower_upper, perm, validate_args=False, name=None):
    """The matrix whose lu factors are given: L U with its rows put back in place."""
    validation.op_name(name)
    lower_upper = to_tensor(lower_upper, name='lower_upper', op='lu_reconstruct')
    perm = to_tensor(perm, name='perm', op='lu_reconstruct')
    lower, upper = _factors(lower_upper)
    # argsort of a permutation is its inverse (batched, where invert_permutation takes vectors)
    return gather(matmul(lower, upper), argsort(perm, axis=-1), axis=-2,
                  batch_dims=_batch_dims(perm))
