"""RaggedTensor indexing as TF's ragged __getitem__: the first key picks rows (an index, a slice
with any step, Ellipsis or tf.newaxis), the later keys slice inside every row (slices of a
ragged dimension, any key of a uniform inner dimension); an index into a ragged inner dimension
is TF's ValueError. Works on the ragged value it is given (its own type builds the results),
below the type's module (ragged_tensor.py); `gather_rows` also serves tf.ragged's factories."""
from defun.core.composite import CompositeTensor
from defun.core.tensor import Tensor, convert_to_tensor
from defun.ops.array.creation import range as range_, zeros
from defun.ops.array.gathering import gather
from defun.ops.array.joining import concat, stack
from defun.ops.math.logic import where
from defun.ops.framework.base_ops import cast, shape as shape_of
from defun.ops.math.exports import floordiv, maximum, minimum, subtract
from defun.ops.ragged import row_ops
from defun.ops.support import validation
from defun.ops.support.helpers import static_value

__all__ = ['getitem', 'gather_rows', 'concat_ranges']


def getitem(rt, key):
    """rt[key] with TF's semantics for ragged tensors."""
    return _outer(rt, list(key) if isinstance(key, (list, tuple)) else [key])


def _outer(rt, keys):
    if not keys:
        return rt
    first, rest = keys[0], keys[1:]
    if first is Ellipsis:
        return _outer(rt, _expand_ellipsis(keys, rt.shape.rank))
    if first is None:   # tf.newaxis: everything in one new row
        inner = _outer(rt, rest)
        n = shape_of(inner.row_splits, out_type=inner.row_splits.dtype)[0]
        return type(rt)(inner, stack([cast(0, n.dtype), n - 1]), internal=True)
    if isinstance(first, slice):
        return _inner(_row_slice(rt, first), rest)
    row = _row(rt, first)
    return row[tuple(rest)] if rest else row


def _expand_ellipsis(keys, rank):
    if rank is None:
        raise ValueError('Ellipsis not supported for unknown shape RaggedTensors')
    count = sum(1 for k in keys if k is not None)
    if count > rank + 1:
        raise IndexError('Too many indices for RaggedTensor')
    return keys[1:] if count == rank + 1 else [slice(None)] + keys


def _row(rt, i):
    n = rt.nrows()
    i = cast(i, rt.row_splits_dtype) if isinstance(i, Tensor) else \
        convert_to_tensor(i, dtype=rt.row_splits_dtype)
    known_i, known_n = static_value(i), static_value(n)
    if known_i is not None and known_n is not None and known_i >= known_n:
        # Python's iteration protocol stops on IndexError, as `for row in rt` relies on.
        raise IndexError(f'Row key {int(known_i)} out of bounds')
    if known_i is not None and known_n is not None and known_i < -known_n:
        raise validation.invalid_argument(f'slice index {int(known_i) + int(known_n)} of '
                                          f'dimension 0 out of bounds.')
    i = i + n if known_i is not None and known_i < 0 else i
    return _slice_values(rt.values, rt.row_splits[i], rt.row_splits[i + 1])


def _row_slice(rt, key):
    if key.start is None and key.stop is None and key.step is None:
        return rt
    starts, limits = rt.row_splits[:-1][key], rt.row_splits[1:][key]
    if key.step is not None and static_value(convert_to_tensor(key.step)) != 1:
        return _value_ranges(rt, starts, limits, 1, rt.values)
    # One contiguous span of the values: splits are starts[0] followed by the limits.
    # With no rows left, that is the single split 0.
    splits = concat([zeros([1], starts.dtype)[shape_of(starts)[0]:], starts[:1], limits], 0)
    values = _slice_values(rt.values, splits[0], splits[-1])
    return type(rt)(values, subtract(splits, splits[0]), internal=True)


