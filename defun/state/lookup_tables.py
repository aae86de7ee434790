"""tf.lookup.experimental's mutable tables, MutableHashTable and DenseHashTable: their contents
live in Variables (so a table works eagerly and inside a tf.function, and a checkpoint of the
object holding it saves them), and each change assigns the result of a pure op of
defun/ops/lookup/mutable.py back to them."""
import numpy as np

from defun.core import dtypes, errors
from defun.core.dispatch import apply_op
from defun.core.shapes import TensorShape
from defun.core.tensor import Tensor, convert_to_tensor
from defun.ops.framework.base_ops import cast, reshape, shape as shape_of
from defun.ops.array.joining import concat
from defun.ops.lookup import mutable
from defun.ops.lookup.tables import LOOKUP_TABLE_FIND
from defun.state.trackable import AutoTrackable
from defun.state.variables import Variable

__all__ = ['MutableHashTable', 'DenseHashTable']


def _as(value, dtype, what):
    if isinstance(value, Tensor):
        if value.dtype is not dtype:
            raise TypeError(f'Signature mismatch. {what} must be dtype {dtype!r}, got '
                            f'{value.dtype!r}.')
        return value
    return convert_to_tensor(value, dtype=dtype)


class _Table(AutoTrackable):
    """What both tables share: dtypes, name, default value, `__getitem__`."""

    def __init__(self, key_dtype, value_dtype, default_value, name):
        self._key_dtype = dtypes.as_dtype(key_dtype)
        self._value_dtype = dtypes.as_dtype(value_dtype)
        self._default_value = convert_to_tensor(default_value, dtype=self._value_dtype)
        self._name = name

    key_dtype = property(lambda self: self._key_dtype)
    value_dtype = property(lambda self: self._value_dtype)
    name = property(lambda self: self._name)

    def __getitem__(self, keys):
        return self.lookup(keys)


class MutableHashTable(_Table):
    """A hash table that `insert` and `remove` change; `lookup` gives each key's value or the
    default value (whose shape is every value's shape)."""

    def __init__(self, key_dtype, value_dtype, default_value, name='MutableHashTable',
                 checkpoint=True, experimental_is_anonymous=False):
        super().__init__(key_dtype, value_dtype, default_value, name)
        value_shape = self._default_value.shape.as_list()
        self._entry_keys = Variable(np.zeros([0], dtype=_np_dtype(self._key_dtype)),
                                    trainable=False, shape=TensorShape([None]),
                                    dtype=self._key_dtype, name=f'{name}-keys')
        self._entry_values = Variable(
            np.zeros([0] + value_shape, dtype=_np_dtype(self._value_dtype)), trainable=False,
            shape=TensorShape([None] + value_shape), dtype=self._value_dtype,
            name=f'{name}-values')

    def size(self, name=None):
        """The number of entries, an int64 scalar."""
        return cast(shape_of(self._entry_keys)[0], dtypes.int64)

    def insert(self, keys, values, name=None):
        """Sets each key's value (values: the keys' shape followed by the default's)."""
        keys = _as(keys, self._key_dtype, 'Keys')
        values = _as(values, self._value_dtype, 'Values')
        new_keys, new_values = apply_op(mutable.MUTABLE_INSERT, (
            self._entry_keys.read_value(), self._entry_values.read_value(), keys, values))
        self._entry_keys.assign(new_keys)
        self._entry_values.assign(new_values)

    def remove(self, keys, name=None):
        """Removes the keys that are in the table (the others are ignored)."""
        keys = _as(keys, self._key_dtype, 'Keys')
        new_keys, new_values = apply_op(mutable.MUTABLE_REMOVE, (
            self._entry_keys.read_value(), self._entry_values.read_value(), keys))
        self._entry_keys.assign(new_keys)
        self._entry_values.assign(new_values)

    def lookup(self, keys, dynamic_default_values=None, name=None):
        """Each key's value; missing keys get the default value, or their entry of
        `dynamic_default_values` (the keys' shape followed by the default's)."""
        keys = _as(keys, self._key_dtype, 'Keys')
        default = self._default_value if dynamic_default_values is None else \
            _as(dynamic_default_values, self._value_dtype, 'dynamic_default_values')
        return apply_op(LOOKUP_TABLE_FIND, (self._entry_keys.read_value(),
                                            self._entry_values.read_value(), keys, default))

    def export(self, name=None):
        """The table's keys and values (one row per key)."""
        return self._entry_keys.read_value(), self._entry_values.read_value()


