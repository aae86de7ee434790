"""tf.io ops on bytes: serialize_tensor / parse_tensor (TensorProto, see tensor_proto.py),
decode_raw, decode_csv, and the file ops read_file / write_file. None is differentiable.
"""
import os

import numpy as np

from defun.core import dtypes, errors
from defun.core.dispatch import apply_op
from defun.core.registry import define_op
from defun.ops.io import proto_wire, tensor_proto
from defun.ops.io.csv_records import parse_csv_record
from defun.ops.strings.support import as_array, scalar_bytes, string_input
from defun.ops.support import validation
from defun.ops.support.helpers import dims, to_tensor

__all__ = ['serialize_tensor', 'parse_tensor', 'decode_raw', 'decode_csv', 'read_file',
           'write_file']


# ---------------------------------------------------------------- serialize_tensor / parse_tensor

def _serialize_kernel(x, dtype):
    return tensor_proto.encode_tensor(as_array(x), dtypes.as_dtype(dtype))


SERIALIZE_TENSOR = define_op('SerializeTensor', _serialize_kernel,
                             lambda x, dtype: (dtypes.string, ()), None)


def serialize_tensor(tensor, name=None):
    """The tensor as a serialized TensorProto (a string scalar), as TF writes it."""
    x = to_tensor(tensor, name='tensor', op='serialize_tensor')
    return apply_op(SERIALIZE_TENSOR, (x,), {'dtype': x.dtype.name}, name)


def _parse_kernel(serialized, out_type):
    try:
        name, array = tensor_proto.decode_tensor(scalar_bytes(serialized))
    except proto_wire.DecodeError as exc:
        raise errors.InvalidArgumentError(
            f'Could not parse `serialized` as TensorProto: {exc}') from None
    if name != out_type:
        raise errors.InvalidArgumentError(
            f'Type mismatch between parsed tensor ({_kernel_name(name)}) and dtype '
            f'({_kernel_name(out_type)})')
    return array


def _kernel_name(name):
    return {'float32': 'float', 'float64': 'double', 'float16': 'half'}.get(name, name)


PARSE_TENSOR = define_op('ParseTensor', _parse_kernel,
                         lambda s, out_type: (dtypes.as_dtype(out_type), None), None)


def parse_tensor(serialized, out_type, name=None):
    """The tensor of dtype `out_type` a serialized TensorProto (a string scalar) holds."""
    s = string_input(serialized, 'parse_tensor', 'serialized')
    if s.shape.rank not in (0, None):
        raise validation.invalid_argument(
            f'parse_tensor: `serialized` must be a scalar, got shape {s.shape}')
    return apply_op(PARSE_TENSOR, (s,), {'out_type': dtypes.as_dtype(out_type).name}, name)


# ---------------------------------------------------------------- decode_raw

