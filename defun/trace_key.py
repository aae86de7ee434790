"""The trace cache key: what about a call's arguments decides which trace runs it.

A TraceKey is a frozen, hashable dataclass built by one walk over the canonical arguments (bound to
the signature, defaults applied) with `nest.flatten_with_tree`: the parameter names, the nesting of
the arguments (container types, dict keys, namedtuple types) and one *leaf key* per leaf. Each kind
of leaf is one class below, and everything the cache and the tracer need to know about a kind is a
method of its class: whether a trace made for it accepts a call (`accepts`), the most specific key
accepting two (`relax`), how it reads in retrace explanations (`render`), what the traced function
receives in its place (`placeholder`), how the trace's input signature shows it (`signature`), and
whether a later value is the one it was traced with (`matches`). Changing how a kind of argument
is keyed touches this file only.

The kinds: tensors (and numpy arrays and non-string numpy scalars, as TF treats them) by dtype and
shape; Variables by dtype, shape, trainability and aliasing, as TF's VariableSpec (never by
identity, so the cache holds no Variable); Python scalars, strings and None by value, compared by
equality as TF's `Literal` (2, 2.0 and True share a trace); objects with `__tf_tracing_type__` by
the TraceType they return; any other object by identity, held weakly by the cache.

Leaf keys are tuples tagged by kind (hashed in C: this is the per-call hot path), so the tensor key
`(TENSOR, numpy dtype, shape tuple)` that `Function.__call__` builds inline equals a TensorLeaf.
"""
import weakref
from dataclasses import dataclass

import numpy as np

from defun import dtypes, nest
from defun.shapes import TensorShape, TensorSpec
from defun.tensor import EagerTensor, Tensor
from defun.variables import ArgumentVariable, Variable

__all__ = ['TraceKey', 'TENSOR', 'is_numpy_value', 'TraceType', 'VariableSpec', 'UnknownArgument']

TENSOR, PYTHON, OBJECT, VARIABLE, CUSTOM = 'T', 'P', 'O', 'V', 'C'


class TraceType:
    """The type of an argument for tracing, as `tf.types.experimental.TraceType`: an object's
    `__tf_tracing_type__(context)` returns one, and calls whose arguments have equal types (or a
    subtype of a traced one) share a trace."""

    def is_subtype_of(self, other):
        raise NotImplementedError(f'{type(self).__name__} must define is_subtype_of')

    def most_specific_common_supertype(self, others):
        raise NotImplementedError(
            f'{type(self).__name__} must define most_specific_common_supertype')

    def placeholder_value(self, placeholder_context=None):
        raise NotImplementedError(f'{type(self).__name__} must define placeholder_value')

    def to_tensors(self, value):
        return []

    def __eq__(self, other):
        raise NotImplementedError(f'{type(self).__name__} must define __eq__')

    def __hash__(self):
        raise NotImplementedError(f'{type(self).__name__} must define __hash__')


class VariableSpec:
    """How a Variable argument shows in an input signature, as TF's VariableSpec."""

    __slots__ = ('shape', 'dtype', 'trainable', 'alias_id')

    def __init__(self, shape, dtype=dtypes.float32, trainable=True, alias_id=None):
        self.shape = TensorShape(shape)
        self.dtype = dtypes.as_dtype(dtype)
        self.trainable = trainable
        self.alias_id = alias_id

    def __eq__(self, other):
        return type(other) is VariableSpec and (self.shape, self.dtype, self.trainable,
                                                self.alias_id) == (other.shape, other.dtype,
                                                                   other.trainable, other.alias_id)

    def __hash__(self):
        return hash((self.shape.as_tuple(), self.dtype, self.trainable, self.alias_id))

    def __repr__(self):
        return (f'VariableSpec(shape={self.shape}, dtype={self.dtype!r}, '
                f'trainable={self.trainable}, alias_id={self.alias_id})')


class UnknownArgument:
    """Stands in a trace's input signature for an object keyed by identity (as TF's)."""


class _TracingContext:
    """What `__tf_tracing_type__` receives (TF passes its tracing context)."""


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

    def type_text(self, value):
        """The leaf as TF's function_type prints it."""
        return self.render()

    def coarse(self):
        """What every leaf this one accepts shares with it (the cache's index for `accepts`)."""
        return self

    def exact(self):
        """True when this leaf accepts only leaves equal to it."""
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
        ph = graph.add_placeholder(self.dtype, self[2], name)
        graph.inputs.append(ph)
        out.append(ph)
        return ph

    def signature(self, value, path):
        return TensorSpec(self[2], self.dtype, _spec_name(path))

    def type_text(self, value):
        return repr(TensorSpec(self[2], self.dtype, getattr(value, 'name', None)
                               if isinstance(value, TensorSpec) else None))


