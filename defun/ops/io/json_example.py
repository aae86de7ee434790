"""tf.io.decode_json_example: tf.train.Example protos in protobuf's JSON mapping (as
`json_format.MessageToJson` writes them) to their binary serialization, byte for byte as TF's
DecodeJSONExample writes it: fields in the JSON's order, repeated scalars one tag each (not
packed). Field names may be lowerCamelCase or the proto's own; int64 values are JSON integers or
strings of them, floats numbers or "NaN"/"Infinity"/"-Infinity", bytes base64. Not
differentiable."""
import base64
import binascii
import json
import math
import struct

from defun.core import errors
from defun.core.dispatch import apply_op
from defun.core.registry import define_op
from defun.ops.io import proto_wire as wire
from defun.ops.strings.support import map_elements, string_input
from defun.ops.support.helpers import same_as_first

__all__ = ['decode_json_example']

_LISTS = {'bytesList': 1, 'bytes_list': 1, 'floatList': 2, 'float_list': 2, 'int64List': 3,
          'int64_list': 3}


def _fail(where, detail):
    return errors.InvalidArgumentError(f'Error while parsing JSON in '
                                       f'type.googleapis.com/tensorflow.Example: {where}: {detail}')


def _object(value, where):
    if not isinstance(value, dict):
        raise _fail(where, f"expected an object, got {json.dumps(value)}")
    return value


def _fields(value, where, names):
    """(number, value) of each set field of a JSON object, in its order."""
    out = []
    for key, item in _object(value, where).items():
        if key not in names:
            raise _fail(where, f"no such field: '{key}'")
        if item is not None:
            out.append((names[key], item))
    return out


def _int64(v, where):
    if isinstance(v, bool) or not isinstance(v, (int, float, str)):
        raise _fail(where, f'expected an integer, got {json.dumps(v)}')
    try:
        number = int(v) if not isinstance(v, float) or v.is_integer() else None
    except ValueError:
        number = None
    if number is None or not -2 ** 63 <= number < 2 ** 63:
        raise _fail(where, f'expected an int64, got {json.dumps(v)}')
    return wire.tag(1, wire.VARINT) + wire.varint(number)


def _float(v, where):
    special = {'NaN': math.nan, 'Infinity': math.inf, '-Infinity': -math.inf}
    if isinstance(v, str) and v not in special:
        try:
            v = float(v)
        except ValueError:
            raise _fail(where, f'expected a number, got {json.dumps(v)}') from None
    if isinstance(v, bool) or not isinstance(v, (int, float, str)):
        raise _fail(where, f'expected a number, got {json.dumps(v)}')
    return wire.tag(1, wire.FIXED32) + struct.pack('<f', special.get(v, v) if isinstance(v, str)
                                                   else float(v))


def _bytes(v, where):
    if not isinstance(v, str):
        raise _fail(where, f'expected a base64 string, got {json.dumps(v)}')
    text = v.replace('-', '+').replace('_', '/')
    try:
        data = base64.b64decode(text + '=' * (-len(text) % 4), validate=True)
    except (binascii.Error, ValueError):
        raise _fail(where, f'invalid base64: {json.dumps(v)}') from None
    return wire.length_delimited(1, data)


_VALUE = {1: _bytes, 2: _float, 3: _int64}


def _feature(value, where):
    out = b''
    for number, items in _fields(value, where, _LISTS):
        body = b''
        for key, values in _fields(items, where, {'value': 1}):
            if not isinstance(values, list):
                values = [values]
            body += b''.join(_VALUE[number](v, f'{where}.value') for v in values)
        out += wire.length_delimited(number, body)
    return out


def _example(text):
    try:
        root = json.loads(text.decode('utf-8'))
    except (ValueError, UnicodeDecodeError) as e:
        raise _fail('the input', f'not JSON ({e})') from None
    out = b''
    for _, features in _fields(root, 'Example', {'features': 1}):
        entries = b''
        for _, table in _fields(features, 'Features', {'feature': 1}):
            for key, feature in _object(table, 'Features.feature').items():
                entry = wire.length_delimited(1, key.encode('utf-8'))
                entry += wire.length_delimited(2, _feature(feature, f'Feature {key!r}'))
                entries += wire.length_delimited(1, entry)
        out += wire.length_delimited(1, entries)
    return out


DECODE_JSON_EXAMPLE = define_op('DecodeJSONExample', lambda json_examples: map_elements(
    _example, json_examples), lambda json_examples: same_as_first(json_examples), None)


def decode_json_example(json_examples, name=None):
    """The binary serialization of each tf.train.Example written in protobuf's JSON mapping."""
    x = string_input(json_examples, 'decode_json_example', 'json_examples')
    return apply_op(DECODE_JSON_EXAMPLE, (x,), None, name)
