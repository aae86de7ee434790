"""More of tf.math: asinh/acosh/atanh, squared_difference, log_sigmoid, count_nonzero, the
x-log family (xlogy, xlog1py, xdivy), multiply_no_nan / reciprocal_no_nan, the segment
reductions (segment_* and unsorted_segment_* sum, mean, max, min), in_top_k, and bincount.

The x-log family and reciprocal_no_nan are compositions with `where`, guarded so that the zero
case contributes a zero gradient, as TF's gradients do; multiply_no_nan is TF's MulNoNan op.
The segment reductions are one op each
(numpy's ufunc.at); their gradients gather the output gradient back to the data rows, max/min
splitting it evenly among the rows equal to the result (TF's rule). Empty segments hold 0 for
sum/mean and the segment_ forms, and the dtype's lowest/highest finite value for the
unsorted_segment max/min, as in TF.
"""
import numpy as np

from defun import dtypes, errors
from defun.dispatch import apply_op
from defun.ops.arithmetic import conj, divide_no_nan, maximum, square
from defun.ops.array import stack
from defun.ops.base_ops import cast, ones_like, reshape, sum_to, zeros_like
from defun.ops.dtype_checks import FLOAT, NUMERIC, REAL, checked_kernel, check_inputs
from defun.ops.elementary import log, log1p, softplus, sqrt
from defun.ops.gathering import gather
from defun.ops.logic import equal, not_equal, where
from defun.ops.op_helpers import binary_args, broadcast_dims, dims, static_value, to_tensor
from defun.ops import validation
from defun.ops.reductions import reduce_all, reduce_max, reduce_sum
from defun.ops.sorting import top_k
from defun.ops.transform import expand_dims
from defun.registry import define_op

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
    def infer(x):
        check_inputs(op, 'fc', x)
        return x.dtype, dims(x)
    return define_op(op_type, checked_kernel(kernel, 'fc', op), infer, grad)


ASINH = _unary('Asinh', np.arcsinh,
               lambda op, g: g / sqrt(square(conj(op.inputs[0])) + 1), 'asinh')
ACOSH = _unary('Acosh', np.arccosh,
               lambda op, g: g / sqrt(square(conj(op.inputs[0])) - 1), 'acosh')
ATANH = _unary('Atanh', np.arctanh,
               lambda op, g: g / (1 - square(conj(op.inputs[0]))), 'atanh')


def asinh(x, name=None):
    return apply_op(ASINH, (to_tensor(x, op='asinh'),), None, name)


def acosh(x, name=None):
    return apply_op(ACOSH, (to_tensor(x, op='acosh'),), None, name)


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
    check_inputs('multiply_no_nan', 'fc', x)
    return x.dtype, broadcast_dims(dims(x), dims(y), 'multiply_no_nan')


MUL_NO_NAN = define_op('MulNoNan', checked_kernel(_mul_no_nan_kernel, 'fc', 'multiply_no_nan'),
                       _mul_no_nan_infer, _mul_no_nan_grad)


def multiply_no_nan(x, y, name=None):
    """x * y, and 0 where y == 0 even if x is inf or NaN (one op, with TF's gradient)."""
    x, y = binary_args(x, y, 'multiply_no_nan')
    return apply_op(MUL_NO_NAN, (x, y), None, name)


def reciprocal_no_nan(x, name=None):
    """1 / x, and 0 where x == 0."""
    validation.op_name(name)
    x = to_tensor(x, op='reciprocal_no_nan')
    return divide_no_nan(ones_like(x), x)


# ---------------------------------------------------------------- segment reductions

_INITIAL = {'sum': lambda dt: 0, 'prod': lambda dt: 1, 'max': lambda dt: _extreme(dt, low=True),
            'min': lambda dt: _extreme(dt, low=False)}
_UFUNC = {'sum': np.add, 'prod': np.multiply, 'max': np.maximum, 'min': np.minimum}


def _extreme(dtype, low):
    info = np.finfo(dtype) if dtype.kind == 'f' else np.iinfo(dtype)   # TF: the finite extremes
    return info.min if low else info.max


