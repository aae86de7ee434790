"""More array ops: roll, repeat, unique, searchsorted, ensure_shape, identity_n and the
broadcast_static_shape / broadcast_dynamic_shape helpers.

roll's gradient is the opposite roll; repeat is a gather of repeated indices (computed by an
integer op of its own), so its gradient is gather's; unique and searchsorted return integers and
are not differentiable in TF (unique's values are, as a gather of the input).
"""
import collections

import numpy as np

from defun.core import context, dtypes, error_helpers, errors
from defun.core.dispatch import apply_op
from defun.ops.support import validation
from defun.ops.math.arithmetic import maximum, minimum
from defun.ops.framework.base_ops import cast, identity, reshape, shape
from defun.ops.array.gathering import gather, gather_nd
from defun.ops.support.helpers import broadcast_dims, dims, static_value, to_tensor
from defun.core.registry import define_op
from defun.core.shapes import TensorShape
from defun.core.tensor import Tensor

__all__ = ['roll', 'repeat', 'unique', 'searchsorted', 'ensure_shape', 'identity_n',
           'broadcast_static_shape', 'broadcast_dynamic_shape', 'shape_n', 'saturate_cast',
           'unravel_index', 'histogram_fixed_width', 'no_op', 'group']
# tuple_ is tf.tuple (named so here to leave Python's tuple alone in this module).

Unique = collections.namedtuple('Unique', ['y', 'idx'])


def _roll_kernel(x, shift, axis):
    shifts = np.ravel(shift).tolist()
    axes = np.ravel(axis).tolist()
    if len(shifts) != len(axes):
        raise validation.invalid_argument(f'roll: shift and axis must have the same size, got '
                                          f'{shifts} and {axes}')
    if any(not -x.ndim <= a < x.ndim for a in axes):
        raise validation.invalid_argument(f'roll: axis {axes} is out of range for a tensor of '
                                          f'rank {x.ndim}')
    return np.roll(x, shifts, axes)


ROLL = define_op('Roll', _roll_kernel, lambda x, s, a: (x.dtype, dims(x)),
                 lambda op, g: (apply_op(ROLL, (g, -op.inputs[1], op.inputs[2])), None, None))


def roll(input, shift, axis, name=None):
    """Elements shifted along `axis` (wrapping around); shift and axis may be lists."""
    x = to_tensor(input, name='input', op='roll')
    s = to_tensor(shift, name='shift', op='roll')
    a = to_tensor(axis, name='axis', op='roll')
    validation.int_input(s, 'roll', 'shift', 'Tshift')  # Roll's typed inputs (no default)
    validation.int_input(a, 'roll', 'axis', 'Taxis')
    for arg, t in (('shift', s), ('axis', a)):
        if t.shape.rank is not None and t.shape.rank > 1:
            raise validation.invalid_argument(
                f'roll: {arg} must be a scalar or a 1-D vector. Found: '
                f'[{",".join(str(d) for d in t.shape.as_list())}]')
    return apply_op(ROLL, (x, s, a), None, name)


def _repeat_indices_kernel(n, repeats):
    counts = np.broadcast_to(np.asarray(repeats).ravel(), (int(n),))
    if (counts < 0).any():
        raise validation.invalid_argument(f'repeat: repeats must be non-negative, got '
                                          f'{counts.tolist()}')
    return np.repeat(np.arange(int(n), dtype=np.int64), counts)


REPEAT_INDICES = define_op('RepeatIndices', _repeat_indices_kernel,
                           lambda n, r: (dtypes.int64, (None,)), None)


def repeat(input, repeats, axis=None, name=None):
    """Each element (along `axis`; flattened when None) repeated `repeats` times."""
    validation.op_name(name)
    x = to_tensor(input, name='input', op='repeat')
    if axis is None:
        x, axis = reshape(x, [-1]), 0
    rank = x.shape.rank
    if rank is None:
        raise ValueError('repeat: the rank of input must be known')
    if isinstance(axis, (bool, np.bool_)):  # the strided slice it indexes refuses a bool
        raise validation.dtype_mismatch(f'repeat: `axis` must be an int, got {axis!r}')
    if isinstance(axis, Tensor) and axis.shape.rank or isinstance(axis, (float, np.floating)):
        raise TypeError(f'repeat: Argument `axis` must be an int. Received `axis` = '
                        f'{error_helpers.describe(axis)}')
    axis = validation.axis(axis, rank, 'repeat')
    r = to_tensor(repeats, name='repeats', op='repeat')
    if not r.dtype.is_integer:
        raise TypeError(f'repeat: Argument `tensor` (name: repeats) must be of type integer. '
                        f'Received {error_helpers.describe(r)}')
    n, rd = x.shape[axis], r.shape.as_tuple()
    if rd is not None and len(rd) > 1 or rd and None not in (n, rd[0]) and rd[0] not in (1, n):
        raise ValueError(f'repeat: `repeats` {error_helpers.describe(r)} does not match dimension '
                         f'{axis} of {error_helpers.describe(x)}: Dimensions {n} and {rd[0]} are not '
                         f'compatible')
    indices = apply_op(REPEAT_INDICES, (shape(x, out_type=dtypes.int64)[axis], r))
    if axis == 0:  # through gather_nd: a dense gradient, as TF's repeat has
        return gather_nd(x, reshape(indices, [-1, 1]))
    return gather(x, indices, axis=axis)


