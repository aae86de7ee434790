"""Grouping transformations: group_by_window, bucket_by_sequence_length, rebatch, and the list
dataset that holds one group (also tf.data.experimental.from_list's source).

group_by_window traces `key_func` (and `window_size_func`) for elements and `reduce_func` for
(key, window dataset), as TF does, and streams as TF's kernel: each element joins its key's group;
a full group becomes a window whose reduced dataset is emptied before more input is read; at the
end the remaining groups are reduced in ascending key order. bucket_by_sequence_length is that
grouping with the bucket of `element_length_func`'s length as the key and a padded batch as the
reduction, written directly (TF's composition needs batch sizes that are tensors).
"""
import bisect

import numpy as np

from defun.core import dtypes, nest
from defun.core.errors import InvalidArgumentError
from defun.core.shapes import TensorShape, TensorSpec

from defun.data import structure
from defun.data.base import INFINITE, UNKNOWN, Dataset, check_count, register
from defun.data.batching import pad_column, padded_component_shape, padding_value
from defun.data.functions import StructuredFunction
from defun.data.structure import DatasetSpec

__all__ = ['ListDataset', 'from_list']


class ListDataset(Dataset):
    """A dataset of flat elements held in a list (one group of group_by_window, or from_list)."""

    def __init__(self, elements, spec):
        self._elements = elements
        self.element_spec = spec
        self._cardinality = len(elements)

    def flat_iterator(self):
        return iter(self._elements)


def from_list(elements, name=None):
    """`tf.data.experimental.from_list`: a dataset of the list's elements, which share a
    structure and dtypes; the element_spec is the most specific shape they all fit."""
    if not isinstance(elements, list):
        raise TypeError(f'`elements` must be a list, got {type(elements).__name__}')
    if not elements:
        raise ValueError('Invalid `elements`. `elements` should not be empty.')
    values = [structure.normalize(e, 'from_list') for e in elements]
    spec = structure.spec_of(values[0])
    for value in values[1:]:
        other = structure.spec_of(value)
        structure.check_compatible(spec, other, 'from_list')
        spec = structure.most_specific(spec, other)
    return ListDataset([structure.flat_arrays(v) for v in values], spec)


def _key_function(func, spec, what):
    function = StructuredFunction(func, spec, what)
    out = function.output_spec
    if not isinstance(out, TensorSpec) or out.dtype != dtypes.int64 or out.shape.rank != 0:
        raise ValueError(f'Invalid `{what}`. `{what}` must return a single tf.int64 scalar '
                         f'tensor but its return type is {out!r}.')
    return function


@register('group_by_window')
class _GroupByWindowDataset(Dataset):
    def __init__(self, input_dataset, key_func, reduce_func, window_size, window_size_func):
        if (window_size is None) == (window_size_func is None):
            raise ValueError('Either the `window_size` argument or the `window_size_func` '
                             'argument must be specified.')
        spec = input_dataset.element_spec
        key = _key_function(key_func, spec, 'key_func')
        scalar = TensorSpec([], dtypes.int64)
        reduce = StructuredFunction(reduce_func, (scalar, DatasetSpec(spec)), 'reduce_func')
        if not isinstance(reduce.output_spec, DatasetSpec):
            raise TypeError(f'Invalid `reduce_func`. `reduce_func` must return a single '
                            f'`tf.data.Dataset` object but its return type is '
                            f'{reduce.output_spec!r}.')
        functions = [key, reduce]
        if window_size_func is not None:
            functions.append(_key_function(window_size_func, scalar, 'window_size_func'))
            self._size = None
        else:
            self._size = check_count(window_size, 'window_size', 1,
                                     'Window size must be greater than zero.')
        self._inputs = (input_dataset,)
        self._functions = tuple(functions)
        self._spec = spec
        self.element_spec = reduce.output_spec.element_spec
        self._cardinality = INFINITE if input_dataset._cardinality == INFINITE else UNKNOWN

    def _window_size(self, key):
        if self._size is not None:
            return self._size
        size = int(self._functions[2].flat((key,))[0])
        if size <= 0:
            raise InvalidArgumentError('Window size must be greater than zero, but got '
                                       f'{size}.')
        return size

    def _reduce(self, key, group):
        window = ListDataset(group, self._spec)
        return self._functions[1].flat((key, window))[0].flat_iterator()

    def flat_iterator(self):
        groups = {}
        for element in self._inputs[0].flat_iterator():
            key = np.asarray(self._functions[0].flat(element)[0], np.int64)
            group = groups.setdefault(int(key), [])
            group.append(element)
            if len(group) == self._window_size(key):
                del groups[int(key)]
                yield from self._reduce(key, group)
        for key in sorted(groups):
            yield from self._reduce(np.asarray(key, np.int64), groups[key])


