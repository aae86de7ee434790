"""`tf.data.experimental.CsvDataset`: the records of CSV files as tuples of scalar tensors.

Each column's entry in `record_defaults` is either a dtype (the field is required) or a value (the
default for an empty field or one equal to `na_value`). Fields are parsed lazily, record by record,
when the dataset is iterated; a bad record is an InvalidArgumentError worded as TF's kernel words it.
"""
import csv

import numpy as np

from defun.core import dtypes
from defun.compiler.folding import build_time_value
from defun.core.error_helpers import kernel_type_name
from defun.core.errors import InvalidArgumentError
from defun.core.shapes import TensorSpec
from defun.core.tensor import Tensor, convert_to_tensor

from defun.data.base import UNKNOWN, Dataset
from defun.data.sources import file_names_or_template, files_of, open_data_file

__all__ = ['CsvDataset']

_TYPES = (dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64, dtypes.string)

# TF tests `default in (tf.float32, ...)`, and a DType compares equal to its enum number, so a
# Python number default equal to 1, 2, 3, 7 or 9 (True and 9.0 too) is taken as that dtype (a
# required column) in TF 2.21.
_ENUM_TYPES = {1: dtypes.float32, 2: dtypes.float64, 3: dtypes.int32, 7: dtypes.string,
               9: dtypes.int64}


def _column(default):
    """(dtype, default value or None) of one entry of `record_defaults`."""
    if isinstance(default, dtypes.DType):
        if default not in _TYPES:
            raise ValueError(f'CsvDataset: unsupported column type {default!r}; a column is one '
                             f'of float32, float64, int32, int64, string')
        return default, None
    if isinstance(default, (int, float, np.integer, np.floating)) and default in _ENUM_TYPES:
        return _ENUM_TYPES[int(default)], None
    value = default if isinstance(default, Tensor) else convert_to_tensor(default)
    if value.dtype not in _TYPES:
        raise TypeError(f'CsvDataset: a record default must be float32, float64, int32, int64 '
                        f'or string, got {value.dtype.name}')
    array = build_time_value(value)
    if array is None:  # a graph tensor computed at run time
        raise ValueError('CsvDataset: a record default must be known when the dataset is built, '
                         f'got {value!r}')
    array = np.asarray(array)
    if array.size > 1:
        raise ValueError(f'CsvDataset: a record default has at most one element, got shape '
                         f'{array.shape}')
    if not array.size:
        return value.dtype, None
    first = array.reshape(-1)[0]
    return value.dtype, (bytes(first) if value.dtype == dtypes.string else first)


def _parse(field, dtype, index):
    if dtype == dtypes.string:
        return np.array(field.encode('utf-8', 'surrogateescape'), dtype=object)
    try:
        number = int(field) if dtype.is_integer else float(field)
        return np.array(number, dtype.as_numpy_dtype)
    except (ValueError, OverflowError):
        raise InvalidArgumentError(f'Field {index} in record is not a valid '
                                   f'{kernel_type_name(dtype)}: {field}') from None


def _columns_list(cols):
    if cols is None:
        return None
    values = build_time_value(cols)
    if values is None:
        raise ValueError(f'CsvDataset: the column indices must be known when the dataset is '
                         f'built, got {cols!r}')
    return [int(c) for c in np.asarray(values).reshape(-1)]


class CsvDataset(Dataset):
    """`tf.data.experimental.CsvDataset(filenames, record_defaults, ...)`."""

    def __init__(self, filenames, record_defaults, compression_type=None, buffer_size=None,
                 header=False, field_delim=',', use_quote_delim=True, na_value='',
                 select_cols=None, exclude_cols=None, name=None):
        if compression_type:
            raise NotImplementedError('CsvDataset: compressed files are not supported')
        self._files, self._tensors = file_names_or_template(filenames, 'CsvDataset')
        self._columns = [_column(d) for d in record_defaults]
        self._select = _columns_list(select_cols)
        self._exclude = _columns_list(exclude_cols)
        if self._select is not None and self._exclude is not None:
            raise InvalidArgumentError('Either select_cols or exclude_cols should be empty')
        for cols in (self._select, self._exclude):
            if cols is not None and any(b <= a for a, b in zip(cols, cols[1:])):
                raise InvalidArgumentError('select_cols should be strictly increasing indices')
        if self._select is not None and len(self._select) != len(self._columns):
            raise InvalidArgumentError('select_cols should match output size')
        self._header, self._na_value = bool(header), na_value
        self._dialect = {'delimiter': field_delim, 'quotechar': '"', 'doublequote': True,
                         'quoting': csv.QUOTE_MINIMAL if use_quote_delim else csv.QUOTE_NONE}
        self.element_spec = tuple(TensorSpec([], dtype) for dtype, _ in self._columns)
        self._cardinality = UNKNOWN

    def __repr__(self):
        return f'<CsvDatasetV2 element_spec={self.element_spec!r}>'

    def _fields(self, row):
        """The record's fields for the output columns, and whether it has more than those."""
        if self._select is not None:
            return [row[i] for i in self._select if i < len(row)], False
        if self._exclude is not None:
            row = [f for i, f in enumerate(row) if i not in self._exclude]
        return row, len(row) > len(self._columns)

    def _record(self, row):
        """One record's values, parsed field after field as TF's kernel does (so a bad field
        is reported before a wrong count of fields)."""
        fields, more = self._fields(row)
        n, values = len(self._columns), []
        for i, (dtype, default) in enumerate(self._columns):
            if i >= len(fields):
                raise InvalidArgumentError(f'Expect {n} fields but have {len(fields)} in record')
            field = fields[i]
            if field == '' or field == self._na_value:
                if default is None:
                    raise InvalidArgumentError(f'Field {i} is required but missing in record!')
                values.append(np.array(default, dtype=object if dtype == dtypes.string
                                       else dtype.as_numpy_dtype))
            else:
                values.append(_parse(field, dtype, i))
        if more:
            raise InvalidArgumentError(f'Expect {n} fields but have more in record')
        return tuple(values)

    def flat_iterator(self):
        for filename in files_of(self._files, self._tensors):
            with open_data_file(filename) as handle:
                lines = (raw.decode('utf-8', 'surrogateescape') for raw in handle)
                rows = csv.reader(lines, **self._dialect)
                if self._header:
                    next(rows, None)
                for row in rows:
                    yield self._record(row if row else [''])
