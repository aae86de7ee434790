"""The feature specs of tf.io's Example parsing (FixedLenFeature, FixedLenSequenceFeature,
VarLenFeature, RaggedFeature, SparseFeature): named tuples with TF's fields and defaults, and
`example_features` / `sequence_example_features`, which read one serialized tf.train.Example
(SequenceExample) straight off the wire into {name: (kind, values)} without building message
objects."""
import collections

import numpy as np

from defun.core import dtypes
from defun.ops.io import proto_wire as wire

__all__ = ['FixedLenFeature', 'FixedLenSequenceFeature', 'VarLenFeature', 'RaggedFeature',
           'SparseFeature', 'example_features', 'sequence_example_features',
           'KIND_OF_DTYPE']


class FixedLenFeature(collections.namedtuple('FixedLenFeature',
                                             ['shape', 'dtype', 'default_value'])):
    """A feature of a fixed shape; `default_value` stands in when an example lacks it."""

    def __new__(cls, shape, dtype, default_value=None):
        return super().__new__(cls, shape, dtype, default_value)


class FixedLenSequenceFeature(collections.namedtuple(
        'FixedLenSequenceFeature', ['shape', 'dtype', 'allow_missing', 'default_value'])):
    """A sequence of items of fixed shape, padded across the batch to the longest."""

    def __new__(cls, shape, dtype, allow_missing=False, default_value=None):
        return super().__new__(cls, shape, dtype, allow_missing, default_value)


class VarLenFeature(collections.namedtuple('VarLenFeature', ['dtype'])):
    """A feature of any length, parsed into a SparseTensor."""


# How a RaggedFeature's partition features cut its values into rows (TF's partition classes).
_RowSplits = collections.namedtuple('RowSplits', ['key'])
_RowLengths = collections.namedtuple('RowLengths', ['key'])
_RowStarts = collections.namedtuple('RowStarts', ['key'])
_RowLimits = collections.namedtuple('RowLimits', ['key'])
_ValueRowIds = collections.namedtuple('ValueRowIds', ['key'])
_UniformRowLength = collections.namedtuple('UniformRowLength', ['length'])
_PARTITIONS = (_RowSplits, _RowLengths, _RowStarts, _RowLimits, _ValueRowIds, _UniformRowLength)


class RaggedFeature(collections.namedtuple(
        'RaggedFeature', ['dtype', 'value_key', 'partitions', 'row_splits_dtype', 'validate'])):
    """A feature of any length, parsed into a RaggedTensor: one ragged dimension per example,
    and one more for each of `partitions` (outermost first), read from other features."""

    RowSplits, RowLengths, RowStarts, RowLimits = _RowSplits, _RowLengths, _RowStarts, _RowLimits
    ValueRowIds, UniformRowLength = _ValueRowIds, _UniformRowLength

    def __new__(cls, dtype, value_key=None, partitions=(), row_splits_dtype=dtypes.int32,
                validate=False):
        dtype = dtypes.as_dtype(dtype)
        if dtype not in (dtypes.int64, dtypes.float32, dtypes.string):
            raise ValueError(f'Argument `dtype` must be int64, float32, or bytes; got {dtype!r}')
        row_splits_dtype = dtypes.as_dtype(row_splits_dtype)
        if row_splits_dtype not in (dtypes.int32, dtypes.int64):
            raise ValueError(f'Argument `row_splits_dtype` must be int32 or int64; got'
                             f'{row_splits_dtype!r}')
        for partition in partitions:
            if not isinstance(partition, _PARTITIONS):
                raise TypeError(f'Argument `partitions` cannot be cast to any of the partition '
                                f'types in {_PARTITIONS}; got: {partition!r} with type '
                                f'{type(partition)}')
        return super().__new__(cls, dtype, value_key, tuple(partitions), row_splits_dtype,
                               validate)


class SparseFeature(collections.namedtuple(
        'SparseFeature', ['index_key', 'value_key', 'dtype', 'size', 'already_sorted'])):
    """A SparseTensor built from index features (one per dimension: `index_key` a key or a
    list) and a value feature, of dense shape [batch] + `size`."""

    def __new__(cls, index_key, value_key, dtype, size, already_sorted=False):
        return super().__new__(cls, index_key, value_key, dtype, size, already_sorted)


KIND_OF_DTYPE = {'int64': 'int64_list', 'float32': 'float_list', 'string': 'bytes_list'}
_KINDS = {1: 'bytes_list', 2: 'float_list', 3: 'int64_list'}


def _feature_values(payload):
    kind, values = None, []
    for number, _, body in wire.fields(payload):
        kind = _KINDS.get(number, kind)
        if number == 1:
            values = [v for n, _, v in wire.fields(body) if n == 1]
        elif number == 2:
            values = [x for n, wt, v in wire.fields(body) if n == 1
                      for x in (wire.packed_floats(v) if wt == wire.BYTES
                                else [wire.fixed32_float(v)])]
        elif number == 3:
            values = [wire.signed64(x) for n, wt, v in wire.fields(body) if n == 1
                      for x in (wire.packed_varints(v) if wt == wire.BYTES else [v])]
    return kind, values


def _features_map(features, entry_number=1):
    """{name: payload} of a Features message (or, with its map field, a FeatureLists one)."""
    out = {}
    for n, _, entry in wire.fields(features):
        if n != entry_number:
            continue
        key, payload = b'', b''
        for m, _, v in wire.fields(entry):
            if m == 1:
                key = v
            elif m == 2:
                payload = v
        out[key.decode('utf-8')] = payload
    return out


def example_features(serialized):
    """{feature name: (kind or None, list of values)} of one serialized Example."""
    out = {}
    for number, _, features in wire.fields(serialized):
        if number == 1:
            out.update({k: _feature_values(v) for k, v in _features_map(features).items()})
    return out


def sequence_example_features(serialized):
    """(context, feature lists) of one serialized SequenceExample: the context as
    example_features gives it, each feature list as a list of (kind, values) per step."""
    context, lists = {}, {}
    for number, _, body in wire.fields(serialized):
        if number == 1:
            context.update({k: _feature_values(v) for k, v in _features_map(body).items()})
        elif number == 2:
            for key, feature_list in _features_map(body).items():
                lists[key] = [_feature_values(f) for n, _, f in wire.fields(feature_list)
                              if n == 1]
    return context, lists


def dense_array(values, dtype):
    return np.array(values, dtype=np.dtype(object) if dtype == 'string' else dtype)