def _decode_raw_kernel(x, out_type, little_endian, fixed_length):
    x = as_array(x)
    np_dtype = np.dtype(out_type).newbyteorder('<' if little_endian else '>')
    width = np_dtype.itemsize
    flat = x.reshape(-1)
    if fixed_length is not None:
        rows = [v[:fixed_length].ljust(fixed_length, b'\0') for v in flat]
        size = fixed_length
    else:
        rows = list(flat)
        size = len(rows[0]) if rows else 0
        for i, v in enumerate(rows):
            if len(v) != size:
                raise errors.InvalidArgumentError(
                    f'DecodeRaw requires input strings to all be the same size, but element '
                    f'{i} has size {size} != {len(v)}')
    if size % width:
        raise errors.InvalidArgumentError(
            f'Input to DecodeRaw has length {size} that is not a multiple of {width}, the size '
            f'of {out_type}')
    data = np.frombuffer(b''.join(rows), np_dtype).astype(np.dtype(out_type))
    return data.reshape(x.shape + (size // width,))


def _decode_raw_infer(x, out_type, little_endian, fixed_length):
    d = dims(x)
    n = None if fixed_length is None else fixed_length // np.dtype(out_type).itemsize
    return dtypes.as_dtype(out_type), None if d is None else d + (n,)


DECODE_RAW = define_op('DecodeRaw', _decode_raw_kernel, _decode_raw_infer, None)


def decode_raw(input_bytes, out_type, little_endian=True, fixed_length=None, name=None):
    """Each string's bytes read as a vector of `out_type` numbers (a new last dimension)."""
    x = string_input(input_bytes, 'decode_raw', 'input_bytes')
    dtype = dtypes.as_dtype(out_type)
    if dtype in (dtypes.string, dtypes.bool, dtypes.resource, dtypes.variant):
        raise TypeError(f'decode_raw: `out_type` must be a numeric dtype, got {dtype.name}')
    attrs = {'out_type': dtype.np_dtype.name, 'little_endian': bool(little_endian),
             'fixed_length': None if fixed_length is None else int(fixed_length)}
    return apply_op(DECODE_RAW, (x,), attrs, name)


# ---------------------------------------------------------------- decode_csv

def _decode_csv_kernel(records, *defaults, delim, quote, na_value, select_cols):
    records, defaults = as_array(records), [as_array(d) for d in defaults]
    flat = records.reshape(-1)
    columns = [np.empty(flat.size, dtype=d.dtype) for d in defaults]
    for i, record in enumerate(flat):
        values = parse_csv_record(record, i, defaults, delim, quote, na_value, select_cols)
        for column, value in zip(columns, values):
            column[i] = value
    return tuple(c.reshape(records.shape) for c in columns)


def _decode_csv_infer(records, *defaults, **attrs):
    return [(d.dtype, dims(records)) for d in defaults]


DECODE_CSV = define_op('DecodeCSV', _decode_csv_kernel, _decode_csv_infer, None, num_outputs=None)

_CSV_TYPES = (dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64, dtypes.string)


def decode_csv(records, record_defaults, field_delim=',', use_quote_delim=True, name=None,
               na_value='', select_cols=None):
    """Splits each CSV record into columns of the dtypes of `record_defaults`; an empty default
    makes its column required."""
    x = string_input(records, 'decode_csv', 'records')
    defaults = tuple(to_tensor(d, name=f'record_defaults[{i}]', op='decode_csv')
                     for i, d in enumerate(record_defaults))
    for i, d in enumerate(defaults):
        if d.dtype not in _CSV_TYPES:
            raise TypeError(f"decode_csv: Value for attr 'OUT_TYPE' of {d.dtype.name} is not in "
                            f'the list of allowed values: float, double, int32, int64, string '
                            f'(record_defaults[{i}])')
    if select_cols is not None and len(select_cols) != len(defaults):
        raise ValueError('Length of select_cols and record_defaults do not match.')
    if select_cols is not None and list(select_cols) != sorted(set(select_cols)):
        raise ValueError('select_cols is not strictly increasing.')
    attrs = {'delim': field_delim.encode(), 'quote': bool(use_quote_delim),
             'na_value': na_value.encode(),
             'select_cols': None if select_cols is None else tuple(int(c) for c in select_cols)}
    return list(apply_op(DECODE_CSV, (x,) + defaults, attrs, name))


# ---------------------------------------------------------------- files

def _read_file_kernel(filename):
    path = scalar_bytes(filename).decode('utf-8')
    try:
        with open(path, 'rb') as handle:
            return handle.read()
    except FileNotFoundError:
        raise errors.NotFoundError(f'{path}; No such file or directory') from None
    except OSError as exc:
        raise errors.PermissionDeniedError(f'{path}; {exc.strerror}') from None


READ_FILE = define_op('ReadFile', _read_file_kernel, lambda f: (dtypes.string, ()), None,
                      stateful=True)


def read_file(filename, name=None):
    """The whole contents of the file `filename` as a string scalar."""
    return apply_op(READ_FILE, (string_input(filename, 'read_file', 'filename'),), None, name)


def _write_file_kernel(filename, contents):
    path = scalar_bytes(filename).decode('utf-8')
    directory = os.path.dirname(path)
    if directory:
        os.makedirs(directory, exist_ok=True)
    with open(path, 'wb') as handle:
        handle.write(scalar_bytes(contents))
    return ()


WRITE_FILE = define_op('WriteFile', _write_file_kernel, lambda f, c: [], None, num_outputs=0,
                       stateful=True)


def write_file(filename, contents, name=None):
    """Writes the string scalar `contents` to the file `filename` (creating its directory)."""
    inputs = (string_input(filename, 'write_file', 'filename'),
              string_input(contents, 'write_file', 'contents'))
    return apply_op(WRITE_FILE, inputs, None, name)