def _unique_kernel(x, out_idx):
    if x.ndim != 1:
        raise validation.invalid_argument(f'unique: input must be a vector, got shape '
                                          f'{list(x.shape)}')
    # equal_nan=False: TF keeps every NaN apart (NaN equals nothing, not even NaN)
    values, first, inverse = np.unique(x, return_index=True, return_inverse=True, equal_nan=False)
    order = np.argsort(first, kind='stable')   # TF keeps the order of first appearance
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    return values[order], rank[inverse].astype(out_idx.np_dtype)


UNIQUE = define_op('Unique', _unique_kernel,
                   lambda x, out_idx: [(x.dtype, (None,)), (out_idx, dims(x))], None,
                   num_outputs=2)


def unique(x, out_idx=dtypes.int32, name=None):
    """(y, idx): the distinct values of a vector in order of first appearance, and for each
    element the index of its value in y."""
    t = to_tensor(x, name='x', op='unique')
    return Unique(*apply_op(UNIQUE, (t,), {'out_idx': dtypes.as_dtype(out_idx)}, name))


def _searchsorted_kernel(sorted_sequence, values, side, out_type):
    if sorted_sequence.ndim != values.ndim or sorted_sequence.shape[:-1] != values.shape[:-1]:
        raise validation.invalid_argument(
            f'searchsorted: sorted_sequence {list(sorted_sequence.shape)} and values '
            f'{list(values.shape)} must agree in all but the innermost dimension')
    rows = int(np.prod(values.shape[:-1]))   # explicit: -1 cannot be inferred when empty
    flat_s = sorted_sequence.reshape(rows, sorted_sequence.shape[-1])
    flat_v = values.reshape(rows, values.shape[-1])
    result = np.empty(flat_v.shape, dtype=out_type.np_dtype)
    for i, (s, v) in enumerate(zip(flat_s, flat_v)):
        result[i] = np.searchsorted(s, v, side=side)
    return result.reshape(values.shape)


SEARCHSORTED = define_op('SearchSorted', _searchsorted_kernel,
                         lambda s, v, side, out_type: (out_type, dims(v)), None)


def searchsorted(sorted_sequence, values, side='left', out_type=dtypes.int32, name=None):
    """Insertion indices of `values` in each innermost row of `sorted_sequence`."""
    if side not in ('left', 'right'):
        raise ValueError(f"searchsorted: side must be 'left' or 'right', got {side!r}")
    s, v = (to_tensor(a, name=n, op='searchsorted') for a, n in
            ((sorted_sequence, 'sorted_sequence'), (values, 'values')))
    return apply_op(SEARCHSORTED, (s, v), {'side': side, 'out_type': dtypes.as_dtype(out_type)},
                    name)


def _ensure_kernel(x, shape):
    if not shape.is_compatible_with(np.shape(x)):
        raise validation.invalid_argument(f'Shape of tensor x {list(np.shape(x))} is not '
                                          f'compatible with expected shape {shape}.')
    return x


def _ensure_infer(x, shape):
    known = x.shape
    if not known.is_compatible_with(shape):
        raise ValueError(f'Shape of tensor x {known} is not compatible with expected shape '
                         f'{shape}.')
    return x.dtype, known.merge_with(shape).as_tuple()


ENSURE_SHAPE = define_op('EnsureShape', _ensure_kernel, _ensure_infer, lambda op, g: g)


def ensure_shape(x, shape, name=None):
    """x, checked (at run time too) to have a shape compatible with `shape`; graphs learn it."""
    t = to_tensor(x, name='x', op='ensure_shape')
    return apply_op(ENSURE_SHAPE, (t,), {'shape': TensorShape(shape)}, name)


def identity_n(input, name=None):
    """identity of each tensor of a list."""
    validation.op_name(name)
    return [identity(t) for t in input]


def broadcast_static_shape(shape_x, shape_y):
    """The TensorShape two static shapes broadcast to."""
    x, y = TensorShape(shape_x), TensorShape(shape_y)
    try:
        return TensorShape(broadcast_dims(x.as_tuple(), y.as_tuple(), 'broadcast_static_shape'))
    except errors.InvalidArgumentError:
        raise ValueError(f'Incompatible shapes for broadcasting. Two shapes are compatible if for '
                         f'each dimension pair they are either equal or one of them is 1. '
                         f'Received: {x} and {y}.') from None


