"""A small protocol-buffer message model: classes declare their fields, and get protobuf's Python
API for them (keyword construction, attribute access that creates sub-messages on demand,
`HasField`, `WhichOneof`, `CopyFrom`, `SerializeToString`, `ParseFromString`, `FromString`, ==,
and the text format from `str`). Enough for TF's Example family, not a general protobuf runtime.

A class lists `FIELDS` as (name, number, kind, type): kind 'repeated' (a scalar type of
`SCALARS`), 'message', 'repeated_message' or 'map' (string keys, message values); `ONEOF` names a
oneof over some message fields. A sub-message counts as set once it is assigned or changed
(reading one leaves it unset, as in protobuf), which decides what is serialized.
"""
import struct

import numpy as np

from defun.ops.io import proto_wire as wire

__all__ = ['Message', 'SCALARS']


def _bytes_value(v):
    if isinstance(v, (bytes, bytearray, np.bytes_)):
        return bytes(v)
    if isinstance(v, str):  # protobuf's Python API takes text for a bytes field, as UTF-8
        return v.encode('utf-8')
    raise TypeError(f'{v!r} has type {type(v).__name__}, but expected one of: bytes')


def _float_value(v):
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, float, np.integer, np.floating)):
        raise TypeError(f'{v!r} has type {type(v).__name__}, but expected one of: int, float')
    return float(np.float32(v))  # a float field holds float32 values


def _int64_value(v):
    if isinstance(v, (float, np.floating)) or not isinstance(v, (int, np.integer)):
        raise TypeError(f'{v!r} has type {type(v).__name__}, but expected one of: int')
    v = int(v)
    if not -2 ** 63 <= v < 2 ** 63:
        raise ValueError(f'Value out of range: {v}')
    return v


def _encode_floats(values):
    return np.asarray(values, dtype='<f4').tobytes()


def _encode_varints(values):
    return b''.join(wire.varint(v) for v in values)


def _decode_floats(wire_type, value):
    if wire_type == wire.BYTES:
        return [float(f) for f in wire.packed_floats(value)]
    return [struct.unpack('<f', value.to_bytes(4, 'little'))[0]]


def _decode_int64s(wire_type, value):
    if wire_type == wire.BYTES:
        return [wire.signed64(v) for v in wire.packed_varints(value)]
    return [wire.signed64(value)]


# kind -> (coerce one value, encode a list (packed), decode one field, text of one value)
SCALARS = {
    'bytes': (_bytes_value, None, lambda wt, v: [v], lambda v: '"' + _c_escape(v) + '"'),
    'float': (_float_value, _encode_floats, _decode_floats, lambda v: _float_text(v)),
    'int64': (_int64_value, _encode_varints, _decode_int64s, str),
}


def _c_escape(data):
    out = []
    for b in data:
        c = chr(b)
        if c in '"\'\\':
            out.append('\\' + c)
        elif c == '\n':
            out.append('\\n')
        elif c == '\r':
            out.append('\\r')
        elif c == '\t':
            out.append('\\t')
        elif 32 <= b < 127:
            out.append(c)
        else:
            out.append('\\%03o' % b)
    return ''.join(out)


def _float_text(v):
    text = str(np.float32(v))  # the shortest text that reads back as the same float32
    return text[:-2] if text.endswith('.0') else text


class _Repeated(list):
    """A repeated scalar field: values are checked and converted as they go in, and a change
    marks the owning message as set."""

    def __init__(self, coerce, touch, values=()):
        super().__init__(coerce(v) for v in values)
        self._coerce, self._touch = coerce, touch

    def append(self, value):
        super().append(self._coerce(value))
        self._touch()

    def extend(self, values):
        super().extend([self._coerce(v) for v in values])
        self._touch()

    def insert(self, index, value):
        super().insert(index, self._coerce(value))
        self._touch()

    def __setitem__(self, index, value):
        if isinstance(index, slice):
            super().__setitem__(index, [self._coerce(v) for v in value])
        else:
            super().__setitem__(index, self._coerce(value))
        self._touch()

    def __iadd__(self, values):
        self.extend(values)
        return self

    def __eq__(self, other):
        return list(self) == list(other)

    __hash__ = None


