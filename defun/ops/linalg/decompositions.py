"""Matrix decompositions of tf.linalg: qr, eigh / eigvalsh, svd, and pinv and lstsq built on them,
batched over leading dimensions, with TF's output conventions: qr returns the Qr namedtuple (q, r);
eigh returns (e, v) with ascending eigenvalues; svd returns (s, u, v) with descending singular values
and v (not its adjoint). Eigen- and singular vectors are unique up to sign only; defun's signs are
LAPACK's (numpy's), which may differ from TF's, while every product (u diag(s) v^H, v diag(e) v^H)
is the same.

Gradients are TF's (linalg_grad.py) in our own ops, for real inputs. The diagonal of the
1 / (x_j - x_i) matrices they use is masked before the reciprocal, so that no infinity enters and
the second-order gradients stay finite.
"""
import collections

import numpy as np

from defun.core import dtypes, error_helpers, errors
from defun.core.dispatch import apply_op
from defun.ops.support.helpers import dims, to_tensor
from defun.ops.framework.base_ops import cast, ones_like, shape, zeros_like
from defun.ops.support.dtype_checks import INEXACT, check_inputs
from defun.ops.math.elementary import reciprocal, square
from defun.ops.array.joining import concat
from defun.ops.linalg.products import matmul
from defun.ops.linalg.diagonals import adjoint, band_part, diag, diag_part, matrix_transpose, set_diag
from defun.ops.support.helpers import binary_args
from defun.ops.linalg.cholesky import cholesky, cholesky_solve, square_batch, triangular_solve
from defun.ops.math.logic import where
from defun.ops.math.reductions import reduce_max, reduce_sum
from defun.ops.array.transform import expand_dims
from defun.core.registry import define_op
from defun.ops.support import validation

__all__ = ['qr', 'eigh', 'eigvalsh', 'svd', 'pinv', 'lstsq', 'matrix_rank']

Qr = collections.namedtuple('Qr', ['q', 'r'])


def _matrix_dims(x, op):
    d = dims(x)
    if d is not None and len(d) < 2:
        raise validation.invalid_argument(f'{op}: input must have rank >= 2, got '
                                          f'{error_helpers.describe(x)}')
    return d


def _inverse_differences(x):
    """The matrix 1 / (x_j - x_i) of a vector x (batched), zero on the diagonal."""
    differences = expand_dims(x, -2) - expand_dims(x, -1)
    safe = set_diag(differences, ones_like(x))
    return set_diag(reciprocal(safe), zeros_like(x))


def _real_only(x, what):
    if x.dtype.is_complex:
        raise errors.UnimplementedError(f'{what}: the gradient for complex inputs is not '
                                        f'supported by defun')


# ---------------------------------------------------------------- qr

def _qr_kernel(a, full_matrices):
    if a.dtype == np.float16:  # TF runs half QR (numpy's linalg does not): in float32, rounded
        return tuple(m.astype(np.float16) for m in _qr_kernel(a.astype(np.float32), full_matrices))
    return np.linalg.qr(a, mode='complete' if full_matrices else 'reduced')


def _qr_infer(a, full_matrices):
    d = _matrix_dims(a, 'qr')
    if d is None:
        return [(a.dtype, None), (a.dtype, None)]
    m, n = d[-2:]
    k = m if full_matrices else (None if m is None or n is None else min(m, n))
    return [(a.dtype, d[:-2] + (m, k)), (a.dtype, d[:-2] + (k, n))]


def _r_inverse_adjoint(x, r):
    """x R^-H for an upper-triangular R."""
    return adjoint(triangular_solve(r, adjoint(x), lower=False, adjoint=False))


def _qr_grad_deep(q, r, dq, dr):
    """The QR gradient for M >= N (reduced), where R is square and invertible."""
    qdq = matmul(q, dq, adjoint_a=True)
    rdr = matmul(r, dr, adjoint_b=True)
    tril = band_part(qdq - adjoint(qdq) + rdr - adjoint(rdr), -1, 0)
    grad_a = matmul(q, dr + _r_inverse_adjoint(tril, r))
    grad_b = _r_inverse_adjoint(dq - matmul(q, qdq), r)
    return grad_a + grad_b


