"""Structural matrix ops of tf.linalg: diag, diag_part, set_diag, tensor_diag(_part), band_part,
matrix_transpose/adjoint, trace and matvec, batched over leading dimensions.

diag, diag_part and set_diag take one diagonal offset `k` (TF's band of diagonals, a pair `k`, is
refused with an error naming it). Their gradients are each other: the gradient of diag is the
diagonal part of the incoming gradient, that of diag_part the gradient set into a zero matrix.
"""
import numpy as np

from defun.core import error_helpers, errors
from defun.core.dispatch import apply_op
from defun.ops.math.arithmetic import conj
from defun.ops.support.helpers import binary_args, dims, to_tensor
from defun.ops.framework.base_ops import cast, zeros_like
from defun.ops.linalg.products import einsum, matmul
from defun.ops.math.reductions import reduce_sum
from defun.ops.array.transform import expand_dims, squeeze, transpose
from defun.core.registry import define_op
from defun.core.tensor import Tensor
from defun.ops.support import validation

__all__ = ['diag', 'diag_part', 'set_diag', 'tensor_diag', 'tensor_diag_part', 'band_part',
           'matrix_transpose', 'adjoint', 'trace', 'matvec']


def _offset(k, op):
    if isinstance(k, Tensor):
        value = getattr(k, 'array', None)
        if value is None:
            raise ValueError(f'{op}: `k` must be known while the graph is built')
        k = value
    array = np.asarray(k)
    if array.ndim != 0:
        raise errors.UnimplementedError(
            f'{op}: a band of diagonals (k={list(array.ravel())}) is not supported by defun; '
            f'pass one integer diagonal offset')
    if array.dtype.kind not in 'iu':
        raise TypeError(f'{op}: `k` must be an integer, got {k!r}')
    return int(array)


def _diag_positions(n, k):
    """Row and column indices of the n entries of diagonal k."""
    i = np.arange(n)
    return i + max(-k, 0), i + max(k, 0)


def _diag_size(n, k, num_rows, num_cols):
    rows_min, cols_min = n + max(-k, 0), n + max(k, 0)
    if num_rows == -1 and num_cols == -1:
        return max(rows_min, cols_min), max(rows_min, cols_min)
    rows = rows_min if num_rows == -1 else num_rows
    cols = cols_min if num_cols == -1 else num_cols
    return rows, cols


def _diag_length(rows, cols, k):
    return max(min(rows - max(-k, 0), cols - max(k, 0)), 0)


def _diag_kernel(d, k, num_rows, num_cols, padding_value):
    n = d.shape[-1]
    rows, cols = _diag_size(n, k, num_rows, num_cols)
    if _diag_length(rows, cols, k) != n:
        raise validation.invalid_argument(
            f'diag: The number of rows or columns ({rows}, {cols}) is not consistent with the '
            f'diagonal offset k={k} and a diagonal of length {n}')
    result = np.full(d.shape[:-1] + (rows, cols), padding_value, dtype=d.dtype)
    r, c = _diag_positions(n, k)
    result[..., r, c] = d
    return result


def _diag_infer(d, k, num_rows, num_cols, padding_value):
    s = dims(d)
    if s is None:
        return d.dtype, None
    if not s:
        raise validation.invalid_argument(f'diag: diagonal must be at least 1-D, got '
                                          f'{error_helpers.describe(d)}')
    if s[-1] is None:
        rows = None if num_rows == -1 else num_rows
        cols = None if num_cols == -1 else num_cols
        return d.dtype, s[:-1] + (rows, cols)
    rows, cols = _diag_size(s[-1], k, num_rows, num_cols)
    if _diag_length(rows, cols, k) != s[-1]:
        raise validation.invalid_argument(
            f'diag: The number of rows or columns ({rows}, {cols}) is not consistent with the '
            f'diagonal offset k={k} and a diagonal of length {s[-1]}')
    return d.dtype, s[:-1] + (rows, cols)


MATRIX_DIAG = define_op('MatrixDiagV3', _diag_kernel, _diag_infer,
                        lambda op, g: diag_part(g, k=op.get_attr('k')))


def diag(diagonal, name='diag', k=0, num_rows=-1, num_cols=-1, padding_value=0,
         align='RIGHT_LEFT'):
    """A (batch of) matrices with `diagonal` on diagonal k and `padding_value` elsewhere."""
    d = to_tensor(diagonal, name='diagonal', op='diag')
    attrs = {'k': _offset(k, 'diag'), 'num_rows': int(num_rows), 'num_cols': int(num_cols),
             'padding_value': np.asarray(padding_value).astype(d.dtype.np_dtype)[()]}
    return apply_op(MATRIX_DIAG, (d,), attrs, None if name == 'diag' else name)


