"""tf.experimental.ExtensionType: users' own composite tensors, declared as annotated fields.

A subclass lists its fields as class annotations (`values: tf.Tensor`, `name: str = 'm'`); the
class gets a constructor taking them in order (tensor fields converted, composite fields
checked), immutable instances (`__validate__` runs after construction), a repr, `==`, and a
`Spec` class, its TypeSpec: tensor and composite fields are the components, the other fields are
part of the type. Through the composite mechanism (defun/core/composite.py) such values are
function arguments and results, loop variables and `nest` structures like TF's.
"""
import inspect

from defun.core import dtypes
from defun.core.composite import BatchableTypeSpec, CompositeTensor, TypeSpec, spec_of
from defun.core.shapes import TensorShape, TensorSpec, as_shape
from defun.core.tensor import Tensor, convert_to_tensor
from defun.ops.math.exports import equal, logical_and, reduce_all

__all__ = ['ExtensionType', 'ExtensionTypeSpec']

_FIELDS = '_tf_extension_type_fields'
_BUILDING = '_tf_extension_type_building'


def _fields_of(cls):
    """[(name, annotation, default or inspect.Parameter.empty)], base classes' fields first."""
    fields = {}
    for klass in reversed(cls.__mro__):
        if klass is ExtensionType or not issubclass(klass, ExtensionType):
            continue
        for name, annotation in klass.__dict__.get('__annotations__', {}).items():
            default = klass.__dict__.get(name, inspect.Parameter.empty)
            fields[name] = (name, annotation, default)
    return list(fields.values())


def _convert(cls, name, annotation, value):
    if annotation is Tensor:
        return convert_to_tensor(value)
    if isinstance(annotation, type) and issubclass(annotation, CompositeTensor):
        if not isinstance(value, annotation):
            raise TypeError(f'{cls.__name__}: field `{name}` expected a {annotation.__name__}, '
                            f'got {value!r}')
        return value
    if annotation is TensorShape:
        return as_shape(value)
    if annotation is dtypes.DType:
        return dtypes.as_dtype(value)
    return value


class ExtensionType(CompositeTensor):
    """Base class of users' composite tensors (TF's tf.experimental.ExtensionType)."""

    __slots__ = ('__dict__', '__weakref__')

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        fields = _fields_of(cls)
        setattr(cls, _FIELDS, tuple(fields))
        if '__init__' not in cls.__dict__:
            cls.__init__ = _default_init
        if 'Spec' not in cls.__dict__:
            cls.Spec = type('Spec', (ExtensionTypeSpec,), {
                '__qualname__': f'{cls.__qualname__}.Spec', '__module__': cls.__module__,
                'value_type': cls})

    def __setattr__(self, name, value):
        if not self.__dict__.get(_BUILDING, False):
            raise AttributeError(f'Cannot mutate attribute `{name}` outside the custom '
                                 f'constructor of ExtensionType.')
        object.__setattr__(self, name, value)

    def __delattr__(self, name):
        raise AttributeError(f'Cannot mutate attribute `{name}` outside the custom constructor '
                             f'of ExtensionType.')

    @property
    def _type_spec(self):
        values = {}
        for name, _, _ in getattr(type(self), _FIELDS):
            value = self.__dict__[name]
            if isinstance(value, Tensor):
                value = TensorSpec(value.shape, value.dtype)
            elif isinstance(value, CompositeTensor):
                value = spec_of(value)
            values[name] = value
        return type(self).Spec(**values)

    def __repr__(self):
        parts = ', '.join(f'{name}={self.__dict__[name]!r}'
                          for name, _, _ in getattr(type(self), _FIELDS))
        return f'{type(self).__name__}({parts})'

    def __eq__(self, other):
        """A boolean tensor: True when every field is equal (tensors elementwise, all of them)."""
        if type(other) is not type(self):
            return convert_to_tensor(False)
        result = convert_to_tensor(True)
        for name, _, _ in getattr(type(self), _FIELDS):
            a, b = self.__dict__[name], other.__dict__[name]
            if isinstance(a, Tensor):
                if not a.shape.is_compatible_with(b.shape):
                    return convert_to_tensor(False)
                result = logical_and(result, reduce_all(equal(a, b)))
            elif a != b:
                return convert_to_tensor(False)
        return result

    def __ne__(self, other):
        return ~(self == other)

    __hash__ = None


def _default_init(self, *args, **kwargs):
    cls = type(self)
    fields = getattr(cls, _FIELDS)
    signature = inspect.Signature([
        inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=default)
        for name, _, default in fields])
    bound = signature.bind(*args, **kwargs)
    bound.apply_defaults()
    object.__setattr__(self, _BUILDING, True)
    try:
        for name, annotation, _ in fields:
            setattr(self, name, _convert(cls, name, annotation, bound.arguments[name]))
    finally:
        del self.__dict__[_BUILDING]
    validate = getattr(self, '__validate__', None)
    if validate is not None:
        validate()


class ExtensionTypeSpec(BatchableTypeSpec):
    """The TypeSpec of an ExtensionType: its fields, with TensorSpecs (and composites' specs)
    standing for the tensor fields. Each ExtensionType subclass has its own, as `Type.Spec`."""

    __slots__ = ('_fields',)
    value_type = None

    def __init__(self, *args, **kwargs):
        fields = getattr(self.value_type, _FIELDS)
        signature = inspect.Signature([
            inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=default)
            for name, _, default in fields])
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        self._fields = dict(bound.arguments)

    def __getattr__(self, name):
        fields = object.__getattribute__(self, '_fields')
        if name in fields:
            return fields[name]
        raise AttributeError(f'{type(self).__qualname__} has no attribute {name!r}')

    def _serialize(self):
        return tuple(self._fields.values())

    @classmethod
    def _deserialize(cls, fields):
        return cls(*fields)

    def __repr__(self):
        parts = ', '.join(f'{k}={v!r}' for k, v in self._fields.items())
        return f'{type(self).__qualname__}({parts})'

    def _tensor_fields(self):
        return [k for k, v in self._fields.items() if isinstance(v, TypeSpec)]

    @property
    def _component_specs(self):
        return [self._fields[k] for k in self._tensor_fields()]

    def _to_components(self, value):
        return [value.__dict__[k] for k in self._tensor_fields()]

    def _from_components(self, components):
        if components and isinstance(components[0], TypeSpec):
            return self
        value = object.__new__(self.value_type)
        parts = dict(zip(self._tensor_fields(), components))
        object.__setattr__(value, _BUILDING, True)
        for name, field in self._fields.items():
            setattr(value, name, parts.get(name, field))
        del value.__dict__[_BUILDING]
        return value
