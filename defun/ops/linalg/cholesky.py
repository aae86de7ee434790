"""Triangular and positive-definite linear algebra of tf.linalg: cholesky, triangular_solve,
cholesky_solve, logdet and slogdet, batched over leading dimensions.

Gradients follow TensorFlow's formulas (linalg_grad.py), written with public ops: the Cholesky
gradient is Phi(L^H dL) conjugated by L^-1, computed with triangular solves rather than an explicit
inverse; triangular_solve's gradient is another triangular solve, masked to the triangle read.
cholesky_solve and logdet are compositions, so their gradients come from the ops they use.
"""
import collections

import numpy as np

from defun.core import error_helpers
from defun.core.dispatch import apply_op
from defun.ops.support.helpers import binary_args, dims, to_tensor
from defun.ops.framework.base_ops import sum_to
from defun.ops.math.complex_numbers import real
from defun.ops.math.elementary import log
from defun.ops.linalg.products import inv, matmul
from defun.ops.linalg.diagonals import adjoint, band_part, diag_part, set_diag
from defun.ops.math.reductions import reduce_sum
from defun.ops.array.transform import expand_dims
from defun.core.registry import define_op
from defun.ops.support import validation

__all__ = ['cholesky', 'triangular_solve', 'cholesky_solve', 'logdet', 'slogdet']

LogMatrixDeterminant = collections.namedtuple('LogMatrixDeterminant',
                                              ['sign', 'log_abs_determinant'])


def square_batch(x, op):
    """Checks that x is a (batch of) square matrices; returns its
    static shape (or None)."""
    d = dims(x)
    if d is None:
        return None
    if len(d) < 2:
        raise validation.invalid_argument(f'{op}: input must have rank >= 2, got '
                                          f'{error_helpers.describe(x)}')
    if d[-1] is not None and d[-2] is not None and d[-1] != d[-2]:
        raise validation.invalid_argument(f'{op}: Input matrix must be square, got '
                                          f'{error_helpers.describe(x)}')
    return d


def _square_array(a, op):
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise validation.invalid_argument(f'{op}: Input matrix must be square, got shape '
                                          f'{list(a.shape)}')


# ---------------------------------------------------------------- cholesky

def _cholesky_kernel(a):
    _square_array(a, 'cholesky')
    try:
        return np.linalg.cholesky(a)
    except np.linalg.LinAlgError:
        # TF's CPU kernel returns NaNs for a matrix that is not positive definite instead of
        # failing the whole batch; the others are still decomposed.
        flat = a.reshape((-1,) + a.shape[-2:])
        out = np.full_like(flat, np.nan)
        for i, m in enumerate(flat):
            try:
                out[i] = np.linalg.cholesky(m)
            except np.linalg.LinAlgError:
                pass
        return out.reshape(a.shape)


def _cholesky_grad(op, g):
    # dA = 1/2 L^-H Phi(L^H dL) L^-1, symmetrised; Phi keeps the lower triangle, halving the
    # diagonal.
    chol = op.outputs[0]
    middle = matmul(chol, g, adjoint_a=True)
    middle = set_diag(middle, 0.5 * diag_part(middle))
    middle = band_part(middle, -1, 0)
    left = triangular_solve(chol, middle, lower=True, adjoint=True)        # L^-H M
    grad = adjoint(triangular_solve(chol, adjoint(left), lower=True, adjoint=True))   # (.) L^-1
    return 0.5 * (grad + adjoint(grad))


CHOLESKY = define_op('Cholesky', _cholesky_kernel,
                     lambda a: (a.dtype, square_batch(a, 'cholesky')), _cholesky_grad)


def cholesky(input, name=None):
    """The lower-triangular L with L @ L^H = input, for each Hermitian positive-definite matrix
    (only the lower triangle of input is read)."""
    return apply_op(CHOLESKY, (to_tensor(input, name='input', op='cholesky'),), None, name)


# ---------------------------------------------------------------- triangular_solve

def _substitute(a, b, lower):
    """Forward (lower) or back substitution, vectorised over the batch; used when LAPACK refuses
    a singular matrix, so that zeros on the diagonal give TF's infs and NaNs."""
    n = a.shape[-1]
    x = np.zeros(np.broadcast_shapes(a.shape[:-2], b.shape[:-2]) + b.shape[-2:],
                 dtype=np.result_type(a, b))
    order = range(n) if lower else range(n - 1, -1, -1)
    with np.errstate(divide='ignore', invalid='ignore'):
        for i in order:
            known = np.einsum('...j,...jk->...k', a[..., i, :], x)
            x[..., i, :] = (b[..., i, :] - known) / a[..., i, i][..., None]
    return x


