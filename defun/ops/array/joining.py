"""Array ops that join and split tensors (stack, unstack, concat, split), one_hot and size.

Each op is one `define_op` entry (kernel, inference, gradient) followed by its public function.
Creating tensors (constant, zeros, range, ...) lives in creation.py, reshaping ops (transpose, pad,
tile, ...) in transform.py, indexing in indexing.py and sorting in sorting.py.
"""
import builtins

import numpy as np

from defun.core import dtypes, error_helpers, errors
from defun.core.dispatch import apply_op
from defun.ops.support import helpers as op_helpers
from defun.ops.support.helpers import dims, to_tensor
# Gradient code reaches these as `array_ops.<name>`; they are defined in base_ops.py and creation.py.
from defun.ops.framework.base_ops import (broadcast_to, cast, fill, identity, ones_like,  # noqa: F401
                            reduced_shape, reshape, shape, zeros_like)
from defun.ops.array.creation import constant, ones, zeros  # noqa: F401
from defun.core.registry import define_op
from defun.ops.array.runtime_axis import concat_at_runtime_axis
from defun.ops.support import validation
from defun.core.tensor import Tensor, convert_to_tensor, is_tensor

__all__ = ['stack', 'unstack', 'concat', 'split', 'one_hot', 'size']


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
            raise op_helpers.shape_error('stack', f'Shapes of all inputs must match: values[0].shape = '
                                     f'{list(dims(xs[0]))} != values[i].shape = {list(other)}')
        shape = tuple(a if a is not None else b for a, b in zip(shape, other))
    if shape is None:
        return xs[0].dtype, None
    a = axis % (len(shape) + 1)
    return xs[0].dtype, shape[:a] + (len(xs),) + shape[a:]


def _stack_partial(op, partial):
    """Scalars stacked into a vector: each element as far as known (a shape being built)."""
    if op.get_attr('axis') != 0:
        return None
    values = [partial(x) for x in op.inputs]
    return [v if isinstance(v, int) else None for v in values]


STACK = define_op('Pack', lambda *xs, axis: np.stack(xs, axis=axis), _stack_infer,
                  lambda op, g: unstack(g, num=len(op.inputs), axis=op.get_attr('axis')),
                  partial_fold=_stack_partial)


def stack(values, axis=0, name='stack'):
    """Stacks a list of rank-R tensors into one rank-(R+1) tensor along `axis`.

    Args:
      values: A list of `Tensor`s of one shape and dtype.
      axis: The new dimension.
      name: A name for the operation (optional).
    """
    validation.op_name(name)
    if isinstance(values, (list, tuple)) and not values:
        return constant([], name=None if name == 'stack' else name)  # TF: an empty float32[0]
    if isinstance(values, Tensor) and axis == 0:  # TF converts it: its rows restacked
        return values
    tensors = op_helpers.same_dtype_args(validation.tensor_list(values, 'stack'), 'stack')
    rank = tensors[0].shape.rank
    axis = validation.compared_int(axis, 'stack', 'axis')
    if rank is not None and not -(rank + 1) <= axis <= rank:
        raise ValueError(f'stack: axis {axis} is out of range for stacking rank-{rank} tensors '
                         f'(expected in [{-(rank + 1)}, {rank}])')
    return apply_op(STACK, tuple(tensors), {'axis': axis}, name)


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
    """Unpacks a tensor into a list of tensors along dimension `axis`.

    Args:
      value: A `Tensor` whose `axis` dimension is known (or give `num`).
      num: The length of that dimension.
      axis: The dimension to unpack.
      name: A name for the operation (optional).
    """
    validation.op_name(name)
    x = to_tensor(value, op='unstack')
    d = dims(x)
    if d is None:
        raise ValueError('unstack: cannot infer num from a tensor of unknown rank')
    if not d:
        raise ValueError(f'unstack: Input shape axis {axis} must be in range [-0, 0) (the input '
                         f'is a scalar, {error_helpers.describe(x)})')
    axis = validation.compared_int(axis, 'unstack', 'axis', index=True)
    if not -len(d) <= axis < len(d):
        # TF's wrapper checks the axis against the static rank (a ValueError in both modes).
        raise ValueError(f'unstack: axis {axis} is out of range for {error_helpers.describe(x)}')
    axis = axis % len(d)
    if num is None:
        num = d[axis]
        if num is None:
            raise ValueError(f'Cannot infer argument `num` from shape {list(d)}')
    num = validation.count(num, 'unstack', 'num')
    if d[axis] is not None and num != d[axis]:
        raise validation.invalid_argument(f'unstack: `num` {num} does not match dimension {axis} '
                                          f'of {error_helpers.describe(x)} (size {d[axis]})')
    return list(apply_op(UNSTACK, (x,), {'num': num, 'axis': axis}, name))


