"""`tf.experimental.Optional`: a value of an element spec that may be absent.

As in TF, an Optional is one *variant* tensor (its run-time value an `OptionalValue`: the flat
components of the element, or nothing) and its element_spec. Its only component is that variant,
whatever the element spec, so an Optional built with `element_spec=None` (`Optional.empty(None)`)
and one holding a value are the same kind of loop variable or branch output in `while_loop` and
`cond`: the spec says how `get_value()` unpacks the variant, and may be set after the fact, as
Keras's training loop does. Four ops work on the variant, with TF's names: `OptionalFromValue`,
`OptionalNone`, `OptionalHasValue` and `OptionalGetValue` (gradients flow through the first and
the last, as TF's).
"""
import numpy as np

from defun.core import dtypes, nest
from defun.core.composite import CompositeTensor, TypeSpec
from defun.core.dispatch import apply_op
from defun.core.errors import InvalidArgumentError
from defun.core.registry import define_op
from defun.core.shapes import TensorSpec
from defun.core.tensor import Tensor, convert_to_tensor

from defun.data import structure

__all__ = ['Optional', 'OptionalSpec', 'OptionalValue', 'from_flat']


class OptionalValue:
    """The run-time value of an optional's variant tensor: the element's flat arrays, or None."""

    __slots__ = ('components',)
    # What an eager tensor reads of its value: a scalar of dtype variant.
    dtype = dtypes.variant
    shape = ()
    ndim = 0

    def __init__(self, components):
        self.components = components

    def __repr__(self):
        if self.components is None:
            return 'OptionalVariant<None>'
        return f'OptionalVariant<values: ({", ".join(_describe(a) for a in self.components)})>'


def _describe(array):
    return f'Tensor<type: {dtypes.from_numpy(np.asarray(array).dtype).name} shape: ' \
           f'{list(np.shape(array))}>'


def _from_value_kernel(*components):
    return OptionalValue(tuple(components))


def _none_kernel():
    return OptionalValue(None)


def _has_value_kernel(optional):
    return np.array(optional.components is not None)


def _get_value_kernel(optional, specs):
    if optional.components is None:
        raise InvalidArgumentError('The given optional does not have a value.')
    return optional.components


def _variant(*inputs, **attrs):
    return (dtypes.variant, ())


def _from_value_grad(op, grad):
    specs = tuple(TensorSpec(t.shape, t.dtype) for t in op.inputs)
    return list(apply_op(OPTIONAL_GET_VALUE, [grad], {'specs': specs}))


def _get_value_grad(op, *grads):
    return apply_op(OPTIONAL_FROM_VALUE, list(grads))


# Variants are never folded at build time: their values are not arrays (as Grappler's folding).
OPTIONAL_FROM_VALUE = define_op(
    'OptionalFromValue', _from_value_kernel, _variant, _from_value_grad,
    foldable=False, doc='An optional variant holding its inputs.')
OPTIONAL_NONE = define_op('OptionalNone', _none_kernel, _variant, None,
                          foldable=False, doc='An optional variant holding nothing.')
OPTIONAL_HAS_VALUE = define_op(
    'OptionalHasValue', _has_value_kernel, lambda optional: (dtypes.bool, ()), None,
    foldable=False, doc='Whether an optional variant holds a value.')
OPTIONAL_GET_VALUE = define_op(
    'OptionalGetValue', _get_value_kernel,
    lambda optional, specs: [(s.dtype, s.shape.as_tuple()) for s in specs], _get_value_grad,
    num_outputs=None, foldable=False,
    doc="The components an optional variant holds (InvalidArgumentError when it holds none).")


class Optional(CompositeTensor):
    """An optional element: `has_value()`, `get_value()`, `element_spec`."""

    def __init__(self, variant, element_spec):
        self._variant_tensor = variant
        self._element_spec = element_spec

    @staticmethod
    def from_value(value):
        element = structure.normalize(value, 'Optional.from_value')
        return from_flat(nest.flatten(element, expand_composites=True), structure.spec_of(element))

    @staticmethod
    def empty(element_spec):
        return Optional(apply_op(OPTIONAL_NONE, []), element_spec)

    @property
    def element_spec(self):
        return self._element_spec

    def has_value(self, name=None):
        return apply_op(OPTIONAL_HAS_VALUE, [self._variant_tensor], name=name)

    def get_value(self, name=None):
        if self._element_spec is None:   # TF fails the same way: a None spec cannot unpack
            raise AttributeError('Optional.get_value: the optional has no element_spec (None), so '
                                 'its value cannot be unpacked; set it or build the optional '
                                 'with one')
        specs = tuple(nest.flatten(self._element_spec, expand_composites=True))
        flat = apply_op(OPTIONAL_GET_VALUE, [self._variant_tensor], {'specs': specs}, name=name)
        return nest.pack_sequence_as(self._element_spec, list(flat), expand_composites=True)

    @property
    def _type_spec(self):
        return OptionalSpec(self._element_spec)

    def __repr__(self):
        return f'<Optional element_spec={self._element_spec!r}>'


def from_flat(flat, element_spec):
    """The Optional holding the flat tensors `flat` (None: holding nothing) of `element_spec`."""
    if flat is None:
        return Optional.empty(element_spec)
    flat = [t if isinstance(t, Tensor) else convert_to_tensor(t) for t in flat]
    return Optional(apply_op(OPTIONAL_FROM_VALUE, flat), element_spec)


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
        return (TensorSpec([], dtypes.variant),)

    def _to_components(self, value):
        return (value._variant_tensor,)

    def _from_components(self, components):
        return Optional(components[0], self._element_spec)
