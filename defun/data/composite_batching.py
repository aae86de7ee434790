"""Batching dense elements into composites: `ragged_batch` (`dense_to_ragged_batch`) and
`sparse_batch` (`dense_to_sparse_batch`).

`ragged_batch` first gives each dense component whose shape is not fully known a RaggedTensorSpec
(ragged rank: its last unknown dimension, as TF's) and turns its values into those ragged values,
then batches as `batch` does, so a batch of rows of different lengths is a RaggedTensor.
`sparse_batch` puts every value of each element (zeros too) into a SparseTensor whose rows have
the dense shape `row_shape`; a larger element is TF's DataLossError.
"""
import numpy as np

from defun.core import dtypes, nest
from defun.core.errors import DataLossError, InvalidArgumentError
from defun.core.shapes import TensorShape, TensorSpec
from defun.core.tensor import Tensor
from defun.ops.ragged.ragged_tensor import RaggedTensorSpec
from defun.ops.sparse.sparse_tensor import SparseTensorSpec

from defun.data.base import KINDS, Dataset, check_count, register
from defun.data.composite_rows import Segments

__all__ = ['dense_to_ragged_batch', 'dense_to_sparse_batch']


def _ragged_spec(spec, row_splits_dtype):
    """TF's rule: a TensorSpec of known rank and some unknown dimension becomes ragged up to its
    last unknown dimension; every other spec stays as it is."""
    if not isinstance(spec, TensorSpec) or spec.shape.rank is None or \
            spec.shape.is_fully_defined():
        return spec
    ragged_rank = max(i for i, d in enumerate(spec.shape.as_list()) if d is None)
    return RaggedTensorSpec(spec.shape, spec.dtype, ragged_rank, row_splits_dtype)


def _ragged_parts(array, spec):
    """The components of the ragged value of `spec` holding the dense `array`."""
    if not isinstance(spec, RaggedTensorSpec) or spec.ragged_rank == 0:
        return (array,)
    dims = np.shape(array)
    k = spec.ragged_rank
    dtype = spec.row_splits_dtype.np_dtype
    splits = tuple(np.arange(int(np.prod(dims[:j], dtype=np.int64)) + 1, dtype=dtype) * dims[j]
                   for j in range(1, k + 1))
    return (np.reshape(array, (-1,) + tuple(dims[k + 1:])),) + splits


class _ToRaggedDataset(Dataset):
    """The input's elements with their dense components of unknown shape as ragged values."""

    def __init__(self, input_dataset, row_splits_dtype):
        self._inputs = (input_dataset,)
        splits_dtype = dtypes.as_dtype(row_splits_dtype)
        if splits_dtype not in (dtypes.int32, dtypes.int64):
            raise ValueError(f'row_splits_dtype must be int32 or int64, got {splits_dtype!r}')
        self.element_spec = nest.map_structure(lambda s: _ragged_spec(s, splits_dtype),
                                               input_dataset.element_spec)
        self._before = Segments(input_dataset.element_spec).items
        self._after = nest.flatten(self.element_spec)
        self._cardinality = input_dataset._cardinality

    def flat_iterator(self):
        for element in self._inputs[0].flat_iterator():
            out = []
            for (old, start, stop), new in zip(self._before, self._after):
                if new is old:
                    out.extend(element[start:stop])
                else:
                    out.extend(_ragged_parts(element[start], new))
            yield tuple(out)


@register('ragged_batch')
def ragged_batch(input_dataset, batch_size, drop_remainder, row_splits_dtype):
    return KINDS['batch'](_ToRaggedDataset(input_dataset, row_splits_dtype), batch_size,
                          drop_remainder)


def _row_shape(row_shape):
    if isinstance(row_shape, Tensor):
        row_shape = row_shape.numpy()
    if isinstance(row_shape, TensorShape):
        return row_shape
    return TensorShape([int(d) for d in np.asarray(row_shape).reshape(-1)])


@register('sparse_batch')
class _SparseBatchDataset(Dataset):
    def __init__(self, input_dataset, batch_size, row_shape):
        self._size = check_count(batch_size, 'batch_size', 1,
                                 'Batch size must be greater than zero.')
        spec = input_dataset.element_spec
        if not isinstance(spec, TensorSpec):
            raise TypeError(f'sparse_batch: the elements must be single tensors, got {spec!r}')
        self._row_shape = _row_shape(row_shape)
        if not self._row_shape.is_fully_defined():
            raise ValueError(f'sparse_batch: row_shape must be fully defined, got '
                             f'{self._row_shape}')
        self._inputs = (input_dataset,)
        self.element_spec = SparseTensorSpec(TensorShape([None]).concatenate(self._row_shape),
                                             spec.dtype)
        n = input_dataset._cardinality
        self._cardinality = n if n < 0 else -(-n // self._size)

    def flat_iterator(self):
        group = []
        for (array,) in self._inputs[0].flat_iterator():
            group.append(self._checked(np.asarray(array)))
            if len(group) == self._size:
                yield self._sparse(group)
                group = []
        if group:
            yield self._sparse(group)

    def _checked(self, array):
        row = tuple(self._row_shape.as_list())
        if array.ndim != len(row):
            raise InvalidArgumentError(f'Input element had shape ({list(array.shape)}) of rank '
                                       f'{array.ndim}, but the row shape ({list(row)}) has rank '
                                       f'{len(row)}. [Op:IteratorGetNext]')
        if any(a > r for a, r in zip(array.shape, row)):
            raise DataLossError(f'Input element had shape ({list(array.shape)}) that is larger '
                                f'than the row shape ({list(row)}). [Op:IteratorGetNext]')
        return array

    def _sparse(self, group):
        indices = [np.concatenate([np.full((a.size, 1), k, np.int64),
                                   np.indices(a.shape).reshape(a.ndim, -1).T], axis=1)
                   for k, a in enumerate(group)]
        shape = [len(group)] + self._row_shape.as_list()
        return (np.concatenate(indices).astype(np.int64),
                np.concatenate([a.reshape(-1) for a in group]), np.array(shape, np.int64))


def dense_to_ragged_batch(batch_size, drop_remainder=False, row_splits_dtype=dtypes.int64):
    """The transformation form of `Dataset.ragged_batch`, for `Dataset.apply`."""
    return lambda dataset: dataset.ragged_batch(batch_size, drop_remainder, row_splits_dtype)


def dense_to_sparse_batch(batch_size, row_shape):
    """The transformation form of `Dataset.sparse_batch`, for `Dataset.apply`."""
    return lambda dataset: dataset.sparse_batch(batch_size, row_shape)
