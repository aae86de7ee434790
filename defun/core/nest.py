"""Nested structures, as `tf.nest`: lists, tuples, namedtuples and dicts (flattened in sorted key
order) are structure; everything else (None, tensors, dataclasses, other objects) is a leaf.
With `expand_composites=True` a composite tensor (and the TypeSpec of one) is structure too: its
components (see composite.py)."""
from __future__ import annotations

from collections import abc
from typing import Any

from defun.core.composite import CompositeTensor, is_type_spec, spec_of

__all__ = ['flatten', 'flatten_with_tree', 'flatten_with_tuple_paths', 'pack_sequence_as',
           'map_structure', 'assert_same_structure', 'is_nested', 'flatten_up_to',
           'flatten_up_to_with_paths', 'StructureMismatch', 'substructures']


def is_nested(value: Any) -> bool:
    """Returns True if `value` is a list, tuple or dict (a structure `tf.nest` recurses into)."""
    return isinstance(value, (list, tuple, dict))


def _sorted_keys(d):
    try:
        return sorted(d)
    except TypeError:
        raise TypeError(f'nest only supports dicts with sortable keys, got {list(d)!r}') from None


def _children(value):
    if isinstance(value, dict):
        return [value[k] for k in _sorted_keys(value)]
    return list(value)


def flatten(structure: Any, expand_composites: bool = False) -> list:
    """The leaves of `structure`, depth first (dict values in sorted key order)."""
    if expand_composites:
        out = []
        _flatten_expanded(structure, out)
        return out
    if not is_nested(structure):
        return [structure]
    out = []
    _flatten_into(structure, out)
    return out


def _flatten_into(structure, out):
    if isinstance(structure, dict):
        for k in _sorted_keys(structure):
            v = structure[k]
            if is_nested(v):
                _flatten_into(v, out)
            else:
                out.append(v)
        return
    for v in structure:
        if is_nested(v):
            _flatten_into(v, out)
        else:
            out.append(v)


def _components(value):
    """A composite's components (a spec's component specs), or None for anything else."""
    if isinstance(value, CompositeTensor):
        return spec_of(value).to_components(value)
    if is_type_spec(value):
        return value.component_specs
    return None


def _flatten_expanded(structure, out):
    parts = _components(structure)
    if parts is not None:
        _flatten_expanded(parts, out)
    elif is_nested(structure):
        for child in _children(structure):
            _flatten_expanded(child, out)
    else:
        out.append(structure)


def _pack_expanded(structure, flat, index):
    parts = _components(structure)
    if parts is not None:
        packed, index = _pack_expanded(parts, flat, index)
        spec = structure if is_type_spec(structure) else spec_of(structure)
        return spec.from_components(packed), index
    if not is_nested(structure):
        return flat[index], index + 1
    children = []
    for child in _children(structure):
        packed, index = _pack_expanded(child, flat, index)
        children.append(packed)
    return _rebuild(structure, children), index


def flatten_with_tree(structure):
    """(leaves, tree) in one walk: the leaves as `flatten` gives them, and a hashable description
    of the nesting that two structures share exactly when they nest alike. A leaf's tree is None;
    a container's is (its type, children's trees...), a dict's (its type, its sorted keys,
    children's trees...)."""
    leaves = []
    return leaves, _tree_into(structure, leaves)


def _tree_into(structure, leaves):
    if isinstance(structure, dict):
        keys = _sorted_keys(structure)
        return (type(structure), tuple(keys)) + tuple(
            [_tree_into(structure[k], leaves) for k in keys])
    if isinstance(structure, (list, tuple)):
        return (type(structure),) + tuple([_tree_into(v, leaves) for v in structure])
    leaves.append(structure)
    return None


def flatten_with_tuple_paths(structure: Any, expand_composites: bool = False) -> list[tuple]:
    """(path, leaf) pairs in flatten's order; a path is the tuple of keys and indices to the leaf."""
    out = []
    _paths_into(structure, (), out)
    return out


def _paths_into(structure, path, out):
    if not is_nested(structure):
        out.append((path, structure))
        return
    keys = _sorted_keys(structure) if isinstance(structure, dict) else range(len(structure))
    for k in keys:
        _paths_into(structure[k], path + (k,), out)


