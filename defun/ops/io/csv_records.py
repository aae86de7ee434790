"""One CSV record split and converted as TF's DecodeCSV does: fields separated by one delimiter
byte, optionally quoted with '"' (a doubled quote inside is one quote), an empty field (or
`na_value`) taking its column's default, or an error when the column has none."""
import re

import numpy as np

from defun.core import errors

__all__ = ['parse_csv_record', 'split_record']

_INT = re.compile(rb'\s*[+-]?\d+\s*')
_FLOAT = re.compile(rb'\s*[+-]?(\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?|inf(inity)?|nan)\s*',
                    re.IGNORECASE)


def split_record(record, delim, quote, index):
    """The fields of one record, quotes resolved."""
    fields, i, n = [], 0, len(record)
    while True:
        if quote and i < n and record[i:i + 1] == b'"':
            field, i = _quoted(record, i + 1, index)
            if i < n and record[i:i + 1] != delim:
                raise errors.InvalidArgumentError(
                    f'Quoted field has to end with quote followed by delim or end, in record '
                    f'{index}')
        else:
            end = record.find(delim, i)
            end = n if end < 0 else end
            field, i = record[i:end], end
        fields.append(field)
        if i >= n:
            return fields
        i += 1


def _quoted(record, i, index):
    out = bytearray()
    while i < len(record):
        c = record[i:i + 1]
        if c == b'"':
            if record[i + 1:i + 2] == b'"':
                out += b'"'
                i += 2
                continue
            return bytes(out), i + 1
        out += c
        i += 1
    raise errors.InvalidArgumentError(f'Quoted field has to end with quote, in record {index}')


def parse_csv_record(record, index, defaults, delim, quote, na_value, select_cols):
    fields = split_record(record, delim, quote, index)
    if select_cols is not None:
        if select_cols and select_cols[-1] >= len(fields):
            raise errors.InvalidArgumentError(
                f'Expect {select_cols[-1] + 1} fields but have {len(fields)} in record {index}')
        fields = [fields[c] for c in select_cols]
    elif len(fields) != len(defaults):
        raise errors.InvalidArgumentError(
            f'Expect {len(defaults)} fields but have {len(fields)} in record {index}')
    return [_convert(f, d, col, index, na_value) for col, (f, d) in enumerate(zip(fields, defaults))]


def _convert(field, default, col, index, na_value):
    if field == b'' or field == na_value:
        if default.size == 0:
            raise errors.InvalidArgumentError(
                f'Field {col} is required but missing in record {index}!')
        return default.reshape(-1)[0]
    kind = default.dtype.kind
    if kind == 'O':
        return field
    if kind == 'i' and _INT.fullmatch(field):
        value = int(field)
        info = np.iinfo(default.dtype)
        if info.min <= value <= info.max:
            return value
    elif kind == 'f' and _FLOAT.fullmatch(field):
        return float(field)
    name = {'f4': 'float', 'f8': 'double'}.get(default.dtype.str[1:], default.dtype.name)
    raise errors.InvalidArgumentError(
        f'Field {col} in record {index} is not a valid {name}: {field.decode("utf-8", "replace")}')
