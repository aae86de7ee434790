"""The trace cache key: what about a call's arguments decides which trace runs it.

A TraceKey is a frozen, hashable dataclass built by one walk over the canonical arguments (bound to
the signature, defaults applied) with `nest.flatten_with_tree`: the parameter names, the nesting of
the arguments (container types, dict keys, namedtuple types) and one leaf key per leaf, whose kind
(trace_leaves.py) answers what the cache and the tracer need: whether a trace accepts a call
(`accepts`), the most specific key accepting two (`relax`), the text of retrace explanations
(`render`), what the traced function receives (`placeholder`), how the input signature and TF's
function_type show it (`signature`, `trace_type`), whether a later value is the traced one
(`matches`) and what a call feeds (`feed`). A key never holds an argument: only dtypes, shapes,
Python values and ids.
"""
from dataclasses import dataclass

from defun.core import nest
from defun.functions.trace_leaves import TENSOR, is_numpy_value, leaf_for

__all__ = ['TraceKey', 'TENSOR', 'is_numpy_value']


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
        leaves = tuple([leaf_for(v, feeds, holders, aliases) for v in flat])
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

    def feeds(self, values):
        """What a call with `values` (which `mismatch` accepted) feeds the trace: tensors (Python
        and numpy values where the key has a tensor converted), Variable handles once each."""
        out, fed = [], set()
        for leaf, value in zip(self.leaves, nest.flatten(list(values))):
            leaf.feed(value, out, fed)
        return out

    def trace_types(self, values):
        """Per parameter, its value's structure with each leaf replaced by its trace type
        (TensorSpec, VariableSpec, Literal[...]): what TF's function_type shows."""
        flat = nest.flatten(list(values))
        return nest.pack_sequence_as(
            list(values), [leaf.trace_type(v) for leaf, v in zip(self.leaves, flat)])

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
        if tree is None:
            return leaves[0].python_value()
        raise KeyError(name)

    def tensor_leaf(self, name):
        """The leaf of a parameter traced as one tensor, else None."""
        tree = self.tree[1 + self.names.index(name)]
        leaf = self._leaves_of(name)[0] if tree is None else None
        return leaf if leaf is not None and leaf[0] == TENSOR else None

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
