"""Array ops that create tensors: constant, zeros, ones, eye, range, linspace, and rank.

Each op is one `define_op` entry (kernel, inference, gradient) followed by its public function.
Joining and splitting (stack, concat, split, ...) live in array.py.
"""
import numpy as np

from defun.core import context, dtypes, error_helpers
from defun.core.dispatch import apply_op
from defun.ops.support import helpers as op_helpers
from defun.ops.support.helpers import dims, to_tensor
from defun.ops.framework.base_ops import broadcast_to, cast, fill, reduced_shape, reshape, shape
from defun.core.registry import define_op
from defun.core.tensor import EagerTensor, Tensor, constant_from_array
from defun.core.value_conversion import to_array
from defun.ops.support import lowerings, validation
from defun.ops.support.docs import documented
from defun.ops.math.logic import where

__all__ = ['constant', 'zeros', 'ones', 'eye', 'range', 'linspace', 'rank', 'newaxis']

newaxis = None


_SMALL = 1000  # TF's zeros/ones build a constant (not a Fill) below this many elements


def _shape_arg(shape_value, op):
    if isinstance(shape_value, Tensor):
        return shape_value
    if not context.executing_eagerly():
        small = _small_constant_shape(shape_value)
        if small is not None:
            return to_tensor(small, dtype=dtypes.int32, op=op)
    return to_tensor(shape_value, dtype=dtypes.int32, op=op)


def _small_constant_shape(value):
    """The dims TF's zeros/ones use while a graph is built for a small Python shape: they make a
    constant of that shape, whose dims go through int() (so [1.5, 2] is [1, 2]); None where TF
    falls back to converting the shape as int32 (large, negative, or not all numbers)."""
    if not isinstance(value, (list, tuple)) and not (isinstance(value, np.ndarray)
                                                     and value.ndim == 1):
        return None
    flat = list(value)
    if not all(isinstance(d, (int, float, np.integer, np.floating)) and abs(d) < _SMALL
               for d in flat):  # nan, huge ints and nested lists go TF's other way too
        return None
    dims = [int(d) for d in flat]
    if np.prod(flat) >= _SMALL or any(d < 0 for d in dims):
        return None
    return dims


@documented('creation', 'Creates a tensor with all elements set to zero.')
def zeros(shape, dtype=dtypes.float32, name=None):
    dtype = dtypes.as_dtype(dtype)
    zero = b'' if dtype is dtypes.string else dtype.as_numpy_dtype(0)  # TF's zero string
    return fill(_shape_arg(shape, 'zeros'), to_tensor(zero, dtype=dtype, op='zeros'),
                name or 'zeros')


@documented('creation', 'Creates a tensor with all elements set to one.')
def ones(shape, dtype=dtypes.float32, name=None):
    dtype = dtypes.as_dtype(dtype)
    one = 1 if dtype is dtypes.string else dtype.as_numpy_dtype(1)  # refused for strings, as TF
    return fill(_shape_arg(shape, 'ones'), to_tensor(one, dtype=dtype, op='ones'),
                name or 'ones')


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
        if shape is None and context.current_graph() is None:
            return value  # TF returns the eager tensor itself: a tape differentiates through it
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
    rows = _static_int(_eye_size(num_rows), 'eye', 'num_rows')
    cols = rows if num_columns is None else \
        _static_int(_eye_size(num_columns), 'eye', 'num_columns')
    if rows < 0 or cols < 0:
        raise validation.invalid_argument(f'eye: num_rows and num_columns must be non-negative, '
                                          f'got {rows} and {cols}')
    matrix = np.eye(rows, cols, dtype=dtype.np_dtype)
    if batch_shape is not None:
        batch = tuple(int(d) for d in np.reshape(_static_array(batch_shape, 'eye'), [-1]))
        matrix = np.broadcast_to(matrix, batch + matrix.shape).copy()
    return constant_from_array(matrix, name)


def _eye_size(value):
    """TF's eye packs a tensor size into an int32 shape list, which casts a float tensor
    (truncating, as Cast does) and refuses a bool, complex or string one as the shape ops' signature does."""
    if not isinstance(value, Tensor) or value.dtype.is_integer:
        return value
    if not value.dtype.is_floating:
        raise validation.dtype_mismatch(
            f"eye: Value for attr 'T' of {error_helpers.kernel_type_name(value.dtype)} is not in "
            f"the list of allowed values for the size (a number)")
    known = op_helpers.static_value(value)  # a constant's value now, as the int32 cast gives it
    return cast(value, dtypes.int32) if known is None else np.asarray(known).astype(np.int32)