def _qr_grad(op, dq, dr):
    a, (q, r) = op.inputs[0], op.outputs
    _real_only(a, 'qr')
    d = dims(a)
    if d is None or d[-2] is None or d[-1] is None:
        raise ValueError('qr: the gradient needs the matrix dimensions known')
    m, n = d[-2:]
    if op.get_attr('full_matrices') and m > n:
        raise errors.UnimplementedError('qr: the gradient for full_matrices=True with more rows '
                                        'than columns is not defined (as in TF)')
    if m >= n:
        return _qr_grad_deep(q, r, dq, dr)
    # Wide: A = [X | Y] with X = Q U square; Y = Q V only moves dQ.
    y, u = a[..., :, m:], r[..., :, :m]
    du, dv = dr[..., :, :m], dr[..., :, m:]
    dx = _qr_grad_deep(q, u, dq + matmul(y, dv, adjoint_b=True), du)
    return concat([dx, matmul(q, dv)], axis=-1)


QR = define_op('Qr', _qr_kernel, _qr_infer, _qr_grad,
               num_outputs=2)


def qr(input, full_matrices=False, name=None):
    """The QR decomposition of each matrix: q orthonormal columns, r upper triangular."""
    x = to_tensor(input, name='input', op='qr')
    return Qr(*apply_op(QR, (x,), {'full_matrices': bool(full_matrices)}, name))


# ---------------------------------------------------------------- eigh

def _eigh_kernel(a):
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise validation.invalid_argument(f'eigh: Input matrix must be square, got shape '
                                          f'{list(a.shape)}')
    e, v = np.linalg.eigh(a)   # reads the lower triangle, as TF
    return e.astype(np.real(a).dtype, copy=False), v


def _eigh_infer(a):
    d = square_batch(a, 'eigh')
    e_dtype = a.dtype.real_dtype if a.dtype.is_complex else a.dtype
    if d is None:
        return [(e_dtype, None), (a.dtype, None)]
    return [(e_dtype, d[:-1]), (a.dtype, d)]


def _eigh_grad(op, grad_e, grad_v):
    e, v = op.outputs
    _real_only(op.inputs[0], 'eigh')
    inner = diag(grad_e) + _inverse_differences(e) * matmul(v, grad_v, adjoint_a=True)
    grad_a = matmul(v, matmul(inner, v, adjoint_b=True))
    # The kernel reads only the lower triangle: symmetrise, keep it, halve the diagonal.
    grad_a = band_part(grad_a + adjoint(grad_a), -1, 0)
    return set_diag(grad_a, 0.5 * diag_part(grad_a))


EIGH = define_op('SelfAdjointEigV2', _eigh_kernel, _eigh_infer,
                 _eigh_grad, num_outputs=2)


def eigh(tensor, name=None):
    """(eigenvalues ascending, eigenvectors as columns) of each self-adjoint matrix (its lower
    triangle is read)."""
    return apply_op(EIGH, (to_tensor(tensor, name='tensor', op='eigh'),), None, name)


def eigvalsh(tensor, name=None):
    """The eigenvalues of each self-adjoint matrix, ascending."""
    return eigh(tensor, name)[0]


# ---------------------------------------------------------------- svd

def _svd_kernel(a, full_matrices, compute_uv):
    if not compute_uv:
        return np.linalg.svd(a, compute_uv=False), np.zeros((0,), a.dtype), np.zeros((0,), a.dtype)
    u, s, vh = np.linalg.svd(a, full_matrices=full_matrices)
    return s, u, np.conj(np.swapaxes(vh, -1, -2))


