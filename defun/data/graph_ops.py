"""Datasets inside graphs: variant tensors, iterator ops, and the graph side of iteration.

How a dataset runs in a compiled function. A dataset is a Python object describing a pipeline; in a
graph it is a *variant* tensor whose run-time value is that object:

  * a dataset the function closes over (or builds from Python values) is an eager `DatasetVariant`,
    which the FuncGraph captures like any eager tensor, so each call iterates the same pipeline;
  * a Dataset argument is a variant placeholder (its trace key is its element_spec, so any dataset
    of that spec reuses the trace), wrapped in a `VariantDataset` with that spec;
  * a dataset built in the graph from graph tensors, or from a VariantDataset, or with functions
    that capture graph tensors, is a template: `MakeDataset` takes those graph tensors as inputs
    and, when the graph runs, rebinds the template to their values (Dataset.rebind).

Iteration is two stateful ops: `IteratorCreate` turns a variant into a resource holding a fresh
Python iterator over the pipeline, and `IteratorGetNextAsOptional` returns (has_value, *components),
zeros of the element's shape (unknown dims 0) once the iterator is exhausted. AutoGraph turns
`for x in ds:` into: create the iterator, fetch the first element, then a `while_loop` whose
condition is `has_value` (and not `break`) and whose body runs the user's body on the element and
fetches the next; the element is a loop variable with the element_spec's shapes as invariants, so
unknown dims (a last partial batch) are allowed. `ds.reduce` in a graph is the same loop. Being
stateful, the ops keep program order, so the next element is fetched after the body's own effects.
`IteratorGetNext` (explicit `next(it)`) raises OutOfRangeError at the end, as TF.
"""
import numpy as np

from defun.core import dtypes, nest
from defun.core.composite import is_type_spec
from defun.core.dispatch import apply_op
from defun.core.errors import InvalidArgumentError, OutOfRangeError
from defun.core.registry import define_op
from defun.core.shapes import TensorShape, TensorSpec
from defun.core.tensor import EagerTensor, convert_to_tensor

from defun.data.base import Dataset, DatasetSpec, ElementTraceType, VariantDataset, register
from defun.data.optional import Optional, OptionalValue
from defun.data.structure import NoneTensorSpec

__all__ = ['DatasetVariant', 'variant_of', 'GraphIterator', 'IteratorState', 'IteratorResource',
           'IteratorSpec']


class DatasetVariant(EagerTensor):
    """The eager variant tensor of a dataset: its `array` is the dataset itself."""

    __slots__ = ()

    @property
    def dtype(self):
        return dtypes.variant

    @property
    def shape(self):
        return TensorShape([])

    def numpy(self):
        raise TypeError('A dataset variant has no numpy value; iterate the dataset instead.')

    def __repr__(self):
        return f'<DatasetVariant of {self.array!r}>'

    __str__ = __repr__


def _make_kernel(*arrays, template, keys):
    return template.rebind(dict(zip(keys, arrays)))


def _variant_infer(*inputs, **attrs):
    return (dtypes.variant, ())


MAKE_DATASET = define_op('MakeDataset', _make_kernel, _variant_infer, None,
                         doc='Rebinds a dataset template to the values of its graph tensors.')


def variant_of(dataset):
    """The variant tensor standing for `dataset` in the current graph (or eagerly)."""
    if isinstance(dataset, VariantDataset):
        return dataset._variant
    symbolic = dataset.symbolic_inputs([])
    if not symbolic:
        return DatasetVariant(dataset)
    attrs = {'template': dataset, 'keys': tuple(id(t) for t in symbolic)}
    return apply_op(MAKE_DATASET, symbolic, attrs)


def _cardinality_kernel(variant):
    return np.array(variant._cardinality, np.int64)


DATASET_CARDINALITY = define_op('DatasetCardinality', _cardinality_kernel,
                                lambda variant: (dtypes.int64, ()), None,
                                doc='The cardinality of a dataset known only when the graph runs.')


@register('_cardinality_tensor')
def cardinality_tensor(dataset):
    """A constant when the dataset is known now; else DatasetCardinality of its variant (a
    Dataset argument, or a template over graph tensors, is known only when the graph runs)."""
    if isinstance(dataset, VariantDataset) or dataset.symbolic_inputs([]):
        return apply_op(DATASET_CARDINALITY, [variant_of(dataset)])
    return convert_to_tensor(np.int64(dataset._cardinality))


class IteratorState:
    """The run-time value of an iterator resource: a Python iterator over flat elements, which
    counts the elements it gave (its position, what a checkpoint saves)."""

    __slots__ = ('iterator', '__weakref__')

    def __init__(self, dataset):
        if not isinstance(dataset, Dataset):
            raise InvalidArgumentError(f'IteratorCreate expects a dataset, got {dataset!r}')
        dataset.start_iterator()
        self.iterator = CountingIterator(dataset)


class CountingIterator:
    """The flat elements of a dataset and how many have been taken; it can restart at a position
    by replaying the dataset up to it."""

    __slots__ = ('_dataset', '_inner', 'position')

    def __init__(self, dataset):
        self._dataset, self._inner, self.position = dataset, dataset.flat_iterator(), 0

    def __iter__(self):
        return self

    def __next__(self):
        element = next(self._inner)
        self.position += 1
        return element

    def restart_at(self, position):
        """Continues after the first `position` elements of a fresh pass (stopping early if the
        dataset is shorter)."""
        inner = self._dataset.flat_iterator()
        count = 0
        for _ in range(position):
            if next(inner, None) is None:
                break
            count += 1
        self._inner, self.position = inner, count


