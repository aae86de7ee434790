"""The shape `tf.shape` gives for a RaggedTensor: TF's DynamicRaggedShape, the number of rows, then
per ragged dimension its row lengths (or its one length when the partition is uniform), then the
flat values' inner dimensions. Indexing it gives a dimension's size as a scalar tensor where the
dimension is uniform, and TF's ValueError where it is ragged.

defun's DynamicRaggedShape is what `tf.shape` returns and what TF's indexing, `rank`, `dtype`,
`num_row_partitions`, `inner_shape`, `inner_rank`, `is_uniform`, `static_lengths` and
`with_dtype` read; TF's constructors (`from_lengths`, `from_row_partitions`), its RowPartitions,
slicing and broadcasting are not part of defun.
"""
import numpy as np

from defun.core import dtypes
from defun.ops.framework.base_ops import cast, shape as shape_of
from defun.ops.ragged import row_ops
from defun.ops.support.helpers import static_value

__all__ = ['DynamicRaggedShape']


class DynamicRaggedShape:
    """The shape of a RaggedTensor (TF's tf.experimental.DynamicRaggedShape)."""

    __slots__ = ('_nrows', '_partitions', '_inner_shape', '_inner_static', '_dtype')

    def __init__(self, nrows, partitions, inner_shape, inner_static, dtype):
        # partitions: per ragged dimension, (row lengths vector, uniform length scalar or None)
        self._nrows, self._partitions = nrows, partitions
        self._inner_shape, self._inner_static, self._dtype = inner_shape, inner_static, dtype

    @classmethod
    def from_ragged(cls, rt, dtype=dtypes.int32):
        """The shape of RaggedTensor `rt`, its lengths as `dtype` tensors."""
        dtype = dtypes.as_dtype(dtype)
        partitions, level = [], rt
        while hasattr(level, 'nested_row_splits'):
            uniform = level.uniform_row_length
            partitions.append((cast(row_ops.lengths_of(level.row_splits), dtype),
                               None if uniform is None else cast(uniform, dtype)))
            level = level.values
        return cls(cast(rt.nrows(), dtype), partitions, shape_of(level, out_type=dtype),
                   level.shape, dtype)

    rank = property(lambda self: len(self._partitions) + self.inner_rank)
    dtype = property(lambda self: self._dtype)
    num_row_partitions = property(lambda self: len(self._partitions))
    inner_shape = property(lambda self: self._inner_shape)
    inner_rank = property(lambda self: self._inner_static.rank)

    def with_dtype(self, dtype):
        """The same shape with its lengths as `dtype` (int32 or int64)."""
        dtype = dtypes.as_dtype(dtype)
        parts = [(cast(lengths, dtype), None if u is None else cast(u, dtype))
                 for lengths, u in self._partitions]
        return DynamicRaggedShape(cast(self._nrows, dtype), parts, cast(self._inner_shape, dtype),
                                  self._inner_static, dtype)

    def _axis(self, index):
        if not isinstance(index, (int, np.integer)) or isinstance(index, bool):
            raise TypeError(f'DynamicRaggedShape indices must be integers, got {index!r} '
                            '(slicing a DynamicRaggedShape is not part of defun)')
        rank = self.rank
        axis = index + rank if index < 0 else index
        if not 0 <= axis < rank:
            raise IndexError(f'Index is too big: {index}>={rank}')
        return axis

    def is_uniform(self, axis):
        """True when every row has the same size along `axis`."""
        axis = self._axis(axis)
        k = len(self._partitions)
        return not 1 <= axis <= k or self._partitions[axis - 1][1] is not None

    def __getitem__(self, index):
        axis = self._axis(index)
        k = len(self._partitions)
        if axis == 0:
            return self._nrows
        if axis <= k:
            uniform = self._partitions[axis - 1][1]
            if uniform is None:
                raise ValueError(f'Index {axis} is not uniform')
            return uniform
        return self._inner_shape[axis - k]

    def static_lengths(self):
        """Each dimension's size as far as it is known: an int, a tuple of row lengths for a
        ragged dimension whose lengths are known, or None."""
        lengths = [_known(self._nrows)]
        for row_lengths, uniform in self._partitions:
            if uniform is not None:
                lengths.append(_known(uniform))
            else:
                known = static_value(row_lengths)
                lengths.append(None if known is None else tuple(int(v) for v in known))
        lengths.extend(self._inner_static.as_list()[1:])
        return lengths

    def __repr__(self):
        return (f'<DynamicRaggedShape lengths={self.static_lengths()} '
                f'num_row_partitions={self.num_row_partitions}>')


def _known(scalar):
    value = static_value(scalar)
    return None if value is None else int(value)