def _inner(rt, keys):
    """rt[:, keys...]: the outer dimension kept, `keys` applied inside every row."""
    if not keys:
        return rt
    if not isinstance(rt, CompositeTensor):
        return rt[(slice(None),) + tuple(keys)]
    key = keys[0]
    if key is Ellipsis:
        values_rank = rt.values.shape.rank
        return _inner(rt, _expand_ellipsis(keys, values_rank))
    if key is None:   # tf.newaxis inside the rows: each value in a row of its own
        inner = _inner(rt, keys[1:])
        n = shape_of(inner.row_splits, out_type=inner.row_splits.dtype)[0]
        return type(rt)(inner, range_(n, dtype=n.dtype), internal=True)
    if not isinstance(key, slice):
        raise ValueError('Cannot index into an inner ragged dimension.')
    if key.start is None and key.stop is None and key.step is None:
        return rt.with_values(_inner(rt.values, keys[1:]))
    for bound in (key.start, key.stop):
        if not (bound is None or isinstance(bound, (int, Tensor))):
            raise TypeError('slice offsets must be integers or None')
    starts, limits = rt.row_splits[:-1], rt.row_splits[1:]
    step = 1 if key.step is None else key.step
    # Python's slice rules within each row: a negative step walks from the row's end.
    backwards = _if_ge_zero(step, lambda: 0, lambda: 1)
    lower, upper = starts - backwards, limits - backwards
    new_starts = _if_ge_zero(step, lambda: starts, lambda: limits - 1) if key.start is None \
        else _offset(key.start, starts, limits, lower, upper)
    new_limits = _if_ge_zero(step, lambda: limits, lambda: starts - 1) if key.stop is None \
        else _offset(key.stop, starts, limits, lower, upper)
    picked = _value_ranges(rt, new_starts, new_limits, key.step, rt.values)
    return picked.with_values(_inner(picked.values, keys[1:]))


def _if_ge_zero(value, if_true, if_false):
    """if_true() when value >= 0, else if_false(); a tensor of unknown value picks per element."""
    if isinstance(value, Tensor):
        known = static_value(value)
        if known is None:
            return where(value >= 0, if_true(), if_false())
        value = known
    return if_true() if value >= 0 else if_false()


def _offset(offset, starts, limits, lower, upper):
    """Row-relative `offset` as an index into the values, clipped to [lower, upper]."""
    if isinstance(offset, Tensor):
        offset = cast(offset, starts.dtype)
    return _if_ge_zero(offset, lambda: minimum(starts + offset, upper),
                       lambda: maximum(limits + offset, lower))


def _value_ranges(rt, starts, limits, step, values):
    """The ragged tensor whose row i is values[starts[i]:limits[i]:step]."""
    step = convert_to_tensor(1 if step is None else step)
    if not step.dtype.is_integer:
        raise TypeError('slice strides must be integers or None')
    step = cast(step, starts.dtype)
    span = subtract(limits, starts)
    one_less = where(step > 0, step - 1, step + 1)
    counts = maximum(floordiv(span + one_less, step), 0)
    splits = row_ops.splits_from_lengths(counts)
    rowids = row_ops.rowids_of(splits)
    position = range_(splits[-1], dtype=splits.dtype) - gather(splits, rowids)
    indices = gather(starts, rowids) + position * step
    picked = gather_rows(values, indices) if isinstance(values, CompositeTensor) else \
        gather(values, indices)
    return type(rt)(picked, splits, internal=True)


def gather_rows(rt, rowids):
    """The rows of ragged `rt` named by `rowids`, in that order."""
    starts, lengths = gather(rt.row_splits, rowids), gather(row_ops.lengths_of(rt.row_splits),
                                                            rowids)
    picked = concat_ranges(starts, lengths)
    values = gather_rows(rt.values, picked) if isinstance(rt.values, CompositeTensor) else \
        gather(rt.values, picked)
    return type(rt)(values, row_ops.splits_from_lengths(lengths), internal=True)


def concat_ranges(starts, lengths):
    """starts[i] .. starts[i] + lengths[i] for every i, one after the other."""
    splits = row_ops.splits_from_lengths(lengths)
    rowids = row_ops.rowids_of(splits)
    offsets = range_(splits[-1], dtype=splits.dtype) - gather(splits, rowids)
    return gather(starts, rowids) + offsets


def _slice_values(values, start, stop):
    """values[start:stop] along the first dimension (values dense or ragged)."""
    if isinstance(values, CompositeTensor):   # ragged values
        splits = values.row_splits[start:stop + 1]
        inner = _slice_values(values.values, splits[0], splits[-1])
        return type(values)(inner, subtract(splits, splits[0]), internal=True)
    return values[start:stop]

