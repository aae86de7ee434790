"""The kinds of trace-key leaves: each class below is how one kind of argument is keyed, and
holds everything the cache and the tracer ask about that kind (see trace_key.py for the key).

The kinds: tensors (and numpy arrays and non-string numpy scalars, as TF treats them) by dtype and
shape; Variables by dtype, shape, trainability and aliasing, as TF's VariableSpec (never by
identity, so the cache holds no Variable); Python scalars, strings and None by value, compared by
equality as TF's `Literal` (2, 2.0 and True share a trace); composite tensors (SparseTensor,
RaggedTensor, ...) by their TypeSpec, fed as their components; objects with `__tf_tracing_type__` by
the TraceType they return; any other object by identity, held weakly by the cache.

Leaf keys are tuples tagged by kind (hashed in C: this is the per-call hot path); `positional_key`
says what `Function.__call__`'s hot path looks a call of eager tensors up by (their numpy dtypes
and shapes, read from the arrays inline), so a change to the tensor key changes it here too.
Adding a kind is a class here and a line in `leaf_for`.
"""
import weakref

import numpy as np

from defun.core import dtypes, names, nest
from defun.core.composite import CompositeTensor, is_type_spec, spec_of
from defun.core.shapes import TensorShape, TensorSpec
from defun.core.tensor import EagerTensor, Tensor, convert_to_tensor
from defun.core.value_conversion import to_array
from defun.functions.trace_types import TracingContext, TypeText, UnknownArgument, VariableSpec
from defun.state.variables import ArgumentVariable, Variable

__all__ = ['leaf_for', 'is_numpy_value', 'positional_key', 'TENSOR']

TENSOR, PYTHON, OBJECT, VARIABLE, CUSTOM = 'T', 'P', 'O', 'V', 'C'


def positional_key(leaves):
    """What Function.__call__'s hot path memoizes a trace under, for a call whose leaves are all
    tensors: their numpy dtypes and shapes, flat (built there from the arguments' arrays); None
    for any other call."""
    if not all(leaf[0] == TENSOR for leaf in leaves):
        return None
    return tuple(x for leaf in leaves for x in leaf[1:])


class _Leaf(tuple):
    """A leaf key: a tuple whose first item names its kind. Defaults suit keys that match only
    themselves and pass the value itself to the traced function."""
    __slots__ = ()

    def accepts(self, other):
        return self == other

    def relax(self, other):
        return self if self == other else None

    def placeholder(self, value, graph, name, out, aliases):
        return value

    def signature(self, value, path):
        return value

    def matches(self, value):
        return True

    def feed(self, value, out, fed):
        """Appends what a call passing `value` here feeds the trace (`fed`: aliases done)."""

    def python_value(self):
        """The Python value this leaf stands for (KeyError: it stands for none)."""
        raise KeyError(self[0])

    def trace_type(self, value):
        """The leaf's type in TF's function_type (its repr is TF's text)."""
        return TypeText(self.render())

    def coarse(self):
        """What every leaf this one accepts shares with it (the cache's index for `accepts`)."""
        return self

    def exact(self):
        """True when this leaf accepts only leaves equal to it."""
        return True


def _valid_op_name(name):
    try:
        names.check_op_name(name)
    except (TypeError, ValueError):
        return False
    return True


class TensorLeaf(_Leaf):
    """(TENSOR, numpy dtype, shape tuple)."""
    __slots__ = ()

    def __new__(cls, np_dtype, shape):
        return tuple.__new__(cls, (TENSOR, np_dtype, shape))

    @property
    def dtype(self):
        return dtypes.from_numpy(self[1])

    def accepts(self, other):
        return self == other or (other[0] == TENSOR and other[1] == self[1] and
                                 TensorShape(other[2]).is_subtype_of(TensorShape(self[2])))

    def coarse(self):
        return (TENSOR, self[1])

    def exact(self):
        return self[2] is not None and None not in self[2]

    def relax(self, other):
        if other[0] != TENSOR or other[1] != self[1]:
            return None
        shape = TensorShape(self[2]).most_specific_compatible_shape(TensorShape(other[2]))
        return TensorLeaf(self[1], shape.as_tuple())

    def render(self):
        return str(TensorSpec(self[2], self.dtype))

    def placeholder(self, value, graph, name, out, aliases):
        # As TF: the placeholder of a TensorSpec given a name takes that name ('Placeholder'
        # when it is no valid op name).
        if isinstance(value, TensorSpec) and value.name:
            name = value.name if _valid_op_name(value.name) else 'Placeholder'
        ph = graph.add_placeholder(self.dtype, self[2], name)
        graph.inputs.append(ph)
        out.append(ph)
        return ph

    def signature(self, value, path):
        # As TF: a TensorSpec given with a name keeps it; others are named by their path.
        name = value.name if isinstance(value, TensorSpec) and value.name else _spec_name(path)
        return TensorSpec(self[2], self.dtype, name)

    def feed(self, value, out, fed):
        out.append(value if isinstance(value, Tensor) else
                   convert_to_tensor(value, dtype=self.dtype))

    def trace_type(self, value):
        return TensorSpec(self[2], self.dtype,
                          value.name if isinstance(value, TensorSpec) else None)