def _segment_kernel(kind):
    def kernel(data, ids, num_segments):
        n = int(num_segments)
        ids = np.asarray(ids)
        if ids.shape != data.shape[:ids.ndim]:
            raise validation.invalid_argument(
                f'unsorted_segment_{kind}: segment_ids shape {list(ids.shape)} must be a prefix '
                f'of data shape {list(data.shape)}')
        if ids.size and ids.max() >= n:
            raise validation.invalid_argument(
                f'unsorted_segment_{kind}: segment_ids[{int(np.argmax(ids))}] = {ids.max()} is '
                f'out of range [0, {n})')
        out = np.full((n,) + data.shape[ids.ndim:], _INITIAL[kind](data.dtype), data.dtype)
        keep = ids >= 0   # TF drops negative ids
        _UFUNC[kind].at(out, ids[keep], data[keep])
        return out
    return kernel


def _segment_infer(data, ids, num_segments):
    d, i = dims(data), dims(ids)
    n = static_value(num_segments)
    head = (None if n is None else int(n),)
    if d is None or i is None:
        return data.dtype, None
    return data.dtype, head + d[len(i):]


def _gather_rows(g, ids):
    """g's segment rows for each data row; zero for the rows TF dropped (negative ids)."""
    safe = where(ids >= 0, ids, zeros_like(ids))
    rows = gather(g, safe)
    mask = cast(ids >= 0, g.dtype)
    for _ in range(rows.shape.rank - mask.shape.rank):
        mask = expand_dims(mask, -1)
    return rows * mask


def _segment_sum_grad(op, g):
    return _gather_rows(g, op.inputs[1]), None, None


def _segment_extremum_grad(op, g):
    data, ids, num = op.inputs
    out = op.outputs[0]
    hits = cast(equal(data, _gather_rows(out, ids)), g.dtype)
    counts = apply_op(SEGMENT_SUM, (hits, ids, num))
    return _gather_rows(divide_no_nan(g, counts), ids) * hits, None, None


SEGMENT_SUM = define_op('UnsortedSegmentSum', checked_kernel(_segment_kernel('sum'), NUMERIC,
                                                             'unsorted_segment_sum'),
                        _segment_infer, _segment_sum_grad)
def _segment_prod_grad(op, g):
    """TF's rule: the product of the other rows of the segment, counting zeros so that no
    division by zero happens (a segment with one zero sends its gradient to that row only)."""
    data, ids, num = op.inputs
    is_zero = equal(data, zeros_like(data))
    nonzero = where(is_zero, ones_like(data), data)
    zeros_in = _gather_rows(apply_op(SEGMENT_SUM, (cast(is_zero, data.dtype), ids, num)), ids)
    others = _gather_rows(apply_op(SEGMENT_PROD, (nonzero, ids, num)), ids)
    none = zeros_like(data)
    lone_zero = where(is_zero, where(equal(zeros_in, ones_like(data)), others, none), none)
    grad = where(equal(zeros_in, none), others / nonzero, lone_zero)
    return _gather_rows(g, ids) * grad, None, None


SEGMENT_PROD = define_op('UnsortedSegmentProd', checked_kernel(_segment_kernel('prod'), NUMERIC,
                                                               'unsorted_segment_prod'),
                         _segment_infer, _segment_prod_grad)
SEGMENT_MAX = define_op('UnsortedSegmentMax', checked_kernel(_segment_kernel('max'), REAL,
                                                             'unsorted_segment_max'),
                        _segment_infer, _segment_extremum_grad)
SEGMENT_MIN = define_op('UnsortedSegmentMin', checked_kernel(_segment_kernel('min'), REAL,
                                                             'unsorted_segment_min'),
                        _segment_infer, _segment_extremum_grad)


def _segment_args(data, segment_ids, num_segments, op):
    x = to_tensor(data, name='data', op=op)
    ids = to_tensor(segment_ids, name='segment_ids', op=op)
    if not ids.dtype.is_integer:
        raise TypeError(f'{op}: segment_ids must be integers, got {errors.describe(ids)}')
    if num_segments is None:   # the sorted segment_* forms: as many segments as the largest id
        num_segments = reduce_max(ids) + 1 if ids.shape.rank != 0 else ids + 1
    n = to_tensor(num_segments, name='num_segments', op=op)
    return x, ids, cast(n, ids.dtype)


def unsorted_segment_sum(data, segment_ids, num_segments, name=None):
    return apply_op(SEGMENT_SUM, _segment_args(data, segment_ids, num_segments,
                                               'unsorted_segment_sum'), None, name)


