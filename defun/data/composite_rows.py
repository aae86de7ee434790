"""Batching and unbatching the composite components of tf.data elements, on numpy arrays.

Inside a pipeline an element travels as the flat tuple of its components (`nest.flatten` with
`expand_composites=True`), so a RaggedTensor is its flat values and row splits and a SparseTensor
its indices, values and dense shape. `batch`, `unbatch` and `from_tensor_slices` see a composite
as one segment of that tuple: this module stacks the segments of several elements into the
components of their batch, and splits one segment into the components of its rows, as TF's
batched encodings of RaggedTensorSpec and SparseTensorSpec do (a batch of ragged values gains a
ragged dimension; a batch of sparse values has the largest dense shape of its rows).
"""
import numpy as np

from defun.core import nest
from defun.core.errors import InvalidArgumentError
from defun.core.composite import is_type_spec
from defun.ops.ragged.ragged_tensor import RaggedTensorSpec
from defun.ops.sparse.sparse_tensor import SparseTensorSpec

__all__ = ['Segments', 'batch_segment', 'unbatch_segment', 'segment_rows']


class Segments:
    """Where each top-level leaf of an element_spec sits in the flat tuple: `items` is a list of
    (spec, start, stop); `composite` is True when any leaf is a composite."""

    __slots__ = ('items', 'composite', 'size')

    def __init__(self, element_spec):
        items, start = [], 0
        for spec in nest.flatten(element_spec):
            size = len(nest.flatten(spec, expand_composites=True))
            items.append((spec, start, start + size))
            start += size
        self.items = items
        self.size = start
        self.composite = any(is_type_spec(s) for s, _, _ in items)


def _concat(arrays, what):
    try:
        return np.concatenate(arrays)
    except ValueError:
        shapes = ', '.join(str(list(np.shape(a))) for a in arrays)
        raise InvalidArgumentError(f'Cannot batch {what}: the inner dimensions of the values '
                                   f'differ (shapes {shapes}) [Op:IteratorGetNext]') from None


def _batch_ragged(spec, parts):
    """The components of the RaggedTensor stacking `parts` (each [flat_values, *splits])."""
    dtype = spec.row_splits_dtype.np_dtype
    if spec.ragged_rank == 0:
        lengths = [np.shape(p[0])[0] for p in parts]
    else:
        lengths = [len(p[1]) - 1 for p in parts]
    outer = np.concatenate([[0], np.cumsum(lengths)]).astype(dtype)
    levels = []
    for level in range(1, spec.ragged_rank + 1):
        pieces, offset = [np.zeros(1, dtype)], 0
        for p in parts:
            splits = np.asarray(p[level], dtype)
            pieces.append(splits[1:] + offset)
            offset += int(splits[-1])
        levels.append(np.concatenate(pieces))
    flat = _concat([p[0] for p in parts], 'ragged values')
    return (flat, outer) + tuple(levels)


def _batch_sparse(parts):
    """The components of the SparseTensor stacking `parts` (each [indices, values, shape])."""
    ranks = {len(p[2]) for p in parts}
    if len(ranks) != 1:
        raise InvalidArgumentError(f'Cannot batch SparseTensors of ranks {sorted(ranks)} '
                                   f'[Op:IteratorGetNext]')
    indices = [np.concatenate([np.full((len(p[0]), 1), k, np.int64), p[0]], axis=1)
               for k, p in enumerate(parts)]
    shape = np.max(np.stack([p[2] for p in parts]), axis=0)
    return (np.concatenate(indices).astype(np.int64), np.concatenate([p[1] for p in parts]),
            np.concatenate([[len(parts)], shape]).astype(np.int64))


def batch_segment(spec, parts):
    """The components of a batch of values of composite `spec` (`parts`: their components)."""
    if isinstance(spec, RaggedTensorSpec):
        return _batch_ragged(spec, parts)
    if isinstance(spec, SparseTensorSpec):
        return _batch_sparse(parts)
    raise TypeError(f'tf.data cannot batch values of {spec!r}')


def _ragged_row(spec, parts, i):
    """The components of row `i` of a ragged value (ragged rank one less)."""
    start, stop = int(parts[1][i]), int(parts[1][i + 1])
    levels = []
    for splits in parts[2:]:
        levels.append(np.asarray(splits[start:stop + 1]) - splits[start])
        start, stop = int(splits[start]), int(splits[stop])
    return (parts[0][start:stop],) + tuple(levels)


def _sparse_rows(parts, count):
    indices, values, shape = parts
    rows = indices[:, 0] if len(indices) else np.zeros(0, np.int64)
    inner_shape = np.asarray(shape[1:], np.int64)
    out = []
    for i in range(count):
        keep = rows == i
        out.append((indices[keep][:, 1:], values[keep], inner_shape))
    return out


def segment_rows(spec, parts):
    """How many rows a composite value has (its components `parts`)."""
    if isinstance(spec, RaggedTensorSpec):
        return len(parts[1]) - 1 if spec.ragged_rank else np.shape(parts[0])[0]
    return int(parts[2][0])


def unbatch_segment(spec, parts):
    """The components of each row of a composite value of `spec` (`parts`: its components)."""
    if isinstance(spec, RaggedTensorSpec):
        if spec.ragged_rank == 0:
            return [(row,) for row in parts[0]]
        return [_ragged_row(spec, parts, i) for i in range(len(parts[1]) - 1)]
    if isinstance(spec, SparseTensorSpec):
        if len(parts[2]) == 0:
            raise ValueError('Unbatching a tensor is only supported for rank >= 1')
        return _sparse_rows(parts, int(parts[2][0]))
    raise TypeError(f'tf.data cannot unbatch values of {spec!r}')
