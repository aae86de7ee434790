"""TensorFlow's op signatures: which dtypes each input of an op takes and what kind of value each
attribute holds, written in the op's `define_op` entry in TensorFlow's own REGISTER_OP spelling and
checked at one point, the dispatch point, before the kernel runs or the node is added:

    define_op('TopKV2', ..., inputs=['input: T'],
              attrs=['T: realnumbertype', 'k: int >= 0', 'sorted: bool'])

Input specs: 'name: T' (its dtype is the type attribute T, declared among the attrs), 'name: int32'
(one fixed dtype), 'name: N * T' (this input and every later one). Attribute specs:
'T: {half, float, double}' or a type class (numbertype, realnumbertype, type) for a type attribute,
bound by inputs or passed as an attribute (an output type); 'name: int', 'name: int32' (an int the
kernel reads as int32, as TF's pool and conv kernels read ksize and strides: larger is TF's
out-of-range error), 'name: list(int)', 'name: list(int32)', 'name: bool', 'name: float',
'name: {"SAME", "VALID"}'; a trailing '>= N' is a minimum value, or a minimum length for a list.
An attribute the call does not pass is not checked (defun's ops take some of TF's inputs as
attributes and leave others out).

TensorFlow reports a refusal in one of two ways and so does `check`: eagerly, the runtime's
InvalidArgumentError ("Value for attr 'T' of bool is not in the list of allowed values: ..."); while
a graph is built, op_def_library's TypeError or ValueError ("Value passed to parameter 'x' has
DataType bool not in list of allowed values: ..."). Attribute values of the wrong Python kind are a
TypeError in both modes, as TF's generated wrappers raise it before either.

The eager check is a closure made once per op: one dtype-set lookup per typed input, so that an
op call pays a few tens of nanoseconds for it.
"""
from __future__ import annotations

import numbers
import re
import sys

import numpy as np

from defun.core import dtypes, errors

__all__ = ['Schema', 'TYPE_CLASSES']

# TF's type classes (types.h), in TF's order: error messages list the allowed types as TF does.
TYPE_CLASSES = {
    'realnumbertype': 'float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, '
                      'uint32, uint64',
    'numbertype': 'float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, '
                  'qint32, bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64',
    'type': 'float, double, int32, uint8, int16, int8, string, complex64, int64, bool, qint8, '
            'quint8, qint32, bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64, '
            'resource, variant',
}
# TF's DataTypeString spelling (eager messages) -> the Python name (graph messages, defun's DType).
_SPELLING = {'float': 'float32', 'double': 'float64', 'half': 'float16'}
_KERNEL_SPELLING = {v: k for k, v in _SPELLING.items()}
_INT32 = (-2 ** 31, 2 ** 31)
_SPEC = re.compile(r'\s*(\w+)\s*:\s*(.+?)\s*(?:>=\s*(-?\d+))?\s*(?:=\s*.*)?$')


def _kernel_name(dtype):
    """A DType, as TF's runtime spells it in messages ('float', 'double', 'string')."""
    return _KERNEL_SPELLING.get(dtype.name, dtype.name)


class _TypeAttr:
    """A type attribute: its allowed types, as TF lists them, and as defun's dtypes."""

    def __init__(self, name, spelled):
        self.name = name
        self.names = [n.strip() for n in spelled.split(',') if n.strip()]
        known = [dtypes.as_dtype(_SPELLING.get(n, n)) for n in self.names
                 if _SPELLING.get(n, n) in _DEFUN_NAMES]
        self.dtypes = frozenset(known)
        self.np_dtypes = frozenset(d.np_dtype for d in known)

    def kinds_text(self):
        """The allowed dtypes in words ('floating point or complex'), for the user's fix."""
        kinds = sorted({d.np_dtype.kind for d in self.dtypes}, key='fciub0'.find)
        return ' or '.join(_KIND_WORDS.get(k, k) for k in kinds)

    def eager_text(self):
        return ', '.join(_KERNEL_SPELLING.get(n, n) for n in self.names)

    def graph_text(self):
        return ', '.join(_SPELLING.get(n, n) for n in self.names)


_DEFUN_NAMES = frozenset(d.name for d in dtypes.ALL)
_KIND_WORDS = {'f': 'floating point', 'c': 'complex', 'i': 'signed integer',
               'u': 'unsigned integer', 'b': 'bool', 'O': 'string'}


def _parse_types(text):
    text = text.strip()
    if text.startswith('{'):
        return text.strip('{}')
    return TYPE_CLASSES.get(text)


