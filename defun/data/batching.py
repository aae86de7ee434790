"""Batching transformations: batch, unbatch, padded_batch, window.

A batch stacks the flat components of `batch_size` consecutive elements (np.stack per component);
its static batch dimension is known only with `drop_remainder=True`, as in TF. padded_batch pads
each component to the largest size in the batch (or to `padded_shapes`) with `padding_values`.
window groups elements into datasets (one per component), streaming with a buffer of one window.
"""
import numpy as np

from defun.core import nest
from defun.core.errors import InvalidArgumentError
from defun.core.shapes import TensorShape, TensorSpec
from defun.core.tensor import Tensor, convert_to_tensor

from defun.core.composite import is_type_spec
from defun.data import structure
from defun.data.composite_rows import Segments, batch_segment, unbatch_segment
from defun.data.base import INFINITE, UNKNOWN, Dataset, check_count, opens_inputs, register
from defun.data.structure import DatasetSpec, NoneTensorSpec

__all__ = ['padding_value', 'padded_component_shape', 'pad_column']


def _batched_cardinality(n, size, drop_remainder):
    if n < 0:
        return n
    return n // size if drop_remainder else -(-n // size)


def _batched_spec(spec, size, drop_remainder, what):
    def one(s):
        if isinstance(s, DatasetSpec):
            raise TypeError(f'{what}: elements that are datasets cannot be batched')
        if is_type_spec(s):
            return s._batch(size if drop_remainder else None)
        dims = s.shape.as_tuple()
        if dims is None:
            return TensorSpec(TensorShape(None), s.dtype)
        return TensorSpec((size if drop_remainder else None,) + dims, s.dtype)
    return nest.map_structure(one, spec)


def _stack(column):
    first = np.shape(column[0])
    for value in column[1:]:
        if np.shape(value) != first:
            raise InvalidArgumentError(
                f'Cannot add tensor to the batch: number of elements does not match. Shapes are: '
                f'[tensor]: {list(np.shape(value))}, [batch]: {list(first)} [Op:IteratorGetNext]')
    return np.stack(column)


def _groups(iterator, size, drop_remainder):
    group = []
    for element in iterator:
        group.append(element)
        if len(group) == size:
            yield group
            group = []
    if group and not drop_remainder:
        yield group


@register('batch')
class _BatchDataset(Dataset):
    def __init__(self, input_dataset, batch_size, drop_remainder):
        self._size = check_count(batch_size, 'batch_size', 1,
                                 'Batch size must be greater than zero. [Op:BatchDatasetV2]')
        self._drop = bool(drop_remainder)
        self._inputs = (input_dataset,)
        self.element_spec = _batched_spec(input_dataset.element_spec, self._size, self._drop,
                                          'batch')
        self._cardinality = _batched_cardinality(input_dataset._cardinality, self._size,
                                                 self._drop)
        self._segments = Segments(input_dataset.element_spec)

    @opens_inputs
    def flat_iterator(self, upstream):
        if self._segments.composite:
            for group in _groups(upstream, self._size, self._drop):
                yield _stack_composite(self._segments, group)
            return
        for group in _groups(upstream, self._size, self._drop):
            yield tuple([_stack(column) for column in zip(*group)])


def _stack_composite(segments, group):
    """One batch of elements with composite leaves: each composite batched by its spec."""
    out = []
    for spec, start, stop in segments.items:
        if start == stop:   # a None (NoneTensorSpec) takes no room
            continue
        if is_type_spec(spec):
            out.extend(batch_segment(spec, [element[start:stop] for element in group]))
        else:
            out.append(_stack([element[start] for element in group]))
    return tuple(out)


def _unbatched_spec(s):
    if isinstance(s, NoneTensorSpec):
        return s
    if isinstance(s, DatasetSpec) or s.shape.rank == 0:
        raise ValueError('Cannot unbatch an input with scalar components.')
    if is_type_spec(s):
        if getattr(s, 'ragged_rank', None) == 0:
            return TensorSpec(s.shape[1:], s.dtype)
        return s._unbatch()
    dims = s.shape.as_tuple()
    return TensorSpec(TensorShape(None) if dims is None else dims[1:], s.dtype)