def _svd_infer(a, full_matrices, compute_uv):
    d = _matrix_dims(a, 'svd')
    s_dtype = a.dtype.real_dtype if a.dtype.is_complex else a.dtype
    if d is None:
        return [(s_dtype, None), (a.dtype, None), (a.dtype, None)]
    m, n = d[-2:]
    k = None if m is None or n is None else min(m, n)
    if not compute_uv:
        return [(s_dtype, d[:-2] + (k,)), (a.dtype, (0,)), (a.dtype, (0,))]
    u_cols, v_cols = (m, n) if full_matrices else (k, k)
    return [(s_dtype, d[:-2] + (k,)), (a.dtype, d[:-2] + (m, u_cols)),
            (a.dtype, d[:-2] + (n, v_cols))]


def _svd_grad(op, grad_s, grad_u, grad_v):
    a = op.inputs[0]
    _real_only(a, 'svd')
    d = dims(a)
    if d is None or d[-2] is None or d[-1] is None:
        raise ValueError('svd: the gradient needs the matrix dimensions known')
    m, n = d[-2:]
    full = op.get_attr('full_matrices')
    if not op.get_attr('compute_uv'):
        s, u, v = svd(a, full_matrices=False, compute_uv=True)
        return matmul(u, matmul(diag(grad_s), v, adjoint_b=True))
    if full and abs(m - n) > 1:
        raise errors.UnimplementedError('svd: the gradient for full_matrices=True and '
                                        'abs(rows - columns) > 1 is not defined (as in TF)')
    s, u, v = op.outputs
    if m > n:   # work on the wide adjoint: swap the roles of u and v
        m, n, u, v, grad_u, grad_v = n, m, v, u, grad_v, grad_u
    grad = _svd_grad_wide(s, u, v, grad_s, grad_u, grad_v, m, n, full)
    return matrix_transpose(grad, conjugate=True) if d[-2] > d[-1] else grad


def _svd_grad_wide(s, u, v, grad_s, grad_u, grad_v, m, n, full):
    """The SVD gradient for an m x n matrix with m <= n."""
    s_mat = diag(s)
    f = _inverse_differences(square(s))
    v1, grad_v1 = v[..., :, :m], grad_v[..., :, :m]
    f_u = f * matmul(u, grad_u, adjoint_a=True)
    f_v = f * matmul(v1, grad_v1, adjoint_a=True)
    core = (diag(grad_s) + matmul(f_u + adjoint(f_u), s_mat)
            + matmul(s_mat, f_v + adjoint(f_v)))
    grad = matmul(u, matmul(core, v1, adjoint_b=True))
    if m == n:
        return grad
    gv1t = adjoint(grad_v1)
    rest = gv1t - matmul(matmul(gv1t, v1), v1, adjoint_b=True)
    if full:
        v2, grad_v2 = v[..., :, m:n], grad_v[..., :, m:n]
        rest = rest - matmul(matmul(v1, grad_v2, adjoint_a=True), v2, adjoint_b=True)
    return grad + matmul(matmul(u, diag(reciprocal(s))), rest)


SVD = define_op('Svd', _svd_kernel, _svd_infer, _svd_grad,
                num_outputs=3)


def svd(tensor, full_matrices=False, compute_uv=True, name=None):
    """Singular values (descending) and, with compute_uv, (s, u, v) with
    tensor = u @ diag(s) @ adjoint(v)."""
    x = to_tensor(tensor, name='tensor', op='svd')
    s, u, v = apply_op(SVD, (x,), {'full_matrices': bool(full_matrices),
                                   'compute_uv': bool(compute_uv)}, name)
    return (s, u, v) if compute_uv else s


def pinv(a, rcond=None, validate_args=False, name=None):
    """The Moore-Penrose pseudo-inverse, through the SVD; singular values below
    rcond * max(s) are treated as zero (rcond default: 10 * max(rows, cols) * eps)."""
    validation.op_name(name)
    x = to_tensor(a, name='a', op='pinv')
    _matrix_dims(x, 'pinv')
    s, u, v = svd(x, full_matrices=False, compute_uv=True)
    if rcond is None:
        largest_dim = cast(reduce_max(shape(x)[-2:]), s.dtype)
        rcond = 10.0 * largest_dim * np.finfo(s.dtype.np_dtype).eps
    cutoff = to_tensor(rcond, dtype=s.dtype, name='rcond', op='pinv') * reduce_max(
        s, axis=-1, keepdims=True)
    kept = where(s > cutoff, s, ones_like(s) * np.inf)
    return matmul(v / expand_dims(kept, -2), u, adjoint_b=True)


