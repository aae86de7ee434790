"""tf.sparse's reductions and counts: reduce_sum/max/min over the entries present (a group with
no entry reduces to the reduction's identity, as TF's SparseReduce* kernels), to_indicator,
bincount, and the sparse segment reductions of dense data (tf.sparse.segment_sum/mean/sqrt_n)."""
from defun.core import dtypes
from defun.core.tensor import convert_to_tensor
from defun.ops.array.boolean_mask import boolean_mask
from defun.ops.array.creation import range as range_
from defun.ops.array.gathering import gather, scatter_nd
from defun.ops.array.joining import concat
from defun.ops.array.repeat_unique import unique
from defun.ops.array.sorting import argsort
from defun.ops.framework.base_ops import cast, ones_like, reshape, shape as shape_of, zeros_like
from defun.ops.math import exports as math_ops
from defun.ops.math.exports import greater, maximum, minimum, reduce_prod, sqrt, where
from defun.ops.math.segments import (unsorted_segment_max, unsorted_segment_min,
                                     unsorted_segment_sum)
from defun.ops.sparse.sparse_ops import from_positions, linear_positions
from defun.ops.sparse.sparse_tensor import SparseTensor, sparse_input
from defun.ops.support import validation

__all__ = ['reduce_sum', 'reduce_max', 'reduce_min', 'to_indicator', 'bincount', 'segment_sum',
           'segment_mean', 'segment_sqrt_n']


def _axes(axis, rank, op):
    if axis is None:
        return list(range(rank))
    out = []
    for a in ([axis] if isinstance(axis, int) else list(axis)):
        if not -rank <= a < rank:
            raise validation.invalid_argument(f'{op}: Invalid reduction dimension {a}, for input '
                                              f'with {rank} dimensions.')
        out.append(a % rank)
    return sorted(set(out))


def _reduce(sp_input, axis, keepdims, output_is_sparse, segment_op, full_op, op):
    sp = sparse_input(sp_input, op)
    rank = sp.shape.rank
    if rank is None:
        raise ValueError(f'{op}: the SparseTensor needs a known rank')
    axes = _axes(axis, rank, op)
    kept = [d for d in range(rank) if d not in axes]
    kept_shape = gather(sp.dense_shape, convert_to_tensor(kept, dtype=dtypes.int32))
    if keepdims:   # reduced dims stay, of size 1
        reduced = convert_to_tensor([1 if d in axes else 0 for d in range(rank)], dtypes.int64)
        out_shape = sp.dense_shape * (1 - reduced) + reduced
    else:
        out_shape = kept_shape
    if not kept:
        total = full_op(sp.values)
        if output_is_sparse:
            return SparseTensor(reshape(convert_to_tensor([], dtype=dtypes.int64), [1, 0]) if
                                not keepdims else convert_to_tensor([[0] * rank], dtypes.int64),
                                reshape(total, [1]), out_shape)
        return reshape(total, [1] * rank) if keepdims else total
    positions = linear_positions(gather(sp.indices, convert_to_tensor(kept, dtype=dtypes.int32),
                                        axis=1), kept_shape)
    if output_is_sparse:
        present, slot = unique(positions, out_idx=dtypes.int64)
        n = shape_of(present, out_type=dtypes.int64)[0]
        values = segment_op(sp.values, slot, n)
        order = argsort(present)
        indices = from_positions(gather(present, order), kept_shape)
        if keepdims:
            indices = scatter_columns(indices, kept, rank)
        return SparseTensor(indices, gather(values, order), out_shape)
    groups = reduce_prod(kept_shape)
    out = segment_op(sp.values, positions, groups)
    if segment_op is not unsorted_segment_sum:
        # A group with no entry is 0 in TF's SparseReduceMax/Min, not the dtype's extreme.
        present = unsorted_segment_sum(ones_like(positions), positions, groups) > 0
        out = where(present, out, zeros_like(out))
    return reshape(out, out_shape)


def scatter_columns(indices, kept, rank):
    """Indices over the kept dims widened to all `rank` dims (zeros in the reduced ones)."""
    columns = [None] * rank
    zero = reshape(indices[:, 0] * 0, [-1, 1])
    for j, d in enumerate(kept):
        columns[d] = indices[:, j:j + 1]
    return concat([c if c is not None else zero for c in columns], 1)


def reduce_sum(sp_input, axis=None, keepdims=None, output_is_sparse=False, name=None):
    """The sum of the entries over `axis` (all when None); dense unless output_is_sparse."""
    return _reduce(sp_input, axis, bool(keepdims), output_is_sparse, unsorted_segment_sum,
                   reduce_sum_values, 'tf.sparse.reduce_sum')


def reduce_max(sp_input, axis=None, keepdims=None, output_is_sparse=False, name=None):
    """The maximum of the entries present over `axis` (implicit zeros take no part)."""
    return _reduce(sp_input, axis, bool(keepdims), output_is_sparse, unsorted_segment_max,
                   reduce_max_values, 'tf.sparse.reduce_max')


def reduce_min(sp_input, axis=None, keepdims=None, output_is_sparse=False, name=None):
    """The minimum of the entries present over `axis` (implicit zeros take no part)."""
    return _reduce(sp_input, axis, bool(keepdims), output_is_sparse, unsorted_segment_min,
                   reduce_min_values, 'tf.sparse.reduce_min')


def reduce_sum_values(values):
    return math_ops.reduce_sum(values)


