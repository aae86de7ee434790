"""`Dataset`: the public surface of every dataset, and the protocol its kinds implement.

Each kind of dataset (a source or a transformation) is a subclass that sets `element_spec`,
`_cardinality` and `_inputs` in its constructor and yields flat tuples (see structure.py) from
`flat_iterator()`. Dataset's methods only construct those kinds: the transformation modules
register their classes in `KINDS` under the method's name, so this module needs none of them (no
import cycle) and each method is one line.

A dataset is an immutable description: iterating it twice runs the pipeline twice. Inside a graph,
a dataset is a variant tensor whose run-time value is an eager dataset (see graph_ops.py); a dataset
built from graph tensors is a template that is rebound to their values when the graph runs.
"""
import copy

from defun.core import context, dtypes, nest
from defun.core.composite import TypeSpec
from defun.core.errors import InvalidArgumentError
from defun.core.shapes import TensorShape, TensorSpec
from defun.functions.trace_types import TraceType
from defun.core.unsupported import KNOWN_GAPS, NotInDefunError

__all__ = ['Dataset', 'DatasetSpec', 'ElementTraceType', 'VariantDataset', 'KINDS', 'register',
           'count_or_tensor', 'resolved', 'check_count', 'INFINITE', 'UNKNOWN', 'AUTOTUNE']

INFINITE = -1
UNKNOWN = -2
AUTOTUNE = -1

KINDS = {}   # method name -> dataset class (or factory) filled by the kind modules


# TF's Dataset methods that are not here: they say so (NotInDefunError is an AttributeError).
_MISSING_METHODS = frozenset([
    'rejection_resample', 'snapshot', 'save', 'load', 'fingerprint', 'distribute', 'list_files',
    'from_tensor_slices_ragged'])


def register(name):
    def decorate(cls):
        if name in KINDS:
            raise ValueError(f'tf.data kind {name!r} registered twice')
        KINDS[name] = cls
        return cls
    return decorate


def _kind(name):
    return KINDS[name]


class DatasetV2:
    """TF's class name for the base of every `tf.data.Dataset`. Libraries written for TF (Keras's
    data adapters) recognise a dataset by this name, and by TF's module path, which the class
    takes while defun stands in as `tensorflow` (defun.tf_compat.dataset_ops)."""

    __slots__ = ()