# ---------------------------------------------------------------- lstsq

def _regularized_gram(a, l2, adjoint_a):
    gram = matmul(a, a, adjoint_a=adjoint_a, adjoint_b=not adjoint_a)
    if l2 is None:
        return gram
    return set_diag(gram, diag_part(gram) + l2)


def lstsq(matrix, rhs, l2_regularizer=0.0, fast=True, name=None):
    """The least-squares solution X of matrix @ X = rhs (regularised by l2_regularizer), by the
    normal equations through a Cholesky factor, as TF's fast path; for an underdetermined system,
    the minimum-norm solution. fast=False gives the minimum-norm solution of any rank, through
    the pseudo-inverse (TF uses a complete orthogonal decomposition), and ignores l2_regularizer
    as TF does."""
    validation.op_name(name)
    a, b = binary_args(matrix, rhs, 'lstsq')
    check_inputs('lstsq', INEXACT, a)
    if not fast:
        return matmul(pinv(a), b)
    sa, sb = dims(a), dims(b)
    if sa is not None and len(sa) < 2:
        raise validation.invalid_argument(f'lstsq: matrix must have rank >= 2, got '
                                          f'{error_helpers.describe(a)}')
    if sa is not None and sb is not None and (
            len(sb) < 2 or None not in (sb[-2], sa[-2]) and sb[-2] != sa[-2]):
        raise validation.invalid_argument(
            f'lstsq: rhs must be [..., M, K] for a matrix [..., M, N]; got matrix '
            f'{error_helpers.describe(a)} and rhs {error_helpers.describe(b)}')
    l2 = to_tensor(l2_regularizer, dtype=a.dtype, name='l2_regularizer', op='lstsq')
    l2 = None if getattr(l2, 'array', None) is not None and float(l2.array) == 0.0 else l2
    if sa is None or sa[-2] is None or sa[-1] is None:
        return _lstsq_by_svd(a, b, l2)
    rows, cols = sa[-2:]
    if rows >= cols:
        chol = cholesky(_regularized_gram(a, l2, adjoint_a=True))
        return cholesky_solve(chol, matmul(a, b, adjoint_a=True))
    chol = cholesky(_regularized_gram(a, l2, adjoint_a=False))
    return matmul(a, cholesky_solve(chol, b), adjoint_a=True)


def _lstsq_by_svd(a, b, l2):
    """V diag(s / (s^2 + l2)) U^H b: one formula for tall and wide matrices, for graphs where
    which of the two the matrix is will only be known at run time."""
    s, u, v = svd(a, full_matrices=False, compute_uv=True)
    scale = s / (s * s + l2) if l2 is not None else reciprocal(s)
    return matmul(v * expand_dims(scale, -2), matmul(u, b, adjoint_a=True))


def matrix_rank(a, tol=None, validate_args=False, name=None):
    """The number of singular values above tol (default: max(s) * max(rows, cols) * eps)."""
    validation.op_name(name)
    x = to_tensor(a, name='a', op='matrix_rank')
    _matrix_dims(x, 'matrix_rank')
    s = svd(x, compute_uv=False)
    if tol is None:
        largest_dim = cast(reduce_max(shape(x)[-2:]), s.dtype)
        tol = reduce_max(s, axis=-1, keepdims=True) * largest_dim * np.finfo(
            s.dtype.np_dtype).eps
    else:
        tol = to_tensor(tol, dtype=s.dtype, name='tol', op='matrix_rank')
    return reduce_sum(cast(s > tol, dtypes.int32), axis=-1)