@register('unbatch')
class _UnbatchDataset(Dataset):
    def __init__(self, input_dataset):
        self.element_spec = nest.map_structure(_unbatched_spec, input_dataset.element_spec)
        self._inputs = (input_dataset,)
        self._cardinality = INFINITE if input_dataset._cardinality == INFINITE else UNKNOWN
        self._segments = Segments(input_dataset.element_spec)

    @opens_inputs
    def flat_iterator(self, upstream):
        if self._segments.composite:
            for element in upstream:
                yield from _composite_rows(self._segments, element)
            return
        for element in upstream:
            sizes = [len(a) for a in element]
            if any(s != sizes[0] for s in sizes):
                bad = next(i for i, s in enumerate(sizes) if s != sizes[0])
                raise InvalidArgumentError(
                    f'Input element must have the same batch size in each component. Component 0 '
                    f'had size {sizes[0]} but component {bad} had size {sizes[bad]}.')
            if len(element) == 1:
                a = element[0]
                for i in range(sizes[0]):
                    yield (a[i, ...],)
            else:
                for i in range(sizes[0]):
                    yield tuple([a[i, ...] for a in element])


def _composite_rows(segments, element):
    """The rows of one element with composite leaves, each leaf split by its spec."""
    columns = [unbatch_segment(spec, element[start:stop]) if is_type_spec(spec) else
               [(row,) for row in element[start]] for spec, start, stop in segments.items
               if start != stop]   # a None (NoneTensorSpec) takes no room
    sizes = [len(c) for c in columns]
    if any(n != sizes[0] for n in sizes):
        bad = next(i for i, n in enumerate(sizes) if n != sizes[0])
        raise InvalidArgumentError(
            f'Input element must have the same batch size in each component. Component 0 had '
            f'size {sizes[0]} but component {bad} had size {sizes[bad]}.')
    for parts in zip(*columns):
        yield sum(parts, ())


def padding_value(value, spec):
    if value is None:
        return np.zeros((), spec.dtype.np_dtype) if spec.dtype.name != 'string' else b''
    array = value.array if isinstance(value, Tensor) else convert_to_tensor(value).array
    if np.ndim(array) != 0:
        raise ValueError(f'padded_batch: padding values must be scalars, got shape '
                         f'{np.shape(array)}')
    if array.dtype != spec.dtype.np_dtype:
        raise TypeError(f'padded_batch: padding value of dtype {array.dtype} does not match the '
                        f'component dtype {spec.dtype.name}')
    return array


def padded_component_shape(given, spec):
    shape = spec.shape if given is None else TensorShape(
        [None if d == -1 else d for d in given] if isinstance(given, (list, tuple)) else given)
    if shape.rank is None:
        raise ValueError('padded_batch: the padded shape of a component of unknown rank must be '
                         'given in `padded_shapes`')
    if not spec.shape.is_compatible_with(TensorShape([None] * shape.rank)):
        raise ValueError(f'padded_batch: the padded shape {shape} is not compatible with the '
                         f'component shape {spec.shape}')
    return shape


