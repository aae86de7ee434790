"""tf.lookup's immutable tables: KeyValueTensorInitializer, StaticHashTable and
StaticVocabularyTable, and the one op that looks keys up in them.

A static table never changes after it is built, so it holds its keys and values as two constant
tensors, and a lookup is the pure op `LookupTableFind(keys, values, query, default)`: inside a
compiled function the table's tensors are captured like any other outer tensor, and nothing needs
a resource. StaticVocabularyTable sends keys not in the vocabulary to `num_oov_buckets` extra ids
by TF's rule (FarmHash Fingerprint64 of the key's text, after the vocabulary's ids).
"""
import numpy as np

from defun.core import dtypes, errors
from defun.core.dispatch import apply_op
from defun.core.registry import define_op
from defun.core.tensor import Tensor
from defun.ops.framework.base_ops import cast, shape
from defun.ops.math.arithmetic import add
from defun.ops.ragged.ragged_tensor import is_ragged
from defun.ops.math.logic import not_equal, where
from defun.ops.strings.formatting import as_string
from defun.ops.strings.hashing import to_hash_bucket_fast
from defun.ops.strings.support import as_array
from defun.ops.support.helpers import dims, static_value, to_tensor

__all__ = ['KeyValueTensorInitializer', 'TextFileInitializer', 'TextFileIndex', 'StaticHashTable',
           'StaticVocabularyTable']


def _find_kernel(keys, values, query, default):
    keys, values, query = as_array(keys), as_array(values), as_array(query)
    index = {k: i for i, k in enumerate(keys.reshape(-1).tolist())}
    flat = query.reshape(-1).tolist()
    out = np.empty((len(flat),) + values.shape[1:], dtype=values.dtype)
    # One default for every key, or (a mutable table's dynamic defaults) one per key.
    defaults = np.broadcast_to(as_array(default), query.shape + values.shape[1:]).reshape(
        out.shape)
    for i, key in enumerate(flat):
        j = index.get(key)
        out[i] = defaults[i] if j is None else values[j]
    return out.reshape(query.shape + values.shape[1:])


def _find_infer(keys, values, query, default):
    q, v = dims(query), dims(values)
    return values.dtype, None if q is None or v is None else q + v[1:]


LOOKUP_TABLE_FIND = define_op('LookupTableFind', _find_kernel, _find_infer, None,
                              inputs=())  # the table's arrays, not TF's handle


class KeyValueTensorInitializer:
    """The contents of a table given as a tensor of keys and a tensor of values (same length)."""

    def __init__(self, keys, values, key_dtype=None, value_dtype=None, name=None):
        self._keys = to_tensor(keys, dtype=key_dtype, name='keys', op='KeyValueTensorInitializer')
        self._values = to_tensor(values, dtype=value_dtype, name='values',
                                 op='KeyValueTensorInitializer')
        k, v = dims(self._keys), dims(self._values)
        if k is not None and v is not None and k[:1] != v[:1]:
            raise ValueError(f'KeyValueTensorInitializer: keys and values must have the same '
                             f'size, got shapes {list(k)} and {list(v)}')
        self._name = name or 'key_value_init'

    @property
    def key_dtype(self):
        return self._keys.dtype

    @property
    def value_dtype(self):
        return self._values.dtype

    def tensors(self):
        """The (keys, values) the table holds. A key may repeat only with the same value (TF's
        check when a table is initialized)."""
        keys, values = static_value(self._keys), static_value(self._values)
        if keys is None or values is None:  # computed by a graph: nothing to check now
            return self._keys, self._values
        seen = {}
        for key, value in zip(keys.reshape(-1).tolist(), values.tolist()):
            if seen.setdefault(key, value) != value:
                raise errors.FailedPreconditionError(
                    f'HashTable has different value for same key. Key {_text(key)} has '
                    f'{_text(seen[key])} and trying to add value {_text(value)}')
        return self._keys, self._values

    def initialize(self, table):
        """Fills `table` with these contents (what a table calls when it is made; a subclass that
        does nothing leaves the table empty, as TF's placeholder initializers do)."""
        keys, values = self.tensors()
        table.fill(keys, values)


