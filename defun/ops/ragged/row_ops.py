"""The tensor-level work behind RaggedTensor, on plain tensors (flat values and row partitions), so
the type itself (ragged_tensor.py) stays a thin layer: row splits from lengths, row ids or starts,
their validation with TF's messages, and padding a ragged value into a dense tensor.

Everything here is built from public ops, so gradients reach the flat values by the ops' own rules.
"""
import numpy as np

from defun.core import dtypes
from defun.core.tensor import convert_to_tensor
from defun.ops.array.creation import fill, range as range_
from defun.ops.array.gathering import gather, scatter_nd, tensor_scatter_nd_update
from defun.ops.array.joining import concat, stack
from defun.ops.array.repeat_unique import repeat
from defun.ops.framework.base_ops import cast, shape as shape_of
from defun.ops.array.transform import pad, slice as slice_
from defun.core.shapes import as_shape
from defun.ops.math.exports import cumsum, equal, logical_not, reduce_all, reduce_max, reduce_sum
from defun.ops.math.exports import maximum, subtract
from defun.ops.math.segments import unsorted_segment_sum
from defun.ops.support import validation
from defun.ops.support.helpers import static_value

__all__ = ['as_splits', 'splits_from_lengths', 'splits_from_rowids', 'lengths_of', 'rowids_of',
           'check_splits', 'scatter_padded', 'nrows_of', 'lengths_before_padding', 'fit_shape']


def as_splits(value, dtype, name):
    """An integer vector of row partition data, int64 unless `dtype` says otherwise."""
    t = convert_to_tensor(value, dtype_hint=dtype or dtypes.int64)
    if not t.dtype.is_integer:
        raise TypeError(f'RaggedTensor: `{name}` must be an integer tensor, got {t.dtype.name}')
    if dtype is not None and t.dtype is not dtype:
        t = cast(t, dtype)
    if t.shape.rank is not None and t.shape.rank != 1:
        raise ValueError(f'RaggedTensor: `{name}` must be a vector, got shape {t.shape}')
    return t


def splits_from_lengths(lengths):
    zero = convert_to_tensor([0], dtype=lengths.dtype)
    return concat([zero, cumsum(lengths)], 0)


def splits_from_rowids(rowids, nrows):
    counts = unsorted_segment_sum(cast(fill(shape_of(rowids), 1), rowids.dtype), rowids, nrows)
    return splits_from_lengths(cast(counts, rowids.dtype))


def lengths_of(splits):
    return subtract(splits[1:], splits[:-1])


def nrows_of(splits):
    return subtract(shape_of(splits, out_type=splits.dtype)[0], 1)


def rowids_of(splits):
    """The row of each value: row i repeated row_lengths[i] times."""
    return repeat(range_(nrows_of(splits), dtype=splits.dtype), lengths_of(splits))


def _fail(factory, what):
    raise validation.invalid_argument(
        f'Arguments to {factory} do not form a valid RaggedTensor:{what}')


def check_splits(splits, nvals, factory):
    """TF's checks of row splits against the number of values, run where values are known."""
    s, n = static_value(splits), None if nvals is None else static_value(nvals)
    if s is None:
        return
    s = np.asarray(s)
    if s.size == 0:
        _fail(factory, 'zero')
    if s[0] != 0:
        _fail(factory, 'zero')
    if (np.diff(s) < 0).any():
        _fail(factory, 'monotonic')
    if n is not None and s[-1] != int(n):
        _fail(factory, 'nvals')


def check_rowids(rowids, nrows, factory):
    r, n = static_value(rowids), static_value(nrows)
    if r is None:
        return
    r = np.asarray(r)
    if r.size and (r[0] < 0 or (np.diff(r) < 0).any()):
        _fail(factory, 'monotonic' if r[0] >= 0 else 'bad rowids')
    if n is not None and r.size and r[-1] >= int(n):
        _fail(factory, 'bad nrows')


def scatter_padded(values, splits, default, inner_shape):
    """The dense [nrows, longest row, *inner] tensor with `values` (one row per value, inner
    shape `inner_shape`) placed row by row and `default` elsewhere."""
    rowids = rowids_of(splits)
    starts = gather(splits, rowids)
    columns = subtract(range_(shape_of(values, out_type=splits.dtype)[0], dtype=splits.dtype), starts)
    nrows = nrows_of(splits)
    lengths = lengths_of(splits)
    width = reduce_max(concat([lengths, convert_to_tensor([0], dtype=splits.dtype)], 0))
    dense_shape = concat([stack([nrows, width]), cast(inner_shape, splits.dtype)], 0)
    indices = stack([rowids, columns], axis=1)
    if default is None:
        return scatter_nd(indices, values, dense_shape)
    base = fill(dense_shape, default)
    return tensor_scatter_nd_update(base, indices, values)


def lengths_before_padding(tensor, padding, width, dtype):
    """Each row's length before its trailing run of `padding` (whole elements equal to it)."""
    is_pad = equal(tensor, convert_to_tensor(padding, dtype=tensor.dtype))
    if tensor.shape.rank is not None and tensor.shape.rank > 2:
        is_pad = reduce_all(is_pad, axis=list(range(2, tensor.shape.rank)))
    not_pad = cast(logical_not(is_pad), dtype)
    # A position is in the trailing run when no non-padding element follows it.
    after = cumsum(not_pad, axis=1, reverse=True)
    trailing = reduce_sum(cast(equal(after, 0), dtype), axis=1)
    return subtract(cast(width, dtype), trailing)


def fit_shape(dense, shape, default):
    """`dense` padded or truncated to `shape` (None dims keep their size); sizes not known while
    tracing are padded by what the running values lack."""
    target = as_shape(shape)
    if target.rank is None:
        return dense
    dims = target.as_list()
    size = [-1 if d is None else d for d in dims]
    known = static_value(shape_of(dense))
    fill = 0 if default is None else default
    if known is not None:
        pads = [[0, 0 if d is None else max(d - int(known[i]), 0)] for i, d in enumerate(dims)]
        if any(p[1] for p in pads):
            dense = pad(dense, pads, constant_values=fill)
    elif any(d is not None for d in dims):
        have = shape_of(dense)
        lack = [0 if d is None else maximum(d - have[i], 0) for i, d in enumerate(dims)]
        zeros = [0] * len(dims)
        dense = pad(dense, stack([stack(zeros), stack(lack)], axis=1), constant_values=fill)
    return slice_(dense, [0] * len(dims), size)


def uniform_splits(nvals, length, nrows, dtype):
    """The row splits of `nrows` rows of `length` values each (nrows = nvals // length when not
    given), and the length and row count as tensors of the splits' dtype; TF's ValueErrors when
    they are known not to fit `nvals`."""
    length = convert_to_tensor(length, dtype=dtype)
    known_length, known_nvals = static_value(length), static_value(nvals)
    if known_length is not None and int(known_length) < 0:
        raise ValueError('uniform_row_length must be >= 0.')
    if nrows is None:
        if known_length is not None and int(known_length) == 0:
            nrows = convert_to_tensor(0, dtype=dtype)
        else:
            nrows = cast(nvals, dtype) // length
    nrows = convert_to_tensor(nrows, dtype=dtype)
    known_nrows = static_value(nrows)
    if None not in (known_length, known_nrows, known_nvals) and \
            int(known_length) * int(known_nrows) != int(known_nvals):
        raise ValueError(f'uniform_row_length={int(known_length)} times nrows='
                         f'{int(known_nrows)} must equal nvals={int(known_nvals)}')
    return range_(nrows + 1, dtype=dtype) * length, length
