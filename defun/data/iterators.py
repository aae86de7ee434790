"""Eager iteration of datasets: OwnedIterator (`iter(ds)`), the numpy iterator, cardinality as a
tensor, and Options.

`iter(ds)` while a graph is being built gives a graph_ops.GraphIterator instead. An OwnedIterator
holds one Python iterator over flat elements and packs each into tensors of the element_spec;
`next()` raises StopIteration at the end, `get_next()` TF's OutOfRangeError. An OwnedIterator is
checkpointable, as TF's: a checkpoint saves its position (`ITERATOR_STATE`, the count of elements
taken), and restoring replays the dataset up to that position, which gives TF's elements for a
deterministic pipeline (a shuffle that reshuffles each iteration draws new seeds; TF restores
its buffer and seeds).
"""
import numpy as np

from defun.core import context, nest
from defun.core.errors import OutOfRangeError
from defun.state.trackable import Saveable

from defun.data.base import Dataset, register
from defun.data.graph_ops import GraphIterator, IteratorResource, IteratorSpec, IteratorState
from defun.data import optional
from defun.data.structure import Packer

__all__ = ['OwnedIterator', 'NumpyIterator', 'Options']


class OwnedIterator(Saveable):
    """An eager iterator over a dataset, as TF's `tf.data.Iterator`."""

    SAVED_ATTRIBUTE = 'ITERATOR_STATE'

    def __init__(self, dataset):
        self._element_spec = dataset.element_spec
        self._pack = Packer(dataset.element_spec)
        state = IteratorState(dataset)
        self._resource = IteratorResource(state)
        self._flat = state.iterator

    @property
    def resource(self):
        return self._resource

    def save_state(self):
        return np.array(self._flat.position, np.int64)

    def restore_state(self, array):
        self._flat.restart_at(int(array))

    def __tf_tracing_type__(self, context):
        """An iterator argument traces by its element_spec; the graph advances this iterator."""
        return IteratorSpec(self._element_spec)

    @property
    def element_spec(self):
        return self._element_spec

    def __iter__(self):
        return self

    def __next__(self):
        return self._pack(next(self._flat))

    def next_flat(self):
        """The next element as its flat tuple of arrays (StopIteration at the end)."""
        return next(self._flat)

    def get_next(self):
        try:
            return self._pack(next(self._flat))
        except StopIteration:
            raise OutOfRangeError('End of sequence [Op:IteratorGetNext]') from None

    def get_next_as_optional(self):
        try:
            element = self._pack(next(self._flat))
        except StopIteration:
            return optional.Optional.empty(self._element_spec)
        return optional.from_flat(nest.flatten(element, expand_composites=True),
                                  self._element_spec)


class NumpyIterator:
    """What `as_numpy_iterator()` returns: elements as numpy values in the element structure."""

    def __init__(self, dataset):
        self._iterator = OwnedIterator(dataset)
        self._numpy = Packer(dataset.element_spec).numpy

    def __iter__(self):
        return self

    def __next__(self):
        return self._numpy(self._iterator.next_flat())

    def __repr__(self):
        return f'NumpyIterator(iterator={self._iterator!r})'


@register('_iterator')
def _iterator(dataset):
    if context.executing_eagerly():
        return OwnedIterator(dataset)
    return GraphIterator(dataset)


@register('_numpy_iterator')
def _numpy_iterator(dataset):
    if not context.executing_eagerly():
        raise RuntimeError('`tf.data.Dataset.as_numpy_iterator()` is only supported in eager mode.')
    return NumpyIterator(dataset)


class _OptionGroup:
    """A group of options (`options.threading`, `options.experimental_optimization`, ...): free
    attributes, recorded and otherwise ignored (there is one CPU pipeline here)."""

    def __repr__(self):
        return f'{type(self).__name__}({vars(self)!r})'


class Options:
    """`tf.data.Options`: accepted and carried by datasets; the pipeline here has no knobs."""

    def __init__(self):
        self.deterministic = None
        self.experimental_deterministic = None
        self.experimental_distribute = _OptionGroup()
        self.experimental_optimization = _OptionGroup()
        self.threading = _OptionGroup()
        self.autotune = _OptionGroup()

    def merge(self, options):
        merged = Options()
        merged.__dict__.update(self.__dict__)
        merged.__dict__.update({k: v for k, v in vars(options).items() if v is not None})
        return merged


class _OptionsDataset(Dataset):
    def __init__(self, input_dataset, options):
        if not isinstance(options, Options):
            raise TypeError(f'with_options expects a tf.data.Options, got {options!r}')
        self._inputs = (input_dataset,)
        self.element_spec = input_dataset.element_spec
        self._cardinality = input_dataset._cardinality
        self._options = options

    def flat_iterator(self):
        return self._inputs[0].flat_iterator()


register('with_options')(_OptionsDataset)


@register('_options')
def _options(dataset):
    merged = Options()
    for d in dataset._inputs:
        merged = merged.merge(_options(d))
    return merged if dataset._options is None else merged.merge(dataset._options)
