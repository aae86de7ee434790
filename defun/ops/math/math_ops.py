"""More of tf.math: asinh/acosh/atanh, squared_difference, log_sigmoid, count_nonzero, the
x-log family (xlogy, xlog1py, xdivy), multiply_no_nan / reciprocal_no_nan, the segment
reductions (segment_* and unsorted_segment_* sum, mean, max, min), in_top_k, and bincount.

The x-log family and reciprocal_no_nan are compositions with `where`, guarded so that the zero
case contributes a zero gradient, as TF's gradients do; multiply_no_nan is TF's MulNoNan op.
The segment reductions are defined in segment_ops.py and re-exported here.
"""
import numpy as np

from defun.core import dtypes, errors
from defun.core.dispatch import apply_op
from defun.ops.math.arithmetic import conj, divide_no_nan, maximum, square
from defun.ops.array.joining import stack
from defun.ops.framework.base_ops import cast, ones_like, reshape, sum_to, zeros_like
from defun.ops.support.dtype_checks import FLOAT, check_inputs
from defun.ops.math.elementary import log, log1p, softplus, sqrt
from defun.ops.array.gathering import gather
from defun.ops.math.logic import not_equal, where
from defun.ops.support.helpers import binary_args, broadcast_dims, dims, to_tensor
from defun.ops.support import validation
from defun.ops.math.reductions import reduce_all, reduce_max, reduce_sum
from defun.ops.math.segments import (SEGMENT_SUM, segment_max, segment_mean, segment_min,
                                   segment_prod, segment_sum, unsorted_segment_max,
                                   unsorted_segment_mean, unsorted_segment_min,
                                   unsorted_segment_prod, unsorted_segment_sum)
from defun.ops.array.sorting import top_k
from defun.core.registry import define_op
from defun.ops.support.docs import documented

__all__ = ['asinh', 'acosh', 'atanh', 'squared_difference', 'log_sigmoid', 'count_nonzero',
           'xlogy', 'xlog1py', 'xdivy', 'multiply_no_nan', 'reciprocal_no_nan',
           'unsorted_segment_sum', 'unsorted_segment_mean', 'unsorted_segment_max',
           'unsorted_segment_min', 'unsorted_segment_prod', 'segment_prod', 'segment_sum',
           'segment_mean', 'segment_max', 'segment_min',
           'in_top_k', 'bincount', 'is_non_decreasing', 'is_strictly_increasing',
           'confusion_matrix']
TOP_LEVEL = ['squared_difference', 'count_nonzero']   # also tf.<name>, as in TF


# ---------------------------------------------------------------- inverse hyperbolics

def _unary(op_type, kernel, grad, op):
    return define_op(op_type, kernel, lambda x: (x.dtype, dims(x)), grad)


ASINH = _unary('Asinh', np.arcsinh,
               lambda op, g: g / sqrt(square(conj(op.inputs[0])) + 1), 'asinh')
ACOSH = _unary('Acosh', np.arccosh,
               lambda op, g: g / sqrt(square(conj(op.inputs[0])) - 1), 'acosh')
ATANH = _unary('Atanh', np.arctanh,
               lambda op, g: g / (1 - square(conj(op.inputs[0]))), 'atanh')


@documented('unary', 'Computes inverse hyperbolic sine of `x` element-wise.')
def asinh(x, name=None):
    return apply_op(ASINH, (to_tensor(x, op='asinh'),), None, name)


@documented('unary', 'Computes inverse hyperbolic cosine of `x` element-wise (NaN below 1).')
def acosh(x, name=None):
    return apply_op(ACOSH, (to_tensor(x, op='acosh'),), None, name)


@documented('unary', 'Computes inverse hyperbolic tangent of `x` element-wise.')
def atanh(x, name=None):
    return apply_op(ATANH, (to_tensor(x, op='atanh'),), None, name)


# ---------------------------------------------------------------- compositions

def squared_difference(x, y, name=None):
    """(x - y)**2, elementwise with broadcasting."""
    validation.op_name(name)
    x, y = binary_args(x, y, 'squared_difference')
    validation.element_type(x, 'fci', 'squared_difference')  # no bool, string, unsigned
    return square(x - y)


def log_sigmoid(x, name=None):
    """log(1 / (1 + exp(-x))), computed as -softplus(-x) so it never overflows."""
    validation.op_name(name)
    return -softplus(-to_tensor(x, op='log_sigmoid'))


