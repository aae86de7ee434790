"""tf.sparse's shape changes and elementwise ops: map_values, expand_dims, transpose, maximum,
minimum (over the union of the entries, absent entries counting as zero, as TF's
SparseSparseMaximum/Minimum) and softmax (over the entries present in each innermost row)."""
from defun.core import dtypes, nest
from defun.core.tensor import convert_to_tensor
from defun.ops.array.gathering import gather
from defun.ops.array.joining import concat, stack
from defun.ops.array.repeat_unique import unique
from defun.ops.array.sorting import argsort
from defun.ops.framework.base_ops import cast, reshape, shape as shape_of, zeros_like
from defun.ops.math.exports import exp, maximum as dense_maximum, minimum as dense_minimum
from defun.ops.math.segments import unsorted_segment_max, unsorted_segment_sum
from defun.ops.sparse.sparse_ops import from_positions, linear_positions, reorder, slice_sparse
from defun.ops.sparse.sparse_tensor import SparseTensor, sparse_input

__all__ = ['map_values', 'expand_dims', 'transpose', 'maximum', 'minimum', 'softmax', 'split']


def map_values(op, *args, **kwargs):
    """op applied to the values of the SparseTensor arguments (which share their indices), with
    their indices and shape."""
    sparse = [v for v in nest.flatten([args, kwargs]) if isinstance(v, SparseTensor)]
    if not sparse:
        raise ValueError('No SparseTensor in argument list of map_values')
    values = nest.map_structure(lambda v: v.values if isinstance(v, SparseTensor) else v,
                                [list(args), kwargs])
    first = sparse[0]
    return SparseTensor(first.indices, op(*values[0], **values[1]), first.dense_shape)


def expand_dims(sp_input, axis=None, name=None):
    """A dimension of size 1 inserted at `axis` (the end by default; negative counts from the
    end)."""
    sp = sparse_input(sp_input, 'tf.sparse.expand_dims')
    rank = sp.shape.rank
    axis = -1 if axis is None else axis
    if axis < 0 and rank is not None:
        axis = axis + rank + 1
    # A negative axis of an unknown rank counts from the end: cut before the last -axis-1 dims.
    head, tail = (slice(None, axis + 1 or None), slice(axis + 1 or None, None if axis + 1 else 0)) \
        if axis < 0 else (slice(None, axis), slice(axis, None))
    column = zeros_like(sp.indices[:, :1])
    indices = concat([sp.indices[:, head], column, sp.indices[:, tail]], 1)
    one = convert_to_tensor([1], dtype=dtypes.int64)
    shape = concat([sp.dense_shape[head], one, sp.dense_shape[tail]], 0)
    return SparseTensor(indices, sp.values, shape)


def transpose(sp_input, perm=None, name=None):
    """The SparseTensor with its dimensions permuted by `perm` (reversed by default), in
    row-major order."""
    sp = sparse_input(sp_input, 'tf.sparse.transpose')
    rank = sp.shape.rank
    perm = list(range(rank))[::-1] if perm is None else list(perm)
    order = convert_to_tensor(perm, dtype=dtypes.int32)
    return reorder(SparseTensor(gather(sp.indices, order, axis=1), sp.values,
                                gather(sp.dense_shape, order)))


def _union(a, b, combine):
    shape = a.dense_shape
    positions = concat([linear_positions(a.indices, shape), linear_positions(b.indices, shape)],
                       0)
    present, slot = unique(positions, out_idx=dtypes.int64)
    n = shape_of(present, out_type=dtypes.int64)[0]
    count_a = shape_of(a.values, out_type=dtypes.int64)[0]
    # Each operand's value at every position of the union (zero where it has no entry).
    va = unsorted_segment_sum(a.values, slot[:count_a], n)
    vb = unsorted_segment_sum(b.values, slot[count_a:], n)
    order = argsort(present)
    return SparseTensor(from_positions(gather(present, order), shape),
                        gather(combine(va, vb), order), shape)


def maximum(sp_a, sp_b, name=None):
    return _union(sparse_input(sp_a, 'tf.sparse.maximum'), sparse_input(sp_b, 'tf.sparse.maximum'),
                  dense_maximum)


def minimum(sp_a, sp_b, name=None):
    return _union(sparse_input(sp_a, 'tf.sparse.minimum'), sparse_input(sp_b, 'tf.sparse.minimum'),
                  dense_minimum)


def softmax(sp_input, name=None):
    """Softmax over the entries present in each innermost row (absent entries take no part)."""
    sp = sparse_input(sp_input, 'tf.sparse.softmax')
    rows = linear_positions(sp.indices[:, :-1], sp.dense_shape[:-1])
    n = reshape(sp.dense_shape[:-1], [-1])
    count = n[0] if sp.shape.rank == 2 else None
    groups = count if count is not None else _product(n)
    shifted = sp.values - gather(unsorted_segment_max(sp.values, rows, groups), rows)
    e = exp(shifted)
    return SparseTensor(sp.indices, e / gather(unsorted_segment_sum(e, rows, groups), rows),
                        sp.dense_shape)


def _product(dims):
    total = dims[0]
    for i in range(1, dims.shape[0]):
        total = total * dims[i]
    return total


def split(sp_input=None, num_split=None, axis=None, name=None):
    """`num_split` SparseTensors along `axis`: the first (size % num_split) one larger, as TF."""
    sp = sparse_input(sp_input, 'tf.sparse.split')
    rank = sp.shape.rank
    axis = axis + rank if axis < 0 else axis
    size = sp.dense_shape[axis]
    base, extra = size // num_split, size % num_split
    pieces, start = [], convert_to_tensor(0, dtype=dtypes.int64)
    for i in range(num_split):
        length = base + cast(i < extra, dtypes.int64)
        begin = [start if d == axis else 0 for d in range(rank)]
        sizes = [length if d == axis else sp.dense_shape[d] for d in range(rank)]
        pieces.append(slice_sparse(sp, _stack_int(begin), _stack_int(sizes)))
        start = start + length
    return pieces


def _stack_int(parts):
    return stack([cast(convert_to_tensor(p, dtype_hint=dtypes.int64), dtypes.int64)
                  for p in parts])
