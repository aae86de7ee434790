"""TensorFlow's op signatures: which dtypes each input of an op takes and what kind of value each
attribute holds, in TensorFlow's own REGISTER_OP spelling, held by the op's registry entry and
checked at one point, the dispatch point, before the kernel runs or the node is added. Each op's
signature is TF's own, from the table of TF's OpDefs (core/tf_signatures.py, generated from TF's
op registry); an op whose inputs differ from TF's gives its own in its `define_op` entry:

    define_op('TopKV2', ..., inputs=['input: T'],
              attrs=['T: realnumbertype', 'k: int >= 0', 'sorted: bool'])

Input specs: 'name: T' (its dtype is the type attribute T, declared among the attrs), 'name: int32'
(one fixed dtype), 'name: N * T' (this input and every later one). Attribute specs:
'T: {half, float, double}' or a type class (numbertype, realnumbertype, type) for a type attribute,
bound by inputs or passed as an attribute (an output type); 'name: int', 'name: int32' (an int the
kernel reads as int32, as TF's pool and conv kernels read ksize and strides: larger is TF's
out-of-range error), 'name: list(int)', 'name: list(int32)', 'name: bool', 'name: float',
'name: {"SAME", "VALID"}'; a trailing '>= N' is a minimum value, or a minimum length for a list.
An attribute the call does not pass (or passes as None) is not checked (defun's ops take some of
TF's inputs as attributes and leave others out); kinds defun holds its own objects for (func,
shape, tensor) are not checked either.

Where TF's CPU kernels run fewer types than the signature allows (Rint takes half but runs float
and double), the table says so too, and such a type is TF's NotFoundError eagerly and its
InvalidArgumentError from a function (raised while it is traced, after shape inference).

TensorFlow reports a refusal in one of two ways and so does `check` (the texts are in
schema_messages): eagerly, the runtime's InvalidArgumentError; while a graph is built,
op_def_library's TypeError or ValueError. Attribute values of the wrong Python kind are a
TypeError in both modes, as TF's generated wrappers raise it before either.

The eager check is a closure made once per op: one set lookup per typed input (numpy dtypes
cache their hash) and an identity test per bool attribute, so that a valid call pays about a
hundred nanoseconds for it; anything unusual takes the full check, which raises or lets it pass.
It returns True (else None) for a valid call with an input of a low-precision dtype (bfloat16...),
which the fast sets leave out: its kernel runs widened (core/low_precision.py).
"""
from __future__ import annotations

import numbers
import re

import numpy as np

from defun.core import dtypes, low_precision, schema_messages as messages

__all__ = ['Schema', 'TYPE_CLASSES', 'spelled_types']

# TF's type classes (types.h), in TF's order: error messages list the allowed types as TF does.
TYPE_CLASSES = {
    'realnumbertype': 'float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, '
                      'uint32, uint64',
    'numbertype': 'float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, '
                  'qint32, bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64',
    'type': 'float, double, int32, uint8, int16, int8, string, complex64, int64, bool, qint8, '
            'quint8, qint32, bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64, '
            'resource, variant, float8_e5m2, float8_e4m3fn, int4, uint4',
}
# TF's DataTypeString spelling (eager messages) -> the Python name (graph messages, defun's DType).
_SPELLING = {'float': 'float32', 'double': 'float64', 'half': 'float16'}
_KERNEL_SPELLING = {v: k for k, v in _SPELLING.items()}
_INT32 = (-2 ** 31, 2 ** 31)
_SPEC = re.compile(r'\s*(\w+)\s*:\s*(.+?)\s*(?:>=\s*(-?\d+))?\s*(?:=\s*.*)?$')


def spelled_types(kind):
    """The type names of a type attribute's kind ('{half, float}', 'realnumbertype'), as TF
    spells them, in TF's order; None for a kind that is no type attribute."""
    if kind.strip().startswith('{"'):
        return None
    types = _parse_types(re.sub(r'\s*>=.*', '', kind))
    return None if types is None else [n.strip() for n in types.split(',') if n.strip()]


