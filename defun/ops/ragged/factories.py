"""tf.ragged's factories and helpers on row partitions: `constant` (nested Python lists),
`map_flat_values`, `range`, `row_splits_to_segment_ids`, `segment_ids_to_row_splits`,
`boolean_mask`, `stack` and `stack_dynamic_partitions`."""
import builtins

import numpy as np

from defun.core import dtypes, nest
from defun.core.tensor import convert_to_tensor
from defun.ops.array.creation import range as range_
from defun.ops.array.boolean_mask import boolean_mask as dense_boolean_mask
from defun.ops.array.gathering import gather
from defun.ops.array.joining import concat, stack as dense_stack
from defun.ops.array.sorting import argsort
from defun.ops.array.transform import transpose
from defun.ops.math.segments import unsorted_segment_sum
from defun.ops.debugging.asserts import assert_equal, assert_less, assert_non_negative
from defun.ops.framework.base_ops import cast, reshape, shape as shape_of
from defun.ops.math.exports import ceil, maximum, reduce_sum, subtract
from defun.ops.ragged import row_ops
from defun.ops.ragged.indexing import gather_rows
from defun.ops.ragged.ragged_tensor import RaggedTensor

__all__ = ['constant', 'map_flat_values', 'range', 'row_splits_to_segment_ids',
           'segment_ids_to_row_splits', 'boolean_mask', 'stack', 'stack_dynamic_partitions']


def _depth(value):
    """How deep lists nest in `value` (a scalar is 0, [] is 1)."""
    if isinstance(value, (list, tuple)) or (isinstance(value, np.ndarray) and value.ndim):
        return 1 + max([_depth(v) for v in value], default=0)
    return 0


def _scalar_depths(value, depth, found):
    if isinstance(value, (list, tuple)) or (isinstance(value, np.ndarray) and value.ndim):
        for v in value:
            _scalar_depths(v, depth + 1, found)
    else:
        found.add(depth)


def constant(pylist, dtype=None, ragged_rank=None, inner_shape=None, name=None,
             row_splits_dtype=dtypes.int64):
    """A RaggedTensor (or a Tensor when nothing is ragged) from nested Python lists."""
    if isinstance(pylist, RaggedTensor):
        raise TypeError('pylist may not be a RaggedTensor')
    depths = set()
    _scalar_depths(pylist, 0, depths)
    if len(depths) > 1:
        raise ValueError('all scalar values must have the same nesting depth')
    depth = depths.pop() if depths else _depth(pylist)
    inner = () if inner_shape is None else tuple(inner_shape)
    if ragged_rank is None:
        ragged_rank = max(0, depth - 1 - len(inner))
    if ragged_rank < 0:
        raise ValueError(f'Invalid pylist={pylist!r}: incompatible with ragged_rank={ragged_rank}')
    if depth and ragged_rank >= depth:
        raise ValueError(f'Invalid pylist={pylist!r}: incompatible with ragged_rank={ragged_rank}')
    splits_dtype = dtypes.as_dtype(row_splits_dtype)
    nested_splits, level = [], pylist
    for _ in builtins.range(ragged_rank):
        lengths = [len(row) for row in level]
        nested_splits.append(np.concatenate([[0], np.cumsum(lengths)]).astype(
            splits_dtype.np_dtype))
        level = [item for row in level for item in row]
    flat = _flat_values(level, dtype, depth - ragged_rank, inner)
    if ragged_rank == 0:
        return flat
    return RaggedTensor.from_nested_row_splits(flat, [convert_to_tensor(s) for s in nested_splits],
                                               validate=False)


def _flat_values(items, dtype, item_depth, inner):
    """The flat values tensor: one row per item (each item a nested list of uniform shape)."""
    if isinstance(items, list) and not items:
        shape = (0,) + (inner if inner else (0,) * max(item_depth - 1, 0))
        return convert_to_tensor(np.zeros(shape, dtypes.as_dtype(dtype or dtypes.float32).np_dtype))
    try:
        array = np.array(items)
    except ValueError:
        array = np.array(items, dtype=object)
    if array.dtype == object and any(isinstance(i, (list, tuple)) for i in nest.flatten(items)):
        raise ValueError('inner values must have a uniform shape (pass a smaller ragged_rank '
                         'or lists of equal lengths)')
    if inner and tuple(array.shape[1:]) != inner:
        array = np.broadcast_to(array.reshape(array.shape[:1] + (1,) * len(inner)) if
                                array.ndim == 1 else array, array.shape[:1] + inner)
    return convert_to_tensor(items if dtype is None and not inner else array, dtype=dtype)