def _triangular_solve_kernel(a, b, lower, adjoint):
    a = np.tril(a) if lower else np.triu(a)
    if adjoint:
        a, lower = np.conj(np.swapaxes(a, -1, -2)), not lower
    try:
        return np.linalg.solve(a, b)
    except np.linalg.LinAlgError:
        return _substitute(a, b, lower)


def _triangular_solve_infer(a, b, lower, adjoint):
    m = square_batch(a, 'triangular_solve')
    r = dims(b)
    if m is None or r is None:
        return b.dtype, r
    if len(r) < 2 or (r[-2] is not None and m[-1] is not None and r[-2] != m[-1]):
        raise validation.invalid_argument(
            f'triangular_solve: rhs must be [..., M, K] for a matrix [..., M, M]; got matrix '
            f'{error_helpers.describe(a)} and rhs {error_helpers.describe(b)}')
    from_a, from_b = m[:-2], r[:-2]
    n = max(len(from_a), len(from_b))
    from_a = (1,) * (n - len(from_a)) + tuple(from_a)
    from_b = (1,) * (n - len(from_b)) + tuple(from_b)
    batch = tuple(y if x == 1 else x if y == 1 or y is None else y
                  for x, y in zip(from_a, from_b))
    return b.dtype, batch + r[-2:]


def _triangular_solve_grad(op, g):
    a, x = op.inputs[0], op.outputs[0]
    lower, adj = op.get_attr('lower'), op.get_attr('adjoint')
    grad_b = triangular_solve(a, g, lower=lower, adjoint=not adj)
    grad_a = -matmul(x, grad_b, adjoint_b=True) if adj else -matmul(grad_b, x, adjoint_b=True)
    grad_a = band_part(grad_a, -1, 0) if lower else band_part(grad_a, 0, -1)
    return sum_to(grad_a, a), sum_to(grad_b, op.inputs[1])


TRIANGULAR_SOLVE = define_op(
    'MatrixTriangularSolve',
    _triangular_solve_kernel,
    _triangular_solve_infer, _triangular_solve_grad)


def triangular_solve(matrix, rhs, lower=True, adjoint=False, name=None):
    """X with matrix @ X = rhs for a lower (or upper) triangular matrix; only that triangle is read.
    With `adjoint`, solves adjoint(matrix) @ X = rhs."""
    matrix, rhs = binary_args(matrix, rhs, 'triangular_solve')
    return apply_op(TRIANGULAR_SOLVE, (matrix, rhs),
                    {'lower': bool(lower), 'adjoint': bool(adjoint)}, name)


def cholesky_solve(chol, rhs, name=None):
    """X with A @ X = rhs, given chol = cholesky(A)."""
    validation.op_name(name)
    y = triangular_solve(chol, rhs, lower=True, adjoint=False)
    return triangular_solve(chol, y, lower=True, adjoint=True)


# ---------------------------------------------------------------- determinants

def logdet(matrix, name=None):
    """log(det(matrix)) of a Hermitian positive-definite matrix, through its Cholesky factor."""
    validation.op_name(name)
    chol = cholesky(matrix)
    return 2.0 * reduce_sum(log(real(diag_part(chol))), axis=-1)


def _slogdet_kernel(a):
    _square_array(a, 'slogdet')
    sign, logabs = np.linalg.slogdet(a)
    return np.asarray(sign, dtype=a.dtype), np.asarray(logabs, dtype=np.real(a).dtype)


def _slogdet_infer(a):
    d = square_batch(a, 'slogdet')
    batch = None if d is None else d[:-2]
    return [(a.dtype, batch), (a.dtype.real_dtype if a.dtype.is_complex else a.dtype, batch)]


def _slogdet_grad(op, g_sign, g_logabs):
    # d log|det A| / dA = A^-H; the sign is piecewise constant.
    return expand_dims(expand_dims(g_logabs, -1), -1) * inv(op.inputs[0], adjoint=True)


SLOGDET = define_op('LogMatrixDeterminant', _slogdet_kernel,
                    _slogdet_infer, _slogdet_grad, num_outputs=2)


def slogdet(input, name=None):
    """(sign, log|det|) of each square matrix, as TF's LogMatrixDeterminant namedtuple."""
    x = to_tensor(input, name='input', op='slogdet')
    return LogMatrixDeterminant(*apply_op(SLOGDET, (x,), None, name))