@register('bucket_by_sequence_length')
class _BucketBySequenceLengthDataset(Dataset):
    def __init__(self, input_dataset, element_length_func, bucket_boundaries, bucket_batch_sizes,
                 padded_shapes, padding_values, pad_to_bucket_boundary, no_padding,
                 drop_remainder):
        boundaries = [int(b) for b in bucket_boundaries]
        if len(bucket_batch_sizes) != len(boundaries) + 1:
            raise ValueError(f'`len(bucket_batch_sizes)` must equal `len(bucket_boundaries) + '
                             f'1` but `len(bucket_batch_sizes)={len(bucket_batch_sizes)}` and '
                             f'`len(bucket_boundaries)={len(boundaries)}`.')
        spec = input_dataset.element_spec
        length = StructuredFunction(element_length_func, spec, 'element_length_func')
        if not isinstance(length.output_spec, TensorSpec) or \
                not length.output_spec.dtype.is_integer or length.output_spec.shape.rank != 0:
            raise ValueError(f'`element_length_func` must return an integer scalar, got '
                             f'{length.output_spec!r}')
        self._boundaries = boundaries
        self._sizes = [check_count(b, 'bucket_batch_sizes', 1) for b in bucket_batch_sizes]
        self._inputs, self._functions = (input_dataset,), (length,)
        self._drop, self._pad_to_boundary = bool(drop_remainder), bool(pad_to_bucket_boundary)
        self._padding = None
        specs = nest.flatten(spec)
        if not no_padding:
            shapes = structure.flatten_up_to(spec, padded_shapes)
            if nest.is_nested(spec) and not nest.is_nested(padding_values):
                padding_values = nest.map_structure(lambda _: padding_values, spec)
            values = structure.flatten_up_to(spec, padding_values)
            self._padding = ([padded_component_shape(g, s) for g, s in zip(shapes, specs)],
                             [padding_value(v, s) for v, s in zip(values, specs)])
        batched = [TensorSpec((None,) + (s.shape.as_tuple() if no_padding else
                                         (None,) * s.shape.rank), s.dtype) for s in specs]
        self.element_spec = nest.pack_sequence_as(spec, batched)
        self._cardinality = INFINITE if input_dataset._cardinality == INFINITE else UNKNOWN

    def _batch(self, bucket, group):
        columns = list(zip(*group))
        if self._padding is None:
            return tuple(np.stack(c) for c in columns)
        shapes, values = self._padding
        out = []
        for column, shape, value in zip(columns, shapes, values):
            dims = shape.as_tuple()
            if self._pad_to_boundary:
                if bucket >= len(self._boundaries):
                    raise InvalidArgumentError('When pad_to_bucket_boundary=True, elements must '
                                               'have length < max(bucket_boundaries).')
                dims = tuple(self._boundaries[bucket] - 1 if d is None else d for d in dims)
            out.append(pad_column(column, TensorShape(dims), value))
        return tuple(out)

    def flat_iterator(self):
        groups = {}
        for element in self._inputs[0].flat_iterator():
            length = int(self._functions[0].flat(element)[0])
            bucket = bisect.bisect_right(self._boundaries, length)
            group = groups.setdefault(bucket, [])
            group.append(element)
            if len(group) == self._sizes[bucket]:
                del groups[bucket]
                yield self._batch(bucket, group)
        if not self._drop:
            for bucket in sorted(groups):
                yield self._batch(bucket, groups[bucket])


@register('rebatch')
class _RebatchDataset(Dataset):
    """Batches of the given sizes (cycled through) cut from the input's batches, as TF's
    RebatchDatasetV2: the same elements as unbatch().batch(n), without a fixed batch of input."""

    def __init__(self, input_dataset, batch_size, drop_remainder):
        sizes = np.asarray(batch_size.numpy() if hasattr(batch_size, 'numpy') else batch_size)
        self._sizes = [check_count(int(s), 'batch_size', 1) for s in np.ravel(sizes)]
        self._drop = bool(drop_remainder)
        self._inputs = (input_dataset,)
        fixed = self._drop and sizes.ndim == 0

        def one(s):
            dims = s.shape.as_tuple()
            if dims is None or not dims:
                raise ValueError('Cannot rebatch a dataset whose elements are not batches '
                                 '(rank 0 or unknown rank).')
            return TensorSpec((self._sizes[0] if fixed else None,) + dims[1:], s.dtype)
        self.element_spec = nest.map_structure(one, input_dataset.element_spec)
        self._cardinality = INFINITE if input_dataset._cardinality == INFINITE else UNKNOWN

    def flat_iterator(self):
        pending, held, turn = [], 0, 0
        for element in self._inputs[0].flat_iterator():
            pending.append(element)
            held += len(element[0])
            while held >= self._sizes[turn % len(self._sizes)]:
                size = self._sizes[turn % len(self._sizes)]
                batch, pending, held = _cut(pending, size), _rest(pending, size), held - size
                turn += 1
                yield batch
        if held and not self._drop:
            yield tuple(np.concatenate(c) for c in zip(*pending))


def _cut(pending, size):
    """The first `size` rows of the held input batches, as one batch."""
    return tuple(np.concatenate(c)[:size] for c in zip(*pending))


def _rest(pending, size):
    rest = tuple(np.concatenate(c)[size:] for c in zip(*pending))
    return [rest] if len(rest[0]) else []
