"""`tf.sparse.cross` and `tf.sparse.cross_hashed`: feature crosses of sparse and dense columns.

Each input is a 2-D SparseTensor or dense tensor of int64 or strings, one row per batch entry. A
row of the result holds every combination of that row's features (the first input varying
slowest): joined with the separator as strings, or hashed as TF's SparseCross does (a string
feature by its Fingerprint64, an int64 feature by its value, chained from `hash_key` with
FingerprintCat64), then taken modulo `num_buckets` (or the largest int64), so buckets agree with
TF's.
"""
import itertools

import numpy as np

from defun.core import dtypes
from defun.core.dispatch import apply_op
from defun.core.registry import define_op
from defun.core.tensor import convert_to_tensor
from defun.ops.framework.base_ops import cast
from defun.ops.sparse.sparse_tensor import SparseTensor, is_sparse
from defun.ops.strings.fingerprints import fingerprint64
from defun.ops.support import validation

__all__ = ['cross', 'cross_hashed']

_MASK = (1 << 64) - 1
_MUL = 0xC6A4A7935BD1E995
_INT64_MAX = (1 << 63) - 1
_DEFAULT_HASH_KEY = 0xDECAFCAFFE


def _shift_mix(v):
    return v ^ (v >> 47)


def _fingerprint_cat64(fp1, fp2):
    """TF's FingerprintCat64: two 64-bit fingerprints combined into one."""
    result = fp1 ^ _MUL
    result ^= (_shift_mix((fp2 * _MUL) & _MASK) * _MUL) & _MASK
    result = (result * _MUL) & _MASK
    result = (_shift_mix(result) * _MUL) & _MASK
    return _shift_mix(result)


def _rows(arrays, kinds):
    """Per input, per batch row, the list of its features (bytes or int), and the batch size."""
    columns, position = [], 0
    for kind in kinds:
        if kind == 'sparse':
            indices, values, shape = arrays[position:position + 3]
            position += 3
            rows = [[] for _ in range(int(shape[0]))]
            for index, value in zip(np.asarray(indices), np.asarray(values)):
                rows[int(index[0])].append(value)
        else:
            rows = [list(row) for row in np.asarray(arrays[position])]
            position += 1
        columns.append(rows)
    sizes = {len(rows) for rows in columns}
    if len(sizes) > 1:
        raise validation.invalid_argument(f'Expected batch size {len(columns[0])} got '
                                          f'{sorted(sizes - {len(columns[0])})[0]}')
    return columns, len(columns[0])


def _text(feature):
    return feature if isinstance(feature, bytes) else str(int(feature)).encode()


def _hash(feature):
    return fingerprint64(feature) if isinstance(feature, bytes) else int(feature) & _MASK


def _cross_kernel(*arrays, kinds, hashed, num_buckets, hash_key, separator):
    columns, batch = _rows(arrays, kinds)
    indices, values, width = [], [], 0
    for b in range(batch):
        combos = list(itertools.product(*[column[b] for column in columns]))
        width = max(width, len(combos))
        for k, combo in enumerate(combos):
            indices.append((b, k))
            if hashed:
                value = hash_key
                for feature in combo:
                    value = _fingerprint_cat64(value, _hash(feature))
                values.append(value % (num_buckets if num_buckets > 0 else _INT64_MAX))
            else:
                values.append(separator.join(_text(f) for f in combo))
    out_values = np.array(values, np.int64) if hashed else np.array(values, dtype=object)
    return (np.array(indices, np.int64).reshape(-1, 2), out_values,
            np.array([batch, width], np.int64))


def _cross_infer(*inputs, kinds, hashed, num_buckets, hash_key, separator):
    return [(dtypes.int64, (None, 2)), (dtypes.int64 if hashed else dtypes.string, (None,)),
            (dtypes.int64, (2,))]


# defun's inputs are flat (TF's SparseCross groups them by the N and type-list attributes)
SPARSE_CROSS = define_op('SparseCross', _cross_kernel, _cross_infer, None, num_outputs=3,
                         inputs=(), attrs=(),
                         doc='The crosses of sparse and dense feature columns, joined or hashed.')


def _flat_inputs(inputs, op):
    if not isinstance(inputs, (list, tuple)):
        raise TypeError(f'{op}: inputs must be a list of SparseTensors and Tensors')
    flat, kinds = [], []
    for value in inputs:
        parts = [value.indices, value.values, value.dense_shape] if is_sparse(value) else \
            [convert_to_tensor(value)]
        tensor = parts[1] if is_sparse(value) else parts[0]
        if tensor.dtype == dtypes.int32:   # TF takes int32 features as int64
            tensor = cast(tensor, dtypes.int64)
            parts[1 if is_sparse(value) else 0] = tensor
        if tensor.dtype not in (dtypes.int64, dtypes.string):
            raise TypeError(f'{op}: every input must be int64 or string, got {tensor.dtype.name}')
        if not is_sparse(value) and tensor.shape.rank not in (None, 2):
            raise ValueError(f'{op}: a dense input must have rank 2, got shape {tensor.shape}')
        flat.extend(parts)
        kinds.append('sparse' if is_sparse(value) else 'dense')
    return flat, tuple(kinds)


def _cross(inputs, op, hashed, num_buckets, hash_key, separator):
    flat, kinds = _flat_inputs(inputs, op)
    attrs = {'kinds': kinds, 'hashed': hashed, 'num_buckets': num_buckets,
             'hash_key': hash_key, 'separator': separator}
    indices, values, shape = apply_op(SPARSE_CROSS, flat, attrs)
    return SparseTensor(indices, values, shape)


def cross(inputs, name=None, separator=None):
    """The string crosses of `inputs` (features joined by `separator`, '_X_' by default)."""
    sep = '_X_' if separator is None else separator
    return _cross(inputs, 'tf.sparse.cross', False, 0, 0,
                  sep.encode() if isinstance(sep, str) else bytes(sep))


def cross_hashed(inputs, num_buckets=0, hash_key=None, name=None):
    """The crosses of `inputs` hashed as TF's (modulo `num_buckets` when it is positive)."""
    if int(num_buckets) < 0:
        raise ValueError(f'num_buckets must be >= 0, got {num_buckets}')
    key = _DEFAULT_HASH_KEY if hash_key is None else int(hash_key) & _MASK
    return _cross(inputs, 'tf.sparse.cross_hashed', True, int(num_buckets), key, b'')
