"""RaggedTensor indexing: rows by index or by slice, then indices within the rows (a slice of
every row), as TF's ragged __getitem__ does for those cases. Works on the ragged value it is
given (its own type builds the results), below the type's module (ragged_tensor.py)."""
from defun.core.composite import CompositeTensor
from defun.core.tensor import Tensor, convert_to_tensor
from defun.ops.array.joining import concat
from defun.ops.framework.base_ops import cast
from defun.ops.math.exports import maximum, minimum, subtract
from defun.ops.support import validation
from defun.ops.support.helpers import static_value

__all__ = ['getitem']


def getitem(rt, key):
    """Rows by index or slice (step 1), then the remaining indices within them, as TF's
    ragged indexing for those cases."""
    if not isinstance(key, tuple):
        key = (key,)
    if not key:
        return rt
    first, rest = key[0], key[1:]
    if first is Ellipsis:
        raise NotImplementedError('Ellipsis in RaggedTensor indexing is not part of defun')
    if isinstance(first, slice):
        if first.step not in (None, 1):
            raise NotImplementedError('RaggedTensor slices with a step are not part of defun')
        rows = _row_slice(rt, first.start, first.stop)
        if not rest:
            return rows
        return _index_inner(rows, rest)
    row = _row(rt, first)
    return row[rest] if rest else row


def _row(rt, i):
    n = rt.nrows()
    i = convert_to_tensor(i, dtype=rt.row_splits_dtype) if not isinstance(i, Tensor) else \
        cast(i, rt.row_splits_dtype)
    known_i, known_n = static_value(i), static_value(n)
    if known_i is not None and known_n is not None and not -known_n <= known_i < known_n:
        raise validation.invalid_argument(f'slice index {int(known_i)} of dimension 0 out of '
                                          f'bounds.')
    i = i + n if known_i is not None and known_i < 0 else i
    return _slice_rows(rt.values, rt.row_splits[i], rt.row_splits[i + 1])


def _row_slice(rt, start, stop):
    splits = rt.row_splits[start:None if stop is None else _plus_one(stop)] \
        if stop is None or not _negative(stop) else rt.row_splits[start:stop]
    if stop is not None and _negative(stop):
        splits = concat([splits, rt.row_splits[stop:stop + 1 or None]], 0)
    inner = _slice_rows(rt.values, splits[0], splits[-1])
    return type(rt)(inner, subtract(splits, splits[0]), internal=True)


def _plus_one(i):
    return i + 1


def _negative(i):
    return isinstance(i, int) and i < 0


def _index_inner(rows, rest):
    """rows' values indexed by `rest` within each row (a slice of every row)."""
    first = rest[0]
    if isinstance(first, slice) and len(rest) == 1 and first.step in (None, 1):
        dense = rows.to_tensor()
        lengths = rows.row_lengths()
        start = 0 if first.start is None else first.start
        if isinstance(start, int) and start < 0:
            raise NotImplementedError('negative slice starts within rows are not part of defun')
        stop = lengths if first.stop is None else minimum(lengths, first.stop) \
            if first.stop >= 0 else maximum(lengths + first.stop, 0)
        new_lengths = maximum(subtract(stop, start), 0)
        return type(rows).from_tensor(dense[:, start:], lengths=new_lengths)
    raise NotImplementedError(f'RaggedTensor indexing within rows by {rest!r} is not part of '
                              f'defun (index the rows, or use to_tensor)')


def _slice_rows(values, start, stop):
    """values[start:stop] along the first dimension (values dense or ragged)."""
    if isinstance(values, CompositeTensor):   # ragged values
        splits = values.row_splits[start:stop + 1]
        inner = _slice_rows(values.values, splits[0], splits[-1])
        return type(values)(inner, subtract(splits, splits[0]), internal=True)
    return values[start:stop]