class _TypeAttr:
    """A type attribute: its allowed types, as TF lists them, and as defun's dtypes."""

    def __init__(self, name, spelled):
        self.name = name
        self.names = [n.strip() for n in spelled.split(',') if n.strip()]
        known = [dtypes.as_dtype(_SPELLING.get(n, n)) for n in self.names
                 if _SPELLING.get(n, n) in _DEFUN_NAMES]
        self.dtypes = frozenset(known)
        self.kernel_names = None  # the types TF's CPU kernels run, where fewer (see kernels)
        self.runs = self.dtypes   # the dtypes that run: allowed, and with a kernel
        self.np_runs = _fast_numpy(self.runs)

    def set_kernels(self, spelled):
        self.kernel_names = [n.strip() for n in spelled.split(',') if n.strip()]
        ran = {_SPELLING.get(n, n) for n in self.kernel_names}
        self.runs = frozenset(d for d in self.dtypes if d.name in ran)
        self.np_runs = _fast_numpy(self.runs)

    def kinds_text(self):
        """The allowed dtypes in words ('floating point or complex'), for the user's fix."""
        kinds = sorted({d.kind for d in self.dtypes}, key='fciubO'.find)
        return ' or '.join(_KIND_WORDS.get(k, k) for k in kinds)

    def eager_text(self):
        return ', '.join(_KERNEL_SPELLING.get(n, n) for n in self.names)

    def graph_text(self):
        return ', '.join(_SPELLING.get(n, n) for n in self.names)


_DEFUN_NAMES = frozenset(d.name for d in dtypes.ALL)
_CHECKED_KINDS = frozenset(['int', 'int32', 'list(int)', 'list(int32)', 'bool', 'float', 'string',
                            'list(string)', 'list(float)', 'list(bool)', 'list(type)'])
_UNCHECKED_KINDS = frozenset(['type', 'shape', 'list(shape)', 'func', 'list(func)', 'tensor',
                              'list(tensor)'])
_KIND_WORDS = {'f': 'floating point', 'c': 'complex', 'i': 'signed integer',
               'u': 'unsigned integer', 'b': 'bool', 'O': 'string'}


def _fast_numpy(runs):
    """The numpy dtypes of the eager fast path's set lookup: the low-precision ones are left
    out, so that their calls take the full check, which sends them to the widening kernel runner
    (core/low_precision.py)."""
    return frozenset(d.np_dtype for d in runs
                     if d.has_numpy_dtype and d not in dtypes.LOW_PRECISION_TYPES)


def _parse_types(text):
    text = text.strip()
    if text.startswith('{'):
        return text.strip('{}')
    return TYPE_CLASSES.get(text)


