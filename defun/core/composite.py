"""Composite tensors, as TF's: a Python value made of dense component tensors (a SparseTensor's
indices, values and dense shape; a RaggedTensor's flat values and row splits) described by a
`TypeSpec`. Everything that moves tensors (function arguments and results, cond and while_loop,
tf.data elements, gradients) moves a composite as its components: `spec.to_components(value)` is
a nested structure of tensors (and maybe other composites), `spec.from_components(parts)` the value
again, and `spec.component_specs` the TensorSpecs of those parts.

A TypeSpec is also the value's trace type (`is_subtype_of`, `most_specific_common_supertype`), so
a `tf.function` keys a composite argument by its spec and relaxes shapes as it does for tensors
(defun/functions/trace_leaves.py). TensorSpec counts as a TypeSpec, as in TF (its own class lives
with the shapes, below this module).

Subclasses say what they hold through TF's protocol methods (`_serialize`, `_component_specs`,
`_to_components`, `_from_components`, `value_type`), which users' own TypeSpecs define too; the
rest of defun calls the public wrappers here.
"""
import abc

from defun.core.shapes import TensorShape, TensorSpec

__all__ = ['TypeSpec', 'BatchableTypeSpec', 'CompositeTensor', 'spec_of', 'is_composite',
           'is_type_spec']


class TypeSpec(metaclass=abc.ABCMeta):
    """The type of a value that tensors carry (TF's `tf.TypeSpec`)."""

    __slots__ = ()

    # -- what a subclass defines (TF's protocol)
    @property
    def value_type(self):
        raise NotImplementedError(f'{type(self).__name__} must define value_type')

    def _serialize(self):
        raise NotImplementedError(f'{type(self).__name__} must define _serialize')

    @classmethod
    def _deserialize(cls, fields):
        return cls(*fields)

    @property
    def _component_specs(self):
        raise NotImplementedError(f'{type(self).__name__} must define _component_specs')

    def _to_components(self, value):
        raise NotImplementedError(f'{type(self).__name__} must define _to_components')

    def _from_components(self, components):
        raise NotImplementedError(f'{type(self).__name__} must define _from_components')

    # -- the public surface defun's own modules use
    @property
    def component_specs(self):
        return self._component_specs

    def to_components(self, value):
        return self._to_components(value)

    def from_components(self, components):
        return self._from_components(components)

    def serialize(self):
        return self._serialize()

    # -- equality and subtyping, field by field
    def __eq__(self, other):
        return type(other) is type(self) and self._serialize() == other._serialize()

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash((type(self), _hashable(self._serialize())))

    def __repr__(self):
        return f'{type(self).__name__}{tuple(self._serialize())!r}'

    def is_compatible_with(self, spec_or_value):
        """True when the two could describe one value (unknown dims fit any)."""
        other = spec_or_value if isinstance(spec_or_value, TypeSpec) else spec_of(spec_or_value)
        if type(other) is not type(self):
            return False
        return _fields_agree(self._serialize(), other._serialize(), _compatible)

    def is_subtype_of(self, other):
        """True when every value of this spec is one of `other` (its dims are as known)."""
        return type(other) is type(self) and _fields_agree(
            self._serialize(), other._serialize(), lambda a, b: a.is_subtype_of(b))

    def most_specific_common_supertype(self, others):
        """The most specific spec of this type every one of `others` is a subtype of (unknown
        dims where their shapes differ, unknown rank where their ranks do), or None."""
        fields = self._serialize()
        for other in others:
            if type(other) is not type(self):
                return None
            fields = _common_fields(fields, other._serialize())
            if fields is None:
                return None
        return self._deserialize(fields)

    def most_specific_compatible_type(self, other):
        common = self.most_specific_common_supertype([other])
        if common is None:
            raise ValueError(f'No TypeSpec is compatible with both {self} and {other}')
        return common

    def _with_shape(self, shape):
        """This spec with another shape (for the shape invariants of while_loop)."""
        raise NotImplementedError(f'{type(self).__name__} has no shape to change')


class BatchableTypeSpec(TypeSpec):
    """A TypeSpec whose values tf.data can batch and unbatch (TF's BatchableTypeSpec): `_batch(n)`
    is the spec of n values stacked, `_unbatch()` of one of them."""

    __slots__ = ()

    def _batch(self, batch_size):
        raise NotImplementedError(f'{type(self).__name__} must define _batch')

    def _unbatch(self):
        raise NotImplementedError(f'{type(self).__name__} must define _unbatch')

    def batch(self, batch_size):
        return self._batch(batch_size)

    def unbatch(self):
        return self._unbatch()


class CompositeTensor:
    """A value made of tensors and described by a TypeSpec (TF's CompositeTensor): subclasses
    define the `_type_spec` property."""

    __slots__ = ()

    @property
    def _type_spec(self):
        raise NotImplementedError(f'{type(self).__name__} must define _type_spec')

    def __tf_tracing_type__(self, context):
        return self._type_spec


TypeSpec.register(TensorSpec)


def spec_of(value):
    """The TypeSpec of a composite tensor."""
    return value._type_spec


def is_composite(value):
    return isinstance(value, CompositeTensor)


def is_type_spec(value):
    """True for the spec of a composite (a TensorSpec describes a plain tensor)."""
    return isinstance(value, TypeSpec) and not isinstance(value, TensorSpec)


def _hashable(value):
    if isinstance(value, (list, tuple)):
        return tuple(_hashable(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _hashable(v)) for k, v in value.items()))
    return value


def _compatible(a, b):
    return a.is_compatible_with(b)


def _fields_agree(a, b, shape_rule):
    """True when two serializations agree: shapes and specs by `shape_rule`, the rest equal."""
    if isinstance(a, (TensorShape, TypeSpec)) and type(a) is type(b):
        return shape_rule(a, b)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_fields_agree(x, y, shape_rule) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_fields_agree(a[k], b[k], shape_rule) for k in a)
    return a == b


def _common_fields(a, b):
    """The serialization both `a` and `b` fit, or None."""
    if isinstance(a, TensorShape) and isinstance(b, TensorShape):
        if a.rank != b.rank:
            return TensorShape(None)
        return a.most_specific_compatible_shape(b)
    if isinstance(a, TypeSpec) and type(a) is type(b):
        return a.most_specific_common_supertype([b])
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) and len(a) == len(b):
        parts = [_common_fields(x, y) for x, y in zip(a, b)]
        return None if any(p is None for p in parts) else type(a)(parts)
    if isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys():
        parts = {k: _common_fields(a[k], b[k]) for k in a}
        return None if any(p is None for p in parts.values()) else parts
    return a if a == b else None
