"""Element structures of tf.data: specs, normalisation of user values, and the flat form.

A dataset's element is a nested structure (tuples, dicts, namedtuples; lists count as tensors, as in
TF) of tensors, composite tensors (SparseTensor, RaggedTensor) or datasets. Its `element_spec` is
the same structure of TensorSpecs, TypeSpecs and DatasetSpecs. Inside a pipeline an element travels
flat: a tuple of its leaves (numpy arrays, or Datasets for dataset-valued components) in
`nest.flatten(..., expand_composites=True)` order, a composite as its components; only the edges
(user functions, iteration) pack it into tensors. `Packer` is that edge, precomputed once per spec
so the per-element cost is small.
"""
import numpy as np

from defun.core import nest
from defun.core.composite import CompositeTensor, TypeSpec, is_type_spec
from defun.core.shapes import TensorSpec
from defun.core.tensor import EagerTensor, Tensor, convert_to_tensor

from defun.data.base import DatasetSpec
from defun.core.variable_base import is_variable, read_variable
from defun.ops.sparse.sparse_tensor import is_sparse, to_dense as sparse_to_dense

__all__ = ['DatasetSpec', 'NoneTensorSpec', 'normalize', 'spec_of', 'Packer', 'flat_arrays',
           'flat_tensors', 'is_dataset', 'has_composites',
           'check_compatible', 'most_specific', 'flatten_up_to']


def is_dataset(value):
    """Datasets are recognised by their element_spec plus the flat-iteration protocol."""
    return hasattr(value, 'element_spec') and hasattr(value, 'flat_iterator')


class NoneTensorSpec(TypeSpec):
    """The type of a None inside an element (TF's `tf.NoneTensorSpec`): no components, so it
    takes no room in the flat tuple, and packs back to None."""

    __slots__ = ()

    @property
    def value_type(self):
        return type(None)

    def _serialize(self):
        return ()

    @property
    def _component_specs(self):
        return ()

    def _to_components(self, value):
        return ()

    def _from_components(self, components):
        return None

    def _with_shape(self, shape):
        return self

    def _batch(self, batch_size):
        return self

    def _unbatch(self):
        return self


def _leaf(value, what):
    if is_dataset(value) or isinstance(value, (Tensor, CompositeTensor)):
        return value
    if is_variable(value):
        return read_variable(value)
    try:
        return convert_to_tensor(value)
    except (TypeError, ValueError) as exc:
        raise type(exc)(f'{what}: {exc}') from None


def normalize(value, what='element'):
    """A user value as an element: its structure kept, each leaf a tensor (or a Dataset)."""
    if value is None:   # TF: an element of no components at all
        raise TypeError(f'{what}: None is not a valid element of a dataset')
    return _normalize(value, what)


def _normalize(value, what):
    if value is None:     # None inside a structure: a NoneTensorSpec leaf, as in TF
        return None
    if isinstance(value, dict):
        return type(value)((k, _normalize(v, what)) for k, v in value.items())
    if isinstance(value, tuple):
        items = [_normalize(v, what) for v in value]
        return type(value)(*items) if hasattr(value, '_fields') else tuple(items)
    return _leaf(value, what)   # lists are tensors in tf.data, as in TF


def spec_of(value):
    """The element_spec of an element (a structure of tensors / datasets)."""
    def one(leaf):
        if leaf is None:
            return NoneTensorSpec()
        if is_dataset(leaf):
            return DatasetSpec(leaf.element_spec)
        if isinstance(leaf, CompositeTensor):
            return leaf._type_spec
        return TensorSpec(leaf.shape, leaf.dtype)
    return nest.map_structure(one, value)


def flat_tensors(element):
    """The flat form of an element: its tensors (a composite's components), None taking none."""
    return [leaf for leaf in nest.flatten(element, expand_composites=True) if leaf is not None]


def flat_arrays(element):
    """The flat tuple of an eager element: numpy arrays (datasets stay datasets)."""
    return tuple(leaf if is_dataset(leaf) else leaf.array for leaf in flat_tensors(element))


def has_composites(spec):
    """True when an element_spec holds a composite (its flat form is then its components)."""
    return any(is_type_spec(s) for s in nest.flatten(spec))


def _wrap(leaf):
    return leaf if is_dataset(leaf) else EagerTensor(leaf)


class Packer:
    """Turns flat tuples into elements of one spec: EagerTensors in the spec's structure."""

    def __init__(self, spec):
        self.spec = spec
        self.leaves = nest.flatten(spec)
        self.composite = has_composites(spec)
        self.single = not nest.is_nested(spec) and not self.composite
        self.datasets = any(isinstance(s, DatasetSpec) for s in self.leaves)

    def __call__(self, flat):
        if self.single:
            return flat[0] if self.datasets else EagerTensor(flat[0])
        return nest.pack_sequence_as(self.spec, [_wrap(v) for v in flat],
                                     expand_composites=self.composite)

    def numpy(self, flat):
        """The element as as_numpy_iterator gives it: numpy values (datasets as their iterators,
        a RaggedTensor as its `numpy()`, a SparseTensor as its dense array, as TF's)."""
        if self.composite:
            return nest.map_structure(_numpy_leaf, self(flat))
        values = [v.as_numpy_iterator() if is_dataset(v) else _numpy_value(v) for v in flat]
        return values[0] if self.single else nest.pack_sequence_as(self.spec, values)


def _numpy_leaf(value):
    if is_dataset(value):
        return value.as_numpy_iterator()
    if is_sparse(value):
        return _numpy_value(sparse_to_dense(value).array)
    if isinstance(value, Tensor):
        return _numpy_value(value.array)
    return value.numpy()


def _numpy_value(array):
    return array[()] if isinstance(array, np.ndarray) and array.ndim == 0 else array


def check_compatible(expected, actual, what):
    """TypeError naming `what` when two element specs differ in structure or dtype."""
    try:
        nest.assert_same_structure(expected, actual)
    except (ValueError, TypeError):
        raise TypeError(f'Incompatible dataset elements:\n  {expected!r} vs.   {actual!r}') \
            from None
    for a, b in zip(nest.flatten(expected), nest.flatten(actual)):
        if type(a) is not type(b) or a.dtype != b.dtype or (
                is_type_spec(a) and a.most_specific_common_supertype([b]) is None):
            raise TypeError(f'Incompatible dataset elements:\n  {expected!r} vs.   {actual!r}')


def most_specific(a, b):
    """The most specific spec both `a` and `b` fit (structures and dtypes already agree)."""
    def one(x, y):
        if isinstance(x, DatasetSpec):
            return x
        if is_type_spec(x):
            return x.most_specific_common_supertype([y])
        return TensorSpec(x.shape.most_specific_compatible_shape(y.shape), x.dtype)
    return nest.map_structure(one, a, b)


def flatten_up_to(spec, value):
    """The leaves of `value` at the positions of `spec`'s leaves (lists and shapes below them
    stay whole); a None stands for None at every leaf below it."""
    return nest.flatten_up_to(spec, value, none_fills=True)