class Schema:
    """One op's signature, parsed once from TF's spec strings; `eager_check` is the closure the
    dispatch point calls on eager calls (None when there is nothing to check)."""

    def __init__(self, op, inputs=(), attrs=(), kernels=None):
        self.op = op
        self.type_attrs = {}
        self.type_lists = set()  # list(type) attributes: inputs of any types, not checked
        self.value_attrs = []   # (name, kind, minimum, allowed strings)
        for spec in attrs:
            self._add_attr(spec)
        for name, spelled in (kernels or {}).items():
            if name in self.type_attrs:
                self.type_attrs[name].set_kernels(spelled)
        self._limited = [b for b in self.type_attrs.values() if b.kernel_names is not None]
        self.inputs = []        # (position, name, _TypeAttr or fixed DType, to the end)
        for i, spec in enumerate(inputs):
            name, kind, _ = _split(spec, op)
            rest = '*' in kind
            kind = kind.split('*')[-1].strip()
            bound = self.type_attrs.get(kind)
            if bound is None:
                kind = _SPELLING.get(kind, kind)
                if kind in self.type_lists or kind not in _DEFUN_NAMES:
                    break  # a list of any types (or one defun lacks): the later positions vary
                bound = dtypes.as_dtype(kind)
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
        if kind in _UNCHECKED_KINDS:
            return  # what defun holds there is its own object (a traced function, a shape)
        if kind not in _CHECKED_KINDS:
            raise ValueError(f'{self.op}: attribute spec {spec!r} has an unknown kind')
        if kind == 'list(type)':
            self.type_lists.add(name)
            return
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

    def runs_numeric(self, attr):
        """The numpy dtypes of type attribute `attr` that are allowed and run, strings left out
        (a fast path's set: what it leaves out takes the general path)."""
        return frozenset(d for d in self.type_attrs[attr].np_runs if d.kind != 'O')

    def check_inputs(self, inputs, graph, dtype_of):
        """Raises TF's error for an input whose dtype the signature refuses, or two inputs of one
        type attribute with different dtypes."""
        first = {}
        for pos, name, bound, in self._bindings(len(inputs)):
            dtype = dtype_of(inputs[pos])
            if isinstance(bound, _TypeAttr):
                if dtype not in bound.dtypes:
                    raise messages.type_error(self.op, bound, name, dtype, inputs[pos], graph)
                if dtype not in bound.runs and not graph:  # graphs: check_kernels, later
                    raise messages.no_kernel(self.op, bound, dtype, graph)
                if bound.name in first and first[bound.name][1] != dtype:
                    raise messages.mismatch(self.op, pos, name, dtype, first[bound.name], graph)
                first.setdefault(bound.name, (name, dtype))
            elif dtype != bound:
                raise messages.mismatch(self.op, pos, name, dtype, (None, bound), graph)

    # ------------------------------------------------------------------ attributes

    def check_attrs(self, attrs, graph):
        if not attrs:
            return
        for name, kind, minimum, allowed in self.value_attrs:
            value = attrs.get(name)
            if value is not None:  # None: the attribute's default, as TF's wrappers take it
                self._check_attr(name, kind, minimum, allowed, value, graph)
        for name, bound in self.type_attrs.items():
            value = attrs.get(name)
            if value is None:
                continue
            dtype = dtypes.as_dtype(value)
            if dtype not in bound.dtypes:
                raise messages.attr_type_error(self.op, bound, dtype, graph)
            if dtype not in bound.runs and not graph:
                raise messages.no_kernel(self.op, bound, dtype, graph)

    def _check_attr(self, name, kind, minimum, allowed, value, graph):
        if kind.startswith('list('):
            if not isinstance(value, (list, tuple)):
                raise TypeError(f"Expected list for '{name}' argument to '{self.op}' Op, not "
                                f'{value!r}.')
            for v in value:
                self._one_value(name, kind[5:-1], v, graph)
            if minimum is not None and len(value) < minimum:
                raise messages.invalid(
                    self.op, f"Attr '{name}' of '{self.op}' Op passed list of length {len(value)} less "
                    f'than minimum {minimum}.',
                    f"Length for attr '{name}' of {len(value)} must be at least minimum "
                    f'{minimum}', graph)
            return
        self._one_value(name, kind, value, graph)
        if minimum is not None and value < minimum:
            raise messages.invalid(
                self.op, f"Attr '{name}' of '{self.op}' Op passed {value} less than minimum {minimum}.",
                f"Value for attr '{name}' of {value} must be at least minimum {minimum}", graph)
        if allowed is not None and value not in allowed:
            quoted = ', '.join(f'"{a}"' for a in allowed)
            raise messages.invalid(
                self.op, f"Attr '{name}' of '{self.op}' Op passed string '{value}' not in: {quoted}.",
                f"Value for attr '{name}' of \"{value}\" is not in the list of allowed values: "
                f'{quoted}', graph)

    def _one_value(self, name, kind, value, graph):
        if kind in ('int', 'int32'):
            if not isinstance(value, (numbers.Integral, np.integer)) or isinstance(value, str):
                raise TypeError(f"Expected int for argument '{name}' not {value!r}.")
            if kind == 'int32' and not _INT32[0] <= value < _INT32[1]:
                message = f'Attr {name} has value {value} out of range for an int32'
                raise messages.invalid(self.op, message, message, graph)
        elif kind == 'bool' and not isinstance(value, (bool, np.bool_)):
            raise TypeError(f"Expected bool for argument '{name}' not {value!r}.")
        elif kind == 'float' and not isinstance(value, (numbers.Real, np.floating)):
            raise TypeError(f"Expected float for argument '{name}' not {value!r}.")
        elif kind == 'string' and not isinstance(value, (str, bytes)):
            raise TypeError(f"Expected string for argument '{name}' not {value!r}.")

    # ------------------------------------------------------------------ the eager closure

    def _make_eager_check(self):
        if not self.inputs and not self.value_attrs and not self.type_attrs:
            return None
        slots, rest = self._eager_slots()
        attr_checks = tuple(self._attr_predicates())
        # Bool attributes (the commonest: transpose_a, keep_dims...) are tested inline, without
        # a predicate call each.
        bools = tuple(name for name, kind, _, _ in self.value_attrs if kind == 'bool')
        attr_checks = tuple((n, ok) for n, ok in attr_checks if n not in bools)
        slow = self._slow_eager_check
        if len(slots) == 1 and rest is None and not attr_checks and not bools:
            pos, allowed, _ = slots[0]

            def check_one(inputs, attrs):
                # The commonest signature, one typed input and no attribute, in one set lookup.
                try:
                    if inputs[pos].array.dtype in allowed:
                        return
                except (AttributeError, IndexError):
                    return  # a symbolic tensor in eager code, or no such input: not ours to say
                return slow(inputs, attrs)
            return check_one

        def check(inputs, attrs):
            n = len(inputs)
            try:
                for pos, allowed, first in slots:
                    if pos >= n:
                        break
                    dtype = inputs[pos].array.dtype
                    if dtype not in allowed or (first is not None and
                                                dtype is not inputs[first].array.dtype):
                        return slow(inputs, attrs)
                if rest is not None and n > rest[0]:
                    pos, allowed, first = rest
                    for t in inputs[pos:]:
                        if t.array.dtype is not inputs[first].array.dtype or \
                                t.array.dtype not in allowed:
                            return slow(inputs, attrs)
            except AttributeError:
                return  # a symbolic tensor in eager code: not ours to say
            if attrs:
                for name in bools:
                    value = attrs.get(name)
                    if value is not None and value is not True and value is not False:
                        return slow(inputs, attrs)
                for name, ok in attr_checks:
                    value = attrs.get(name)
                    if value is not None and not ok(value):
                        return slow(inputs, attrs)
        return check

    def _eager_slots(self):
        """Per typed input: (position, the numpy dtypes it may have, the position of the first
        input of its type attribute, whose dtype it must share, or None); the 'N * T' input that
        runs to the end separately (numpy dtypes are interned, so `is` compares them)."""
        firsts, slots, rest = {}, [], None
        for pos, _, bound, to_end in self.inputs:
            if isinstance(bound, _TypeAttr):
                allowed, first = bound.np_runs, firsts.setdefault(bound.name, pos)
            else:
                allowed, first = _fast_numpy([bound]), pos
            if to_end:
                rest = (pos, allowed, first)
                break
            slots.append((pos, allowed, None if first == pos else first))
        return tuple(slots), rest

    def _attr_predicates(self):
        """(name, predicate) per attribute: True for the values TF takes, in the cheapest test
        (a False sends the call to the full check, which raises TF's error or lets it pass)."""
        for name, kind, minimum, allowed in self.value_attrs:
            yield name, _predicate(kind, minimum, allowed)
        for name, bound in self.type_attrs.items():
            yield name, bound.runs.__contains__

    def _slow_eager_check(self, inputs, attrs):
        """The full eager check; True when the call passes with an input of a low-precision
        dtype (the dispatch point then runs the kernel widened, see core/low_precision.py)."""
        try:
            self.check_inputs(inputs, False, _eager_dtype)
        except AttributeError:
            return None
        self.check_attrs(attrs, False)
        return low_precision.any_low_precision(inputs) or None

    def check_graph(self, inputs, attrs):
        """The check while a graph is built (TF's op_def_library: TypeError / ValueError)."""
        self.check_inputs(inputs, True, _graph_dtype)
        self.check_attrs(attrs, True)

    def check_kernels(self, inputs, attrs):
        """After a node is built (its shapes inferred: TF reports those first): a type no CPU
        kernel of TF's runs is TF's InvalidArgumentError, which TF raises when the function runs
        and defun while it is traced."""
        limited = self._limited
        if not limited:
            return
        for pos, _, bound in self._bindings(len(inputs)):
            if bound in limited and inputs[pos].dtype not in bound.runs:
                raise messages.no_kernel(self.op, bound, inputs[pos].dtype, True)
        for bound in limited:
            value = (attrs or {}).get(bound.name)
            if value is not None and dtypes.as_dtype(value) not in bound.runs:
                raise messages.no_kernel(self.op, bound, dtypes.as_dtype(value), True)