class DenseHashTable(_Table):
    """TF's open-addressing hash table: `empty_key` marks free buckets and `deleted_key` removed
    ones (neither may be used as a key); `export` returns every bucket."""

    def __init__(self, key_dtype, value_dtype, default_value, empty_key, deleted_key,
                 initial_num_buckets=None, name='MutableDenseHashTable', checkpoint=True,
                 experimental_is_anonymous=False):
        super().__init__(key_dtype, value_dtype, default_value, name)
        if self._key_dtype not in (dtypes.int32, dtypes.int64, dtypes.string):
            raise errors.NotFoundError(f'DenseHashTable: no kernel for keys of dtype '
                                       f'{self._key_dtype.name} (int32, int64 or string)')
        self._empty_key = convert_to_tensor(empty_key, dtype=self._key_dtype)
        self._deleted_key = convert_to_tensor(deleted_key, dtype=self._key_dtype)
        _check_reserved_keys(self._empty_key, self._deleted_key)
        buckets = 131072 if initial_num_buckets is None else int(initial_num_buckets)
        if buckets < 4 or buckets & (buckets - 1):
            raise errors.InvalidArgumentError(
                f'Number of buckets must be at least 4 and a power of 2, got: {buckets}')
        self._key_shape = self._empty_key.shape.as_list()
        key_size = int(np.prod(self._key_shape, dtype=np.int64))
        value_size = int(np.prod(self._default_value.shape.as_list(), dtype=np.int64))
        free = np.empty((buckets, key_size), dtype=_np_dtype(self._key_dtype))
        free[:] = np.array(self._empty_key.numpy(), dtype=free.dtype).reshape(-1)
        self._key_buckets = Variable(free, trainable=False, shape=TensorShape([None, key_size]),
                                     name=f'{name}-keys')
        self._value_buckets = Variable(
            np.zeros((buckets, value_size), dtype=_np_dtype(self._value_dtype)),
            trainable=False, shape=TensorShape([None, value_size]), name=f'{name}-values')
        self._num_entries = Variable(np.int64(0), trainable=False, name=f'{name}-size')

    def size(self, name=None):
        """The number of entries, an int64 scalar."""
        return self._num_entries.read_value()

    def insert_or_assign(self, keys, values, name=None):
        """Sets each key's value (a key equal to the empty or deleted key is an error)."""
        keys = _as(keys, self._key_dtype, 'Keys')
        values = _as(values, self._value_dtype, 'Values')
        key_buckets, value_buckets, count = apply_op(mutable.DENSE_INSERT, (
            self._key_buckets.read_value(), self._value_buckets.read_value(),
            self._num_entries.read_value(), keys, values, self._empty_key, self._deleted_key),
            {'max_load_factor': 0.8})
        self._key_buckets.assign(key_buckets)
        self._value_buckets.assign(value_buckets)
        self._num_entries.assign(count)

    insert = insert_or_assign

    def erase(self, keys, name=None):
        """Removes the keys that are in the table (the others are ignored)."""
        keys = _as(keys, self._key_dtype, 'Keys')
        key_buckets, count = apply_op(mutable.DENSE_REMOVE, (
            self._key_buckets.read_value(), self._num_entries.read_value(), keys,
            self._empty_key, self._deleted_key))
        self._key_buckets.assign(key_buckets)
        self._num_entries.assign(count)

    remove = erase

    def lookup(self, keys, name=None):
        """Each key's value, or the default value where the key is missing."""
        keys = _as(keys, self._key_dtype, 'Keys')
        rows = apply_op(mutable.DENSE_FIND, (
            self._key_buckets.read_value(), self._value_buckets.read_value(), keys,
            self._default_value, self._empty_key, self._deleted_key))
        batch = shape_of(keys)[:keys.shape.rank - len(self._key_shape)] \
            if keys.shape.rank is not None else shape_of(keys)[:-len(self._key_shape) or None]
        return reshape(rows, concat([batch, shape_of(self._default_value)], 0))

    def export(self, name=None):
        """Every bucket's key (the empty key where free) and value."""
        return self._key_buckets.read_value(), self._value_buckets.read_value()


def _check_reserved_keys(empty, deleted):
    if empty.shape.rank not in (0, 1):
        raise errors.InvalidArgumentError(f'Empty key must be a scalar or a vector, got shape '
                                          f'{empty.shape}')
    if empty.shape != deleted.shape:
        raise errors.InvalidArgumentError(f'Empty and deleted keys must have same shape, got '
                                          f'shapes: {empty.shape} and {deleted.shape}')
    if np.array_equal(np.array(empty.numpy(), dtype=object), np.array(deleted.numpy(), dtype=object)):
        raise errors.InvalidArgumentError('Empty and deleted keys cannot be equal')


def _np_dtype(dtype):
    return np.dtype(object) if dtype is dtypes.string else dtype.np_dtype