class IteratorResource(EagerTensor):
    """The eager resource tensor of an iterator (its `array` is the IteratorState), so that an
    eager iterator passed to a compiled function is advanced by the graph's ops."""

    __slots__ = ()

    @property
    def dtype(self):
        return dtypes.resource

    @property
    def shape(self):
        return TensorShape([])

    def numpy(self):
        raise TypeError('An iterator resource has no numpy value; call next() on the iterator.')

    def __repr__(self):
        return '<IteratorResource>'

    __str__ = __repr__


class IteratorSpec(ElementTraceType):
    """The trace type of an iterator argument: its element_spec and one resource tensor."""

    __slots__ = ()

    def __init__(self, element_spec):
        self.element_spec = element_spec

    def flatten(self):
        return [TensorSpec([], dtypes.resource)]

    def from_tensors(self, tensors):
        return GraphIterator(None, self.element_spec, resource=next(tensors))

    def to_tensors(self, value):
        return [value.resource]

    def __repr__(self):
        return f'IteratorSpec({self.element_spec!r})'


def _create_kernel(variant):
    return IteratorState(variant)


def _create_infer(variant):
    return (dtypes.resource, ())


def _default(spec):
    dims = spec.shape.as_tuple()
    shape = () if dims is None else tuple(0 if d is None else d for d in dims)
    return np.zeros(shape, spec.dtype.np_dtype)


def _next_optional_kernel(state, specs):
    try:
        flat = next(state.iterator)
    except StopIteration:
        return (np.array(False),) + tuple(_default(s) for s in specs)
    return (np.array(True),) + tuple(flat)


def _next_kernel(state, specs):
    try:
        return tuple(next(state.iterator))
    except StopIteration:
        raise OutOfRangeError('End of sequence [Op:IteratorGetNext]') from None


def _next_infer(state, specs):
    return [(s.dtype, s.shape.as_tuple()) for s in specs]


def _next_optional_infer(state, specs):
    return [(dtypes.bool, ())] + _next_infer(state, specs)


ITERATOR_CREATE = define_op('IteratorCreate', _create_kernel, _create_infer, None,
                            stateful=True)
ITERATOR_GET_NEXT = define_op('IteratorGetNext', _next_kernel, _next_infer, None,
                              num_outputs=None, stateful=True)
def _next_variant_kernel(state):
    flat = next(state.iterator, None)
    return OptionalValue(None if flat is None else tuple(flat))


ITERATOR_NEXT_OPTIONAL_VARIANT = define_op(
    'IteratorGetNextAsOptionalVariant', _next_variant_kernel, lambda state: (dtypes.variant, ()),
    None, stateful=True, inputs=(), attrs=(),
    doc="TF's IteratorGetNextAsOptional: the next element as an optional's variant (defun's op of "
        "that name returns its parts, for the loops over datasets).")
ITERATOR_GET_NEXT_AS_OPTIONAL = define_op('IteratorGetNextAsOptional', _next_optional_kernel,
                                          _next_optional_infer, None, num_outputs=None,
                                          stateful=True)


def _invariant(spec):
    if isinstance(spec, NoneTensorSpec):
        return None
    return spec if is_type_spec(spec) else spec.shape


class GraphIterator:
    """An iterator over a dataset inside a graph (what `iter(ds)` gives while tracing)."""

    def __init__(self, dataset, element_spec=None, resource=None):
        self.element_spec = dataset.element_spec if dataset is not None else element_spec
        self._composite = any(is_type_spec(s) for s in nest.flatten(self.element_spec))
        self._specs = tuple(nest.flatten(self.element_spec, expand_composites=True))
        if any(isinstance(s, DatasetSpec) for s in self._specs):
            raise NotImplementedError('iterating a dataset of datasets (window) inside a compiled '
                                      'function is not supported; flat_map the windows first')
        self._resource = resource if resource is not None else apply_op(
            ITERATOR_CREATE, [variant_of(dataset)])

    @property
    def resource(self):
        return self._resource

    def __tf_tracing_type__(self, context):
        return IteratorSpec(self.element_spec)

    def graph_iterator(self):
        return self

    def __iter__(self):
        return self

    @property
    def element_shapes(self):
        """The shape invariants of the element as a loop variable (a composite's: its spec; a
        None's: none)."""
        return nest.map_structure(_invariant, self.element_spec)

    def _pack(self, flat):
        return nest.pack_sequence_as(self.element_spec, list(flat),
                                     expand_composites=self._composite)

    def next_or_default(self):
        """(has_value, element): zeros of the element's spec when exhausted."""
        outs = apply_op(ITERATOR_GET_NEXT_AS_OPTIONAL, [self._resource], {'specs': self._specs})
        return outs[0], self._pack(outs[1:])

    def get_next(self):
        return self._pack(apply_op(ITERATOR_GET_NEXT, [self._resource], {'specs': self._specs}))

    __next__ = get_next

    def get_next_as_optional(self):
        variant = apply_op(ITERATOR_NEXT_OPTIONAL_VARIANT, [self._resource])
        return Optional(variant, self.element_spec)


register('_variant_of')(variant_of)


@register('_graph_iterator')
def _graph_iterator(dataset):
    return GraphIterator(dataset)