def map_flat_values(op, *args, **kwargs):
    """`op` applied to the flat values of the RaggedTensor arguments (all with one partition),
    the result with their row partition."""
    ragged = [v for v in nest.flatten([args, kwargs]) if isinstance(v, RaggedTensor)]
    if not ragged:
        return op(*args, **kwargs)
    partition = ragged[0]
    splits = partition.nested_row_splits
    for other in ragged[1:]:
        if len(other.nested_row_splits) != len(splits):
            raise ValueError('map_flat_values: all ragged inputs must have the same ragged_rank')
    flat = nest.map_structure(lambda v: v.flat_values if isinstance(v, RaggedTensor) else v,
                              [list(args), kwargs])
    return partition.with_flat_values(op(*flat[0], **flat[1]))


def range(starts, limits=None, deltas=1, dtype=None, name=None,  # noqa: A001 - TF's name
          row_splits_dtype=dtypes.int64):
    """Row i is tf.range(starts[i], limits[i], deltas[i]) (arguments broadcast)."""
    if limits is None:
        starts, limits = 0, starts
    starts, limits, deltas = _matching_dtype((starts, limits, deltas), dtype)
    n = maximum(maximum(_size(starts), _size(limits)), _size(deltas))
    starts, limits, deltas = (v + cast(range_(n) * 0, v.dtype) if v.shape.rank == 0 else v
                              for v in (starts, limits, deltas))
    span = subtract(limits, starts)
    steps = ceil(span / deltas) if starts.dtype.is_floating else \
        (span + deltas - _sign(deltas)) // deltas
    counts = cast(maximum(steps, 0), row_splits_dtype)
    splits = row_ops.splits_from_lengths(counts)
    rowids = row_ops.rowids_of(splits)
    position = subtract(range_(splits[-1], dtype=row_splits_dtype), cast(
        gather(splits, rowids), row_splits_dtype))
    values = gather(starts, rowids) + cast(position, starts.dtype) * \
        gather(deltas, rowids)
    return RaggedTensor.from_row_splits(values, splits, validate=False)


_RANGE_DTYPES = (dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64)


def _matching_dtype(values, dtype):
    """The arguments as tensors of `dtype`, or (as TF) of the widest of their own dtypes in
    int32 < int64 < float32 < float64."""
    if dtype is not None:
        return [convert_to_tensor(v, dtype=dtype) for v in values]
    tensors = [convert_to_tensor(v) for v in values]
    ranks = [_RANGE_DTYPES.index(t.dtype) if t.dtype in _RANGE_DTYPES else -1 for t in tensors]
    target = tensors[ranks.index(max(ranks))].dtype
    return [t if t.dtype == target else cast(t, target) for t in tensors]


def _size(t):
    return reduce_sum(reshape(t * 0 + 1, [-1])) if t.shape.rank else 1


def _sign(t):
    return cast(t > 0, t.dtype) - cast(t < 0, t.dtype)


def row_splits_to_segment_ids(splits, name=None, out_type=None):
    splits = row_ops.as_splits(splits, None, 'splits')
    row_ops.check_splits(splits, None, 'row_splits_to_segment_ids')
    ids = row_ops.rowids_of(splits)
    return ids if out_type is None else cast(ids, out_type)


def segment_ids_to_row_splits(segment_ids, num_segments=None, out_type=None, name=None):
    ids = row_ops.as_splits(segment_ids, None, 'segment_ids')
    if num_segments is None:
        num_segments = reduce_sum(ids[-1:]) + 1
    splits = row_ops.splits_from_rowids(ids, cast(num_segments, ids.dtype))
    return splits if out_type is None else cast(splits, out_type)


def boolean_mask(data, mask, name=None):
    """The elements of `data` where `mask` is True, rows kept: a 1-D mask selects rows; a mask
    of data's first two dims (dense or ragged with data's partition) selects within rows."""
    mask_ragged = isinstance(mask, RaggedTensor)
    if not mask_ragged:
        mask = convert_to_tensor(mask, dtype=dtypes.bool)
        if mask.shape.rank == 1:
            return _select_rows(data, mask)
    if isinstance(data, RaggedTensor):
        if not mask_ragged:
            raise ValueError('tf.ragged.boolean_mask: a RaggedTensor needs a ragged mask')
        kept = dense_boolean_mask(data.values, mask.values)
        lengths = unsorted_segment_sum(cast(mask.values, data.row_splits_dtype),
                                       data.value_rowids(), data.nrows())
        return RaggedTensor.from_row_lengths(kept, lengths, validate=False)
    data = convert_to_tensor(data)
    lengths = reduce_sum(cast(mask, dtypes.int64), axis=1)
    return RaggedTensor.from_row_lengths(dense_boolean_mask(data, mask), lengths, validate=False)


def _select_rows(data, mask):
    if not isinstance(data, RaggedTensor):
        return dense_boolean_mask(data, mask)
    rowids = dense_boolean_mask(range_(data.nrows(), dtype=data.row_splits_dtype), mask)
    return gather_rows(data, rowids)