def broadcast_dynamic_shape(shape_x, shape_y):
    """The shape (an int tensor) two shape tensors broadcast to."""
    x = to_tensor(shape_x, name='shape_x', op='broadcast_dynamic_shape')
    y = to_tensor(shape_y, name='shape_y', op='broadcast_dynamic_shape')
    known_x, known_y = static_value(x), static_value(y)
    if known_x is None or known_y is None or isinstance(known_x, Tensor):
        raise ValueError('broadcast_dynamic_shape: the shapes must be known while the graph is '
                         'built')
    try:
        result = np.broadcast_shapes(tuple(int(d) for d in known_x),
                                     tuple(int(d) for d in known_y))
    except ValueError:
        raise validation.invalid_argument(
            f'Incompatible shapes: {[int(d) for d in known_x]} vs. {[int(d) for d in known_y]}'
        ) from None
    return to_tensor(np.asarray(result, dtype=x.dtype.np_dtype))


def shape_n(input, out_type=dtypes.int32, name=None):
    """The shape of each tensor of a list."""
    validation.op_name(name)
    return [shape(t, out_type=out_type) for t in validation.tensor_list(input, "shape_n", "input")]


def saturate_cast(value, dtype, name=None):
    """cast, with values first clamped to the range of the target dtype."""
    validation.op_name(name)
    x = to_tensor(value, name='value', op='saturate_cast')
    dtype = dtypes.as_dtype(dtype)
    if x.dtype.is_integer or x.dtype.is_floating:
        info = np.iinfo(dtype.np_dtype) if dtype.is_integer else np.finfo(dtype.np_dtype)
        source = np.finfo(x.dtype.np_dtype) if x.dtype.is_floating else np.iinfo(x.dtype.np_dtype)
        if info.min > source.min:
            x = maximum(x, to_tensor(np.asarray(info.min).astype(x.dtype.np_dtype)))
        if info.max < source.max:
            x = minimum(x, to_tensor(np.asarray(info.max).astype(x.dtype.np_dtype)))
    return cast(x, dtype)


def _unravel_kernel(indices, dims):
    if np.any(np.asarray(indices) >= np.prod(dims)) or np.any(np.asarray(indices) < 0):
        raise validation.invalid_argument(f'unravel_index: an index of {np.asarray(indices)} is '
                                          f'out of range for dims {list(np.ravel(dims))}')
    return np.stack(np.unravel_index(indices, tuple(int(d) for d in dims))).astype(indices.dtype)


UNRAVEL_INDEX = define_op(
    'UnravelIndex', _unravel_kernel,
    lambda i, d: (i.dtype, (dims(d)[0] if dims(d) else None,) + (dims(i) or ())), None)


def unravel_index(indices, dims, name=None):
    """The coordinates of flat indices in an array of shape `dims` ([len(dims), ...])."""
    i = to_tensor(indices, name='indices', op='unravel_index')
    d = to_tensor(dims, dtype=i.dtype, name='dims', op='unravel_index')
    return apply_op(UNRAVEL_INDEX, (i, d), None, name)


def _histogram_kernel(values, value_range, nbins, dtype):
    lo, hi = (float(v) for v in value_range)
    n = int(nbins)
    scaled = (np.ravel(values).astype(np.float64) - lo) / (hi - lo) * n
    bins = np.clip(np.floor(scaled), 0, n - 1).astype(np.int64)   # outside: the edge bins
    return np.bincount(bins, minlength=n).astype(dtype.np_dtype)


HISTOGRAM = define_op('HistogramFixedWidth', _histogram_kernel,
                      lambda v, r, n, dtype: (dtype, (op_static_int(n),)), None)


def op_static_int(t):
    value = static_value(t)
    return None if value is None else int(value)


def histogram_fixed_width(values, value_range, nbins=100, dtype=dtypes.int32, name=None):
    """Counts of values in nbins equal-width bins over value_range (outliers in the edge bins)."""
    v = to_tensor(values, name='values', op='histogram_fixed_width')
    r = to_tensor(value_range, dtype=v.dtype, name='value_range', op='histogram_fixed_width')
    n = to_tensor(nbins, dtype=dtypes.int32, name='nbins', op='histogram_fixed_width')
    return apply_op(HISTOGRAM, (v, r, n), {'dtype': dtypes.as_dtype(dtype)}, name)


NO_OP = define_op('NoOp', lambda: (), lambda: [], None, num_outputs=0, stateful=True)


def no_op(name=None):
    """Does nothing; in a graph, an op to hang control dependencies on (None eagerly, as TF)."""
    if context.executing_eagerly():
        return None
    return apply_op(NO_OP, (), None, name)


def group(*inputs, name=None):
    """One op that runs after all of `inputs` (None eagerly, where they already ran)."""
    if context.executing_eagerly():
        return None
    with context.control_dependencies([t for t in inputs if t is not None]):
        return no_op(name)


def tuple_(tensors, name=None, control_inputs=None):
    """The tensors, each available only once all of them (and control_inputs) are computed."""
    validation.op_name(name)
    if context.executing_eagerly():
        return list(tensors)
    gate = [t for t in tensors if t is not None] + list(control_inputs or [])
    with context.control_dependencies(gate):
        return [None if t is None else identity(t) for t in tensors]