def _concat_infer(*xs, axis):
    known = [dims(x) for x in xs if dims(x) is not None]
    if not known:
        return xs[0].dtype, None
    rank = len(known[0])
    a = axis % rank
    total = 0
    for d in known:
        if len(d) != rank:
            raise op_helpers.shape_error('concat', f'Ranks of all input tensors should match: '
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
                    raise op_helpers.shape_error(
                        'concat', f'Dimension {i} in both shapes must be equal: shapes '
                        f'{[list(k) for k in known]}')
    return xs[0].dtype, tuple(result)


def _concat_grad(op, g):
    axis = op.get_attr('axis')
    sizes = [x.shape[axis % x.shape.rank] if x.shape.rank else None for x in op.inputs]
    if any(s is None for s in sizes):
        sizes = [shape(x)[axis] for x in op.inputs]
    return list(split(g, sizes, axis=axis))


def _concat_partial(op, partial):
    parts = [partial(x) for x in op.inputs]
    if op.get_attr('axis') not in (0, -1) or not all(isinstance(p, list) for p in parts):
        return None
    return [d for p in parts for d in p]


CONCAT = define_op('ConcatV2', lambda *xs, axis: np.concatenate(xs, axis=axis), _concat_infer,
                   _concat_grad, partial_fold=_concat_partial)


def concat(values, axis, name='concat'):
    """Concatenates tensors along dimension `axis`.

    Args:
      values: A list of `Tensor`s of one dtype and rank.
      axis: The dimension to join on.
      name: A name for the operation (optional).
    """
    validation.op_name(name)
    if isinstance(values, (list, tuple)) and not values:
        raise validation.invalid_argument('concat: `values` is empty; concat needs at least one '
                                          'tensor')
    tensors = op_helpers.same_dtype_args(validation.tensor_list(values, 'concat', whole=True),
                                         'concat')
    if isinstance(axis, Tensor) and axis.dtype.is_integer:  # a value folded now, or at run time
        known = op_helpers.static_value(axis)
        if known is None:
            return concat_at_runtime_axis(tensors, axis, name)
        axis = int(np.ravel(known)[0]) if np.size(known) == 1 else axis
    axis = validation.axis(axis, None, 'concat', attr='Tidx', int32=True)
    if len(tensors) == 1:
        return identity(tensors[0])
    rank = tensors[0].shape.rank
    if rank is not None and not -rank <= axis < rank:
        raise op_helpers.shape_error('concat', f'axis {axis} out of range for rank-{rank} inputs')
    if rank is not None:
        axis %= rank
    return apply_op(CONCAT, tuple(tensors), {'axis': axis}, name)


def _resolve_sizes(sizes, total):
    """Split sizes with TF's one -1 entry (the rest of the dimension) filled in when `total` is known."""
    if -1 in sizes and total is not None and None not in sizes:
        sizes = list(sizes)
        sizes[sizes.index(-1)] = total - (sum(sizes) + 1)
    return sizes


def _split_kernel(x, *sizes, axis, num):
    if sizes:  # sizes known only now are checked now (TF's kernel check)
        sizes = validation.split_sizes([int(s) for s in sizes], np.shape(x)[axis], 'split')
        bounds = np.cumsum(sizes)[:-1]
        return tuple(np.split(x, bounds, axis=axis))
    return tuple(np.split(x, num, axis=axis))


def _split_infer(x, *sizes, axis, num):
    d = dims(x)
    if d is None:
        return [(x.dtype, None)] * num
    a = axis % len(d)
    static = _resolve_sizes([None if v is None else int(v) for v in map(
        op_helpers.static_value, sizes)], d[a]) if sizes else None
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
                  num_outputs=None, inputs=('value: T',))  # the axis is an attribute