@register('padded_batch')
class _PaddedBatchDataset(Dataset):
    def __init__(self, input_dataset, batch_size, padded_shapes, padding_values, drop_remainder):
        self._size = check_count(batch_size, 'batch_size', 1,
                                 'Batch size must be greater than zero.')
        self._drop = bool(drop_remainder)
        spec = input_dataset.element_spec
        specs = nest.flatten(spec)
        for s in specs:
            if is_type_spec(s):
                raise TypeError(f'`padded_batch` is only supported for datasets that produce '
                                f'tensor elements but type spec of elements in the input dataset '
                                f'is not a subclass of TensorSpec: `{s!r}`.')
        shapes = structure.flatten_up_to(spec, padded_shapes)
        if nest.is_nested(spec) and not nest.is_nested(padding_values):
            # one padding value stands for every component, as in TF
            padding_values = nest.map_structure(lambda _: padding_values, spec)
        values = structure.flatten_up_to(spec, padding_values)
        self._shapes = [padded_component_shape(g, s) for g, s in zip(shapes, specs)]
        self._values = [padding_value(v, s) for v, s in zip(values, specs)]
        self._inputs = (input_dataset,)
        padded = nest.pack_sequence_as(spec, [TensorSpec(sh, s.dtype)
                                              for sh, s in zip(self._shapes, specs)])
        self.element_spec = _batched_spec(padded, self._size, self._drop, 'padded_batch')
        self._cardinality = _batched_cardinality(input_dataset._cardinality, self._size,
                                                 self._drop)

    @opens_inputs
    def flat_iterator(self, upstream):
        for group in _groups(upstream, self._size, self._drop):
            yield tuple([pad_column(column, shape, value) for column, shape, value in
                         zip(zip(*group), self._shapes, self._values)])


def pad_column(column, shape, value):
    """The arrays of one component stacked, each padded with `value` to `shape` (None: the
    largest size in the column)."""
    target = [max(np.shape(a)[i] for a in column) if d is None else d
              for i, d in enumerate(shape.as_tuple())]
    out = np.full([len(column)] + target, value, dtype=np.asarray(column[0]).dtype)
    for k, a in enumerate(column):
        if np.ndim(a) != len(target) or any(n > t for n, t in zip(np.shape(a), target)):
            raise InvalidArgumentError('Attempted to pad to a smaller size than the input '
                                       'element. [Op:IteratorGetNext]')
        out[(k,) + tuple(slice(0, n) for n in np.shape(a))] = a
    return out


class _WindowElementDataset(Dataset):
    """One component of one window: the elements it holds (each its flat tuple), in order."""

    def __init__(self, values, spec):
        self._values = values
        self.element_spec = spec
        self._cardinality = len(values)

    def __repr__(self):
        return f'<_VariantDataset element_spec={self.element_spec!r}>'

    def flat_iterator(self):
        yield from self._values


def _window_cardinality(n, size, shift, stride, drop_remainder):
    if n < 0:
        return n
    if not drop_remainder:
        return -(-n // shift)
    span = (size - 1) * stride + 1
    return (n - span) // shift + 1 if n >= span else 0


@register('window')
class _WindowDataset(Dataset):
    def __init__(self, input_dataset, size, shift, stride, drop_remainder):
        self._size = check_count(size, 'size', 1, 'Window size must be greater than zero.')
        self._shift = check_count(self._size if shift is None else shift, 'shift', 1,
                                  'Window shift must be greater than zero.')
        self._stride = check_count(stride, 'stride', 1, 'Window stride must be greater than zero.')
        self._drop = bool(drop_remainder)
        self._inputs = (input_dataset,)
        self._segments = Segments(input_dataset.element_spec)
        self.element_spec = nest.map_structure(DatasetSpec, input_dataset.element_spec)
        self._cardinality = _window_cardinality(input_dataset._cardinality, self._size,
                                                self._shift, self._stride, self._drop)

    def _window(self, buffer):
        taken = buffer[:(self._size - 1) * self._stride + 1:self._stride]
        return tuple(_WindowElementDataset([e[start:stop] for e in taken], spec)
                     for spec, start, stop in self._segments.items)

    @opens_inputs
    def flat_iterator(self, upstream):
        span = (self._size - 1) * self._stride + 1
        buffer, skip = [], 0
        for element in upstream:
            if skip:
                skip -= 1
                continue
            buffer.append(element)
            if len(buffer) == span:
                yield self._window(buffer)
                skip = max(0, self._shift - span)
                buffer = buffer[self._shift:]
        while buffer and not self._drop:
            yield self._window(buffer)
            buffer = buffer[self._shift:]