class ValueLeaf(_Leaf):
    """(PYTHON, value): a Python scalar, string or None, equal values sharing a trace."""
    __slots__ = ()

    def __new__(cls, value):
        return tuple.__new__(cls, (PYTHON, value))

    def render(self):
        return repr(self[1])

    def matches(self, value):
        return not isinstance(value, (Tensor, np.ndarray)) and value == self[1]

    def type_text(self, value):
        return f'Literal[{self[1]!r}]'


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

    def type_text(self, value):
        try:
            return f'Weakref[{weakref.ref(value)!r}]'
        except TypeError:
            return f'Weakref[{value!r}]'


class VariableLeaf(_Leaf):
    """(VARIABLE, numpy dtype, shape tuple, trainable, alias id): TF's VariableSpec. The alias id
    numbers the distinct Variables of one call, so f(a, a) and f(a, b) trace apart."""
    __slots__ = ()

    def __new__(cls, variable, alias):
        return tuple.__new__(cls, (VARIABLE, variable.dtype.np_dtype,
                                   variable.shape.as_tuple(), variable.trainable, alias))

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
        proxy = ArgumentVariable(ph, value)
        graph.add_variable_input(ph, proxy)
        aliases[self[4]] = proxy
        return proxy

    def signature(self, value, path):
        return self.spec()

    def matches(self, value):
        return isinstance(value, Variable) and value.dtype.np_dtype == self[1] and \
            value.shape.as_tuple() == self[2] and value.trainable == self[3]


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
        # A type whose values carry tensors (to_tensors) names their specs (component_specs) and
        # rebuilds a value from placeholders for them (from_components), as a tf.data Dataset.
        specs = getattr(self[1], 'component_specs', None)
        if specs is None:
            return self[1].placeholder_value(_TracingContext())
        components = []
        for i, spec in enumerate(specs()):
            ph = graph.add_placeholder(spec.dtype, spec.shape.as_tuple(), f'{name}_{i}')
            graph.inputs.append(ph)
            components.append(ph)
        out.extend(components)
        return self[1].from_components(components)

    def matches(self, value):
        return _custom_type(value) == self[1]


def _custom_type(value):
    method = getattr(type(value), '__tf_tracing_type__', None)
    return None if method is None else method(value, _TracingContext())


def is_numpy_value(value):
    """numpy arrays and numpy scalars other than strings: TF traces them as tensors."""
    return isinstance(value, np.ndarray) or (
        isinstance(value, np.generic) and not isinstance(value, (np.str_, np.bytes_)))


def _leaf_for(value, feeds, holders, aliases):
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
        value = np.asarray(value)
        feeds.append(EagerTensor(value))
        return TensorLeaf(value.dtype, value.shape)
    if value is None or isinstance(value, (bool, int, float, complex, str, bytes, np.generic)):
        return ValueLeaf(value)
    if isinstance(value, Variable):
        if id(value) not in aliases:  # an aliased Variable is fed once
            aliases[id(value)] = len(aliases)
            feeds.append(value.handle)
        return VariableLeaf(value, aliases[id(value)])
    trace_type = _custom_type(value)
    if trace_type is not None:
        feeds.extend(trace_type.to_tensors(value))
        return CustomLeaf(trace_type)
    holders.append(value)
    return ObjectLeaf(value)