def count_nonzero(input, axis=None, keepdims=None, dtype=dtypes.int64, name=None):
    """The number of non-zero (or non-empty) elements over `axis`."""
    validation.op_name(name)
    x = to_tensor(input, name='input', op='count_nonzero')
    zero = zeros_like(x)
    return cast(reduce_sum(cast(not_equal(x, zero), dtypes.int64), axis, bool(keepdims)),
                dtypes.as_dtype(dtype))


def _where_x_zero(x, value, fn):
    """fn(value) where x != 0, else 0; value is replaced by a safe 1 where x == 0, so nothing
    infinite enters the gradient there."""
    nonzero = not_equal(x, zeros_like(x))
    safe = where(nonzero, value, ones_like(value))
    return where(nonzero, fn(safe), zeros_like(fn(safe)))


def xlogy(x, y, name=None):
    """x * log(y), and 0 where x == 0 (even where y is 0)."""
    validation.op_name(name)
    x, y = binary_args(x, y, 'xlogy')
    x = x + zeros_like(y)   # both broadcast to the result's shape
    return _where_x_zero(x, y + zeros_like(x), lambda safe: x * log(safe))


def xlog1py(x, y, name=None):
    """x * log1p(y), and 0 where x == 0."""
    validation.op_name(name)
    x, y = binary_args(x, y, 'xlog1py')
    x = x + zeros_like(y)
    return _where_x_zero(x, y + zeros_like(x), lambda safe: x * log1p(safe))


def xdivy(x, y, name=None):
    """x / y, and 0 where x == 0."""
    validation.op_name(name)
    x, y = binary_args(x, y, 'xdivy')
    x = x + zeros_like(y)
    return _where_x_zero(x, y + zeros_like(x), lambda safe: x / safe)


def _mul_no_nan_kernel(x, y):
    return np.where(y == 0, np.zeros((), x.dtype), x * y).astype(x.dtype, copy=False)


def _mul_no_nan_grad(op, g):
    # TF's: d/dx = mul_no_nan(g, y), d/dy = mul_no_nan(x, g) (x * g even where y == 0).
    x, y = op.inputs
    return (sum_to(apply_op(MUL_NO_NAN, (g, y)), x), sum_to(apply_op(MUL_NO_NAN, (x, g)), y))


def _mul_no_nan_infer(x, y):
    return x.dtype, broadcast_dims(dims(x), dims(y), 'multiply_no_nan')


MUL_NO_NAN = define_op('MulNoNan', _mul_no_nan_kernel, _mul_no_nan_infer, _mul_no_nan_grad)


def multiply_no_nan(x, y, name=None):
    """x * y, and 0 where y == 0 even if x is inf or NaN (one op, with TF's gradient)."""
    x, y = binary_args(x, y, 'multiply_no_nan')
    return apply_op(MUL_NO_NAN, (x, y), None, name)


def reciprocal_no_nan(x, name=None):
    """1 / x, and 0 where x == 0."""
    validation.op_name(name)
    x = to_tensor(x, op='reciprocal_no_nan')
    return divide_no_nan(ones_like(x), x)


# ---------------------------------------------------------------- in_top_k, bincount

def in_top_k(targets, predictions, k, name=None):
    """Whether each row's target class is among the row's k largest predictions (ties count)."""
    p = to_tensor(predictions, name='predictions', op='in_top_k')
    t = to_tensor(targets, name='targets', op='in_top_k')
    check_inputs('in_top_k', FLOAT, p)
    kth = top_k(p, k).values[:, -1]
    target_value = gather(p, t, batch_dims=1)
    return target_value >= kth


def _bincount_kernel(arr, weights, size, dtype, binary_output=False, per_row=False):
    values = np.asarray(arr)
    if values.size and values.min() < 0:
        raise validation.invalid_argument(f'bincount: input arr must be non-negative, got '
                                          f'{int(values.min())}')
    n = int(size)
    w = None if np.size(weights) == 0 else np.ravel(weights)
    if per_row:
        # axis=-1: one histogram per row, through one flat bincount over row-offset values
        # (values past the size are dropped, as TF's maxlength drops them).
        rows = values.reshape(values.shape[0] if values.ndim else 1, -1)
        keep = np.ravel(rows < n)
        offsets = (rows + n * np.arange(rows.shape[0])[:, None]).ravel()[keep]
        counts = np.bincount(offsets, weights=None if w is None else w[keep],
                             minlength=rows.shape[0] * n).reshape(rows.shape[0], n)
    else:
        counts = np.bincount(values.ravel(), weights=w, minlength=n)[:n]
    if binary_output:
        counts = counts > 0
    return counts.astype(dtype.np_dtype)


