"""TF's TensorProto on the wire: what tf.io.serialize_tensor writes and parse_tensor reads.

Numbers are written as TF writes them, in `tensor_content` (the raw little-endian array), strings
in `string_val`; reading also takes the typed `*_val` fields other writers use, where a value list
shorter than the tensor is padded with its last value (TF's rule for constant protos).
"""
import numpy as np

from defun.core import dtypes
from defun.ops.io import proto_wire as wire

__all__ = ['encode_tensor', 'decode_tensor', 'DATATYPE_ENUM']

DATATYPE_ENUM = {
    'float32': 1, 'float64': 2, 'int32': 3, 'uint8': 4, 'int16': 5, 'int8': 6, 'string': 7,
    'complex64': 8, 'int64': 9, 'bool': 10, 'uint16': 17, 'complex128': 18, 'float16': 19,
    'uint32': 22, 'uint64': 23,
}
_DTYPE_OF_ENUM = {v: k for k, v in DATATYPE_ENUM.items()}

# Field number of the typed value list each dtype may use, and how its elements are stored.
_VAL_FIELDS = {
    5: ('float32', '<f4'), 6: ('float64', '<f8'), 7: ('int32', 'varint'), 10: ('int64', 'varint'),
    11: ('bool', 'varint'), 13: ('float16', 'half'), 9: ('complex64', '<f4'),
    12: ('complex128', '<f8'), 16: ('uint32', 'varint'), 17: ('uint64', 'varint'),
}


def _shape_proto(shape):
    return b''.join(wire.length_delimited(2, wire.tag(1, wire.VARINT) + wire.varint(d)
                                          if d else b'') for d in shape)


def encode_tensor(array, dtype):
    """The serialized TensorProto of numpy `array` holding a tensor of `dtype`."""
    out = wire.tag(1, wire.VARINT) + wire.varint(DATATYPE_ENUM[dtype.name])
    out += wire.length_delimited(2, _shape_proto(array.shape))
    if dtype is dtypes.string:
        out += b''.join(wire.length_delimited(8, v) for v in array.reshape(-1))
    elif array.size:
        content = np.ascontiguousarray(array).astype(array.dtype.newbyteorder('<'), copy=False)
        out += wire.length_delimited(4, content.tobytes())
    return out


def _decode_shape(payload):
    dims = []
    for number, _, value in wire.fields(payload):
        if number == 2:
            size = 0
            for n, _, v in wire.fields(value):
                if n == 1:
                    size = wire.signed64(v)
            dims.append(size)
        elif number == 3 and value:
            raise wire.DecodeError('a tensor of unknown rank')
    return tuple(dims)


def _typed_values(number, wire_type, value):
    _, storage = _VAL_FIELDS[number]
    if storage == 'varint':
        raw = wire.packed_varints(value) if wire_type == wire.BYTES else [value]
        return [wire.signed64(v) for v in raw]
    if storage == 'half':   # float16 bit patterns in an int32 list
        raw = wire.packed_varints(value) if wire_type == wire.BYTES else [value]
        return list(np.array(raw, np.uint16).view(np.float16))
    if wire_type == wire.BYTES:
        return list(np.frombuffer(value, storage))
    width = 4 if storage == '<f4' else 8
    return list(np.frombuffer(value.to_bytes(width, 'little'), storage))


def decode_tensor(data):
    """(dtype name, numpy array) of a serialized TensorProto."""
    dtype_enum, shape, content, strings, values = None, (), None, [], []
    for number, wire_type, value in wire.fields(data):
        if number == 1:
            dtype_enum = value
        elif number == 2:
            shape = _decode_shape(value)
        elif number == 4:
            content = value
        elif number == 8:
            strings.append(value)
        elif number in _VAL_FIELDS:
            values.extend(_typed_values(number, wire_type, value))
    name = _DTYPE_OF_ENUM.get(dtype_enum)
    if name is None:
        raise wire.DecodeError(f'unsupported data type enum {dtype_enum}')
    np_dtype = dtypes.as_dtype(name).np_dtype
    size = int(np.prod(shape))
    if name == 'string':
        flat = np.empty(len(strings), dtype=object)
        flat[:] = strings
    elif content is not None:
        flat = np.frombuffer(content, np.dtype(np_dtype).newbyteorder('<')).astype(np_dtype)
    else:
        if np.dtype(np_dtype).kind == 'c':
            values = [complex(r, i) for r, i in zip(values[::2], values[1::2])]
        flat = np.array(values, dtype=np_dtype)
    if flat.size != size:
        if flat.size == 0 or flat.size > size or content is not None:
            raise wire.DecodeError(f'{flat.size} values for a tensor of shape {list(shape)}')
        flat = np.concatenate([flat, np.repeat(flat[-1:], size - flat.size)])
    return name, flat.reshape(shape)
