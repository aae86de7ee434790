"""The trace cache key: what about a call's arguments decides which trace runs it.

A key is a frozen, hashable dataclass over the canonical arguments (bound to the signature, defaults
applied). Tensors (and numpy arrays and scalars, as TF treats them) contribute dtype (as a numpy
dtype, which hashes in C: this is the per-call hot path) and shape; Python scalars, strings and None
their value, compared by equality as TF's `Literal` trace type does (so 2, 2.0 and True share a
trace); lists, tuples, dicts and namedtuples their structure; composite values (objects with a
`__tf_composite__()` method returning (spec, component tensors), e.g. a tf.data Dataset) their
spec, so any value of that spec reuses the trace; variables and other objects their identity. `describe_changes` compares two keys argument by argument, which is what retrace
explanations print.
"""
from dataclasses import dataclass

import numpy as np

from defun import dtypes
from defun.shapes import TensorShape, TensorSpec
from defun.tensor import EagerTensor, Tensor

__all__ = ['TraceKey', 'encode', 'COMPOSITE', 'describe_changes', 'relax', 'accepts', 'part_dtype',
           'is_numpy_value', 'matches_python_values']

TENSOR, PYTHON, OBJECT, LIST, TUPLE, DICT, NAMEDTUPLE = 'T', 'P', 'O', 'L', 'U', 'D', 'N'
COMPOSITE = 'C'


@dataclass(frozen=True)
class TraceKey:
    """names: parameter names; parts: one encoded entry per parameter."""
    names: tuple
    parts: tuple

    def __repr__(self):
        return 'TraceKey(' + ', '.join(f'{n}={render(p)}' for n, p in zip(self.names, self.parts)) \
            + ')'


def encode(value, holders, leaves):
    """The key part of one argument. Tensor leaves (numpy arrays converted) are appended to
    `leaves` in key order; objects keyed by identity to `holders`, so the cache can hold them
    weakly."""
    if type(value) is EagerTensor:
        leaves.append(value)
        array = value.array
        return (TENSOR, array.dtype, array.shape)
    if isinstance(value, Tensor):
        leaves.append(value)
        return (TENSOR, value.dtype.np_dtype, value.shape.as_tuple())
    if isinstance(value, TensorSpec):
        leaves.append(value)
        return (TENSOR, value.dtype.np_dtype, value.shape.as_tuple())
    if is_numpy_value(value):
        value = np.asarray(value)
        leaves.append(EagerTensor(value))
        return (TENSOR, value.dtype, value.shape)
    if value is None or isinstance(value, (bool, int, float, complex, str, bytes, np.generic)):
        return (PYTHON, value)
    if isinstance(value, list):
        return (LIST,) + tuple([encode(v, holders, leaves) for v in value])
    if isinstance(value, tuple):
        if hasattr(value, '_fields'):
            return (NAMEDTUPLE, type(value)) + tuple([encode(v, holders, leaves) for v in value])
        return (TUPLE,) + tuple([encode(v, holders, leaves) for v in value])
    if isinstance(value, dict):
        keys = sorted(value)
        return (DICT, tuple(keys)) + tuple([encode(value[k], holders, leaves) for k in keys])
    composite = getattr(value, '__tf_composite__', None)
    if composite is not None:
        spec, components = composite()
        leaves.extend(components)
        return (COMPOSITE, spec)
    holders.append(value)
    return (OBJECT, id(value))


def is_numpy_value(value):
    """numpy arrays and numpy scalars other than strings: TF traces them as tensors."""
    return isinstance(value, np.ndarray) or (
        isinstance(value, np.generic) and not isinstance(value, (np.str_, np.bytes_)))


def part_dtype(part):
    """The DType of a tensor key part."""
    return dtypes.from_numpy(part[1])


def render(part):
    kind = part[0]
    if kind == TENSOR:
        return str(TensorSpec(part[2], part_dtype(part)))
    if kind in (PYTHON, COMPOSITE):
        return repr(part[1])
    if kind == OBJECT:
        return f'<object id {part[1]:#x}>'
    if kind == DICT:
        return '{' + ', '.join(f'{k!r}: {render(p)}' for k, p in zip(part[1], part[2:])) + '}'
    if kind == NAMEDTUPLE:
        return f'{part[1].__name__}(' + ', '.join(render(p) for p in part[2:]) + ')'
    items = ', '.join(render(p) for p in part[1:])
    return f'[{items}]' if kind == LIST else f'({items})'


def accepts(general, specific):
    """True when a trace made for key part `general` can run a call with key part `specific`
    (tensor shapes with None dims accept any size there; everything else must be equal)."""
    if general == specific:
        return True
    if general[0] != specific[0] or len(general) != len(specific):
        return False
    if general[0] == TENSOR:
        return general[1] == specific[1] and TensorShape(specific[2]).is_subtype_of(
            TensorShape(general[2]))
    if general[0] in (PYTHON, OBJECT, COMPOSITE):
        return False
    head = 2 if general[0] in (DICT, NAMEDTUPLE) else 1
    if general[:head] != specific[:head]:
        return False
    return all(accepts(g, s) for g, s in zip(general[head:], specific[head:]))


def relax(old, new):
    """The most specific part that accepts both (None dims where tensor shapes differ), or None
    when they differ in anything but shapes."""
    if old == new:
        return new
    if old[0] != new[0] or len(old) != len(new):
        return None
    if old[0] == TENSOR:
        if old[1] != new[1]:
            return None
        shape = TensorShape(old[2]).most_specific_compatible_shape(TensorShape(new[2]))
        return (TENSOR, new[1], shape.as_tuple())
    if old[0] in (PYTHON, OBJECT, COMPOSITE):
        return None
    head = 2 if old[0] in (DICT, NAMEDTUPLE) else 1
    if old[:head] != new[:head]:
        return None
    children = [relax(o, n) for o, n in zip(old[head:], new[head:])]
    if any(c is None for c in children):
        return None
    return new[:head] + tuple(children)


def matches_python_values(part, value):
    """True when `value` agrees with key part `part` in everything but its tensors (which the
    caller checks): same Python values, structure and objects."""
    kind = part[0]
    if kind == TENSOR:
        return True
    if kind == COMPOSITE:
        composite = getattr(value, '__tf_composite__', None)
        return composite is not None and composite()[0] == part[1]
    if kind == PYTHON:
        return not isinstance(value, (Tensor, np.ndarray)) and value == part[1]
    if kind == OBJECT:
        return id(value) == part[1]
    if kind == DICT:
        return isinstance(value, dict) and tuple(sorted(value)) == part[1] and all(
            matches_python_values(p, value[k]) for k, p in zip(part[1], part[2:]))
    if kind == NAMEDTUPLE:
        children, ok = part[2:], type(value) is part[1]
    else:
        children = part[1:]
        ok = isinstance(value, list) if kind == LIST else (
            isinstance(value, tuple) and not hasattr(value, '_fields'))
    return ok and len(value) == len(children) and all(
        matches_python_values(p, v) for p, v in zip(children, value))


def describe_changes(old, new):
    """[(parameter, old text, new text)] for every parameter whose key part differs."""
    changes = []
    old_parts = dict(zip(old.names, old.parts))
    for name, part in zip(new.names, new.parts):
        before = old_parts.get(name)
        if before != part:
            changes.append((name, render(before) if before is not None else '(absent)',
                            render(part)))
    return changes