def split(value, num_or_size_splits, axis=0, num=None, name='split'):
    """Splits a tensor into sub-tensors along `axis`.

    Args:
      value: A `Tensor`.
      num_or_size_splits: A number of equal parts, or a list of sizes (one may be -1).
      axis: The dimension to split.
      num: The number of outputs when it cannot be inferred.
      name: A name for the operation (optional).

    Returns:
      A list of `Tensor`s."""
    validation.op_name(name)
    x = to_tensor(value, op='split')
    rank = x.shape.rank
    axis = validation.axis(axis, rank, 'split', attr='Tidx')
    size = None if rank is None else x.shape[axis]
    if isinstance(num_or_size_splits, (int, np.integer)):
        n = validation.count(num_or_size_splits, 'split', 'num_split', minimum=1)
        if size is not None and size % n:
            raise op_helpers.shape_error('split', f'Number of ways to split should evenly divide the '
                                     f'split dimension, but got split_dim {size} and num_split {n}')
        return list(apply_op(SPLIT, (x,), {'axis': axis, 'num': n}, name))
    if isinstance(num_or_size_splits, float) or not isinstance(num_or_size_splits, (
            list, tuple, np.ndarray, Tensor)):
        raise ValueError(f'split: `num_or_size_splits` must be an int or a list of ints, got '
                        f'{num_or_size_splits!r}')
    if isinstance(num_or_size_splits, (list, tuple)) and not any(
            isinstance(s, Tensor) for s in num_or_size_splits):
        # TF converts the sizes to one int tensor first: its conversion errors, its dtype check
        num_or_size_splits = op_helpers.int_input(num_or_size_splits, 'split', 'size_splits')
    if isinstance(num_or_size_splits, Tensor):
        known = op_helpers.static_value(num_or_size_splits)
        if known is None:
            return _split_dynamic(x, num_or_size_splits, axis, num, name)
        num_or_size_splits = [int(s) for s in np.ravel(known)]
    sizes = list(num_or_size_splits)
    if any(isinstance(s, Tensor) and op_helpers.static_value(s) is None for s in sizes):
        # Sizes known only at run time (gradients split by shape tensors): the kernel checks.
        tensors = [s if isinstance(s, Tensor) else to_tensor(int(s), op='split') for s in sizes]
        return list(apply_op(SPLIT, (x, *tensors), {'axis': axis, 'num': len(sizes)}, name))
    sizes = validation.split_sizes([int(op_helpers.static_value(s)) if isinstance(s, Tensor)
                                    else s for s in sizes], size, 'split')
    if num is not None and num != len(sizes):
        raise validation.invalid_argument(f'split: `num` {num} does not match the {len(sizes)} '
                                          f'sizes {sizes}')
    tensors = [to_tensor(int(s), op='split') for s in sizes]
    return list(apply_op(SPLIT, (x, *tensors), {'axis': axis, 'num': len(sizes)}, name))


def _split_dynamic(x, sizes, axis, num, name):
    """Split sizes known only when the graph runs: `num` must say how many there are."""
    if not sizes.dtype.is_integer:
        raise validation.dtype_mismatch(
            f"split: Value for attr 'Tlen' of {error_helpers.kernel_type_name(sizes.dtype)} is not in "
            f"the list of allowed values: int8, int32, int64 (`size_splits`)")
    n = sizes.shape.as_tuple()
    count = num if num is not None else (n[0] if n and n[0] is not None else None)
    if count is None:
        raise ValueError(f'split: Cannot infer argument `num` from shape {sizes.shape}')
    parts = [sizes[i] for i in builtins.range(count)]
    return list(apply_op(SPLIT, (x, *parts), {'axis': axis, 'num': count}, name))


# ---------------------------------------------------------------- one_hot / size