class TextFileIndex:
    """Where TextFileInitializer takes a key or value: a column, or one of these."""
    WHOLE_LINE = -2
    LINE_NUMBER = -1


class TextFileInitializer(KeyValueTensorInitializer):
    """A table's contents read from a text file: per line, the key and the value are a column
    (split at `delimiter`), the whole line, or the line number, converted to their dtypes."""

    def __init__(self, filename, key_dtype, key_index, value_dtype, value_index, vocab_size=None,
                 delimiter='\t', name=None, value_index_offset=0):
        filename = filename.numpy() if hasattr(filename, 'numpy') else filename  # a tensor
        path = filename.decode() if isinstance(filename, bytes) else str(filename)
        try:
            with open(path, 'rb') as handle:
                lines = handle.read().decode('utf-8').splitlines()
        except FileNotFoundError:
            raise errors.NotFoundError(f'{path}; No such file or directory') from None
        if vocab_size is not None:
            if len(lines) < vocab_size:
                raise errors.InvalidArgumentError(
                    f'Invalid vocab_size in {path}: expected {vocab_size} got {len(lines)}')
            lines = lines[:vocab_size]
        key_dtype, value_dtype = dtypes.as_dtype(key_dtype), dtypes.as_dtype(value_dtype)
        keys = [_field(line, n, key_index, delimiter, key_dtype, 0, path)
                for n, line in enumerate(lines)]
        values = [_field(line, n, value_index, delimiter, value_dtype, value_index_offset, path)
                  for n, line in enumerate(lines)]
        super().__init__(_column(keys, key_dtype), _column(values, value_dtype), key_dtype,
                         value_dtype, name)


def _field(line, number, index, delimiter, dtype, offset, path):
    if index == TextFileIndex.LINE_NUMBER:
        return number + offset
    text = line if index == TextFileIndex.WHOLE_LINE else None
    if text is None:
        columns = line.split(delimiter)
        if index >= len(columns):
            raise errors.InvalidArgumentError(
                f'Invalid number of columns in {path} line {number} ({line}) : expected '
                f'{index + 1} got {len(columns)}')
        text = columns[index]
    if dtype is dtypes.string:
        return text.encode('utf-8')
    try:
        return int(text) if dtype.is_integer else float(text)
    except ValueError:
        raise errors.InvalidArgumentError(
            f'Field {text} in line {number} is not a valid {dtype.name}.') from None


def _column(values, dtype):
    return np.array(values, dtype=object if dtype is dtypes.string else dtype.np_dtype)


def _numpy_dtype(dtype):
    dtype = dtypes.as_dtype(dtype)
    return object if dtype is dtypes.string else dtype.np_dtype


def _text(value):
    return value.decode('utf-8', 'replace') if isinstance(value, bytes) else value