class Dataset(DatasetV2):
    """A sequence of elements, as `tf.data.Dataset`: sources are its static methods."""

    element_spec = None
    _cardinality = UNKNOWN
    _inputs = ()
    _tensors = ()       # tensors the kind reads (graph tensors make it a template)
    _functions = ()     # traced user functions (their graph captures make it a template)
    _options = None

    # -- the protocol of kinds
    def flat_iterator(self):
        raise NotImplementedError(f'{type(self).__name__} does not implement iteration')

    def rebind(self, values):
        """A copy with graph tensors (and variant placeholders) replaced by their run-time values
        from `values` (id of graph tensor -> array); self when nothing in it is symbolic."""
        inputs = [d.rebind(values) for d in self._inputs]
        tensors = [values.get(id(t), t) for t in self._tensors]
        functions = [f.rebind(values) for f in self._functions]
        if all(a is b for a, b in zip(inputs + tensors + functions,
                                      list(self._inputs) + list(self._tensors) +
                                      list(self._functions))):
            return self
        clone = copy.copy(self)
        clone._inputs, clone._tensors, clone._functions = tuple(inputs), tuple(tensors), \
            tuple(functions)
        clone.rebound()
        return clone

    def start_iterator(self):
        """Called once for each new iterator over this pipeline, before it takes an element: as TF
        instantiates the pipeline then, its functions restart their random streams (fresh
        kernels)."""
        for f in self._functions:
            f.restart_random()
        for d in self._inputs:
            d.start_iterator()

    def rebound(self):
        """Hook for kinds that derive state from _inputs/_tensors after a rebind."""

    def symbolic_inputs(self, out):
        """Appends the graph tensors this dataset (and its inputs) depend on, once each."""
        for d in self._inputs:
            d.symbolic_inputs(out)
        for t in self._tensors:
            if hasattr(t, 'op') and all(x is not t for x in out):
                out.append(t)
        for f in self._functions:
            f.symbolic_inputs(out)
        return out

    # -- introspection
    def cardinality(self):
        return _kind('_cardinality_tensor')(self)

    def __len__(self):
        if not context.executing_eagerly():
            raise TypeError('`tf.data.Dataset` only supports `len` in eager mode. Use '
                            '`tf.data.Dataset.cardinality()` instead.')
        if self._cardinality == INFINITE:
            raise TypeError('The dataset is infinite.')
        if self._cardinality == UNKNOWN:
            raise TypeError('The dataset length is unknown.')
        return self._cardinality

    def __bool__(self):
        return True

    def __repr__(self):
        return f'<{type(self).__name__} element_spec={self.element_spec!r}>'

    def options(self):
        return _kind('_options')(self)

    def with_options(self, options, name=None):
        return _kind('with_options')(self, options)

    # -- iteration
    def __iter__(self):
        return _kind('_iterator')(self)

    def as_numpy_iterator(self):
        return _kind('_numpy_iterator')(self)

    def reduce(self, initial_state, reduce_func, name=None):
        return _kind('reduce')(self, initial_state, reduce_func)

    def __tf_tracing_type__(self, context):
        """A Dataset argument of a compiled function traces by its element_spec."""
        return DatasetSpec(self.element_spec)

    @property
    def _type_spec(self):
        """TF's protocol for a value's TypeSpec (as composite tensors have it)."""
        return DatasetSpec(self.element_spec)

    def graph_iterator(self):
        """AutoGraph's protocol for `for x in dataset` in a graph (see graph_ops.GraphIterator)."""
        return _kind('_graph_iterator')(self)

    # -- sources
    @staticmethod
    def from_tensor_slices(tensors, name=None):
        return _kind('from_tensor_slices')(tensors)

    @staticmethod
    def from_tensors(tensors, name=None):
        return _kind('from_tensors')(tensors)

    @staticmethod
    def range(*args, output_type=None, name=None):
        return _kind('range')(*args, output_type=output_type)

    @staticmethod
    def zip(*datasets, name=None):
        return _kind('zip')(*datasets)

    @staticmethod
    def from_generator(generator, output_types=None, output_shapes=None, args=None,
                       output_signature=None, name=None):
        return _kind('from_generator')(generator, output_types, output_shapes, args,
                                       output_signature)

    # -- transformations
    def batch(self, batch_size, drop_remainder=False, num_parallel_calls=None,
              deterministic=None, name=None):
        return _kind('batch')(self, batch_size, drop_remainder)

    def ragged_batch(self, batch_size, drop_remainder=False, row_splits_dtype=dtypes.int64,
                     name=None):
        return _kind('ragged_batch')(self, batch_size, drop_remainder, row_splits_dtype)

    def sparse_batch(self, batch_size, row_shape, name=None):
        return _kind('sparse_batch')(self, batch_size, row_shape)

    def unbatch(self, name=None):
        return _kind('unbatch')(self)

    def padded_batch(self, batch_size, padded_shapes=None, padding_values=None,
                     drop_remainder=False, name=None):
        return _kind('padded_batch')(self, batch_size, padded_shapes, padding_values,
                                     drop_remainder)

    def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=True, name=None):
        return _kind('shuffle')(self, buffer_size, seed, reshuffle_each_iteration)

    def map(self, map_func, num_parallel_calls=None, deterministic=None, name=None):
        return _kind('map')(self, map_func, num_parallel_calls)

    def filter(self, predicate, name=None):
        return _kind('filter')(self, predicate)

    def flat_map(self, map_func, name=None):
        return _kind('flat_map')(self, map_func)

    def interleave(self, map_func, cycle_length=None, block_length=None,
                   num_parallel_calls=None, deterministic=None, name=None):
        return _kind('interleave')(self, map_func, cycle_length, block_length)

    def repeat(self, count=None, name=None):
        return _kind('repeat')(self, count)

    def take(self, count, name=None):
        return _kind('take')(self, count)

    def skip(self, count, name=None):
        return _kind('skip')(self, count)

    def take_while(self, predicate, name=None):
        return _kind('take_while')(self, predicate)

    def concatenate(self, dataset, name=None):
        return _kind('concatenate')(self, dataset)

    def enumerate(self, start=0, name=None):
        return _kind('enumerate')(self, start)

    def window(self, size, shift=None, stride=1, drop_remainder=False, name=None):
        return _kind('window')(self, size, shift, stride, drop_remainder)

    def cache(self, filename='', name=None):
        return _kind('cache')(self, filename)

    def prefetch(self, buffer_size, name=None):
        return _kind('prefetch')(self, buffer_size)

    def shard(self, num_shards, index, name=None):
        return _kind('shard')(self, num_shards, index)

    def scan(self, initial_state, scan_func, name=None):
        return _kind('scan')(self, initial_state, scan_func)

    def unique(self, name=None):
        return _kind('unique')(self)

    def group_by_window(self, key_func, reduce_func, window_size=None, window_size_func=None,
                        name=None):
        return _kind('group_by_window')(self, key_func, reduce_func, window_size,
                                        window_size_func)

    def bucket_by_sequence_length(self, element_length_func, bucket_boundaries,
                                  bucket_batch_sizes, padded_shapes=None, padding_values=None,
                                  pad_to_bucket_boundary=False, no_padding=False,
                                  drop_remainder=False, name=None):
        return _kind('bucket_by_sequence_length')(
            self, element_length_func, bucket_boundaries, bucket_batch_sizes, padded_shapes,
            padding_values, pad_to_bucket_boundary, no_padding, drop_remainder)

    def rebatch(self, batch_size, drop_remainder=False, name=None):
        return _kind('rebatch')(self, batch_size, drop_remainder)

    def get_single_element(self, name=None):
        return _kind('get_single_element')(self)

    @staticmethod
    def counter(start=0, step=1, dtype=dtypes.int64, name=None):
        return _kind('counter')(start, step, dtype)

    @staticmethod
    def random(seed=None, rerandomize_each_iteration=None, name=None):
        return _kind('random')(seed, rerandomize_each_iteration)

    @staticmethod
    def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=True):
        return _kind('choose_from_datasets')(datasets, choice_dataset, stop_on_empty_dataset)

    @staticmethod
    def sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False,
                             rerandomize_each_iteration=None):
        return _kind('sample_from_datasets')(datasets, weights, seed, stop_on_empty_dataset)

    def __getattr__(self, name):
        if name in _MISSING_METHODS:
            raise NotInDefunError(f'tf.data.Dataset.{name} is not part of defun. See '
                                  f'{KNOWN_GAPS}.')
        raise AttributeError(f'{type(self).__name__!r} object has no attribute {name!r}')

    def apply(self, transformation_func):
        result = transformation_func(self)
        if not isinstance(result, Dataset):
            raise TypeError('`transformation_func` must return a `tf.data.Dataset` object.')
        return result