@dataclass(frozen=True)
class TraceKey:
    """names: parameter names; tree: the nesting of the argument list (`nest.flatten_with_tree`);
    leaves: one leaf key per leaf, depth first."""
    names: tuple
    tree: tuple
    leaves: tuple

    @classmethod
    def build(cls, names, values):
        """(key, feeds, holders) from one walk over the arguments: feeds are what a call passes
        to the trace in its argument order, holders the objects keyed by identity."""
        flat, tree = nest.flatten_with_tree(list(values))
        feeds, holders, aliases = [], [], {}
        leaves = tuple([_leaf_for(v, feeds, holders, aliases) for v in flat])
        return cls(tuple(names), tree, leaves), feeds, holders

    @staticmethod
    def flat_tree(n):
        """The tree of n arguments that are all leaves (what the hot path builds inline)."""
        return (list,) + (None,) * n

    def __repr__(self):
        return 'TraceKey(' + ', '.join(f'{n}={text}' for n, text in self.rendered()) + ')'

    # -- the cache
    def accepts(self, other):
        """True when the trace made for this key can run a call with key `other` (tensor shapes
        with None dims accept any size there; subtypes of custom trace types)."""
        return self == other or (
            self.names == other.names and self.tree == other.tree and
            all(g.accepts(s) for g, s in zip(self.leaves, other.leaves)))

    def coarse(self):
        """What every key this one accepts shares with it: a key found by it need only be
        checked with `accepts` (so a lookup never scans every trace)."""
        return (self.names, self.tree, tuple([leaf.coarse() for leaf in self.leaves]))

    def exact(self):
        """True when this key accepts only keys equal to it (a dict lookup finds those)."""
        return all(leaf.exact() for leaf in self.leaves)

    def relax(self, other):
        """The most specific key accepting both (None dims where tensor shapes differ), or None
        when they differ in anything else."""
        if self.names != other.names or self.tree != other.tree:
            return None
        leaves = [o.relax(n) for o, n in zip(self.leaves, other.leaves)]
        if any(leaf is None for leaf in leaves):
            return None
        return TraceKey(self.names, self.tree, tuple(leaves))

    # -- text
    def rendered(self):
        """[(parameter name, its key as text)], as retrace explanations print them."""
        leaves = iter(self.leaves)
        return [(name, _render(tree, leaves)) for name, tree in zip(self.names, self.tree[1:])]

    def describe_changes(self, new):
        """[(parameter, old text, new text)] for every parameter whose key differs in `new`."""
        old = dict(self.rendered())
        return [(name, old.get(name, '(absent)'), text) for name, text in new.rendered()
                if old.get(name) != text]

    # -- tracing
    def placeholders(self, values, graph):
        """The arguments rebuilt for tracing (placeholders for tensors, stand-ins for Variables,
        Python values as they are), and the placeholders that are the trace's inputs."""
        flat = nest.flatten(list(values))
        inputs, aliases = [], {}
        traced = [leaf.placeholder(v, graph, path, inputs, aliases) for leaf, v, path in
                  zip(self.leaves, flat, self.paths(fields=False))]
        return nest.pack_sequence_as(list(values), traced), inputs

    def signature(self, values):
        """The arguments as TF's structured_input_signature shows them: TensorSpecs named by
        their path, VariableSpecs, Python values as they are."""
        flat = nest.flatten(list(values))
        shown = [leaf.signature(v, path) for leaf, v, path in
                 zip(self.leaves, flat, self.paths(fields=True))]
        return nest.pack_sequence_as(list(values), shown)

    def mismatch(self, values):
        """None when `values` are what this key was traced with in everything but their tensors;
        else (parameter name, value, the leaf or structure it should match) of the first that
        differs."""
        for name, tree, value in zip(self.names, self.tree[1:], values):
            flat, value_tree = nest.flatten_with_tree(value)
            leaves = self._leaves_of(name)
            if value_tree != tree:
                return name, value, None
            for leaf, v in zip(leaves, flat):
                if not leaf.matches(v):
                    return name, v, leaf
        return None

    def python_value(self, name):
        """The value a parameter was traced with when it is one Python value, else raises
        KeyError (a concrete function fills such parameters in when a call leaves them out)."""
        leaves = self._leaves_of(name)
        tree = self.tree[1 + self.names.index(name)]
        if tree is None and leaves[0][0] == PYTHON:
            return leaves[0][1]
        raise KeyError(name)

    def paths(self, fields):
        """One path per leaf: the parameter name, then `_index` (or `_field` of a namedtuple when
        `fields`) or `_key` per level."""
        out = []
        for name, tree in zip(self.names, self.tree[1:]):
            _paths(tree, name, fields, out)
        return out

    def _leaves_of(self, name):
        start = 0
        for n, tree in zip(self.names, self.tree[1:]):
            count = _count(tree)
            if n == name:
                return self.leaves[start:start + count]
            start += count
        raise KeyError(name)


def _count(tree):
    if tree is None:
        return 1
    children = tree[2:] if issubclass(tree[0], dict) else tree[1:]
    return sum(_count(c) for c in children)


def _render(tree, leaves):
    if tree is None:
        return next(leaves).render()
    kind = tree[0]
    if issubclass(kind, dict):
        return '{' + ', '.join(f'{k!r}: {_render(t, leaves)}' for k, t in zip(tree[1], tree[2:])) \
            + '}'
    items = ', '.join(_render(t, leaves) for t in tree[1:])
    if issubclass(kind, list):
        return f'[{items}]'
    if hasattr(kind, '_fields'):
        return f'{kind.__name__}({items})'
    return f'({items})'


def _paths(tree, path, fields, out):
    if tree is None:
        out.append(path)
        return
    kind = tree[0]
    if issubclass(kind, dict):
        for k, t in zip(tree[1], tree[2:]):
            _paths(t, f'{path}_{k}', fields, out)
        return
    names = kind._fields if fields and hasattr(kind, '_fields') else None
    for i, t in enumerate(tree[1:]):
        _paths(t, f'{path}_{names[i] if names else i}', fields, out)


def _spec_name(path):
    """TF's sanitize_spec_name: lower case, anything but letters and digits becomes '_'."""
    name = ''.join(c if c.isalnum() else '_' for c in path.lower())
    return name if name[:1].isalpha() else 'tensor_' + name