def _bincount_infer(arr, w, size, dtype, binary_output=False, per_row=False):
    d = dims(arr)
    return dtype, ((d[0] if d else None, None) if per_row else (None,))


# defun's one Bincount op is TF's Bincount, DenseBincount and per-row forms: (arr, weights, size).
BINCOUNT = define_op('Bincount', _bincount_kernel, _bincount_infer, None, inputs=())


def check_binary_weights(weights, binary_output):
    """TF's bincounts (dense, ragged, sparse) refuse weights with binary_output before
    anything else is checked."""
    if weights is not None and binary_output:
        raise ValueError('Arguments `binary_output` and `weights` are mutually exclusive. '
                         'Please specify only one.')


def bincount(arr, weights=None, minlength=None, maxlength=None, dtype=dtypes.int32, name=None,
             axis=None, binary_output=False):
    """Counts of each value in the (non-negative integer) arr, optionally weighted; with
    axis=-1, one count per row of a 2-D arr; with binary_output, 1 where a value occurs."""
    check_binary_weights(weights, binary_output)
    if axis not in (None, 0, -1):
        raise errors.InvalidArgumentError(f'bincount: Unsupported axis value {axis}; use None, 0 '
                                          f'or -1')
    a = to_tensor(arr, name='arr', op='bincount')
    if not a.dtype.is_integer:  # TF counts other values as their int32 truncations
        a = cast(a, dtypes.int32)
    if axis == -1 and a.shape.rank not in (None, 1, 2):
        raise errors.InvalidArgumentError(f'bincount: axis=-1 needs an arr of rank 1 or 2, got '
                                          f'rank {a.shape.rank}')
    size = reduce_max(a) + 1 if a.shape.num_elements() != 0 else to_tensor(0, dtype=a.dtype)
    size = cast(size, dtypes.int32)
    if minlength is not None:
        size = where(size < minlength, cast(to_tensor(minlength), dtypes.int32), size)
    if maxlength is not None:
        size = where(size > maxlength, cast(to_tensor(maxlength), dtypes.int32), size)
    if weights is None:
        w = to_tensor(np.zeros((0,), dtypes.as_dtype(dtype).np_dtype))
        out_dtype = dtypes.as_dtype(dtype)
    else:
        w = to_tensor(weights, name='weights', op='bincount')
        out_dtype = w.dtype
    attrs = {'dtype': out_dtype}
    if binary_output:
        attrs['binary_output'] = True
    if axis == -1 and a.shape.rank == 2:
        attrs['per_row'] = True
    return apply_op(BINCOUNT, (a, w, size), attrs, name)


# ---------------------------------------------------------------- orderings, confusion_matrix

def _consecutive(x, op, strict):
    flat = reshape(to_tensor(x, name='x', op=op), [-1])
    diffs = flat[1:] > flat[:-1] if strict else flat[1:] >= flat[:-1]
    return reduce_all(diffs)


def is_non_decreasing(x, name=None):
    """Whether x (flattened) never decreases; True for fewer than two elements."""
    validation.op_name(name)
    return _consecutive(x, 'is_non_decreasing', strict=False)


def is_strictly_increasing(x, name=None):
    """Whether x (flattened) always increases; True for fewer than two elements."""
    validation.op_name(name)
    return _consecutive(x, 'is_strictly_increasing', strict=True)


def confusion_matrix(labels, predictions, num_classes=None, weights=None, dtype=dtypes.int32,
                     name=None):
    """counts[i, j] of examples with label i predicted as j (num_classes: max + 1 by default)."""
    validation.op_name(name)
    labels = cast(to_tensor(labels, name='labels', op='confusion_matrix'), dtypes.int64)
    predictions = cast(to_tensor(predictions, name='predictions', op='confusion_matrix'),
                       dtypes.int64)
    if num_classes is None:
        num_classes = maximum(reduce_max(labels), reduce_max(predictions)) + 1
    n = cast(to_tensor(num_classes, name='num_classes', op='confusion_matrix'), dtypes.int64)
    dtype = dtypes.as_dtype(dtype)
    values = ones_like(labels, dtype=dtype) if weights is None else cast(
        to_tensor(weights, name='weights', op='confusion_matrix'), dtype)
    flat = labels * n + predictions
    counts = apply_op(SEGMENT_SUM, (values, flat, n * n))
    return reshape(counts, stack([n, n]))