def _leaf_subtype(a, b):
    if isinstance(a, TypeSpec):   # a TensorSpec or a composite's spec
        return type(a) is type(b) and a.is_subtype_of(b)
    return a == b


def _leaf_supertype(a, b):
    if isinstance(a, TypeSpec):
        return a.most_specific_common_supertype([b]) if type(a) is type(b) else None
    return a if a == b else None


class ElementTraceType(TraceType):
    """A trace type described by an element_spec (datasets and iterators): a call with a more
    specific element_spec (known dims where the trace has None) reuses the trace."""

    __slots__ = ('element_spec',)

    def _same_structure(self, other):
        if type(other) is not type(self):
            return False
        try:
            nest.assert_same_structure(self.element_spec, other.element_spec)
        except (ValueError, TypeError):
            return False
        return True

    def is_subtype_of(self, other):
        return self._same_structure(other) and all(
            _leaf_subtype(a, b) for a, b in zip(nest.flatten(self.element_spec),
                                                nest.flatten(other.element_spec)))

    def most_specific_common_supertype(self, others):
        spec = self.element_spec
        for other in others:
            if not self._same_structure(other):
                return None
            leaves = [_leaf_supertype(a, b) for a, b in zip(nest.flatten(spec),
                                                            nest.flatten(other.element_spec))]
            if any(leaf is None for leaf in leaves):
                return None
            spec = nest.pack_sequence_as(spec, leaves)
        return type(self)(spec)

    def placeholder_value(self, placeholder_context=None):
        raise TypeError(f'{self!r} is traced from placeholders of its components')

    def _key(self):
        return (tuple(nest.flatten(self.element_spec)), repr(self.element_spec))

    def __eq__(self, other):
        return type(other) is type(self) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())


