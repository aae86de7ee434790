"""Array ops that create tensors (constant, zeros, ones, eye, range, linspace, one_hot) or join and
split them (stack, unstack, concat, split), and the small shape queries (rank, size).

Each op is one `define_op` entry (kernel, inference, gradient) followed by its public function.
Reshaping ops (transpose, pad, tile, ...) live in transform.py, indexing in indexing.py and sorting in
sorting.py.
"""
import builtins

import numpy as np

from defun import dtypes, errors
from defun.dispatch import apply_op
from defun.ops import common
from defun.ops.common import dims, to_tensor
from defun.ops.core import (broadcast_to, cast, fill, identity, ones_like,  # noqa: F401
                            reduced_shape, reshape, shape, zeros_like)
from defun.registry import define_op
from defun.tensor import EagerTensor, Tensor, constant_from_array, install_packer, to_array

__all__ = ['constant', 'zeros', 'ones', 'eye', 'range', 'linspace', 'rank', 'stack', 'unstack',
           'concat', 'split', 'one_hot', 'size', 'newaxis']

newaxis = None


def _shape_arg(shape_value, op):
    if isinstance(shape_value, Tensor):
        return shape_value
    return to_tensor(shape_value, dtype=dtypes.int32, op=op)


def zeros(shape, dtype=dtypes.float32, name=None):
    dtype = dtypes.as_dtype(dtype)
    return fill(_shape_arg(shape, 'zeros'), to_tensor(dtype.as_numpy_dtype(0), op='zeros'), name)


def ones(shape, dtype=dtypes.float32, name=None):
    dtype = dtypes.as_dtype(dtype)
    return fill(_shape_arg(shape, 'ones'), to_tensor(dtype.as_numpy_dtype(1), op='ones'), name)


# ---------------------------------------------------------------- constant / eye / range / linspace

def constant(value, dtype=None, shape=None, name='Const'):
    """A constant tensor from a Python or numpy value, converted by TF's rules; with `shape`, a
    scalar is filled and a value of as many elements is reshaped."""
    if dtype is not None:
        dtype = dtypes.as_dtype(dtype)
    if isinstance(value, Tensor):
        if not isinstance(value, EagerTensor):
            raise TypeError(f'tf.constant needs a concrete value, got the symbolic tensor {value!r};'
                            f' use tf.identity or tf.convert_to_tensor instead.')
        if dtype is not None and value.dtype is not dtype:
            raise TypeError(f'Expected tensor {value!r} with dtype {dtype.name!r}, but got dtype '
                            f'{value.dtype.name!r}.')
        array = value.array
    elif not isinstance(value, (np.ndarray, np.generic, list, tuple, int, float, complex, bool,
                                str, bytes)) and hasattr(value, 'numpy'):
        array = to_array(value.numpy(), dtype)   # a Variable or other tensor-like value
    else:
        array = to_array(value, dtype)
    if shape is not None:
        array = _shaped_constant(array, value, shape)
    return constant_from_array(array, None if name == 'Const' else name)


def _shaped_constant(array, value, shape):
    target = tuple(int(d) for d in np.reshape(np.asarray(shape, dtype=np.int64), [-1]))
    count = int(np.prod(target))
    if array.size == 1:
        return np.full(target, np.reshape(array, []), dtype=array.dtype)
    if array.size == count:
        return np.reshape(array, target)
    raise TypeError(f'Eager execution of tf.constant with unsupported shape. Tensor {value!r} '
                    f'(converted from {type(value).__name__}) has {array.size} elements, but got '
                    f'`shape` {target} with {count} elements).')


def eye(num_rows, num_columns=None, batch_shape=None, dtype=dtypes.float32, name=None):
    """An identity matrix (or a batch of them) as a constant."""
    dtype = dtypes.as_dtype(dtype)
    rows = _static_int(num_rows, 'eye', 'num_rows')
    cols = rows if num_columns is None else _static_int(num_columns, 'eye', 'num_columns')
    if rows < 0 or cols < 0:
        raise errors.InvalidArgumentError(f'eye: num_rows and num_columns must be non-negative, '
                                          f'got {rows} and {cols}')
    matrix = np.eye(rows, cols, dtype=dtype.np_dtype)
    if batch_shape is not None:
        batch = tuple(int(d) for d in np.reshape(_static_array(batch_shape, 'eye'), [-1]))
        matrix = np.broadcast_to(matrix, batch + matrix.shape).copy()
    return constant_from_array(matrix, name)


def _static_array(value, op):
    known = common.static_value(value)
    if known is None:
        raise ValueError(f'{op}: {value!r} must be known while the graph is built (a Python value '
                         f'or a constant tensor)')
    return np.asarray(known)