class _MessageList(list):
    """A repeated message field: `add()` appends a new message, as protobuf's."""

    def __init__(self, cls, touch):
        super().__init__()
        self._cls, self._touch = cls, touch

    def add(self, **kwargs):
        item = self._cls(**kwargs)
        item._parent_touch = self._touch
        super().append(item)
        self._touch()
        return item

    def append(self, value):
        self.add().CopyFrom(value)

    def extend(self, values):
        for v in values:
            self.append(v)


class _MessageMap(dict):
    """A map<string, message> field: reading a missing key adds an empty message, as protobuf's."""

    def __init__(self, cls, touch):
        super().__init__()
        self._cls, self._touch = cls, touch

    def __missing__(self, key):
        item = self._cls()
        item._parent_touch = self._touch
        super().__setitem__(key, item)
        self._touch()
        return item

    def __setitem__(self, key, value):
        self[key].CopyFrom(value)

    def get_or_create(self, key):
        return self[key]


class Message:
    """Base of the message classes; see the module docstring."""

    FIELDS = ()
    ONEOF = None   # (oneof name, (field names...))

    def __init__(self, **kwargs):
        self._parent_touch = None
        self._values = {}
        self._present = set()
        by_name = {f[0]: f for f in self.FIELDS}
        for name, value in kwargs.items():
            if name not in by_name:
                raise ValueError(f'Protocol message {type(self).__name__} has no "{name}" field.')
            self._assign(by_name[name], value)

    # -- field access

    def __getattr__(self, name):
        if name.startswith('_'):
            raise AttributeError(name)
        field = self._field(name)
        if name not in self._values:
            self._values[name] = self._empty(field)
        return self._values[name]

    def __setattr__(self, name, value):
        if name.startswith('_'):
            object.__setattr__(self, name, value)
            return
        field = self._field(name)
        raise AttributeError(f'Assignment not allowed to {field[2]} field "{name}" in protocol '
                             f'message object.')

    def _field(self, name):
        for field in type(self).FIELDS:
            if field[0] == name:
                return field
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def _empty(self, field):
        name, _, kind, kind_type = field
        touch = (lambda: self._mark(name))
        if kind == 'repeated':
            return _Repeated(SCALARS[kind_type][0], touch)
        if kind == 'repeated_message':
            return _MessageList(kind_type, touch)
        if kind == 'map':
            return _MessageMap(kind_type, touch)
        child = kind_type()
        child._parent_touch = touch
        return child

    def _assign(self, field, value):
        name, _, kind, _ = field
        target = getattr(self, name)
        if kind == 'repeated':
            target.extend(value)
        elif kind == 'repeated_message':
            target.extend(value)
        elif kind == 'map':
            for key, item in dict(value).items():
                target[key] = item
        else:
            target.CopyFrom(value)
        self._mark(name)

    def _mark(self, name):
        """Field `name` is now set: its oneof siblings are cleared, and so up the parents."""
        if self.ONEOF and name in self.ONEOF[1]:
            for other in self.ONEOF[1]:
                if other != name:
                    self._present.discard(other)
                    self._values.pop(other, None)
        self._present.add(name)
        if self._parent_touch is not None:
            self._parent_touch()

    # -- protobuf's message API

    def HasField(self, name):  # noqa: N802 - protobuf's method names
        if self.ONEOF and name == self.ONEOF[0]:
            return self.WhichOneof(name) is not None
        if self._field(name)[2] not in ('message',):
            raise ValueError(f'Protocol message has no singular "{name}" field.')
        return name in self._present

    def WhichOneof(self, oneof_group):  # noqa: N802
        if not self.ONEOF or oneof_group != self.ONEOF[0]:
            raise ValueError(f'Protocol message has no oneof "{oneof_group}" field.')
        return next((n for n in self.ONEOF[1] if n in self._present), None)

    def Clear(self):  # noqa: N802
        self._values.clear()
        self._present.clear()

    def ClearField(self, name):  # noqa: N802
        self._field(name)
        self._values.pop(name, None)
        self._present.discard(name)

    def CopyFrom(self, other):  # noqa: N802
        if not isinstance(other, type(self)):
            raise TypeError(f'Parameter to CopyFrom() must be instance of same class: expected '
                            f'{type(self).__name__} got {type(other).__name__}.')
        if other is self:
            return
        self.Clear()
        self.MergeFromString(other.SerializeToString())
        self._present |= other._present
        if self._parent_touch is not None:
            self._parent_touch()

    def ListFields(self):  # noqa: N802
        return [(f, self._values[f[0]]) for f in self.FIELDS if self._is_set(f)]

    def _is_set(self, field):
        name, _, kind, _ = field
        if kind == 'message':
            return name in self._present
        return bool(self._values.get(name))

    def __eq__(self, other):
        return type(other) is type(self) and \
            self.SerializeToString(deterministic=True) == other.SerializeToString(deterministic=True)

    __hash__ = None

    def ByteSize(self):  # noqa: N802
        return len(self.SerializeToString())

    # -- wire format

    def SerializeToString(self, deterministic=False):  # noqa: N802
        out = []
        for field in self.FIELDS:
            if self._is_set(field):
                out.append(self._encode(field, deterministic))
        return b''.join(out)

    def _encode(self, field, deterministic):
        name, number, kind, kind_type = field
        value = self._values[name]
        if kind == 'repeated':
            packed = SCALARS[kind_type][1]
            if packed is None:
                return b''.join(wire.length_delimited(number, v) for v in value)
            return wire.length_delimited(number, packed(value))
        if kind == 'message':
            return wire.length_delimited(number, value.SerializeToString(deterministic))
        if kind == 'repeated_message':
            return b''.join(wire.length_delimited(number, v.SerializeToString(deterministic))
                            for v in value)
        keys = sorted(value) if deterministic else list(value)
        return b''.join(wire.length_delimited(number, wire.length_delimited(
            1, k.encode('utf-8')) + wire.length_delimited(2, value[k].SerializeToString(
                deterministic))) for k in keys)

    def ParseFromString(self, data):  # noqa: N802
        self.Clear()
        self.MergeFromString(data)
        return len(data)

    def MergeFromString(self, data):  # noqa: N802
        by_number = {f[1]: f for f in self.FIELDS}
        try:
            for number, wire_type, value in wire.fields(data):
                field = by_number.get(number)
                if field is not None:  # unknown fields are skipped, as protobuf reads them
                    self._decode(field, wire_type, value)
        except (wire.DecodeError, UnicodeDecodeError) as exc:
            raise DecodeError(f'Error parsing message with type '
                              f"'tensorflow.{type(self).__name__}': {exc}") from None
        return len(data)

    def _decode(self, field, wire_type, value):
        name, _, kind, kind_type = field
        if (kind != 'repeated' or kind_type == 'bytes') and wire_type != wire.BYTES:
            raise wire.DecodeError(f'field {name} has wire type {wire_type}')
        target = getattr(self, name)
        if kind == 'repeated':
            target.extend(SCALARS[kind_type][2](wire_type, value))
        elif kind == 'message':
            target.MergeFromString(value)
        elif kind == 'repeated_message':
            target.add().MergeFromString(value)
        else:
            key, item = '', b''
            for n, _, v in wire.fields(value):
                if n == 1:
                    key = v.decode('utf-8')
                elif n == 2:
                    item = v
            target[key].MergeFromString(item)
        self._mark(name)

    @classmethod
    def FromString(cls, data):  # noqa: N802
        message = cls()
        message.MergeFromString(data)
        return message

    # -- text format

    def __str__(self):
        return ''.join(self._text_lines(0))

    def __repr__(self):
        return str(self)

    def _text_lines(self, depth):
        pad = '  ' * depth
        for field, value in self.ListFields():
            name, _, kind, kind_type = field
            if kind == 'repeated':
                show = SCALARS[kind_type][3]
                yield from (f'{pad}{name}: {show(v)}\n' for v in value)
            elif kind == 'message':
                yield from self._text_block(pad, name, value, depth)
            elif kind == 'repeated_message':
                for item in value:
                    yield from self._text_block(pad, name, item, depth)
            else:
                for key, item in value.items():
                    yield f'{pad}{name} {{\n{pad}  key: "{_c_escape(key.encode())}"\n'
                    yield from self._text_block(pad + '  ', 'value', item, depth + 1)
                    yield f'{pad}}}\n'

    @staticmethod
    def _text_block(pad, name, value, depth):
        yield f'{pad}{name} {{\n'
        yield from value._text_lines(depth + 1)
        yield f'{pad}}}\n'


class DecodeError(ValueError):
    """protobuf's DecodeError: bytes that are not a message of the expected type."""
