"""The pure ops behind tf.lookup.experimental's mutable tables (defun/state/lookup_tables.py keeps
their contents in Variables and assigns these ops' results back).

MutableHashTable holds its entries as a vector of keys and a tensor of values, one row per key,
in insertion order: `MutableHashTableInsert` and `MutableHashTableRemove` return the new pair, and
lookups are tf.lookup's `LookupTableFind`.

DenseHashTable is TF's open-addressing table, bucket for bucket: `num_buckets` (a power of two)
rows of keys (the empty key where free, the deleted key where removed) and of values; a key
starts at its hash masked to the bucket count and probes the 1st, 3rd, 6th... bucket after it;
the table doubles before an insert would take it past `max_load_factor`, re-inserting the old
buckets in order. The hashes are TF's (an integer key is its own hash, a string key TF's Hash64,
a vector key the Hash64Combine of its elements), so `export()` shows the very buckets TF's does.
"""
import numpy as np

from defun.core import dtypes, errors
from defun.core.registry import define_op
from defun.ops.strings.fingerprints import legacy_hash64
from defun.ops.strings.support import as_array
from defun.ops.support.helpers import dims

__all__ = ['MUTABLE_INSERT', 'MUTABLE_REMOVE', 'DENSE_INSERT', 'DENSE_REMOVE', 'DENSE_FIND',
           'value_shape_error']

_MASK = (1 << 64) - 1


def value_shape_error(expected, got):
    return errors.InvalidArgumentError(f'Expected shape {_shape_text(expected)} for value, got '
                                       f'{_shape_text(got)}')


def _shape_text(shape):
    return '[' + ','.join(str(d) for d in shape) + ']'


def _rows(keys, values, value_shape):
    """keys flattened to one entry per key, values to one row per key (TF's shape check)."""
    expected = keys.shape + tuple(value_shape)
    if values.shape != expected:
        raise value_shape_error(expected, values.shape)
    return keys.reshape(-1), values.reshape((-1,) + tuple(value_shape))


def _mutable_insert(keys, values, new_keys, new_values):
    keys, values = as_array(keys), as_array(values)
    new_keys, new_values = _rows(as_array(new_keys), as_array(new_values), values.shape[1:])
    index = {k: i for i, k in enumerate(keys.tolist())}
    out_keys, out_values = list(keys.tolist()), list(values)
    for key, value in zip(new_keys.tolist(), new_values):
        i = index.get(key)
        if i is None:
            index[key] = len(out_keys)
            out_keys.append(key)
            out_values.append(value)
        else:
            out_values[i] = value
    return (np.array(out_keys, dtype=keys.dtype).reshape(-1),
            np.array(out_values, dtype=values.dtype).reshape((-1,) + values.shape[1:]))


def _mutable_remove(keys, values, drop):
    keys, values = as_array(keys), as_array(values)
    gone = set(as_array(drop).reshape(-1).tolist())
    kept = np.array([k not in gone for k in keys.tolist()], dtype=bool).reshape(-1)
    return keys[kept], values[kept]


def _pair_infer(keys, values, *rest, **attrs):
    v = dims(values)
    return [(keys.dtype, (None,)), (values.dtype, None if v is None else (None,) + v[1:])]


MUTABLE_INSERT = define_op('MutableHashTableInsert', _mutable_insert, _pair_infer, None,
                           num_outputs=2)
MUTABLE_REMOVE = define_op('MutableHashTableRemove', _mutable_remove, _pair_infer, None,
                           num_outputs=2)


# ---------------------------------------------------------------- DenseHashTable

def _hash_scalar(key):
    if isinstance(key, bytes):
        return legacy_hash64(key)
    return int(key) & _MASK


def _hash_row(row):
    if len(row) == 1:
        return _hash_scalar(row[0])
    h = 0
    for item in row:   # TF's Hash64Combine
        h = (h ^ ((_hash_scalar(item) + 0x9e3779b97f4a7800 + (h << 10) + (h >> 4)) & _MASK))
    return h


class _Buckets:
    """A DenseHashTable's key buckets (a copy the kernel may change), probed as TF's kernel
    probes them; only the buckets a probe visits are read."""

    def __init__(self, key_buckets, empty, deleted):
        self.array = key_buckets.copy()
        self.empty = tuple(as_array(empty).reshape(-1).tolist())
        self.deleted = tuple(as_array(deleted).reshape(-1).tolist())
        self.mask = len(self.array) - 1

    def key(self, i):
        return tuple(self.array[i].tolist())

    def check(self, key):
        if key == self.empty:
            raise errors.InvalidArgumentError('Using the empty_key as a table key is not allowed')
        if key == self.deleted:
            raise errors.InvalidArgumentError('Using the deleted_key as a table key is not '
                                              'allowed')

    def probe(self, key, stop_at_deleted):
        """The bucket holding `key`, or the first free one on its probe sequence."""
        i, probes = _hash_row(key) & self.mask, 0
        while True:
            here = self.key(i)
            if here == key or here == self.empty or (stop_at_deleted and here == self.deleted):
                return i
            probes += 1
            i = (i + probes) & self.mask
            if probes >= len(self.array):
                raise errors.InternalError('Internal error in MutableDenseHashTable')


