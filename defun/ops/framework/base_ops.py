"""The ops every other table's gradients need: identity, cast, shape, reshape, broadcast_to,
zeros_like/ones_like/fill and sum_to (summing a broadcast gradient back to an input's shape).

They sit below math.py and array.py so that those tables can use them in gradients without importing
each other. Ops whose output is a shape or an integer are not differentiable.
"""
import math

import numpy as np

from defun.core import dtypes, error_helpers, errors, low_precision
from defun.core.composite import CompositeTensor
from defun.core.dispatch import apply_op
from defun.ops.support import helpers as op_helpers, lowerings
from defun.ops.support.helpers import dims, same_as_first, to_tensor
from defun.core.registry import define_op
from defun.ops.support import validation
from defun.ops.support.docs import documented

__all__ = ['identity', 'cast', 'shape', 'reshape', 'broadcast_to', 'zeros_like', 'ones_like',
           'fill', 'sum_to', 'reduced_shape', 'static_or_tensor_shape']


IDENTITY = define_op('Identity', lambda x: x, same_as_first, lambda op, g: g, is_identity=True,
                     takes_indexed_slices=True)


def identity(input, name=None):
    """Returns a tensor with the same shape and contents as `input`.

    Args:
      input: A `Tensor`.
      name: A name for the operation (optional).
    """
    return apply_op(IDENTITY, (to_tensor(input, op='identity'),), None, name)


def _cast_kernel(x, dtype):
    if dtype is dtypes.string or np.asarray(x).dtype.kind == 'O':
        # TF's Cast has no string conversions (tf.strings.to_number / as_string do that).
        source = 'string' if np.asarray(x).dtype.kind == 'O' else dtypes.from_numpy(x.dtype)
        raise errors.UnimplementedError(f'Cast {error_helpers.kernel_type_name(source)} to '
                                        f'{error_helpers.kernel_type_name(dtype)} is not supported [Op:Cast]')
    return np.asarray(x).astype(dtype.np_dtype) if np.ndim(x) else dtype.as_numpy_dtype(x)


_FLOAT8 = (dtypes.float8_e4m3fn, dtypes.float8_e5m2)
_INT4 = (dtypes.int4, dtypes.uint4)


def _check_low_precision_cast(src, dst):
    """TF's Cast kernel casts float8 only from floating point types and int4 only from and to
    integers: another pair is its UnimplementedError."""
    refused = (dst in _FLOAT8 and not src.is_floating) or \
        (dst in _INT4 and not src.is_integer) or (src in _INT4 and not dst.is_integer)
    if refused:
        raise errors.UnimplementedError(f'Cast {error_helpers.kernel_type_name(src)} to '
                                        f'{error_helpers.kernel_type_name(dst)} is not supported '
                                        f'[Op:Cast]')


def _cast_infer(x, dtype):
    return dtype, dims(x)


def _cast_grad(op, g):
    src = op.inputs[0].dtype
    if not src.is_differentiable or not op.get_attr('dtype').is_differentiable:
        return None
    return cast(g, src)


CAST = define_op('Cast', _cast_kernel, _cast_infer, _cast_grad, lowering=lowerings.cast,
                 partial_fold=lambda op, partial: (partial(op.inputs[0])
                                                   if op.outputs[0].dtype.is_integer else None))


def cast(x, dtype, name=None):
    """Casts to `dtype`; float to int truncates toward zero, as TF does.

    A SparseTensor, IndexedSlices or RaggedTensor is cast value by value and keeps its structure,
    as in TF."""
    if isinstance(x, CompositeTensor):
        if hasattr(x, 'with_flat_values'):
            return x.with_flat_values(cast(x.flat_values, dtype, name))
        if hasattr(x, 'with_values'):
            return x.with_values(cast(x.values, dtype, name))
    x = to_tensor(x, op='cast')
    dtype = dtypes.as_dtype(dtype)
    if x.dtype is dtype:
        return x
    if dtype in low_precision.LOW_TYPES or x.dtype in low_precision.LOW_TYPES:
        _check_low_precision_cast(x.dtype, dtype)
    return apply_op(CAST, (x,), {'dtype': dtype}, name)