class ValueLeaf(_Leaf):
    """(PYTHON, value): a Python scalar, string or None, equal values sharing a trace."""
    __slots__ = ()

    def __new__(cls, value):
        return tuple.__new__(cls, (PYTHON, value))

    def render(self):
        return repr(self[1])

    def matches(self, value):
        return not isinstance(value, (Tensor, np.ndarray)) and value == self[1]

    def python_value(self):
        return self[1]

    def trace_type(self, value):
        return TypeText(f'Literal[{self[1]!r}]')


class ObjectLeaf(_Leaf):
    """(OBJECT, id): any other object, by identity (the cache holds it weakly)."""
    __slots__ = ()

    def __new__(cls, value):
        return tuple.__new__(cls, (OBJECT, id(value)))

    def render(self):
        return f'<object id {self[1]:#x}>'

    def signature(self, value, path):
        return UnknownArgument()  # as TF: a signature never holds the object

    def matches(self, value):
        return id(value) == self[1]

    def trace_type(self, value):
        try:
            return TypeText(f'Weakref[{weakref.ref(value)!r}]')
        except TypeError:
            return TypeText(f'Weakref[{value!r}]')


class VariableLeaf(_Leaf):
    """(VARIABLE, numpy dtype, shape tuple, trainable, alias id): TF's VariableSpec. The alias id
    numbers the distinct Variables of one call, so f(a, a) and f(a, b) trace apart."""
    __slots__ = ()

    def __new__(cls, np_dtype, shape, trainable, alias):
        return tuple.__new__(cls, (VARIABLE, np_dtype, shape, trainable, alias))

    def coarse(self):
        return (VARIABLE, self[1], self[3], self[4])

    def exact(self):
        return self[2] is not None and None not in self[2]

    def accepts(self, other):
        return self == other or (other[0] == VARIABLE and self.coarse() == other.coarse() and
                                 TensorShape(other[2]).is_subtype_of(TensorShape(self[2])))

    def relax(self, other):
        if other[0] != VARIABLE or self.coarse() != other.coarse():
            return None
        shape = TensorShape(self[2]).most_specific_compatible_shape(TensorShape(other[2]))
        return VariableLeaf(self[1], shape.as_tuple(), self[3], self[4])

    def spec(self):
        return VariableSpec(self[2], dtypes.from_numpy(self[1]), self[3], self[4])

    def render(self):
        return repr(self.spec())

    def placeholder(self, value, graph, name, out, aliases):
        if self[4] in aliases:
            return aliases[self[4]]
        ph = graph.add_placeholder(dtypes.resource, (), name)
        graph.inputs.append(ph)
        out.append(ph)
        proxy = ArgumentVariable(ph, value, TensorShape(self[2]))
        graph.add_variable_input(ph, proxy)
        aliases[self[4]] = proxy
        return proxy

    def signature(self, value, path):
        return self.spec()

    def feed(self, value, out, fed):
        if self[4] not in fed:
            fed.add(self[4])
            out.append(value.handle)

    def trace_type(self, value):
        return self.spec()

    def matches(self, value):
        return isinstance(value, Variable) and value.dtype.np_dtype == self[1] and \
            value.shape.is_subtype_of(TensorShape(self[2])) and value.trainable == self[3]


class CustomLeaf(_Leaf):
    """(CUSTOM, trace type): an object's own `__tf_tracing_type__`."""
    __slots__ = ()

    def __new__(cls, trace_type):
        return tuple.__new__(cls, (CUSTOM, trace_type))

    def accepts(self, other):
        return self == other or (other[0] == CUSTOM and other[1].is_subtype_of(self[1]))

    def coarse(self):
        return (CUSTOM,)

    def exact(self):
        return False

    def relax(self, other):
        if other[0] != CUSTOM:
            return None
        common = self[1].most_specific_common_supertype([other[1]])
        return None if common is None else CustomLeaf(common)

    def render(self):
        return repr(self[1])

    def placeholder(self, value, graph, name, out, aliases):
        # A type whose values carry tensors (TF's flatten / to_tensors / from_tensors, as a
        # tf.data Dataset's variant) is rebuilt from placeholders for them.
        specs = self[1].flatten()
        if not specs:
            return self[1].placeholder_value(TracingContext())
        components = []
        for i, spec in enumerate(specs):
            ph = graph.add_placeholder(spec.dtype, spec.shape.as_tuple(), f'{name}_{i}')
            graph.inputs.append(ph)
            components.append(ph)
        out.extend(components)
        return self[1].from_tensors(iter(components))

    def feed(self, value, out, fed):
        out.extend(self[1].to_tensors(value))

    def trace_type(self, value):
        return self[1]

    def matches(self, value):
        return _custom_type(value) == self[1]