class DatasetSpec(ElementTraceType):
    """The type of a dataset-valued element, and the trace type of a Dataset argument of a
    compiled function: one variant tensor (see defun.functions.trace_key's CustomLeaf)."""

    __slots__ = ('dataset_shape',)

    def __init__(self, element_spec, dataset_shape=()):
        self.element_spec = element_spec
        self.dataset_shape = TensorShape(dataset_shape)

    @staticmethod
    def from_value(value):
        """The spec of a dataset: its element_spec, as a scalar."""
        return DatasetSpec(value.element_spec)

    @property
    def shape(self):
        return self.dataset_shape

    @property
    def dtype(self):
        return dtypes.variant

    def flatten(self):
        return [TensorSpec([], dtypes.variant)]

    def from_tensors(self, tensors):
        return VariantDataset(next(tensors), self.element_spec)

    def to_tensors(self, value):
        return [_kind('_variant_of')(value)]

    def __repr__(self):
        return f'DatasetSpec({self.element_spec!r}, {self.dataset_shape!r})'


class VariantDataset(Dataset):
    """A dataset known in a graph only by its variant tensor and element_spec (an argument)."""

    def __init__(self, variant, element_spec):
        self._variant = variant
        self._tensors = (variant,)
        self.element_spec = element_spec
        self._cardinality = -2

    def __repr__(self):
        return f'<_VariantDataset element_spec={self.element_spec!r}>'

    def rebind(self, values):
        return values.get(id(self._variant), self)

    def flat_iterator(self):
        raise TypeError('A dataset argument of a compiled function is iterated by the graph: use '
                        '`for x in dataset` (AutoGraph) or `dataset.reduce` inside the function')



def count_or_tensor(value, what):
    """A Python int, or an integer graph tensor kept for the template (see Dataset.rebind)."""
    if hasattr(value, 'op'):
        if not value.dtype.is_integer or value.shape.rank not in (0, None):
            raise TypeError(f'`{what}` must be an integer scalar, got {value!r}')
        return value
    return check_count(value, what)


def resolved(value):
    """The int a count_or_tensor value has when the pipeline runs (after rebinding)."""
    return int(value.numpy() if hasattr(value, 'numpy') else value)


def check_count(value, what, minimum=None, message=None):
    """A Python int from an int or eager scalar tensor argument; InvalidArgumentError below
    `minimum` (TF checks these when the dataset is created)."""
    if hasattr(value, 'op'):
        raise NotImplementedError(f'tf.data: `{what}` must be a Python int or an eager tensor '
                                  f'here, not a graph tensor')
    try:
        count = int(value.numpy() if hasattr(value, 'numpy') else value)
    except (TypeError, ValueError):
        raise TypeError(f'`{what}` must be an integer, got {value!r}') from None
    if minimum is not None and count < minimum:
        raise InvalidArgumentError(message or f'`{what}` must be at least {minimum}, got {count}')
    return count