class StructureMismatch(ValueError):
    """Raised by flatten_up_to where `deep` lacks `shallow`'s structure: `path` (the keys and
    indices to that point), and the sub-structures `shallow` and `deep` found there; callers
    word their own error from these."""

    def __init__(self, path, shallow, deep):
        super().__init__(f'The two structures do not match: {shallow!r} and {deep!r}')
        self.path, self.shallow, self.deep = path, shallow, deep


def flatten_up_to(shallow: Any, deep: Any, none_fills: bool = False) -> list:
    """The parts of `deep` at the positions of `shallow`'s leaves, in flatten's order (whatever
    lies below a leaf of `shallow` stays whole). Dicts must have the same keys; a list or tuple
    matches a list or tuple of the same length. Raises StructureMismatch otherwise.
    none_fills: a None in `deep` stands for None at every leaf below it (tf.data's paddings)."""
    return [part for _, _, part in flatten_up_to_with_paths(shallow, deep, none_fills)]


def flatten_up_to_with_paths(shallow: Any, deep: Any, none_fills: bool = False) -> list[tuple]:
    """(path, leaf of shallow, part of deep) triples, as flatten_up_to walks them."""
    out = []
    _up_to(shallow, deep, (), out, none_fills)
    return out


def _up_to(shallow, deep, path, out, none_fills):
    if deep is None and none_fills:
        out.extend((path + p, leaf, None) for p, leaf in flatten_with_tuple_paths(shallow))
    elif isinstance(shallow, dict):
        if not isinstance(deep, dict) or len(deep) != len(shallow) or any(
                k not in deep for k in shallow):
            raise StructureMismatch(path, shallow, deep)
        for k in _sorted_keys(shallow):
            _up_to(shallow[k], deep[k], path + (k,), out, none_fills)
    elif isinstance(shallow, (list, tuple)):
        if not isinstance(deep, (list, tuple)) or len(deep) != len(shallow):
            raise StructureMismatch(path, shallow, deep)
        for i, (s, d) in enumerate(zip(shallow, deep)):
            _up_to(s, d, path + (i,), out, none_fills)
    else:
        out.append((path, shallow, deep))


def substructures(structure: Any) -> list:
    """Every list, tuple and dict in `structure`, itself included, outermost first (a dict's
    values in its own order, so any keys will do: for callers that look at the containers)."""
    out, stack = [], [structure]
    while stack:
        value = stack.pop()
        if isinstance(value, (list, tuple, dict)):
            out.append(value)
            children = list(value.values()) if isinstance(value, dict) else list(value)
            stack.extend(reversed(children))
    return out


def _rebuild(template, children):
    if isinstance(template, dict):
        by_key = dict(zip(_sorted_keys(template), children))
        result = {k: by_key[k] for k in template}  # keep the template's own key order
        return type(template)(result) if type(template) is not dict else result
    if isinstance(template, tuple) and hasattr(template, '_fields'):
        return type(template)(*children)
    if isinstance(template, tuple):
        return tuple(children)
    if isinstance(template, list):
        return list(children)
    return type(template)(children)


def pack_sequence_as(structure: Any, flat_sequence: abc.Sequence, expand_composites: bool = False) -> Any:
    """Packs the leaves of `flat_sequence` into the shape of `structure`."""
    flat_sequence = list(flat_sequence)
    if expand_composites:
        expected = len(flatten(structure, expand_composites=True))
        if expected != len(flat_sequence):
            raise ValueError(f'Could not pack sequence. Structure had {expected} atoms, but '
                             f'flat_sequence had {len(flat_sequence)} items. Structure: '
                             f'{structure!r}, flat_sequence: {flat_sequence!r}.')
        return _pack_expanded(structure, flat_sequence, 0)[0]
    if not is_nested(structure):
        if len(flat_sequence) != 1:
            raise ValueError(f'Structure is a scalar but len(flat_sequence) == '
                             f'{len(flat_sequence)} > 1')
        return flat_sequence[0]
    expected = len(flatten(structure))
    if expected != len(flat_sequence):
        raise ValueError(
            f'Could not pack sequence. Structure had {expected} atoms, but flat_sequence had '
            f'{len(flat_sequence)} items. Structure: {structure!r}, flat_sequence: {flat_sequence!r}.')
    packed, _ = _pack(structure, flat_sequence, 0)
    return packed