def _static_array(value, op):
    known = op_helpers.static_value(value)
    if known is None:
        raise ValueError(f'{op}: {value!r} must be known while the graph is built (a Python value '
                         f'or a constant tensor)')
    return np.asarray(known)


def _static_int(value, op, arg):
    if validation.is_int(value):
        return validation.python_int(value, op, arg)  # TF's error for ints beyond int64
    known = _static_array(value, op)
    if known.ndim != 0:  # the shape function's (or kernel's) rank check
        raise validation.invalid_argument(f'{op}: `{arg}` must be a scalar, not shape '
                                          f'{list(known.shape)}')
    if known.dtype.kind not in 'iu':
        raise TypeError(f'{op}: `{arg}` must be an integer scalar, got {error_helpers.describe(value)}')
    return int(known)


# TF's order of the argument dtypes tf.range infers from (the widest wins)
_RANGE_DTYPES = (dtypes.int32, dtypes.int64, dtypes.float16, dtypes.bfloat16, dtypes.float32,
                 dtypes.float64)


def _range_check(start, limit, delta):
    """TF's Range checks (its kernel, and its shape function when the values are known)."""
    if delta == 0:
        raise validation.invalid_argument(f'Requires delta != 0: {delta} [Op:Range]')
    if (delta > 0 and start > limit) or (delta < 0 and start < limit):
        relation = '<=' if delta > 0 else '>='
        raise validation.invalid_argument(
            f'Requires start {relation} limit when delta {">" if delta > 0 else "<"} 0: '
            f'{start}/{limit} [Op:Range]')


def _range_kernel(start, limit, delta):
    _range_check(start, limit, delta)
    return np.arange(start, limit, delta, dtype=np.asarray(start).dtype)


def _range_infer(start, limit, delta):
    values = [op_helpers.static_value(t) for t in (start, limit, delta)]
    if any(v is None for v in values):
        return start.dtype, (None,)
    a, b, d = (v.item() for v in map(np.asarray, values))
    _range_check(a, b, d)  # a ValueError while a graph is built, as TF's shape function
    return start.dtype, (max(0, int(np.ceil((b - a) / d))),)


RANGE = define_op('Range', _range_kernel, _range_infer, None, lowering=lowerings.range_)


def range(start, limit=None, delta=1, dtype=None, name='range'):  # noqa: A001 - TF's name
    """tf.range: like Python's range, with TF's dtype inference (the widest of the arguments'),
    or all arguments cast to `dtype` (whose Range kernel TF may not have: int16, int8...)."""
    if limit is None:
        start, limit = 0, start
    if dtype is not None:
        dtype = dtypes.as_dtype(dtype)
    args = [v if isinstance(v, Tensor) else to_tensor(v, dtype=dtype, name=n, op='range')
            for v, n in zip((start, limit, delta), ('start', 'limit', 'delta'))]
    for t in args:
        if dtype is None and t.dtype not in _RANGE_DTYPES:
            raise TypeError(f'range: arguments must be int32, int64, float16, bfloat16, float32 or '
                            f'float64, got {error_helpers.describe(t)}')
        if t.shape.rank not in (0, None):
            raise validation.invalid_argument(f'range: arguments must be scalars, got '
                                              f'{error_helpers.describe(t)}')
    if dtype is None:
        dtype = max((t.dtype for t in args), key=_RANGE_DTYPES.index)
    args = [cast(t, dtype) for t in args]
    return apply_op(RANGE, tuple(args), None, name)


def _linspace_kernel(start, stop, num, axis=0):
    return np.linspace(start, stop, num, axis=axis, dtype=np.asarray(start).dtype)


def _linspace_infer(start, stop, num, axis=0):
    d = op_helpers.broadcast_dims(dims(start), dims(stop), 'linspace')
    return start.dtype, None if d is None else d[:axis] + (num,) + d[axis:]


def _linspace_grad(op, g):
    num, axis = op.get_attr('num'), op.get_attr('axis')
    # Each output is start * (1 - w) + stop * w, w = i / (num - 1) along `axis`.
    weights = (np.arange(num) / max(num - 1, 1)).reshape((num,) + (1,) * (g.shape.rank - axis - 1))
    w = constant(weights.astype(g.dtype.np_dtype))
    total = sum_axes(g * w, (axis,))
    return sum_axes(g, (axis,)) - total, total