def _one_hot_kernel(indices, depth, on_value, off_value, axis, dtype):
    idx = np.asarray(indices)
    if not (axis == -1 or 0 <= axis <= idx.ndim):  # TF's kernel checks it at run time
        raise errors.InvalidArgumentError(f'one_hot: Expected axis to be -1 or between '
                                          f'[0, {idx.ndim + 1}).  But received: {axis}')
    eye = np.arange(depth) == idx[..., None]
    result = np.where(eye, on_value, off_value).astype(dtype.np_dtype)
    return np.moveaxis(result, -1, axis) if axis != -1 else result


def _one_hot_infer(indices, depth, on_value, off_value, axis, dtype):
    if axis < -1:
        raise validation.invalid_argument(f'one_hot: axis must be >= -1, got {axis}')
    d = dims(indices)
    if d is None or axis > len(d):
        return dtype, None
    a = len(d) if axis == -1 else axis
    return dtype, d[:a] + (depth,) + d[a:]


ONE_HOT = define_op('OneHot', _one_hot_kernel, _one_hot_infer, None)


def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    """Returns a one-hot tensor: `on_value` at each index, `off_value` elsewhere.

    Args:
      indices: An int `Tensor`.
      depth: The number of classes.
      on_value, off_value: The two values (defaults 1 and 0).
      axis: Where the new dimension goes (default -1).
      dtype: The result dtype.
      name: A name for the operation (optional).
    """
    idx = validation.element_type(to_tensor(indices, op='one_hot', hint=dtypes.int64), 'iu',
                                  'one_hot', 'indices')  # int64: OneHot's TI default
    depth = validation.count(depth, 'one_hot', 'depth')
    if dtype is None:
        dtype = (to_tensor(on_value).dtype if on_value is not None else dtypes.float32)
    dtype = dtypes.as_dtype(dtype)
    attrs = {'depth': depth, 'on_value': 1 if on_value is None else _scalar(on_value),
             'off_value': 0 if off_value is None else _scalar(off_value),
             'axis': -1 if axis is None else int(axis), 'dtype': dtype}
    return apply_op(ONE_HOT, (idx,), attrs, name or 'one_hot')


def _scalar(value):
    return value.numpy() if hasattr(value, 'numpy') else value


def _size_fold(op):
    x = op.inputs[0]
    return (np.asarray(x.shape.num_elements(), dtype=op.get_attr('out_type').np_dtype)
            if x.shape.is_fully_defined() else None)


def _size_lowering(op, ins, ctx):
    return f'{ins[0]}.size'   # the Lowerer pins it to out_type


_size_lowering.plumbing = True   # not counted towards a cluster's size
SIZE = define_op('Size', lambda x, out_type: np.asarray(np.size(x), dtype=out_type.np_dtype),
                 lambda x, out_type: (out_type, ()), None, fold=_size_fold, lowering=_size_lowering)


def size(input, out_type=dtypes.int32, name=None):
    """Returns the number of elements of `input` as a scalar of `out_type`.

    Args:
      input: A `Tensor`.
      out_type: int32 or int64.
      name: A name for the operation (optional).
    """
    return apply_op(SIZE, (to_tensor(input, op='size'),), {'out_type': dtypes.as_dtype(out_type)},
                    name)


def pack_list(values, dtype):
    """Converts a (nested) list holding tensors by stacking, as TF's auto-packing does: the
    list takes its first tensor's dtype; a requested other dtype casts every tensor in it
    (`tf.zeros([int64_tensor, 2])` builds an int32 shape)."""
    if dtype is not None and dtype is not _first_tensor_dtype(values):
        values = _cast_tensors(values, dtype)
    return _stack_nested(values, dtype)


def _stack_nested(values, dtype):
    items = [_stack_nested(v, dtype) if isinstance(v, (list, tuple)) else v for v in values]
    return stack(op_helpers.same_dtype_args(items, 'convert_to_tensor', dtype))


def _first_tensor_dtype(values):
    for v in values:
        if isinstance(v, (list, tuple)):
            found = _first_tensor_dtype(v)
            if found is not None:
                return found
        elif is_tensor(v):
            return convert_to_tensor(v).dtype
    return None


def _cast_tensors(values, dtype):
    return [_cast_tensors(v, dtype) if isinstance(v, (list, tuple))
            else cast(v, dtype) if is_tensor(v) else v for v in values]