def _pack(structure, flat, index):
    if not is_nested(structure):
        return flat[index], index + 1
    children = []
    for child in _children(structure):
        packed, index = _pack(child, flat, index)
        children.append(packed)
    return _rebuild(structure, children), index


def assert_same_structure(nest1: Any, nest2: Any, check_types: bool = True,
                          expand_composites: bool = False) -> None:
    """Raises ValueError (different nesting) or TypeError (different sequence types)."""
    _assert_same(nest1, nest2, check_types, nest1, nest2, expand_composites)


def _assert_same(a, b, check_types, root1, root2, expand=False):
    if expand and (_components(a) is not None or _components(b) is not None):
        _assert_same_composites(a, b, check_types, root1, root2)
        return
    a_nested, b_nested = is_nested(a), is_nested(b)
    if a_nested != b_nested:
        raise ValueError(
            f"The two structures don't have the same nested structure.\n\nFirst structure: "
            f'{root1!r}\n\nSecond structure: {root2!r}\n\nMore specifically: Substructure '
            f'"{a!r}" is a sequence, while substructure "{b!r}" is not'
            if a_nested else
            f"The two structures don't have the same nested structure.\n\nFirst structure: "
            f'{root1!r}\n\nSecond structure: {root2!r}\n\nMore specifically: Substructure '
            f'"{b!r}" is a sequence, while substructure "{a!r}" is not')
    if not a_nested:
        return
    if check_types and _seq_type(a) is not _seq_type(b):
        raise TypeError(
            f"The two structures don't have the same sequence type. Input structure has type "
            f"{type(a)!r}, while shallow structure has type {type(b)!r}.")
    if isinstance(a, dict) and isinstance(b, dict) and set(a) != set(b):
        raise ValueError(f"The two dictionaries don't have the same set of keys. First structure "
                         f'has keys {sorted(a)!r}, while second structure has keys {sorted(b)!r}.')
    ca, cb = _children(a), _children(b)
    if len(ca) != len(cb):
        raise ValueError(
            f"The two structures don't have the same number of elements.\n\nFirst structure "
            f'({len(ca)} elements): {root1!r}\n\nSecond structure ({len(cb)} elements): {root2!r}')
    for x, y in zip(ca, cb):
        _assert_same(x, y, check_types, root1, root2, expand)


def _assert_same_composites(a, b, check_types, root1, root2):
    spec_a = a if is_type_spec(a) else spec_of(a) if isinstance(a, CompositeTensor) else None
    spec_b = b if is_type_spec(b) else spec_of(b) if isinstance(b, CompositeTensor) else None
    if spec_a is None or spec_b is None or (check_types and type(spec_a) is not type(spec_b)):
        raise TypeError(f"The two structures don't have the same sequence type. Input structure "
                        f'has type {type(a)!r}, while shallow structure has type {type(b)!r}.')
    _assert_same(_components(a), _components(b), check_types, root1, root2, True)


def _seq_type(value):
    # Lists and tuples are different types for TF; dict subclasses count as dicts, list subclasses
    # (a trackable ListWrapper) as lists.
    if isinstance(value, dict):
        return dict
    if isinstance(value, list):
        return list
    return type(value)


def map_structure(func: abc.Callable, *structures: Any, **kwargs: Any) -> Any:
    """Applies `func` to corresponding leaves; returns the result in the first structure's shape."""
    if not structures:
        raise ValueError('Must provide at least one structure')
    check_types = kwargs.pop('check_types', True)
    expand = kwargs.pop('expand_composites', False)
    if kwargs:
        raise ValueError(f'Only valid keyword arguments are `check_types` and '
                         f'`expand_composites`, not: {", ".join(kwargs)}')
    for other in structures[1:]:
        assert_same_structure(structures[0], other, check_types=check_types,
                              expand_composites=expand)
    flat = [flatten(s, expand_composites=expand) for s in structures]
    return pack_sequence_as(structures[0], [func(*leaves) for leaves in zip(*flat)],
                            expand_composites=expand)
