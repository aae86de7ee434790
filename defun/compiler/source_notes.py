"""What makes generated source read well without changing what runs: a comment header with the
values of the constants and dtypes the function's lines name (`mul = sub * Const_2_0d` says little
until `# Const_2_0d = 2.0 (float32)` stands above it), and parameter names for captured inputs
that say what they hold (the variable `w`, the forward's `while_5`) instead of `capture_3`.

Comments and parameter names cost nothing per call: the code that runs is the same.
"""
import re

import numpy as np

from defun.core.dtypes import DType
from defun.compiler.keys import python_identifier

__all__ = ['constants_header', 'capture_hint']

_IDENTIFIER = re.compile(r'[A-Za-z_][A-Za-z0-9_]*')
_SHOWN_VALUES = 8     # arrays up to this many elements show their values; larger ones dtype[shape]
_SHOWN_NAMES = 24    # a big graph's header stays a header


def _describe(value):
    if isinstance(value, DType):
        return f'tf.{value.name}'
    if isinstance(value, np.dtype) or (isinstance(value, type) and issubclass(value, np.generic)):
        return f'np.{np.dtype(value).name}'
    if value.size <= _SHOWN_VALUES and value.dtype.kind in 'biufc':
        shown = (' '.join(np.array2string(np.asarray(value), separator=', ').split())
                 if value.ndim else repr(value.item()))   # one line: it is a comment
        return f'{shown} ({value.dtype.name})'
    return f'{value.dtype.name}[{",".join(str(d) for d in value.shape)}]'


def _is_shown(value):
    return isinstance(value, (np.ndarray, np.generic, DType, np.dtype)) or (
        isinstance(value, type) and issubclass(value, np.generic))


def constants_header(lines, namespace):
    """Comment lines giving the value of each constant (and dtype) the source `lines` name."""
    named = []
    seen = set()
    for text in lines:
        for name in _IDENTIFIER.findall(text):
            if name in seen:
                continue
            seen.add(name)
            value = namespace.get(name)
            if value is not None and _is_shown(value):
                named.append(f'{name} = {_describe(value)}')
    if not named:
        return []
    more = [f'#   ... and {len(named) - _SHOWN_NAMES} more'] if len(named) > _SHOWN_NAMES else []
    return ['# constants:'] + [f'#   {text}' for text in named[:_SHOWN_NAMES]] + more


def capture_hint(graph, placeholder):
    """A parameter name for a placeholder standing for a captured value: the variable's name for a
    variable handle, the tensor's name for a tensor of an enclosing (or forward) graph; else the
    placeholder's own name."""
    for outer, inner in getattr(graph, 'captures', ()):
        if inner is placeholder:
            variable = getattr(outer, 'variable', None)
            name = getattr(variable, 'name', None) or getattr(outer, 'name', None)
            if isinstance(name, str) and name:
                return python_identifier(name[:-2] if name.endswith(':0') else name)
            break
    return placeholder.op.name