def _matrix_rank_check(x, op):
    s = dims(x)
    if s is not None and len(s) < 2:
        raise validation.invalid_argument(f'{op}: input must be at least 2-dim, received shape: '
                                          f'{list(s)}')
    return s


def _diag_part_kernel(x, k):
    if x.ndim < 2:
        raise validation.invalid_argument(f'diag_part: input must be at least 2-dim, received '
                                          f'shape: {list(x.shape)}')
    return np.diagonal(x, offset=k, axis1=-2, axis2=-1).copy()


def _diag_part_infer(x, k):
    s = _matrix_rank_check(x, 'diag_part')
    if s is None:
        return x.dtype, None
    rows, cols = s[-2:]
    n = None if rows is None or cols is None else _diag_length(rows, cols, k)
    return x.dtype, s[:-2] + (n,)


MATRIX_DIAG_PART = define_op(
    'MatrixDiagPartV3', _diag_part_kernel, _diag_part_infer,
    lambda op, g: set_diag(zeros_like(op.inputs[0]), g, k=op.get_attr('k')))


def diag_part(input, name='diag_part', k=0, padding_value=0, align='RIGHT_LEFT'):
    """Diagonal k of each matrix in the last two dimensions."""
    x = to_tensor(input, name='input', op='diag_part')
    return apply_op(MATRIX_DIAG_PART, (x,), {'k': _offset(k, 'diag_part')},
                    None if name == 'diag_part' else name)


def _set_diag_kernel(x, d, k):
    if x.ndim < 2:
        raise validation.invalid_argument(f'set_diag: input must be at least 2-dim, received '
                                          f'shape: {list(x.shape)}')
    n = _diag_length(x.shape[-2], x.shape[-1], k)
    if d.shape != x.shape[:-2] + (n,):
        raise validation.invalid_argument(
            f'set_diag: diagonal must have shape {list(x.shape[:-2] + (n,))} for input of shape '
            f'{list(x.shape)} and k={k}, got {list(d.shape)}')
    result = np.array(x, copy=True)
    r, c = _diag_positions(n, k)
    result[..., r, c] = d
    return result


def _set_diag_infer(x, d, k):
    _matrix_rank_check(x, 'set_diag')
    return x.dtype, dims(x)


def _set_diag_grad(op, g):
    k = op.get_attr('k')
    return set_diag(g, zeros_like(op.inputs[1]), k=k), diag_part(g, k=k)


MATRIX_SET_DIAG = define_op('MatrixSetDiagV3', _set_diag_kernel, _set_diag_infer, _set_diag_grad)


def set_diag(input, diagonal, name='set_diag', k=0, align='RIGHT_LEFT'):
    """`input` with diagonal k replaced by `diagonal`."""
    x, d = binary_args(input, diagonal, 'set_diag')
    return apply_op(MATRIX_SET_DIAG, (x, d), {'k': _offset(k, 'set_diag')},
                    None if name == 'set_diag' else name)


# ---------------------------------------------------------------- tensor_diag

def _tensor_diag_kernel(x):
    n = x.size
    flat = np.zeros((n, n), dtype=x.dtype)
    flat[np.arange(n), np.arange(n)] = x.ravel()
    return flat.reshape(x.shape + x.shape)


def _tensor_diag_part_kernel(x):
    half = x.ndim // 2
    if x.ndim % 2 or x.shape[:half] != x.shape[half:]:
        raise validation.invalid_argument(
            f'tensor_diag_part: input must have an even rank with matching halves '
            f'[D1..Dk, D1..Dk], '
            f'got shape {list(x.shape)}')
    n = int(np.prod(x.shape[:half], dtype=np.int64))
    return x.reshape(n, n)[np.arange(n), np.arange(n)].reshape(x.shape[:half])


def _tensor_diag_part_infer(x):
    s = dims(x)
    if s is None:
        return x.dtype, None
    if len(s) % 2:
        raise validation.invalid_argument(f'tensor_diag_part: input must have an even rank, got '
                                          f'{error_helpers.describe(x)}')
    half = len(s) // 2
    return x.dtype, tuple(a if a is not None else b for a, b in zip(s[:half], s[half:]))


