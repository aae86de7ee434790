"""`tf.experimental.Optional`: a value of an element spec that may be absent.

What `Iterator.get_next_as_optional()` returns, eagerly and in a graph: `has_value` is a bool
tensor, and the value (zeros of the spec when absent, so that graphs have tensors to carry) is
only handed out by `get_value()` when present. As in TF it is a composite tensor (its spec is
`OptionalSpec`), so it passes in and out of functions, `cond` and `while_loop` as its components.
"""
import numpy as np

from defun.core import nest
from defun.core.composite import CompositeTensor, TypeSpec
from defun.core import dtypes
from defun.core.errors import InvalidArgumentError
from defun.ops.debugging.debug import Assert
from defun.ops.framework.base_ops import identity
from defun.graphs.scopes import control_dependencies
from defun.core.shapes import TensorSpec
from defun.core.tensor import EagerTensor, Tensor, convert_to_tensor

from defun.data import structure

__all__ = ['Optional', 'OptionalSpec']


class Optional(CompositeTensor):
    """An optional element: `has_value()`, `get_value()`, `element_spec`."""

    def __init__(self, has_value, value, element_spec):
        self._has_value = has_value
        self._value = value
        self._element_spec = element_spec

    @staticmethod
    def from_value(value):
        element = structure.normalize(value, 'Optional.from_value')
        return Optional(convert_to_tensor(True), element, structure.spec_of(element))

    @staticmethod
    def empty(element_spec):
        zeros = nest.map_structure(_zeros, element_spec)
        return Optional(convert_to_tensor(False), zeros, element_spec)

    @property
    def element_spec(self):
        return self._element_spec

    def has_value(self, name=None):
        return self._has_value

    def get_value(self, name=None):
        has = self._has_value
        if isinstance(has, EagerTensor):
            if not bool(has.array):
                raise InvalidArgumentError('The given optional does not have a value. '
                                           '[Op:OptionalGetValue]')
            return self._value
        check = Assert(has, ['The given optional does not have a value.'])
        with control_dependencies([check]):
            return nest.map_structure(
                lambda t: identity(t) if isinstance(t, Tensor) else t, self._value)

    @property
    def _type_spec(self):
        return OptionalSpec(self._element_spec)

    def __repr__(self):
        return f'<Optional element_spec={self._element_spec!r}>'


class OptionalSpec(TypeSpec):
    """The type of an Optional: its element spec (TF's `tf.OptionalSpec`)."""

    __slots__ = ('_element_spec',)

    def __init__(self, element_spec):
        self._element_spec = element_spec

    @property
    def element_spec(self):
        return self._element_spec

    @property
    def value_type(self):
        return Optional

    def _serialize(self):
        return (self._element_spec,)

    @property
    def _component_specs(self):
        return (TensorSpec([], dtypes.bool), self._element_spec)

    def _to_components(self, value):
        return (value._has_value, value._value)

    def _from_components(self, components):
        has_value, value = components
        return Optional(has_value, value, self._element_spec)


def _zeros(spec):
    if not isinstance(spec, TensorSpec):
        raise TypeError(f'Optional.empty: expected TensorSpecs, got {spec!r}')
    dims = spec.shape.as_tuple() or ()
    return EagerTensor(np.zeros([0 if d is None else d for d in dims], spec.dtype.np_dtype))
