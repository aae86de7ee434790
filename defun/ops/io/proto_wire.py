"""The protocol-buffer wire format, as far as TF's Example and TensorProto messages need it:
varints, length-delimited fields, 32- and 64-bit fixed fields, packed repeated scalars.

`fields(data)` walks a message's fields as (number, wire_type, value) with value an int (varint
and fixed) or a bytes slice (length-delimited); `tag`, `varint`, `length_delimited` write them.
Malformed input raises DecodeError (a ValueError) naming what is wrong.
"""
import struct

import numpy as np

__all__ = ['DecodeError', 'VARINT', 'FIXED64', 'BYTES', 'FIXED32', 'varint', 'tag',
           'length_delimited', 'fields', 'packed_varints', 'signed64']

VARINT, FIXED64, BYTES, FIXED32 = 0, 1, 2, 5


class DecodeError(ValueError):
    """Bytes that are not a well-formed protocol buffer message."""


def varint(value):
    """The varint encoding of an int (negative values as their 64-bit two's complement)."""
    value &= 0xFFFFFFFFFFFFFFFF
    out = bytearray()
    while value > 0x7F:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def tag(number, wire_type):
    return varint((number << 3) | wire_type)


def length_delimited(number, payload):
    return tag(number, BYTES) + varint(len(payload)) + payload


def _read_varint(data, pos):
    result = shift = 0
    while True:
        if pos >= len(data):
            raise DecodeError('truncated varint')
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result, pos
        shift += 7
        if shift >= 70:
            raise DecodeError('varint too long')


def fields(data):
    """Yields (field number, wire type, value) for each field of the encoded message `data`."""
    data = memoryview(data)
    pos, end = 0, len(data)
    while pos < end:
        key, pos = _read_varint(data, pos)
        number, wire_type = key >> 3, key & 7
        if number == 0:
            raise DecodeError('field number 0')
        if wire_type == VARINT:
            value, pos = _read_varint(data, pos)
        elif wire_type == BYTES:
            size, pos = _read_varint(data, pos)
            if pos + size > end:
                raise DecodeError('truncated length-delimited field')
            value, pos = bytes(data[pos:pos + size]), pos + size
        elif wire_type in (FIXED32, FIXED64):
            width = 4 if wire_type == FIXED32 else 8
            if pos + width > end:
                raise DecodeError('truncated fixed-width field')
            value = int.from_bytes(data[pos:pos + width], 'little')
            pos += width
        else:
            raise DecodeError(f'unsupported wire type {wire_type}')
        yield number, wire_type, value


def packed_varints(payload):
    """The ints of a packed repeated varint field."""
    data, pos, out = memoryview(payload), 0, []
    while pos < len(data):
        value, pos = _read_varint(data, pos)
        out.append(value)
    return out


def signed64(value):
    """A varint read as int64."""
    return value - (1 << 64) if value >= 1 << 63 else value


def packed_floats(payload):
    """The float32 values of a packed repeated float field, as a numpy array."""
    if len(payload) % 4:
        raise DecodeError('packed float field of a length not a multiple of 4')
    return np.frombuffer(payload, dtype='<f4').astype(np.float32)


def fixed32_float(value):
    return struct.unpack('<f', value.to_bytes(4, 'little'))[0]