def _static_int(value, op, arg):
    known = _static_array(value, op)
    if known.ndim != 0 or known.dtype.kind not in 'iu':
        raise TypeError(f'{op}: `{arg}` must be an integer scalar, got {value!r}')
    return int(known)


_RANGE_DTYPES = (dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64)


def _range_kernel(start, limit, delta):
    if delta == 0:
        raise errors.InvalidArgumentError(f'Requires delta != 0: {delta} [Op:Range]')
    if (delta > 0 and start > limit) or (delta < 0 and start < limit):
        relation = '<=' if delta > 0 else '>='
        raise errors.InvalidArgumentError(
            f'Requires start {relation} limit when delta {">" if delta > 0 else "<"} 0: '
            f'{start}/{limit} [Op:Range]')
    return np.arange(start, limit, delta, dtype=np.asarray(start).dtype)


def _range_infer(start, limit, delta):
    values = [common.static_value(t) for t in (start, limit, delta)]
    if any(v is None for v in values) or values[2] == 0:
        return start.dtype, (None,)
    a, b, d = (v.item() for v in map(np.asarray, values))
    return start.dtype, (max(0, int(np.ceil((b - a) / d))),)


RANGE = define_op('Range', _range_kernel, _range_infer, None)


def range(start, limit=None, delta=1, dtype=None, name='range'):  # noqa: A001 - TF's name
    """tf.range: like Python's range, with TF's dtype inference (the widest of the arguments')."""
    if limit is None:
        start, limit = 0, start
    if dtype is not None:
        dtype = dtypes.as_dtype(dtype)
    args = [v if isinstance(v, Tensor) else to_tensor(v, dtype=dtype, name=n, op='range')
            for v, n in zip((start, limit, delta), ('start', 'limit', 'delta'))]
    for t in args:
        if t.dtype not in _RANGE_DTYPES:
            raise TypeError(f'range: arguments must be int32, int64, float32 or float64, got '
                            f'{errors.describe(t)}')
        if t.shape.rank not in (0, None):
            raise errors.InvalidArgumentError(f'range: arguments must be scalars, got '
                                              f'{errors.describe(t)}')
    if dtype is None:
        dtype = max((t.dtype for t in args), key=_RANGE_DTYPES.index)
    args = [cast(t, dtype) for t in args]
    return apply_op(RANGE, tuple(args), None, None if name == 'range' else name)


def _linspace_kernel(start, stop, num):
    return np.linspace(start, stop, num, dtype=np.asarray(start).dtype)


def _linspace_grad(op, g):
    num = op.get_attr('num')
    weights = np.arange(num) / max(num - 1, 1)
    w = constant(weights.astype(g.dtype.np_dtype))
    total = sum_axes(g * w)
    return sum_axes(g) - total, total


def sum_axes(x, axes=None):
    """Sums over static `axes` (None: all) without keepdims: the gradient helper of linspace and
    tile, kept here so that the array tables never import math.py (which may import them)."""
    return apply_op(SUM_AXES, (x,), {'axes': axes})


def _sum_axes_grad(op, g):
    x = op.inputs[0]
    return broadcast_to(reshape(g, reduced_shape(x, op.get_attr('axes'))), shape(x))


SUM_AXES = define_op(
    'SumAxes', lambda x, axes: np.sum(x, axis=axes, dtype=x.dtype),
    lambda x, axes: (x.dtype, common.reduce_dims(dims(x), axes, False)), _sum_axes_grad,
    doc='Sum over static axes (None: all) without keepdims; a gradient helper.')

LINSPACE = define_op('LinSpace', _linspace_kernel,
                     lambda start, stop, num: (start.dtype, (num,)), _linspace_grad)


def linspace(start, stop, num, name=None, axis=0):
    """`num` evenly spaced values from start to stop inclusive (scalar start and stop)."""
    start = to_tensor(start, op='linspace')
    if not (start.dtype.is_floating or start.dtype.is_complex):
        start = cast(start, dtypes.float32 if start.dtype.size <= 4 else dtypes.float64)
    stop = stop if isinstance(stop, Tensor) else to_tensor(stop, dtype=start.dtype, op='linspace')
    common.binary_args(start, stop, 'linspace')
    if start.shape.rank not in (0, None) or stop.shape.rank not in (0, None):
        raise errors.InvalidArgumentError(f'linspace: start and stop must be scalars here, got '
                                          f'{errors.describe(start)} and {errors.describe(stop)}')
    n = _static_int(num, 'linspace', 'num')
    if n < 0:
        raise errors.InvalidArgumentError(f'linspace: Requires num > 0: {n}')
    return apply_op(LINSPACE, (start, stop), {'num': n}, name)