def _predicate(kind, minimum, allowed):
    low = -2 ** 63 if minimum is None else minimum
    if kind in ('int', 'int32'):
        high = 2 ** 31 if kind == 'int32' else 2 ** 63
        return lambda v: v.__class__ is int and low <= v < high
    if kind in ('list(int)', 'list(int32)'):
        high = 2 ** 31 if kind == 'list(int32)' else 2 ** 63
        shortest = minimum or 0

        def ints(v):
            return ((v.__class__ is tuple or v.__class__ is list) and len(v) >= shortest and
                    all(e.__class__ is int and -2 ** 63 <= e < high for e in v))
        return ints
    if kind == 'bool':
        return lambda v: v is True or v is False
    if kind == 'float':
        return lambda v: v.__class__ is float or v.__class__ is int
    if kind == 'string' and allowed is not None:
        return frozenset(allowed).__contains__
    if kind == 'string':
        return lambda v: v.__class__ is str or v.__class__ is bytes
    return lambda v: False  # lists of strings, floats, bools: the full check


def _eager_dtype(t):
    array = t.array
    if array.dtype.kind == 'O':
        return t.dtype
    return dtypes.from_numpy(array.dtype)


def _graph_dtype(t):
    return t.dtype


def _split(spec, op):
    match = _SPEC.match(spec)
    if match is None:
        raise ValueError(f'{op}: cannot read the signature spec {spec!r}')
    name, kind, minimum = match.groups()
    return name, kind.strip(), None if minimum is None else int(minimum)
