"""`tf.Module`: a named container whose Variables and sub-Modules are found by walking its
attributes.

A Module enters its name scope once, at construction, and keeps the resulting absolute scope, so
`with module.name_scope:` later always means the same prefix. Its collections (`variables`,
`trainable_variables`, `submodules`, ...) are computed on demand by one traversal, `walk`, over the
object graph: attributes in sorted order, each flattened as `tf.nest` flattens (lists, tuples, dicts
by sorted key), the leaves of a Module first and then those of its sub-Modules, in the order they
were met, each object reported once. `walk` is public so that a checkpoint writer can visit the same
graph with paths (`with_path=True`, which reports every path, repeats included, as TF does).
"""
import functools
import re

from defun.core import nest
from defun.core.variable_base import is_variable
from defun.graphs.scopes import name_scope as _name_scope_type
from defun.state.trackable import PENDING_ATTRIBUTE, AutoTrackable
from defun.state.variables import Variable

__all__ = ['Module', 'walk', 'IGNORED_ATTRIBUTES']

# Bookkeeping attributes that are never part of the object graph.
IGNORED_ATTRIBUTES = frozenset((PENDING_ATTRIBUTE, '_self_unconditional_checkpoint_dependencies',
                                '_self_unconditional_dependency_names'))

_IDENTIFIER = re.compile(r'^[A-Za-z_][A-Za-z0-9_]*$')
# An upper-case letter starts a new word after a lower-case letter or digit, or when it is followed
# by a lower-case letter (so 'HTTPModule' splits as 'HTTP' + 'Module').
_WORD_START = re.compile(r'((?<=[a-z0-9])[A-Z]|(?!^)[A-Z](?=[a-z]))')


def _snake_case(class_name):
    return _WORD_START.sub(r'_\1', class_name).lower()


def _check_name(name):
    if not isinstance(name, (str, bytes)):
        raise TypeError(f"expected string or bytes-like object, got '{type(name).__name__}'")
    if isinstance(name, bytes) or not _IDENTIFIER.match(name):
        raise ValueError(f'{name!r} is not a valid module name. Module names must be valid Python '
                         'identifiers (e.g. a valid class name).')


def _is_trainable_variable(obj):
    return isinstance(obj, Variable) and obj.trainable


def _is_non_trainable_variable(obj):
    return isinstance(obj, Variable) and not obj.trainable


def _is_module(obj):
    return isinstance(obj, Module)


class Module(AutoTrackable):
    """Base class for a model's building blocks, as `tf.Module`."""

    def __init__(self, name=None):
        if name is None:
            name = _snake_case(type(self).__name__)
        else:
            _check_name(name)
        self._name = name
        # Enter the scope once (a graph uniquifies it), then keep the absolute scope it produced.
        with _name_scope_type(name) as scope_name:
            self._name_scope = _name_scope_type(scope_name)

    @property
    def name(self):
        """The name given at construction (or the class name in snake_case)."""
        return self._name

    @property
    def name_scope(self):
        """The name scope of this module, entered with `with module.name_scope:`."""
        return self._name_scope

    @property
    def variables(self):
        """Every Variable of this module and its sub-modules, each once."""
        return tuple(self._flatten(predicate=is_variable, expand_composites=True))

    @property
    def trainable_variables(self):
        return tuple(self._flatten(predicate=_is_trainable_variable, expand_composites=True))

    @property
    def non_trainable_variables(self):
        return tuple(self._flatten(predicate=_is_non_trainable_variable, expand_composites=True))

    @property
    def submodules(self):
        """Every Module reachable from this one (not itself), each once."""
        return tuple(self._flatten(predicate=_is_module))

    def _flatten(self, recursive=True, predicate=None, attribute_traversal_key=None,
                 with_path=False, expand_composites=False):
        """TF's (semi-private) traversal, kept for code that calls it; see `walk`."""
        return walk(self, recursive=recursive, predicate=predicate,
                    attribute_traversal_key=attribute_traversal_key, with_path=with_path)

    @classmethod
    def with_name_scope(cls, method):
        """Decorates a method so that it runs inside its module's name scope."""
        @functools.wraps(method)
        def method_with_name_scope(self, *args, **kwargs):
            with self.name_scope:
                return method(self, *args, **kwargs)
        return method_with_name_scope


def walk(module, recursive=True, predicate=None, attribute_traversal_key=None, with_path=False,
         ignored=IGNORED_ATTRIBUTES):
    """Yields the objects (or (path, object) pairs) reachable from `module`'s attributes that
    satisfy `predicate`: this module's own first, then each sub-module's, in the order they were found.

    Without paths each object is yielded once; with paths every path is yielded, repeats included,
    and a module reached again through its own descendants is not descended into twice."""
    predicate = predicate or (lambda obj: True)
    seen = None if with_path else {id(module)}
    return _walk(module, (), recursive, predicate, attribute_traversal_key, with_path, ignored,
                 seen, [])


def _walk(module, path, recursive, predicate, key, with_path, ignored, seen, stack):
    if id(module) in stack:
        recursive = False  # a cycle: report this module's leaves, but do not descend again
    found = []
    attributes = vars(module)
    for name in sorted(attributes, key=key):
        if name in ignored:
            continue
        try:
            leaves = nest.flatten_with_tuple_paths(attributes[name])
        except TypeError as exc:
            raise ValueError(f'Error processing property {name!r} of '
                             f'{attributes[name]!r}') from exc
        for leaf_path, leaf in leaves:
            if seen is not None:
                if id(leaf) in seen:
                    continue
                seen.add(id(leaf))
            full_path = path + (name,) + leaf_path
            if predicate(leaf):
                yield (full_path, leaf) if with_path else leaf
            if recursive and isinstance(leaf, Module):
                found.append((full_path, leaf))
    stack.append(id(module))
    for sub_path, submodule in found:
        yield from _walk(submodule, sub_path, recursive, predicate, key, with_path, ignored,
                         seen, stack)
    stack.pop()