RANK = define_op('Rank', lambda x: np.int32(np.ndim(x)), lambda x: (dtypes.int32, ()), None)


def rank(input, name=None):
    return apply_op(RANK, (to_tensor(input, op='rank'),), None, name)


# ---------------------------------------------------------------- stack / unstack / concat

def _stack_infer(*xs, axis):
    shape = dims(xs[0])
    for x in xs[1:]:
        other = dims(x)
        if shape is None or other is None:
            shape = shape or other
            continue
        if len(shape) != len(other) or any(a is not None and b is not None and a != b
                                           for a, b in zip(shape, other)):
            raise common.shape_error('stack', f'Shapes of all inputs must match: values[0].shape = '
                                     f'{list(dims(xs[0]))} != values[i].shape = {list(other)}')
        shape = tuple(a if a is not None else b for a, b in zip(shape, other))
    if shape is None:
        return xs[0].dtype, None
    a = axis % (len(shape) + 1)
    return xs[0].dtype, shape[:a] + (len(xs),) + shape[a:]


STACK = define_op('Pack', lambda *xs, axis: np.stack(xs, axis=axis), _stack_infer,
                  lambda op, g: unstack(g, num=len(op.inputs), axis=op.get_attr('axis')))


def stack(values, axis=0, name='stack'):
    tensors = common.same_dtype_args(list(values), 'stack')
    rank = tensors[0].shape.rank
    if rank is not None and not -(rank + 1) <= axis <= rank:
        raise common.shape_error('stack', f'axis {axis} out of range for stacking rank-{rank} '
                                 f'tensors (expected in [{-(rank + 1)}, {rank}])')
    return apply_op(STACK, tuple(tensors), {'axis': int(axis)}, None)


def _unstack_kernel(x, num, axis):
    return tuple(np.take(x, i, axis=axis) for i in builtins.range(num))


def _unstack_infer(x, num, axis):
    d = dims(x)
    part = None if d is None else d[:axis % len(d)] + d[axis % len(d) + 1:]
    return [(x.dtype, part)] * num


def _unstack_grad(op, *grads):
    filled = [g if g is not None else zeros_like(o) for g, o in zip(grads, op.outputs)]
    return stack(filled, axis=op.get_attr('axis'))


UNSTACK = define_op('Unpack', _unstack_kernel, _unstack_infer, _unstack_grad, num_outputs=None)


def unstack(value, num=None, axis=0, name='unstack'):
    x = to_tensor(value, op='unstack')
    d = dims(x)
    if d is None:
        raise ValueError('unstack: cannot infer num from a tensor of unknown rank')
    if not -len(d) <= axis < len(d):
        raise common.shape_error('unstack', f'axis {axis} out of range for rank {len(d)}')
    axis = axis % len(d)
    if num is None:
        num = d[axis]
        if num is None:
            raise ValueError(f'Cannot infer argument `num` from shape {list(d)}')
    return list(apply_op(UNSTACK, (x,), {'num': int(num), 'axis': axis}, None))


def _concat_infer(*xs, axis):
    known = [dims(x) for x in xs if dims(x) is not None]
    if not known:
        return xs[0].dtype, None
    rank = len(known[0])
    a = axis % rank
    total = 0
    for d in known:
        if len(d) != rank:
            raise common.shape_error('concat', f'Ranks of all input tensors should match: '
                                     f'{[list(k) for k in known]}')
        total = None if total is None or d[a] is None else total + d[a]
    if len(known) != len(xs):
        total = None
    result = list(known[0])
    result[a] = total
    for i in builtins.range(rank):
        if i != a:
            for d in known:
                if result[i] is None:
                    result[i] = d[i]
                elif d[i] is not None and d[i] != result[i]:
                    raise common.shape_error(
                        'concat', f'Dimension {i} in both shapes must be equal: shapes '
                        f'{[list(k) for k in known]}')
    return xs[0].dtype, tuple(result)


def _concat_grad(op, g):
    axis = op.get_attr('axis')
    sizes = [x.shape[axis % x.shape.rank] if x.shape.rank else None for x in op.inputs]
    if any(s is None for s in sizes):
        sizes = [shape(x)[axis] for x in op.inputs]
    return list(split(g, sizes, axis=axis))


CONCAT = define_op('ConcatV2', lambda *xs, axis: np.concatenate(xs, axis=axis), _concat_infer,
                   _concat_grad)