def sum_axes(x, axes=None):
    """Sums over static `axes` (None: all) without keepdims: the gradient helper of linspace and
    tile, kept here so that the array tables never import math.py (which may import them)."""
    return apply_op(SUM_AXES, (x,), {'axes': axes})


def _sum_axes_grad(op, g):
    x = op.inputs[0]
    return broadcast_to(reshape(g, reduced_shape(x, op.get_attr('axes'))), shape(x))


SUM_AXES = define_op(
    'SumAxes', lambda x, axes: np.sum(x, axis=axes, dtype=x.dtype),
    lambda x, axes: (x.dtype, op_helpers.reduce_dims(dims(x), axes, False)), _sum_axes_grad,
    doc='Sum over static axes (None: all) without keepdims; a gradient helper.')

# TF's LinSpace kernels run float and double only, but tf.linspace is not that op: it composes
# range and arithmetic ops, which run half and bfloat16 too (with np.linspace's values).
LINSPACE = define_op('LinSpace', _linspace_kernel, _linspace_infer, _linspace_grad, cpu_kernels={})


def linspace(start, stop, num, name=None, axis=0):
    """`num` evenly spaced values from start to stop inclusive; start and stop of any (one
    broadcast) shape put the values along `axis` of the result, as TF's linspace_nd."""
    start = to_tensor(start, op='linspace')
    if not (start.dtype.is_floating or start.dtype.is_complex):
        start = cast(start, dtypes.float32 if start.dtype.size <= 4 else dtypes.float64)
    stop = stop if isinstance(stop, Tensor) else to_tensor(stop, dtype=start.dtype, op='linspace')
    op_helpers.binary_args(start, stop, 'linspace')
    start, stop = _same_shapes(start, stop)
    n = _static_int(num, 'linspace', 'num')
    if n < 0:
        raise validation.invalid_argument(f'linspace: Requires num > 0: {n}')
    rank = start.shape.rank
    if rank is None:
        if axis != 0:
            raise ValueError('linspace: start and stop need a known rank for an axis other than 0')
        rank = 0
    axis = validation.axis(axis, rank, 'linspace', extra=1)
    if start.dtype in _STEPWISE_LINSPACE and start.shape.is_fully_defined():
        return _linspace_steps(start, stop, n, axis)
    return apply_op(LINSPACE, (start, stop), {'num': n, 'axis': axis}, name)


# TF's linspace is a composition of ops (linspace_nd), so it runs half and bfloat16, which its
# LinSpace kernel does not: their values are those ops', each rounded to the type.
_STEPWISE_LINSPACE = (dtypes.float16, dtypes.bfloat16)


def _linspace_steps(start, stop, n, axis):
    """linspace_nd's ops: start + delta * k, delta = (stop - start) / (n - 1), the last value
    stop itself."""
    dtype, d = start.dtype, list(dims(start))
    ones = d[:axis] + [1] + d[axis:]
    along = [1] * len(ones)
    along[axis] = n
    start, stop = reshape(start, ones), reshape(stop, ones)
    delta = (stop - start) / cast(max(n - 1, 1), dtype)
    k = constant_from_array(np.arange(n).astype(dtype.np_dtype).reshape(along))
    values = start + delta * k
    if n < 2:
        return values
    last = constant_from_array((np.arange(n) == n - 1).reshape(along))
    return where(last, stop, values)


def _same_shapes(start, stop):
    """start and stop broadcast to one shape (the gradient of each is then the same shape)."""
    a, b = dims(start), dims(stop)
    if a == b or a is None or b is None:
        return start, stop
    both = op_helpers.broadcast_dims(a, b, 'linspace')
    if None in both:
        return start, stop
    return broadcast_to(start, list(both)), broadcast_to(stop, list(both))


RANK = define_op('Rank', lambda x: np.int32(np.ndim(x)), lambda x: (dtypes.int32, ()), None,
                 fold=lambda op: (np.int32(op.inputs[0].shape.rank)
                                  if op.inputs[0].shape.rank is not None else None))


def rank(input, name=None):
    """Returns the rank (number of dimensions) of a tensor as an int32 scalar.

    Args:
      input: A `Tensor`.
      name: A name for the operation (optional).
    """
    return apply_op(RANK, (to_tensor(input, op='rank'),), None, name)