class CompositeLeaf(CustomLeaf):
    """(CUSTOM, type spec): a composite tensor, traced as placeholders for its components and
    rebuilt from them; specs relax as tensor shapes do (TF's most_specific_common_supertype)."""
    __slots__ = ()

    def relax(self, other):
        if other[0] != CUSTOM or not is_type_spec(other[1]):
            return None
        common = self[1].most_specific_common_supertype([other[1]])
        return None if common is None else CompositeLeaf(common)

    def placeholder(self, value, graph, name, out, aliases):
        components = []
        for i, spec in enumerate(nest.flatten(self[1], expand_composites=True)):
            # As TF names them: the first component after the argument, the others numbered.
            ph = graph.add_placeholder(spec.dtype, spec.shape.as_tuple(),
                                       f'{name}_{i}' if i else name)
            graph.inputs.append(ph)
            components.append(ph)
        out.extend(components)
        return nest.pack_sequence_as(self[1], components, expand_composites=True)

    def signature(self, value, path):
        return self[1]

    def feed(self, value, out, fed):
        out.extend(nest.flatten(value, expand_composites=True))

    def matches(self, value):
        return isinstance(value, CompositeTensor) and spec_of(value).is_subtype_of(self[1])


def _custom_type(value):
    method = getattr(type(value), '__tf_tracing_type__', None)
    return None if method is None else method(value, TracingContext())


class UnconvertibleArray(ValueError):
    """A numpy array of objects passed to a function: TF traces it as a string tensor of its
    shape (`stand_in`) first, so an op refusing strings fails the trace, and only then fails to
    convert it."""

    def __init__(self, message, shape):
        super().__init__(message)
        self.stand_in = np.full(shape, b'', dtype=object)


def is_numpy_value(value):
    """numpy arrays and numpy scalars other than strings: TF traces them as tensors."""
    return isinstance(value, np.ndarray) or (
        isinstance(value, np.generic) and not isinstance(value, (np.str_, np.bytes_)))


def leaf_for(value, feeds, holders, aliases):
    """The leaf key of one argument leaf; appends what a call feeds for it (tensors, Variable
    handles) to `feeds` and objects keyed by identity to `holders`."""
    if type(value) is EagerTensor:
        feeds.append(value)
        array = value.array
        return TensorLeaf(array.dtype, array.shape)
    if isinstance(value, (Tensor, TensorSpec)):
        feeds.append(value)
        return TensorLeaf(value.dtype.np_dtype, value.shape.as_tuple())
    if is_numpy_value(value):
        array = np.asarray(value)
        try:
            array = to_array(array, None)
        except ValueError as exc:  # an array of objects other than strings
            raise UnconvertibleArray(str(exc), array.shape) from None
        feeds.append(EagerTensor(array))
        return TensorLeaf(array.dtype, array.shape)
    if value is None or isinstance(value, (bool, int, float, complex, str, bytes, np.generic)):
        return ValueLeaf(value)
    if isinstance(value, Variable):
        if id(value) not in aliases:  # an aliased Variable is fed once
            aliases[id(value)] = len(aliases)
            feeds.append(value.handle)
        return VariableLeaf(value.dtype.np_dtype, value.shape.as_tuple(), value.trainable,
                            aliases[id(value)])
    if isinstance(value, CompositeTensor) or is_type_spec(value):
        feeds.extend(nest.flatten(value, expand_composites=True))
        return CompositeLeaf(value if is_type_spec(value) else spec_of(value))
    trace_type = _custom_type(value)
    if trace_type is not None:
        if trace_type.flatten():
            feeds.extend(trace_type.to_tensors(value))
        return CustomLeaf(trace_type)
    holders.append(value)
    return ObjectLeaf(value)


def _spec_name(path):
    """TF's sanitize_spec_name: lower case, anything but letters and digits becomes '_'."""
    name = ''.join(c if c.isalnum() else '_' for c in path.lower())
    return name if name[:1].isalpha() else 'tensor_' + name