class StaticHashTable:
    """An immutable hash table: `lookup(keys)` gives each key's value, or `default_value`."""

    def __init__(self, initializer, default_value, name=None, experimental_is_anonymous=False):
        if not isinstance(initializer, KeyValueTensorInitializer):
            raise TypeError(f'StaticHashTable: `initializer` must be a KeyValueTensorInitializer, '
                            f'got {type(initializer).__name__}')
        self._initializer = initializer
        key_dtype, value_dtype = initializer.key_dtype, initializer.value_dtype
        self._keys = to_tensor(np.zeros(0, _numpy_dtype(key_dtype)), dtype=key_dtype)
        self._values = to_tensor(np.zeros(0, _numpy_dtype(value_dtype)), dtype=value_dtype)
        initializer.initialize(self)
        self._default_value = to_tensor(default_value, dtype=initializer.value_dtype,
                                        name='default_value', op='StaticHashTable')
        self._name = name or 'hash_table'

    def fill(self, keys, values):
        """Sets the table's contents (its initializer's `initialize` calls this once)."""
        if keys.dtype is not self._keys.dtype or values.dtype is not self._values.dtype:
            raise TypeError(f'Invalid key/value dtypes for the table: expected '
                            f'{self._keys.dtype!r}/{self._values.dtype!r}, got '
                            f'{keys.dtype!r}/{values.dtype!r}')
        self._keys, self._values = keys, values

    @property
    def key_dtype(self):
        return self._keys.dtype

    @property
    def value_dtype(self):
        return self._values.dtype

    @property
    def default_value(self):
        return self._default_value

    @property
    def name(self):
        return self._name

    def size(self, name=None):
        """The number of entries, an int64 scalar."""
        return cast(shape(self._keys)[0], dtypes.int64)

    def lookup(self, keys, name=None):
        """The value of each key of `keys` (any shape, or ragged), `default_value` where it is
        missing."""
        if is_ragged(keys):
            return keys.with_flat_values(self.lookup(keys.flat_values, name))
        query = keys if isinstance(keys, Tensor) else to_tensor(keys, dtype=self.key_dtype,
                                                                name='keys', op='lookup')
        if query.dtype is not self.key_dtype:
            raise TypeError(f'Dtype of argument `keys` must be {self.key_dtype!r}, received: '
                            f'{query.dtype!r}')
        inputs = (self._keys, self._values, query, self._default_value)
        return apply_op(LOOKUP_TABLE_FIND, inputs, None, name)

    __getitem__ = lookup

    def export(self, name=None):
        """The table's (keys, values) tensors."""
        return self._keys, self._values


class StaticVocabularyTable:
    """A vocabulary (keys -> int64 ids) whose unknown keys go to `num_oov_buckets` more ids, by
    FarmHash Fingerprint64 of the key's text modulo the bucket count, after the known ids."""

    def __init__(self, initializer, num_oov_buckets, lookup_key_dtype=None, name=None,
                 experimental_is_anonymous=False):
        if num_oov_buckets <= 0:
            raise ValueError('`num_oov_buckets` must be > 0; use StaticHashTable.')
        self._num_oov_buckets = int(num_oov_buckets)
        self._table = None
        key_dtype = dtypes.as_dtype(lookup_key_dtype) if lookup_key_dtype else None
        if initializer is not None:
            if initializer.value_dtype is not dtypes.int64:
                raise TypeError(f'Invalid `value_dtype`, expected int64 but got '
                                f'{initializer.value_dtype!r}.')
            self._table = StaticHashTable(initializer, -1)
            key_dtype = key_dtype or initializer.key_dtype
        self._key_dtype = key_dtype or dtypes.string
        if self._key_dtype not in (dtypes.string, dtypes.int64, dtypes.int32):
            raise TypeError(f'Invalid `key_dtype`, expected string or int64 but got '
                            f'{self._key_dtype!r}.')
        self._name = name or 'vocabulary_table'

    @property
    def key_dtype(self):
        return self._key_dtype

    @property
    def value_dtype(self):
        return dtypes.int64

    @property
    def name(self):
        return self._name

    def size(self, name=None):
        """Vocabulary size plus the out-of-vocabulary buckets, an int64 scalar."""
        known = self._table.size() if self._table is not None else cast(0, dtypes.int64)
        return known + self._num_oov_buckets

    def lookup(self, keys, name=None):
        """The id of each key (any shape, or ragged): its vocabulary id, or its
        out-of-vocabulary bucket."""
        if is_ragged(keys):
            return keys.with_flat_values(self.lookup(keys.flat_values, name))
        query = keys if isinstance(keys, Tensor) else to_tensor(keys, dtype=self._key_dtype,
                                                                name='keys', op='lookup')
        if query.dtype is not self._key_dtype:
            raise TypeError(f'Dtype of argument `keys` must be {self._key_dtype!r}, received: '
                            f'{query.dtype!r}')
        if self._table is not None and self._table.key_dtype is dtypes.int64:
            query = cast(query, dtypes.int64)
        text = query if query.dtype is dtypes.string else as_string(query)
        buckets = to_hash_bucket_fast(text, self._num_oov_buckets)
        if self._table is None:
            return buckets
        ids = self._table.lookup(query)
        buckets = add(buckets, self._table.size())
        return where(not_equal(ids, self._table.default_value), ids, buckets)

    __getitem__ = lookup
