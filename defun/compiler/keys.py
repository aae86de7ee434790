"""How the executor names values and recognizes repeated ops.

`python_identifier` turns an op name into the local or global name the generated source uses;
`cse_key` is the key under which a pure op's result is shared with an identical earlier op (common
subexpression elimination), or None when the op's attrs cannot be compared by value.
"""
import keyword
import re

import numpy as np

__all__ = ['python_identifier', 'cse_key']

# ASCII only: Python folds identifiers with NFKC ('\ufb01' is 'fi'), so a non-ASCII letter kept
# here could make two names that the executor sees as distinct one variable in the compiled code.
_NON_WORD = re.compile(r'[^A-Za-z0-9_]')


def python_identifier(hint):
    """A Python identifier for an op name ('gradients/Mul_1' -> 'gradients_Mul_1')."""
    name = _NON_WORD.sub('_', str(hint)).strip('_') or 't'
    if name[0].isdigit():
        name = 't_' + name
    if keyword.iskeyword(name):
        name += '_'
    return name


def cse_key(op, names):
    """(op type, input names, attrs) for `op`, or None when its attrs are not hashable by value."""
    inputs = tuple([names[id(t)] for t in op.inputs])
    if not op.attrs:
        return (op.type, inputs)
    try:
        attrs = tuple(sorted((k, _hashable(v)) for k, v in op.attrs.items()))
        key = (op.type, inputs, attrs)
        hash(key)
        return key
    except TypeError:
        return None


def _hashable(value):
    # Arrays compare by dtype, shape and bytes; functions and graphs only by identity.
    if isinstance(value, np.ndarray):
        return ('ndarray', value.dtype.str, value.shape, value.tobytes())
    if isinstance(value, list):
        return tuple(_hashable(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _hashable(v)) for k, v in value.items()))
    if callable(value) or hasattr(value, 'get_operations'):
        return ('id', id(value))
    return value
