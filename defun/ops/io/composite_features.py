"""The composite features of Example parsing, built from the plain features ParseExample reads:
a SparseFeature merges its index features and its value feature into one SparseTensor (TF's
sparse_merge), and a RaggedFeature's partitions cut its values into more ragged dimensions,
innermost partition first, for one example or for a batch (each example's partition features
offset by where its values start), as TF's parsing_config does."""
from defun.core import dtypes
from defun.core.unsupported import NotInDefunError
from defun.ops.array.joining import concat
from defun.ops.array.repeat_unique import repeat
from defun.ops.array.expand_squeeze import expand_dims
from defun.ops.framework.base_ops import cast
from defun.ops.io.features import RaggedFeature
from defun.ops.math.exports import maximum, reduce_max
from defun.ops.math.reductions import cumsum
from defun.ops.ragged.ragged_tensor import RaggedTensor
from defun.ops.sparse.sparse_ops import reorder
from defun.ops.sparse.sparse_tensor import SparseTensor

__all__ = ['merge_sparse', 'partitioned', 'partitioned_batch']


def merge_sparse(index_parts, values, sizes, already_sorted):
    """One SparseTensor: each entry's last index replaced by its index features' values."""
    ids = [expand_dims(cast(part.values, dtypes.int64), 1) for part in index_parts]
    indices = concat([index_parts[0].indices[:, :-1]] + ids, 1)
    shape = concat([index_parts[0].dense_shape[:-1],
                    cast([int(s) for s in sizes], dtypes.int64)], 0)
    merged = SparseTensor(indices, values.values, shape)
    if already_sorted:
        return merged
    ordered = reorder(merged)
    return SparseTensor(ordered.indices, ordered.values, shape)


def _uniform_partition_missing(partition):
    raise NotInDefunError(f'tf.io.RaggedFeature.UniformRowLength ({partition!r}) is not part of '
                          f'defun: parse the partition as RowLengths, or reshape the values')


_FACTORIES = {RaggedFeature.RowSplits: RaggedTensor.from_row_splits,
              RaggedFeature.RowLengths: RaggedTensor.from_row_lengths,
              RaggedFeature.RowStarts: RaggedTensor.from_row_starts,
              RaggedFeature.RowLimits: RaggedTensor.from_row_limits,
              RaggedFeature.ValueRowIds: RaggedTensor.from_value_rowids}


def partitioned(values, feature, parts):
    """One example's RaggedFeature: its values (a vector) cut by each partition, innermost
    first; `parts` maps partition keys to their parsed vectors."""
    for partition in reversed(feature.partitions):
        if isinstance(partition, RaggedFeature.UniformRowLength):
            _uniform_partition_missing(partition)
        rows = cast(parts[partition.key], feature.row_splits_dtype)
        values = _FACTORIES[type(partition)](values, rows, validate=feature.validate)
    return values


def partitioned_batch(rt, feature, parts):
    """A batch's RaggedFeature: `rt` [batch, (values)] cut by each partition, whose parsed
    features in `parts` are [batch, (entries)] ragged tensors."""
    for partition in reversed(feature.partitions):
        if isinstance(partition, RaggedFeature.UniformRowLength):
            _uniform_partition_missing(partition)
        part = parts[partition.key]
        if part.values.dtype != rt.row_splits.dtype:
            part = part.with_flat_values(cast(part.values, rt.row_splits.dtype))
        rt = _batched_partition(rt, partition, part, feature.validate)
    return rt


def _batched_partition(rt, partition, part, validate):
    if isinstance(partition, (RaggedFeature.RowSplits, RaggedFeature.RowLimits)):
        if isinstance(partition, RaggedFeature.RowSplits):
            part = part[:, 1:]
        limits = part.values + repeat(rt.row_starts(), part.row_lengths())
        return part.with_values(RaggedTensor.from_row_limits(rt.values, limits,
                                                             validate=validate))
    if isinstance(partition, RaggedFeature.RowStarts):
        starts = part.values + repeat(rt.row_starts(), part.row_lengths())
        return part.with_values(RaggedTensor.from_row_starts(rt.values, starts,
                                                             validate=validate))
    if isinstance(partition, RaggedFeature.RowLengths):
        return part.with_values(RaggedTensor.from_row_lengths(rt.values, part.values,
                                                              validate=validate))
    # ValueRowIds: each example's row ids, offset by the rows of the examples before it
    nrows = maximum(_row_max(part) + 1, 0)
    rowids = part.values + repeat(cumsum(nrows, exclusive=True), part.row_lengths())
    inner = RaggedTensor.from_value_rowids(rt.values, rowids, validate=validate)
    return RaggedTensor.from_row_lengths(inner, nrows, validate=validate)


def _row_max(part):
    """The largest entry of each row of a [batch, (entries)] ragged tensor (the dtype's lowest
    value for an empty row, as TF's ragged reduce_max)."""
    return reduce_max(part, axis=1)