class Schema:
    """One op's signature, parsed once from TF's spec strings; `eager_check` is the closure the
    dispatch point calls on eager calls (None when there is nothing to check)."""

    def __init__(self, op, inputs=(), attrs=()):
        self.op = op
        self.type_attrs = {}
        self.value_attrs = []   # (name, kind, minimum, allowed strings)
        for spec in attrs:
            self._add_attr(spec)
        self.inputs = []        # (position, name, _TypeAttr or fixed DType, to the end)
        for i, spec in enumerate(inputs):
            name, kind, _ = _split(spec, op)
            rest = '*' in kind
            kind = kind.split('*')[-1].strip()
            bound = self.type_attrs.get(kind)
            if bound is None:
                bound = dtypes.as_dtype(_SPELLING.get(kind, kind))
            self.inputs.append((i, name, bound, rest))
        self.eager_check = self._make_eager_check()

    def _add_attr(self, spec):
        name, kind, minimum = _split(spec, self.op)
        types = _parse_types(kind)
        if types is not None and not kind.strip().startswith('{"'):
            self.type_attrs[name] = _TypeAttr(name, types)
            return
        allowed = None
        if kind.startswith('{'):
            allowed = tuple(s.strip().strip('"') for s in kind.strip('{}').split(','))
            kind = 'string'
        if kind not in ('int', 'int32', 'list(int)', 'list(int32)', 'bool', 'float',
                        'list(float)', 'string', 'type', 'shape'):
            raise ValueError(f'{self.op}: attribute spec {spec!r} has an unknown kind')
        self.value_attrs.append((name, kind, minimum, allowed))

    # ------------------------------------------------------------------ inputs

    def _bindings(self, n):
        """(position, name, bound) for each of `n` inputs the signature types."""
        for pos, name, bound, rest in self.inputs:
            if pos >= n:
                return
            if rest:
                for j in range(pos, n):
                    yield j, name, bound
                return
            yield pos, name, bound

    def check_inputs(self, inputs, graph, dtype_of):
        """Raises TF's error for an input whose dtype the signature refuses, or two inputs of one
        type attribute with different dtypes."""
        first = {}
        for pos, name, bound, in self._bindings(len(inputs)):
            dtype = dtype_of(inputs[pos])
            if isinstance(bound, _TypeAttr):
                if dtype not in bound.dtypes:
                    raise self._type_error(bound, name, dtype, inputs[pos], graph)
                if bound.name in first and first[bound.name][1] != dtype:
                    raise self._mismatch(pos, name, dtype, first[bound.name], graph)
                first.setdefault(bound.name, (name, dtype))
            elif dtype != bound:
                raise self._mismatch(pos, name, dtype, (None, bound), graph)

    def _type_error(self, bound, name, dtype, tensor, graph):
        described = _describe(tensor)
        if graph:
            return TypeError(f"Value passed to parameter '{name}' has DataType {dtype.name} not in "
                             f'list of allowed values: {bound.graph_text()} ({_caller()}: '
                             f'{self.op} input {described})')
        return errors.InvalidArgumentError(
            f"Value for attr '{bound.name}' of {_kernel_name(dtype)} is not in the list of allowed "
            f'values: {bound.eager_text()}\n\t; NodeDef: {{{{node {self.op}}}}}; input '
            f"'{name}' of {_caller()} is {described}, expected a {bound.kinds_text()} tensor "
            f'(tf.cast converts) [Op:{self.op}]')

    def _mismatch(self, pos, name, dtype, first, graph):
        other, expected = first
        if graph:
            against = (f"type {expected.name} of argument '{other}'" if other is not None
                       else f'expected type of {expected.name}')
            return TypeError(f"Input '{name}' of '{self.op}' Op has type {dtype.name} that does "
                             f'not match {against}.')
        return errors.InvalidArgumentError(
            f'cannot compute {self.op} as input #{pos}(zero-based) was expected to be a '
            f'{_kernel_name(expected)} tensor but is a {_kernel_name(dtype)} tensor (input '
            f"'{name}' of {_caller()}: expected a {_kernel_name(expected)} tensor) [Op:{self.op}]")

    # ------------------------------------------------------------------ attributes

    def check_attrs(self, attrs, graph):
        if not attrs:
            return
        for name, kind, minimum, allowed in self.value_attrs:
            if name in attrs:
                self._check_attr(name, kind, minimum, allowed, attrs[name], graph)
        for name, bound in self.type_attrs.items():
            value = attrs.get(name)
            if value is not None and dtypes.as_dtype(value) not in bound.dtypes:
                raise self._attr_type_error(bound, dtypes.as_dtype(value), graph)

    def _attr_type_error(self, bound, dtype, graph):
        if graph:
            return TypeError(f"Value for attr '{bound.name}' of {dtype.name} is not in the list "
                             f'of allowed values: {bound.graph_text()}')
        return errors.InvalidArgumentError(
            f"Value for attr '{bound.name}' of {_kernel_name(dtype)} is not in the list of "
            f'allowed values: {bound.eager_text()}\n\t; NodeDef: {{{{node {self.op}}}}} '
            f'[Op:{self.op}]')

    def _check_attr(self, name, kind, minimum, allowed, value, graph):
        if kind.startswith('list('):
            if not isinstance(value, (list, tuple)):
                raise TypeError(f"Expected list for '{name}' argument to '{self.op}' Op, not "
                                f'{value!r}.')
            for v in value:
                self._one_value(name, kind[5:-1], v, graph)
            if minimum is not None and len(value) < minimum:
                raise self._invalid(
                    f"Attr '{name}' of '{self.op}' Op passed list of length {len(value)} less "
                    f'than minimum {minimum}.',
                    f"Length for attr '{name}' of {len(value)} must be at least minimum "
                    f'{minimum}', graph)
            return
        self._one_value(name, kind, value, graph)
        if minimum is not None and value < minimum:
            raise self._invalid(
                f"Attr '{name}' of '{self.op}' Op passed {value} less than minimum {minimum}.",
                f"Value for attr '{name}' of {value} must be at least minimum {minimum}", graph)
        if allowed is not None and value not in allowed:
            quoted = ', '.join(f'"{a}"' for a in allowed)
            raise self._invalid(
                f"Attr '{name}' of '{self.op}' Op passed string '{value}' not in: {quoted}.",
                f"Value for attr '{name}' of \"{value}\" is not in the list of allowed values: "
                f'{quoted}', graph)

    def _one_value(self, name, kind, value, graph):
        if kind in ('int', 'int32'):
            if not isinstance(value, (numbers.Integral, np.integer)) or isinstance(value, str):
                raise TypeError(f"Expected int for argument '{name}' not {value!r}.")
            if kind == 'int32' and not _INT32[0] <= value < _INT32[1]:
                message = f'Attr {name} has value {value} out of range for an int32'
                raise self._invalid(message, message, graph)
        elif kind == 'bool' and not isinstance(value, (bool, np.bool_)):
            raise TypeError(f"Expected bool for argument '{name}' not {value!r}.")
        elif kind == 'float' and not isinstance(value, (numbers.Real, np.floating)):
            raise TypeError(f"Expected float for argument '{name}' not {value!r}.")
        elif kind == 'string' and not isinstance(value, (str, bytes)):
            raise TypeError(f"Expected string for argument '{name}' not {value!r}.")

    def _invalid(self, graph_text, eager_text, graph):
        if graph:
            return ValueError(graph_text)
        return errors.InvalidArgumentError(f'{eager_text}\n\t; NodeDef: {{{{node {self.op}}}}} '
                                           f'[Op:{self.op}]')

    # ------------------------------------------------------------------ the eager closure

    def _make_eager_check(self):
        if not self.inputs and not self.value_attrs and not self.type_attrs:
            return None
        if any(rest for *_, rest in self.inputs):
            return self._slow_eager_check
        # Per typed input: its position, the numpy dtypes it may have, and the position of the
        # first input of the same type attribute (whose dtype it must share), or None.
        firsts, slots = {}, []
        for pos, _, bound, _ in self.inputs:
            if isinstance(bound, _TypeAttr):
                slots.append((pos, bound.np_dtypes, firsts.setdefault(bound.name, pos)))
            else:
                slots.append((pos, frozenset([bound.np_dtype]), pos))
        slots = tuple((pos, allowed, None if first == pos else first)
                      for pos, allowed, first in slots)
        value_attrs = bool(self.value_attrs or self.type_attrs)
        slow = self._slow_eager_check
        if len(slots) == 1 and not value_attrs:
            pos, allowed, _ = slots[0]

            def check_one(inputs, attrs):
                # The commonest signature, one typed input and no attribute, in one set lookup.
                try:
                    if inputs[pos].array.dtype in allowed:
                        return
                except (AttributeError, IndexError):
                    return  # a symbolic tensor in eager code, or no such input: not ours to say
                slow(inputs, attrs)
            return check_one

        def check(inputs, attrs):
            try:
                for pos, allowed, first in slots:
                    dtype = inputs[pos].array.dtype
                    if dtype not in allowed or (first is not None and
                                                dtype != inputs[first].array.dtype):
                        break
                else:
                    if value_attrs and attrs:
                        self.check_attrs(attrs, False)
                    return
            except (AttributeError, IndexError):
                return
            slow(inputs, attrs)
        return check

    def _slow_eager_check(self, inputs, attrs):
        try:
            self.check_inputs(inputs, False, _eager_dtype)
        except AttributeError:
            return
        self.check_attrs(attrs, False)

    def check_graph(self, inputs, attrs):
        """The check while a graph is built (TF's op_def_library: TypeError / ValueError)."""
        self.check_inputs(inputs, True, _graph_dtype)
        self.check_attrs(attrs, True)


def _eager_dtype(t):
    array = t.array
    if array.dtype.kind == 'O':
        return t.dtype
    return dtypes.from_numpy(array.dtype)


def _caller():
    """The public function whose op call failed (the first frame outside defun.core), so that
    the message names what the user called; read only when an error is raised."""
    frame = sys._getframe(1)
    while frame is not None and frame.f_globals.get('__name__', '').startswith('defun.core'):
        frame = frame.f_back
    return frame.f_code.co_name if frame is not None else '?'


def _graph_dtype(t):
    return t.dtype


def _describe(t):
    shape = getattr(t, 'shape', None)
    dims = getattr(shape, 'as_tuple', lambda: None)()
    text = '<unknown rank>' if dims is None else ','.join('?' if d is None else str(d) for d in dims)
    return f'{t.dtype.name}[{text}]'


def _split(spec, op):
    match = _SPEC.match(spec)
    if match is None:
        raise ValueError(f'{op}: cannot read the signature spec {spec!r}')
    name, kind, minimum = match.groups()
    return name, kind.strip(), None if minimum is None else int(minimum)