def stack(values, axis=0, name=None):
    """Tensors or ragged tensors of one rank R (any sizes) stacked along `axis` (0 or 1) into a
    rank R + 1 RaggedTensor."""
    if not values:
        raise ValueError('values may not be empty.')
    if axis not in (0, 1):
        raise NotImplementedError('tf.ragged.stack along an axis other than 0 or 1 is not part '
                                  'of defun')
    parts = [_as_ragged(v) for v in values]
    if not isinstance(parts[0], RaggedTensor):   # vectors: each one row
        lengths = [cast(reshape(_nrows(v), [1]), dtypes.int64) for v in parts]
        return RaggedTensor.from_row_lengths(_joined(parts), _joined(lengths),
                                             validate=False)
    rows = _concat_rows(parts)
    counts = [cast(reshape(p.nrows(), [1]), dtypes.int64) for p in parts]
    if axis == 0:
        return RaggedTensor.from_row_lengths(rows, _joined(counts), validate=False)
    n, nrows = len(parts), parts[0].nrows()
    order = reshape(transpose(reshape(range_(n * nrows, dtype=nrows.dtype), [n, -1])), [-1])
    return RaggedTensor.from_uniform_rows(gather_rows(rows, order), nrows,
                                          convert_to_tensor(n, dtype=nrows.dtype))


def stack_dynamic_partitions(data, partitions, num_partitions, name=None):
    """A RaggedTensor of `num_partitions` rows: row i stacks the slices of `data` whose entry in
    `partitions` (a prefix of data's shape; dense or ragged) is i, in row-major order."""
    data = _as_value(data)
    splits_dtype = data.row_splits.dtype if isinstance(data, RaggedTensor) else None
    partitions = _as_value(partitions, splits_dtype or dtypes.int64)
    if not partitions.dtype.is_integer:
        raise ValueError('value_rowids must have dtype int32 or int64')
    if splits_dtype is not None and partitions.dtype != splits_dtype:
        partitions = partitions.with_flat_values(cast(partitions.flat_values, splits_dtype)) \
            if isinstance(partitions, RaggedTensor) else cast(partitions, splits_dtype)
    num_partitions = cast(convert_to_tensor(num_partitions, dtype_hint=partitions.dtype),
                          partitions.dtype)
    rank = partitions.shape.rank
    if rank is None:
        raise ValueError('partitions must have known rank.')
    num_partitions.shape.assert_has_rank(0)
    partitions.shape.assert_is_compatible_with(data.shape[:rank])
    if rank == 0:   # the whole of `data` goes to one row
        return RaggedTensor.from_value_rowids(dense_stack([data]), dense_stack([partitions]),
                                              nrows=num_partitions, validate=False)
    if rank == 1:
        order = argsort(partitions, stable=True)
        rowids = gather(partitions, order)
        assert_less(rowids[-1:], num_partitions,
                    message='partitions must be less than num_partitions')
        assert_non_negative(partitions, message='partitions must be non-negative.')
        values = gather_rows(data, order) if isinstance(data, RaggedTensor) else \
            gather(data, order)
        return RaggedTensor.from_value_rowids(values, rowids, nrows=num_partitions,
                                              validate=False)
    # Deeper partitions: both as ragged tensors of one partition, whose values recurse.
    if not isinstance(data, RaggedTensor):
        data = RaggedTensor.from_tensor(data, row_splits_dtype=partitions.dtype)
    if not isinstance(partitions, RaggedTensor):
        partitions = RaggedTensor.from_tensor(partitions, row_splits_dtype=partitions.dtype,
                                              ragged_rank=max(data.ragged_rank, rank - 1))
    assert_equal(data.row_splits, partitions.row_splits,
                 message='data and partitions have incompatible ragged shapes')
    return stack_dynamic_partitions(data.values, partitions.values, num_partitions)


def _as_value(value, dtype_hint=None):
    return value if isinstance(value, RaggedTensor) else \
        convert_to_tensor(value, dtype_hint=dtype_hint)


def _nrows(t):
    return shape_of(t, out_type=dtypes.int64)[0]


def _as_ragged(value):
    if isinstance(value, RaggedTensor):
        return value
    t = convert_to_tensor(value)
    if t.shape.rank is not None and t.shape.rank >= 2:   # all dims ragged: sizes may differ
        return RaggedTensor.from_tensor(t, ragged_rank=t.shape.rank - 1)
    return t


def _concat_rows(parts):
    """The rows of all `parts` (ragged tensors of one ragged rank) one after the other."""
    if len({p.ragged_rank for p in parts}) != 1:
        raise ValueError('tf.ragged.stack: the values must have the same ragged rank')
    values = [p.values for p in parts]
    joined = _concat_rows(values) if isinstance(values[0], RaggedTensor) else \
        _joined(values)
    splits, offset = [parts[0].row_splits], parts[0].row_splits[-1]
    for p in parts[1:]:
        splits.append(p.row_splits[1:] + offset)
        offset = offset + p.row_splits[-1]
    return RaggedTensor.from_row_splits(joined, _joined(splits), validate=False)


def _joined(tensors):
    return concat(tensors, 0)