def unsorted_segment_prod(data, segment_ids, num_segments, name=None):
    """The product of the rows of each segment (1 for a segment no row names)."""
    return apply_op(SEGMENT_PROD, _segment_args(data, segment_ids, num_segments,
                                                'unsorted_segment_prod'), None, name)


def segment_prod(data, segment_ids, name=None):
    """unsorted_segment_prod with as many segments as the largest id + 1."""
    return apply_op(SEGMENT_PROD, _segment_args(data, segment_ids, None, 'segment_prod'), None,
                    name)


def unsorted_segment_max(data, segment_ids, num_segments, name=None):
    return apply_op(SEGMENT_MAX, _segment_args(data, segment_ids, num_segments,
                                               'unsorted_segment_max'), None, name)


def unsorted_segment_min(data, segment_ids, num_segments, name=None):
    return apply_op(SEGMENT_MIN, _segment_args(data, segment_ids, num_segments,
                                               'unsorted_segment_min'), None, name)


def unsorted_segment_mean(data, segment_ids, num_segments, name=None):
    x, ids, n = _segment_args(data, segment_ids, num_segments, 'unsorted_segment_mean')
    total = apply_op(SEGMENT_SUM, (x, ids, n))
    counts = apply_op(SEGMENT_SUM, (ones_like(cast(ids, x.dtype)), ids, n))
    for _ in range(total.shape.rank - counts.shape.rank):
        counts = expand_dims(counts, -1)
    return divide_no_nan(total, counts)


def segment_sum(data, segment_ids, name=None):
    return apply_op(SEGMENT_SUM, _segment_args(data, segment_ids, None, 'segment_sum'), None,
                    name)


def segment_max(data, segment_ids, name=None):
    validation.op_name(name)
    return _sorted_extremum(SEGMENT_MAX, data, segment_ids, 'segment_max')


def segment_min(data, segment_ids, name=None):
    validation.op_name(name)
    return _sorted_extremum(SEGMENT_MIN, data, segment_ids, 'segment_min')


def _sorted_extremum(opdef, data, segment_ids, op):
    """The sorted forms give 0 for a segment no row names (TF's SegmentMax/Min)."""
    x, ids, n = _segment_args(data, segment_ids, None, op)
    result = apply_op(opdef, (x, ids, n))
    counts = apply_op(SEGMENT_SUM, (ones_like(ids), ids, n))
    for _ in range(result.shape.rank - counts.shape.rank):
        counts = expand_dims(counts, -1)
    return where(counts > 0, result, zeros_like(result))


def segment_mean(data, segment_ids, name=None):
    validation.op_name(name)
    x, ids, n = _segment_args(data, segment_ids, None, 'segment_mean')
    return unsorted_segment_mean(x, ids, n)


# ---------------------------------------------------------------- in_top_k, bincount

def in_top_k(targets, predictions, k, name=None):
    """Whether each row's target class is among the row's k largest predictions (ties count)."""
    p = to_tensor(predictions, name='predictions', op='in_top_k')
    t = to_tensor(targets, name='targets', op='in_top_k')
    check_inputs('in_top_k', FLOAT, p)
    kth = top_k(p, k).values[:, -1]
    target_value = gather(p, t, batch_dims=1)
    return target_value >= kth


def _bincount_kernel(arr, weights, size, dtype):
    values = np.ravel(arr)
    if values.size and values.min() < 0:
        raise validation.invalid_argument(f'bincount: input arr must be non-negative, got '
                                          f'{int(values.min())}')
    w = None if np.size(weights) == 0 else np.ravel(weights)
    counts = np.bincount(values, weights=w, minlength=int(size))[:int(size)]
    return counts.astype(dtype.np_dtype)


BINCOUNT = define_op('Bincount', _bincount_kernel,
                     lambda arr, w, size, dtype: (dtype, (None,)), None)


def bincount(arr, weights=None, minlength=None, maxlength=None, dtype=dtypes.int32, name=None,
             axis=None, binary_output=False):
    """Counts of each value in the (non-negative integer) arr, optionally weighted."""
    if axis not in (None, 0) or binary_output:
        raise errors.UnimplementedError('bincount: axis=-1 and binary_output are not supported '
                                        'by defun')
    a = to_tensor(arr, name='arr', op='bincount')
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
    return apply_op(BINCOUNT, (a, w, size), {'dtype': out_dtype}, name)


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