def reduce_max_values(values):
    return math_ops.reduce_max(values)


def reduce_min_values(values):
    return math_ops.reduce_min(values)


def to_indicator(sp_input, vocab_size, name=None):
    """A dense boolean tensor of shape dense_shape[:-1] + [vocab_size], True at [..., value] for
    every entry (the values are ids below vocab_size)."""
    sp = sparse_input(sp_input, 'tf.sparse.to_indicator')
    if not sp.dtype.is_integer:
        raise TypeError(f'tf.sparse.to_indicator: values must be integers, got {sp.dtype.name}')
    ids = reshape(cast(sp.values, dtypes.int64), [-1, 1])
    indices = concat([sp.indices[:, :-1], ids], 1)
    shape = concat([sp.dense_shape[:-1], reshape(cast(vocab_size, dtypes.int64), [1])], 0)
    counts = scatter_nd(indices, ones_like(sp.values, dtype=dtypes.int32), shape)
    return greater(counts, 0)


def bincount(values, weights=None, axis=0, minlength=None, maxlength=None, binary_output=False,
             name=None):
    """tf.sparse.bincount: the counts of each value (per row with axis=-1) as a SparseTensor
    holding the values that occur (weighted sums with `weights`, ones with binary_output)."""
    sp = values if isinstance(values, SparseTensor) else None
    flat = sp.values if sp is not None else reshape(convert_to_tensor(values), [-1])
    if not flat.dtype.is_integer:
        raise validation.invalid_argument(f'tf.sparse.bincount: values must be integers, got '
                                          f'{flat.dtype.name}')
    flat = cast(flat, dtypes.int64)
    w = None if weights is None else reshape(
        weights.values if isinstance(weights, SparseTensor) else convert_to_tensor(weights), [-1])
    size = maximum(math_ops.reduce_max(concat([flat, convert_to_tensor([-1], dtype=dtypes.int64)], 0))
                   + 1, 0)
    if minlength is not None:
        size = maximum(size, minlength)
    if maxlength is not None:
        size = minimum(size, maxlength)
    rows = _rows_of(sp, values, axis)
    keep = flat < size
    if rows is None:
        positions, dense_shape = flat, reshape(size, [1])
    else:
        positions, dense_shape = rows * size + flat, concat([reshape(_nrows(sp, values), [1]),
                                                             reshape(size, [1])], 0)
    weight = ones_like(flat, dtype=dtypes.int64) if w is None else w
    return _count(positions, weight, keep, dense_shape, binary_output)


def _rows_of(sp, values, axis):
    if axis in (0, None):
        return None
    if axis != -1:
        raise validation.invalid_argument(f'tf.sparse.bincount: axis must be 0 or -1, got {axis}')
    if sp is not None:
        return sp.indices[:, 0]
    t = convert_to_tensor(values)
    n, m = shape_of(t, out_type=dtypes.int64)[0], shape_of(t, out_type=dtypes.int64)[1]
    return reshape(reshape(range_(n), [-1, 1]) + 0 * reshape(range_(m), [1, -1]), [-1])


def _nrows(sp, values):
    if sp is not None:
        return sp.dense_shape[0]
    return shape_of(convert_to_tensor(values), out_type=dtypes.int64)[0]


def _count(positions, weight, keep, dense_shape, binary_output):
    positions, weight = boolean_mask(positions, keep), boolean_mask(weight, keep)
    present, slot = unique(positions, out_idx=dtypes.int64)
    n = shape_of(present, out_type=dtypes.int64)[0]
    counts = unsorted_segment_sum(weight, slot, n)
    if binary_output:
        counts = ones_like(counts)
    order = argsort(present)
    indices = from_positions(gather(present, order), dense_shape)
    return SparseTensor(indices, gather(counts, order), dense_shape)


def _segment(data, indices, segment_ids, num_segments, op):
    data = convert_to_tensor(data)
    rows = gather(data, indices)
    ids = convert_to_tensor(segment_ids)
    if num_segments is None:
        num_segments = math_ops.reduce_max(concat([cast(ids, dtypes.int64),
                                          convert_to_tensor([-1], dtype=dtypes.int64)], 0)) + 1
    sums = unsorted_segment_sum(rows, ids, cast(num_segments, ids.dtype))
    if op == 'sum':
        return sums
    counts = unsorted_segment_sum(ones_like(ids, dtype=data.dtype), ids,
                                  cast(num_segments, ids.dtype))
    counts = reshape(maximum(counts, 1), concat([[-1], ones_like(shape_of(rows)[1:])], 0))
    if op == 'mean':
        return sums / counts
    return sums * (1 / sqrt(counts))   # TF's kernel multiplies by the reciprocal root


def segment_sum(data, indices, segment_ids, num_segments=None, name=None):
    """Sums of the rows data[indices] by segment (TF's SparseSegmentSum)."""
    return _segment(data, indices, segment_ids, num_segments, 'sum')


def segment_mean(data, indices, segment_ids, num_segments=None, name=None):
    """Means of the rows data[indices] by segment (empty segments are zero)."""
    return _segment(data, indices, segment_ids, num_segments, 'mean')


def segment_sqrt_n(data, indices, segment_ids, num_segments=None, name=None):
    """Sums of the rows data[indices] by segment over the square root of their count."""
    return _segment(data, indices, segment_ids, num_segments, 'sqrt_n')