def concat(values, axis, name='concat'):
    tensors = common.same_dtype_args(list(values), 'concat')
    if len(tensors) == 1:
        return identity(tensors[0])
    rank = tensors[0].shape.rank
    axis = int(axis)
    if rank is not None and not -rank <= axis < rank:
        raise common.shape_error('concat', f'axis {axis} out of range for rank-{rank} inputs')
    if rank is not None:
        axis %= rank
    return apply_op(CONCAT, tuple(tensors), {'axis': axis}, None)


def _resolve_sizes(sizes, total):
    """Split sizes with TF's one -1 entry (the rest of the dimension) filled in when `total` is known."""
    if -1 in sizes and total is not None and None not in sizes:
        sizes = list(sizes)
        sizes[sizes.index(-1)] = total - (sum(sizes) + 1)
    return sizes


def _split_kernel(x, *sizes, axis, num):
    if sizes:
        sizes = _resolve_sizes([int(s) for s in sizes], np.shape(x)[axis])
        bounds = np.cumsum(sizes)[:-1]
        return tuple(np.split(x, bounds, axis=axis))
    return tuple(np.split(x, num, axis=axis))


def _split_infer(x, *sizes, axis, num):
    d = dims(x)
    if d is None:
        return [(x.dtype, None)] * num
    a = axis % len(d)
    static = _resolve_sizes([None if v is None else int(v) for v in map(
        common.static_value, sizes)], d[a]) if sizes else None
    parts = []
    for i in builtins.range(num):
        size = static[i] if sizes else (None if d[a] is None else d[a] // num)
        if size == -1:
            size = None
        part = list(d)
        part[a] = None if size is None else int(size)
        parts.append((x.dtype, tuple(part)))
    return parts


SPLIT = define_op('Split', _split_kernel, _split_infer,
                  lambda op, *gs: [concat([g if g is not None else zeros_like(o)
                                           for g, o in zip(gs, op.outputs)],
                                          axis=op.get_attr('axis'))]
                  + [None] * (len(op.inputs) - 1),
                  num_outputs=None)


def split(value, num_or_size_splits, axis=0, num=None, name='split'):
    x = to_tensor(value, op='split')
    if isinstance(num_or_size_splits, (int, np.integer)):
        n = int(num_or_size_splits)
        size = x.shape[axis]
        if size is not None and size % n:
            raise common.shape_error('split', f'Number of ways to split should evenly divide the '
                                     f'split dimension, but got split_dim {size} and num_split {n}')
        return list(apply_op(SPLIT, (x,), {'axis': int(axis), 'num': n}, None))
    sizes = [s if isinstance(s, Tensor) else to_tensor(int(s), op='split')
             for s in num_or_size_splits]
    return list(apply_op(SPLIT, (x, *sizes), {'axis': int(axis), 'num': len(sizes)}, None))


# ---------------------------------------------------------------- one_hot / size

def _one_hot_kernel(indices, depth, on_value, off_value, axis, dtype):
    idx = np.asarray(indices)
    eye = np.arange(depth) == idx[..., None]
    result = np.where(eye, on_value, off_value).astype(dtype.np_dtype)
    return np.moveaxis(result, -1, axis) if axis != -1 else result


def _one_hot_infer(indices, depth, on_value, off_value, axis, dtype):
    d = dims(indices)
    if d is None:
        return dtype, None
    a = len(d) if axis == -1 else axis
    return dtype, d[:a] + (depth,) + d[a:]


ONE_HOT = define_op('OneHot', _one_hot_kernel, _one_hot_infer, None)


def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    idx = to_tensor(indices, op='one_hot')
    if dtype is None:
        dtype = (to_tensor(on_value).dtype if on_value is not None else dtypes.float32)
    dtype = dtypes.as_dtype(dtype)
    attrs = {'depth': int(depth), 'on_value': 1 if on_value is None else _scalar(on_value),
             'off_value': 0 if off_value is None else _scalar(off_value),
             'axis': -1 if axis is None else int(axis), 'dtype': dtype}
    return apply_op(ONE_HOT, (idx,), attrs, name)


def _scalar(value):
    return value.numpy() if hasattr(value, 'numpy') else value


SIZE = define_op('Size', lambda x, out_type: np.asarray(np.size(x), dtype=out_type.np_dtype),
                 lambda x, out_type: (out_type, ()), None)


def size(input, out_type=dtypes.int32, name=None):
    return apply_op(SIZE, (to_tensor(input, op='size'),), {'out_type': dtypes.as_dtype(out_type)},
                    name)


def _pack_list(values, dtype):
    """Converts a (nested) list holding tensors by stacking, as TF's auto-packing does."""
    items = [_pack_list(v, dtype) if isinstance(v, (list, tuple)) else v for v in values]
    return stack(common.same_dtype_args(items, 'convert_to_tensor', dtype))


install_packer(_pack_list)