TENSOR_DIAG = define_op('Diag', _tensor_diag_kernel,
                        lambda x: (x.dtype, None if dims(x) is None else dims(x) * 2),
                        lambda op, g: tensor_diag_part(g))
TENSOR_DIAG_PART = define_op('DiagPart', _tensor_diag_part_kernel, _tensor_diag_part_infer,
                             lambda op, g: tensor_diag(g))


def tensor_diag(diagonal, name=None):
    """A rank-2k tensor with `diagonal` (rank k) at positions [i1..ik, i1..ik], zeros elsewhere."""
    return apply_op(TENSOR_DIAG, (to_tensor(diagonal, name='diagonal', op='tensor_diag'),), None,
                    name)


def tensor_diag_part(input, name=None):
    """The inverse of tensor_diag: the entries [i1..ik, i1..ik] of a rank-2k tensor."""
    return apply_op(TENSOR_DIAG_PART, (to_tensor(input, name='input', op='tensor_diag_part'),),
                    None, name)


# ---------------------------------------------------------------- band_part

def _band_mask(rows, cols, lower, upper):
    i = np.arange(rows)[:, None]
    j = np.arange(cols)[None, :]
    keep = np.ones((rows, cols), dtype=bool)
    if lower >= 0:
        keep &= (i - j) <= lower
    if upper >= 0:
        keep &= (j - i) <= upper
    return keep


def _band_part_kernel(x, num_lower, num_upper):
    if x.ndim < 2:
        raise validation.invalid_argument(f'band_part: input must be at least rank 2, got shape '
                                          f'{list(x.shape)}')
    rows, cols = x.shape[-2:]
    lower, upper = int(num_lower), int(num_upper)
    if lower > rows or upper > cols:
        raise validation.invalid_argument(
            f'band_part: num_lower must not exceed the rows ({rows}) and num_upper the columns '
            f'({cols}); got {lower} and {upper}')
    return np.where(_band_mask(rows, cols, lower, upper), x, np.zeros((), x.dtype))


def _band_part_infer(x, num_lower, num_upper):
    _matrix_rank_check(x, 'band_part')
    return x.dtype, dims(x)


MATRIX_BAND_PART = define_op(
    'MatrixBandPart', _band_part_kernel, _band_part_infer,
    lambda op, g: (apply_op(MATRIX_BAND_PART, (g, op.inputs[1], op.inputs[2])), None, None))


def band_part(input, num_lower, num_upper, name=None):
    """Keeps num_lower subdiagonals and num_upper superdiagonals (negative: all), zeros the rest."""
    x = to_tensor(input, name='input', op='band_part')
    lower = to_tensor(num_lower, name='num_lower', op='band_part')
    upper = to_tensor(num_upper, name='num_upper', op='band_part')
    for t, arg in ((lower, 'num_lower'), (upper, 'num_upper')):
        if not t.dtype.is_integer:
            raise TypeError(f'band_part: `{arg}` must be an integer, got {error_helpers.describe(t)}')
    return apply_op(MATRIX_BAND_PART, (x, cast(lower, 'int64'), cast(upper, 'int64')), None, name)


# ---------------------------------------------------------------- compositions

def matrix_transpose(a, name='matrix_transpose', conjugate=False):
    """Swaps the last two dimensions (and conjugates when `conjugate`)."""
    validation.op_name(name)
    x = to_tensor(a, name='a', op='matrix_transpose')
    _matrix_rank_check(x, 'matrix_transpose')
    rank = x.shape.rank
    if rank is None:
        result = einsum('...ij->...ji', x)
    else:  # TF's: a Transpose, which takes every dtype (Einsum runs numbers only)
        result = transpose(x, list(range(rank - 2)) + [rank - 1, rank - 2])
    return conj(result) if conjugate else result


def adjoint(matrix, name=None):
    """The conjugate transpose of each matrix in the last two dimensions."""
    validation.op_name(name)
    return matrix_transpose(matrix, conjugate=True)


def trace(x, name=None):
    """The sum of the main diagonal of each matrix in the last two dimensions."""
    validation.op_name(name)
    return reduce_sum(diag_part(x), axis=-1)


def matvec(a, b, transpose_a=False, adjoint_a=False, a_is_sparse=False, b_is_sparse=False,
           name=None):
    """a @ b for a (batch of) matrices a and vectors b."""
    validation.op_name(name)
    a, b = binary_args(a, b, 'matvec')
    return squeeze(matmul(a, expand_dims(b, -1), transpose_a=transpose_a, adjoint_a=adjoint_a),
                   axis=-1)