def _shape_kernel(x, out_type):
    return np.asarray(np.shape(x), dtype=out_type.np_dtype)


def _shape_infer(x, out_type):
    d = dims(x)
    return out_type, (None if d is None else (len(d),))


def _shape_fold(op):
    x = op.inputs[0]
    return (np.asarray(x.shape.as_list(), dtype=op.get_attr('out_type').np_dtype)
            if x.shape.is_fully_defined() else None)


SHAPE = define_op('Shape', _shape_kernel, _shape_infer, None, fold=_shape_fold,
                  lowering=lowerings.shape,
                  partial_fold=lambda op, partial: (None if dims(op.inputs[0]) is None
                                                    else list(dims(op.inputs[0]))))


def shape(input, out_type=dtypes.int32, name=None):
    """The dynamic shape of `input` as a 1-D int tensor."""
    x = to_tensor(input, op='shape')
    return apply_op(SHAPE, (x,), {'out_type': dtypes.as_dtype(out_type)}, name)


def static_or_tensor_shape(x):
    """x's shape as a Python list when fully known, else as a shape tensor."""
    d = dims(x)
    if d is not None and None not in d:
        return list(d)
    return shape(x)


def reshape_target(size, target):
    """TF's Reshape kernel rule: `target` (ints) for a tensor of `size` elements, its -1 resolved;
    a bad target is InvalidArgumentError with TF's text (the kernel checks it at run time)."""
    unknown = []
    known = 1
    for i, d in enumerate(target):
        if d == -1:
            unknown.append(i)
        elif d < 0:
            raise errors.InvalidArgumentError(f'Size {i} must be non-negative, not {d}')
        else:
            known *= d
    if len(unknown) > 1:
        raise errors.InvalidArgumentError(f'Only one input size may be -1, not both '
                                          f'{unknown[0]} and {unknown[1]}')
    if unknown and known and size % known == 0:
        return [size // known if d == -1 else d for d in target]
    if unknown and known:
        raise errors.InvalidArgumentError(f'Input to reshape is a tensor with {size} values, but '
                                          f'the requested shape requires a multiple of {known}')
    if known != size or unknown and size:
        raise errors.InvalidArgumentError(f'Input to reshape is a tensor with {size} values, but '
                                          f'the requested shape has {known}')
    return [0 if d == -1 else d for d in target]


def _reshape_kernel(x, shape):
    if shape.size and shape.min() < -1:  # numpy would read any negative size as -1
        reshape_target(x.size, shape.ravel().tolist())
    try:
        return np.reshape(x, shape)
    except ValueError:
        return np.reshape(x, reshape_target(x.size, np.ravel(shape).tolist()))


def _reshape_infer(x, shape):
    target = op_helpers.shape_arg_dims(shape)
    if target is None:
        return x.dtype, None
    target = list(target)
    bad = [d for d in target if d is not None and d < -1]
    if bad:
        raise op_helpers.shape_error('reshape', f'Invalid value in tensor used for shape: '
                                                f'{bad[0]}')
    if target.count(-1) > 1:  # TF's shape function leaves this to the kernel
        return x.dtype, tuple(None if d == -1 else d for d in target)
    xd = dims(x)
    if None in target:  # partly known: one unknown entry follows from a known element count
        if target.count(None) == 1 and -1 not in target:
            target = [-1 if d is None else d for d in target]
        else:
            return x.dtype, tuple(None if d == -1 else d for d in target)
    if -1 in target:
        rest = int(np.prod([d for d in target if d != -1]))
        if xd is not None and None not in xd:
            total = int(np.prod(xd))
            if rest == 0 and total == 0:  # TF leaves that size to the kernel
                return x.dtype, tuple(None if d == -1 else d for d in target)
            if rest == 0 or total % rest:
                raise op_helpers.shape_error('reshape', f'Cannot reshape a tensor with {total} '
                                                        f'elements to shape {target}')
            target = [total // rest if d == -1 else d for d in target]
        else:
            target = [None if d == -1 else d for d in target]
    elif xd is not None and None not in xd and int(np.prod(xd)) != int(np.prod(target)):
        raise op_helpers.shape_error('reshape', f'Cannot reshape a tensor with {int(np.prod(xd))} '
                                                f'elements to shape {target} '
                                                f'({int(np.prod(target))} elements)')
    return x.dtype, tuple(target)


RESHAPE = define_op('Reshape', _reshape_kernel, _reshape_infer,
                    lambda op, g: (reshape(g, shape(op.inputs[0])), None), lowering=lowerings.reshape)


def reshape(tensor, shape, name=None):
    """Returns `tensor`'s elements in a new shape (one entry may be -1).

    Args:
      tensor: A `Tensor`.
      shape: The new shape; it must hold as many elements.
      name: A name for the operation (optional).

    Raises:
      InvalidArgumentError: if the element counts differ."""
    x = to_tensor(tensor, op='reshape')
    s = op_helpers.int_input(shape, 'reshape', 'shape')
    return apply_op(RESHAPE, (x, s), None, name)


def _broadcast_to_infer(x, shape):
    target = op_helpers.shape_arg_dims(shape)
    if target is None:
        return x.dtype, target
    negative = [d for d in target if d is not None and d < 0]
    if negative:
        raise validation.invalid_argument(f'broadcast_to: Dimension {negative[0]} must be >= 0')
    d = dims(x)
    if d is not None and len(d) > len(target):
        raise validation.invalid_argument(f'broadcast_to: Shape must be at most rank '
                                          f'{len(target)} but is rank {len(d)} (input '
                                          f'{error_helpers.describe(x)}, shape {list(target)})')
    if None in target:
        return x.dtype, target
    op_helpers.broadcast_dims(d, target, 'broadcast_to')
    return x.dtype, target


def _broadcast_to_kernel(x, shape_array):
    target = validation.shape_value(shape_array, 'broadcast_to')
    if x.ndim > len(target):
        raise errors.InvalidArgumentError(
            f'broadcast_to: Rank of input ({x.ndim}) must be no greater than rank of output shape '
            f'({len(target)}).')
    try:
        return np.broadcast_to(x, target)
    except ValueError:
        raise errors.InvalidArgumentError(
            f'broadcast_to: Incompatible shapes: [{",".join(map(str, x.shape))}] vs. '
            f'[{",".join(map(str, target))}]') from None


BROADCAST_TO = define_op('BroadcastTo', _broadcast_to_kernel, _broadcast_to_infer,
                         lambda op, g: (sum_to(g, op.inputs[0]), None),
                         lowering=lowerings.broadcast_to)


def broadcast_to(input, shape, name=None):
    """Broadcasts `input` to `shape` (numpy broadcasting rules).

    Args:
      input: A `Tensor`.
      shape: The target shape.
      name: A name for the operation (optional).

    Raises:
      InvalidArgumentError: if `input` does not broadcast to `shape`."""
    x = to_tensor(input, op='broadcast_to')
    s = op_helpers.int_input(shape, 'broadcast_to', 'shape')
    return apply_op(BROADCAST_TO, (x, s), None, name)


def _sum_to_kernel(g, x):
    target, shape_ = np.shape(x), g.shape
    if shape_ == target:
        return g
    lead = len(shape_) - len(target)
    axes = tuple(range(lead)) + tuple(
        i + lead for i, d in enumerate(target) if d == 1 and shape_[i + lead] != 1)
    if len(axes) == lead and g.dtype in _BLAS_SUM and g.size:
        # A bias gradient (sum over the leading axes): one matrix-vector product, where numpy's
        # reduction adds one short row at a time (10x slower for 16-64 channels).
        rows = math.prod(shape_[:lead])
        return np.dot(np.ones(rows, g.dtype), g.reshape(rows, -1)).reshape(target)
    # np.add.reduce is np.sum without its Python wrapper (which costs more than small sums).
    return np.add.reduce(g, axis=axes, keepdims=True, dtype=g.dtype).reshape(target)


_BLAS_SUM = (np.dtype(np.float32), np.dtype(np.float64))


SUM_TO_SHAPE = define_op(
    'SumToShape', _sum_to_kernel, lambda g, x: (g.dtype, dims(x)),
    lambda op, dy: (broadcast_to(dy, shape(op.inputs[0])), None),
    doc='Sums input 0 over its broadcast axes down to the shape of input 1 (gradient helper).',
    lowering=lowerings.sum_to_shape)


def sum_to(grad, x):
    """Sums a broadcast gradient back to the shape of input `x` (no op when the shapes match)."""
    gs, xs = dims(grad), dims(x)
    if gs is not None and gs == xs and None not in gs:
        return grad
    return apply_op(SUM_TO_SHAPE, (grad, x))


def _reduced_shape_kernel(shape, axes):
    result = np.array(shape, copy=True)
    result[list(axes) if axes is not None else slice(None)] = 1
    return result


REDUCED_SHAPE = define_op('ReducedShape', _reduced_shape_kernel,
                          lambda s, axes: (s.dtype, dims(s)), None)


def reduced_shape(x, axes):
    """x's shape with the reduced `axes` (None: all) set to 1, for reshaping reduction gradients."""
    d = dims(x)
    if d is not None and None not in d:
        return [1 if axes is None or i in axes else n for i, n in enumerate(d)]
    return apply_op(REDUCED_SHAPE, (shape(x),), {'axes': axes})


def _zeros_like_kernel(x):
    if np.asarray(x).dtype.kind == 'O':  # a string tensor: TF's zero string is b''
        return np.full(np.shape(x), b'', dtype=object)
    return np.zeros_like(x)


ZEROS_LIKE = define_op('ZerosLike', _zeros_like_kernel, same_as_first, None,
                       lowering=lowerings.fill_like(0))
ONES_LIKE = define_op('OnesLike', np.ones_like, same_as_first, None, lowering=lowerings.fill_like(1))


@documented('like', 'Creates a tensor of zeros with the shape of `input`.')
def zeros_like(input, dtype=None, name=None):
    x = to_tensor(input, op='zeros_like')
    result = apply_op(ZEROS_LIKE, (x,), None, name or 'zeros_like')
    return result if dtype is None else cast(result, dtype)


@documented('like', 'Creates a tensor of ones with the shape of `input`.')
def ones_like(input, dtype=None, name=None):
    x = to_tensor(input, op='ones_like')
    if x.dtype.name == 'string':
        raise validation.dtype_mismatch(
            "Value for attr 'T' of string is not in the list of allowed values: bfloat16, half, "
            'float, double, int8, uint8, int16, uint16, int32, uint32, int64, uint64, complex64, '
            'complex128, bool [Op:OnesLike]')
    result = apply_op(ONES_LIKE, (x,), None, name or 'ones_like')
    return result if dtype is None else cast(result, dtype)


def _fill_kernel(dims_array, value):
    return np.full(validation.shape_value(dims_array, 'fill'), value,
                   dtype=np.asarray(value).dtype)


def _fill_infer(dims_t, value):
    if dims_t.shape.rank is not None and dims_t.shape.rank > 1:
        raise validation.invalid_argument(f'fill: Shape must be rank 1 but is rank '
                                          f'{dims_t.shape.rank} for `dims` '
                                          f'{error_helpers.describe(dims_t)}')
    target = op_helpers.shape_arg_dims(dims_t)
    if target is not None and any(d is not None and d < 0 for d in target):
        raise validation.invalid_argument(f'fill: Fill dimensions must be >= 0, got {list(target)}')
    return value.dtype, target


FILL = define_op('Fill', _fill_kernel, _fill_infer,
                 lambda op, g: (None, sum_to(g, op.inputs[1])))


def fill(dims, value, name=None):
    """Creates a tensor of shape `dims` filled with the scalar `value`.

    Args:
      dims: The shape (1-D int).
      value: A scalar; its dtype is the result's.
      name: A name for the operation (optional).
    """
    d = op_helpers.int_input(dims, 'fill', 'dims')
    if d.shape.rank == 0:  # a Python int shape, as TF accepts for zeros(2) / fill(2, x)
        d = reshape(d, [1])
    v = to_tensor(value, op='fill')
    if v.shape.rank is not None and v.shape.rank != 0:
        raise validation.invalid_argument(f'value must represent a scalar, got shape '
                                          f'{v.shape.as_list()} [Op:Fill]')
    return apply_op(FILL, (d, v), None, name)
