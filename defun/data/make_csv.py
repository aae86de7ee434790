"""`tf.data.experimental.make_csv_dataset`: batches of CSV records as dicts of columns, built as
TF builds them: the matching files (shuffled with `shuffle`), each read by a CsvDataset, one file
after another (TF's default of one parallel read), then shuffle, repeat `num_epochs` times, batch
(whole batches only when repeating forever) and map each batch of columns to an OrderedDict keyed
by column name (with `label_name`'s column split off as the label).

Column names come from the header row when not given (every file must have the same header);
column types, when not given, are inferred from the first `num_rows_for_inference` rows as the
least permissive of int32, int64, float32, float64 and string that holds every value (empty and
`na_value` fields say nothing).
"""
import collections
import csv

import numpy as np

from defun.core import dtypes
from defun.core.tensor import convert_to_tensor
from defun.data.base import AUTOTUNE, Dataset
from defun.data.csv_dataset import CsvDataset

__all__ = ['make_csv_dataset']

_TYPES = (dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64, dtypes.string)
_INT_RANGES = {dtypes.int32: (-2 ** 31, 2 ** 31 - 1), dtypes.int64: (-2 ** 63, 2 ** 63 - 1)}


def _fits(text, dtype):
    if dtype in _INT_RANGES:
        try:
            low, high = _INT_RANGES[dtype]
            return low <= int(text) <= high
        except ValueError:
            return False
    if dtype in (dtypes.float32, dtypes.float64):
        try:
            with np.errstate(over='ignore'):
                return bool(dtype.as_numpy_dtype(text) < np.inf)
        except ValueError:
            return False
    return True


def _infer_type(text, na_value, previous):
    if text in ('', na_value):
        return previous
    for i, dtype in enumerate(_TYPES):
        if _fits(text, dtype) and (previous is None or previous in _TYPES[:i + 1]):
            return dtype
    return dtypes.string


def _reader(file, field_delim, use_quote_delim):
    quoting = csv.QUOTE_MINIMAL if use_quote_delim else csv.QUOTE_NONE
    return csv.reader(file, delimiter=field_delim, quoting=quoting)


def _column_names(files, field_delim, use_quote_delim, encoding):
    names = None
    for name in files:
        with open(name, encoding=encoding, newline='') as f:
            header = next(_reader(f, field_delim, use_quote_delim), None)
        if header is None:
            raise ValueError(f'Failed when reading the header line of {name}. Is it an empty '
                             f'file?')
        if names is not None and header != names:
            raise ValueError(f'All input CSV files should have the same column names in the '
                             f'header row. File {name} has different column names.')
        names = header
    return names


def _column_types(files, num_cols, options, select, rows):
    field_delim, use_quote_delim, na_value, header, encoding = options
    types = [None] * len(select)
    seen = 0
    for name in files:
        with open(name, encoding=encoding, newline='') as f:
            reader = _reader(f, field_delim, use_quote_delim)
            if header:
                next(reader, None)
            for row in reader:
                if rows is not None and seen >= rows:
                    return types
                if len(row) != num_cols:
                    raise ValueError(f'Problem inferring types: CSV row has {len(row)} number '
                                     f'of fields. Expected: {num_cols}.')
                types = [_infer_type(row[c], na_value, t) for c, t in zip(select, types)]
                seen += 1
    return types


def _selected(select_columns, names):
    if select_columns is None:
        return None
    index = {n: i for i, n in enumerate(names)}
    chosen = []
    for v in select_columns:
        if isinstance(v, int):
            if not 0 <= v < len(names):
                raise ValueError(f'Column index {v} specified in `select_columns` should be > 0 '
                                 f' and <= {len(names)}, which is the number of columns.')
            chosen.append(v)
        elif v not in index:
            raise ValueError(f'Column {v} specified in `select_columns` must be of one of the '
                             f'columns: {index.keys()}.')
        else:
            chosen.append(index[v])
    if len(set(chosen)) != len(chosen):
        raise ValueError('The `select_columns` argument contains duplicate columns.')
    return sorted(chosen)


def make_csv_dataset(file_pattern, batch_size, column_names=None, column_defaults=None,
                     label_name=None, select_columns=None, field_delim=',', use_quote_delim=True,
                     na_value='', header=True, num_epochs=None, shuffle=True,
                     shuffle_buffer_size=10000, shuffle_seed=None, prefetch_buffer_size=None,
                     num_parallel_reads=None, sloppy=False, num_rows_for_inference=100,
                     compression_type=None, ignore_errors=False, encoding='utf-8'):
    """Reads CSV files into a dataset of (features dict[, label]) batches, as TF."""
    if compression_type or ignore_errors:
        raise NotImplementedError('make_csv_dataset: compressed files and ignore_errors are not '
                                  'supported by defun')
    files = Dataset.list_files(file_pattern, shuffle=False)
    names_list = [n.decode() for n in files.as_numpy_iterator()]
    if column_names is None:
        if not header:
            raise ValueError('Expected `column_names` or `header` arguments. Neither is '
                             'provided.')
        column_names = _column_names(names_list, field_delim, use_quote_delim, encoding)
    if len(column_names) != len(set(column_names)):
        raise ValueError('Either `column_names` argument or CSV header row contains duplicate '
                         'column names.')
    select = _selected(select_columns, column_names)
    if column_defaults is None:
        options = (field_delim, use_quote_delim, na_value, header, encoding)
        types = _column_types(names_list, len(column_names), options,
                              select or range(len(column_names)), num_rows_for_inference)
        column_defaults = [convert_to_tensor([0 if (t or dtypes.string) != dtypes.string
                                              else ''], dtype=t or dtypes.string)
                           for t in types]
    if select is not None and len(column_defaults) != len(select):
        raise ValueError(f'If specified, `column_defaults` and `select_columns` must have the '
                         f'same length: `column_defaults` has length {len(column_defaults)}, '
                         f'`select_columns` has length {len(select)}.')
    if select is not None and len(column_names) > len(select):
        column_names = [column_names[i] for i in select]
    if label_name is not None and label_name not in column_names:
        raise ValueError(f'`label_name` provided must be one of the columns: {column_names}. '
                         f'Received: {label_name}.')
    dataset = Dataset.list_files(file_pattern, shuffle=bool(shuffle), seed=shuffle_seed)
    reads = 1 if num_parallel_reads is None else num_parallel_reads
    dataset = dataset.interleave(lambda name: CsvDataset(
        name, column_defaults, field_delim=field_delim, use_quote_delim=use_quote_delim,
        na_value=na_value, select_cols=select, header=header),
        cycle_length=None if reads == AUTOTUNE else reads, block_length=1)
    if shuffle:
        dataset = dataset.shuffle(shuffle_buffer_size, shuffle_seed)
    if num_epochs != 1:
        dataset = dataset.repeat(num_epochs)
    dataset = dataset.batch(batch_size, drop_remainder=num_epochs is None)

    def columns_to_dict(*columns):
        features = collections.OrderedDict(zip(column_names, columns))
        if label_name is not None:
            return features, features.pop(label_name)
        return features
    return dataset.map(columns_to_dict)