def _key_rows(keys, key_size, key_shape):
    """One tuple per key; the keys must be a batch of `key_shape` keys (TF's check)."""
    keys = as_array(keys)
    count = keys.shape[0] if keys.ndim else 1
    if keys.size != count * key_size:
        raise errors.InvalidArgumentError(f'Expected key shape {_shape_text((count,) + key_shape)}'
                                          f' got {_shape_text(keys.shape)}')
    return [tuple(r) for r in keys.reshape(-1, key_size).tolist()]


def _place(buckets, values, key_rows, value_rows, skip_reserved):
    """Inserts key_rows/value_rows into buckets/values; the number of new entries."""
    added = 0
    for key, value in zip(key_rows, value_rows):
        if skip_reserved and key in (buckets.empty, buckets.deleted):
            continue
        buckets.check(key)
        i = buckets.probe(key, stop_at_deleted=True)
        if buckets.key(i) != key:
            added += 1
            buckets.array[i] = key
        values[i] = value
    return added


def _dense_insert(key_buckets, value_buckets, num_entries, keys, values, empty_key, deleted_key,
                  max_load_factor):
    key_buckets, value_buckets = as_array(key_buckets), as_array(value_buckets)
    key_size, value_size = key_buckets.shape[1], value_buckets.shape[1]
    key_rows = _key_rows(keys, key_size, tuple(as_array(empty_key).shape))
    value_rows = as_array(values).reshape(-1, value_size)
    if len(value_rows) != len(key_rows):
        raise value_shape_error((len(key_rows), value_size), as_array(values).shape)
    n, pending, size = int(num_entries), int(num_entries) + len(key_rows), len(key_buckets)
    if pending > size * max_load_factor:   # grow first, as TF does
        while pending > size * max_load_factor:
            size *= 2
        fresh = np.empty((size, key_size), dtype=key_buckets.dtype)
        fresh[:] = as_array(empty_key).reshape(-1)
        buckets = _Buckets(fresh, empty_key, deleted_key)
        old_keys, old_values = key_buckets, value_buckets
        value_buckets = np.zeros((size, value_size), dtype=old_values.dtype)
        n = _place(buckets, value_buckets, _key_rows(old_keys, key_size, (key_size,)), old_values,
                   skip_reserved=True)
    else:
        buckets = _Buckets(key_buckets, empty_key, deleted_key)
        value_buckets = value_buckets.copy()
    n += _place(buckets, value_buckets, key_rows, value_rows, skip_reserved=False)
    return buckets.array, value_buckets, np.int64(n)


def _dense_remove(key_buckets, num_entries, keys, empty_key, deleted_key):
    key_buckets = as_array(key_buckets)
    buckets = _Buckets(key_buckets, empty_key, deleted_key)
    n = int(num_entries)
    for key in _key_rows(keys, key_buckets.shape[1], tuple(as_array(empty_key).shape)):
        buckets.check(key)
        i = buckets.probe(key, stop_at_deleted=False)
        if buckets.key(i) == key:
            buckets.array[i] = buckets.deleted
            n -= 1
    return buckets.array, np.int64(n)


def _dense_find(key_buckets, value_buckets, keys, default, empty_key, deleted_key):
    """One row of values per key (the wrapper gives them the keys' batch shape)."""
    key_buckets, value_buckets = as_array(key_buckets), as_array(value_buckets)
    buckets = _Buckets(key_buckets, empty_key, deleted_key)
    key_rows = _key_rows(keys, key_buckets.shape[1], tuple(as_array(empty_key).shape))
    default = as_array(default).reshape(-1)
    out = np.empty((len(key_rows), value_buckets.shape[1]), dtype=value_buckets.dtype)
    for j, key in enumerate(key_rows):
        buckets.check(key)
        i = buckets.probe(key, stop_at_deleted=False)
        out[j] = value_buckets[i] if buckets.key(i) == key else default
    return out


def _dense_insert_infer(key_buckets, value_buckets, *rest, **attrs):
    return [(key_buckets.dtype, (None, dims(key_buckets)[1])),
            (value_buckets.dtype, (None, dims(value_buckets)[1])), (dtypes.int64, ())]


def _dense_remove_infer(key_buckets, *rest):
    return [(key_buckets.dtype, dims(key_buckets)), (dtypes.int64, ())]


def _dense_find_infer(key_buckets, value_buckets, *rest):
    return value_buckets.dtype, (None,) + dims(value_buckets)[1:]


DENSE_INSERT = define_op('DenseHashTableInsert', _dense_insert, _dense_insert_infer, None,
                         num_outputs=3)
DENSE_REMOVE = define_op('DenseHashTableRemove', _dense_remove, _dense_remove_infer, None,
                         num_outputs=2)
DENSE_FIND = define_op('DenseHashTableFind', _dense_find, _dense_find_infer, None)
