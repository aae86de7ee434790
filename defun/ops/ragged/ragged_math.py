"""Elementwise ops and reductions on RaggedTensors, as TF dispatches them: an elementwise op works
on the flat values when its ragged operands share one row partition (a dense operand of lower
rank, or with size-1 ragged dimensions, is broadcast to the values first); a reduction over a
ragged dimension is a segment reduction of the values by row, over the uniform inner dimensions
a reduction of the values themselves, over the rows a segment reduction by position in the row.

The RaggedTensor type (ragged_tensor.py, which imports this module, so nothing here names it)
reaches here through its operators and through `__tf_dispatch__`, which tf.reduce_* call for a
composite input.
"""
from defun.core import dtypes
from defun.core.composite import CompositeTensor
from defun.core.tensor import convert_to_tensor
from defun.ops.array.creation import range as range_
from defun.ops.array.expand_squeeze import squeeze
from defun.ops.array.gathering import gather
from defun.ops.array.joining import concat
from defun.ops.framework.base_ops import cast, ones_like, shape as shape_of
from defun.ops.math import exports as math_ops
from defun.ops.math import segments
from defun.ops.ragged import row_ops
from defun.ops.support import validation
from defun.ops.support.helpers import static_value

__all__ = ['elementwise', 'elementwise_n', 'reduce', 'REDUCTIONS']


def _is_ragged(value):
    return isinstance(value, CompositeTensor) and hasattr(value, 'nested_row_splits')


def _partition_key(rt):
    return [id(s) for s in rt.nested_row_splits]


def _same_partition(a, b):
    """True when two ragged tensors have the same row splits (checked by value when eager)."""
    if _partition_key(a) == _partition_key(b):
        return True
    sa, sb = a.nested_row_splits, b.nested_row_splits
    if len(sa) != len(sb):
        return False
    for x, y in zip(sa, sb):
        vx, vy = static_value(x), static_value(y)
        if vx is None or vy is None:
            return True   # checked by the values' op at run time (their sizes must agree)
        if len(vx) != len(vy) or (vx != vy).any():
            return False
    return True


def _dense_to_values(rt, dense):
    """A dense operand as rows matching `rt`'s flat values: as it is when it broadcasts against
    the values' inner dims; else (leading dims [nrows, 1, ...] as TF broadcasts a size-1 ragged
    dim) each value takes its row's entry."""
    inner = rt.flat_values.shape.rank - 1
    if dense.shape.rank is not None and dense.shape.rank <= inner:
        return dense
    if rt.ragged_rank == 1 and dense.shape.rank is not None and dense.shape.rank >= 2 and \
            dense.shape[1] == 1:
        return squeeze(gather(dense, row_ops.rowids_of(rt.row_splits)), axis=1)
    raise ValueError(f'Ragged elementwise op: cannot broadcast a dense operand of shape '
                     f'{dense.shape} against a RaggedTensor of shape {rt.shape}')


def elementwise(fn, x, y):
    """fn(x, y) with one or both operands ragged."""
    rx, ry = _is_ragged(x), _is_ragged(y)
    if rx and ry:
        if not _same_partition(x, y):
            raise validation.invalid_argument(
                'Ragged elementwise op: the operands have different row partitions '
                f'({x.shape} and {y.shape})')
        return x.with_flat_values(fn(x.flat_values, y.flat_values))
    if rx:
        y = convert_to_tensor(y, dtype_hint=x.dtype)
        return x.with_flat_values(fn(x.flat_values, _dense_to_values(x, y)))
    x = convert_to_tensor(x, dtype_hint=y.dtype)
    return y.with_flat_values(fn(_dense_to_values(y, x), y.flat_values))


def elementwise_n(fn, operands, dtype_hint=None):
    """fn(*operands) on their flat values, some operands ragged (sharing one row partition), the
    others dense (broadcast to the values, converted with `dtype_hint`)."""
    ragged = [v for v in operands if _is_ragged(v)]
    for other in ragged[1:]:
        if not _same_partition(ragged[0], other):
            raise validation.invalid_argument(
                'Ragged elementwise op: the operands have different row partitions '
                f'({ragged[0].shape} and {other.shape})')
    flat = [v.flat_values if _is_ragged(v) else
            _dense_to_values(ragged[0], convert_to_tensor(v, dtype_hint=dtype_hint))
            for v in operands]
    return ragged[0].with_flat_values(fn(*flat))


REDUCTIONS = {
    'reduce_sum': (math_ops.reduce_sum, segments.unsorted_segment_sum),
    'reduce_max': (math_ops.reduce_max, segments.unsorted_segment_max),
    'reduce_min': (math_ops.reduce_min, segments.unsorted_segment_min),
    'reduce_prod': (math_ops.reduce_prod, segments.unsorted_segment_prod),
    'reduce_mean': (math_ops.reduce_mean, None),
    'reduce_any': (math_ops.reduce_any, None),
    'reduce_all': (math_ops.reduce_all, None),
}


def reduce(api, rt, axis=None, keepdims=False):
    """tf.<api>(rt, axis, keepdims) for a RaggedTensor `rt`."""
    if keepdims:
        raise NotImplementedError(f'tf.{api} of a RaggedTensor with keepdims=True is not part of '
                                  f'defun')
    if api == 'reduce_mean':
        total = reduce('reduce_sum', rt, axis)
        count = reduce('reduce_sum', rt.with_flat_values(ones_like(rt.flat_values)), axis)
        return _divide(total, count)
    if api in ('reduce_any', 'reduce_all'):
        # Counts of True (any) or of False (all), so an empty row is False (any), True (all).
        flags = rt.flat_values if api == 'reduce_any' else math_ops.logical_not(rt.flat_values)
        count = reduce('reduce_sum', rt.with_flat_values(cast(flags, dtypes.int32)), axis)
        return _map(count, lambda v: v > 0 if api == 'reduce_any' else math_ops.equal(v, 0))
    dense_op, segment_op = REDUCTIONS[api]
    if axis is None:
        return dense_op(rt.flat_values)
    rank = rt.shape.rank
    axes = [axis] if isinstance(axis, int) else sorted(axis)
    axes = [a + rank if a < 0 else a for a in axes]
    for a in reversed(axes):   # innermost first, so the outer axes keep their meaning
        rt = _reduce_axis(rt, a, dense_op, segment_op, api)
    return rt


def _reduce_axis(rt, axis, dense_op, segment_op, api):
    if not _is_ragged(rt):
        return dense_op(rt, axis=axis)
    if axis == 0:
        if _is_ragged(rt.values):
            raise NotImplementedError(f'tf.{api} over axis 0 of a RaggedTensor with ragged_rank '
                                      f'> 1 is not part of defun')
        return segment_op(rt.values, _positions_in_rows(rt.row_splits), _longest(rt.row_splits))
    if axis == 1:
        if _is_ragged(rt.values):
            raise NotImplementedError(f'tf.{api} over axis 1 of a RaggedTensor with ragged_rank '
                                      f'> 1 is not part of defun')
        return segment_op(rt.values, row_ops.rowids_of(rt.row_splits), rt.nrows())
    return rt.with_values(_reduce_axis(rt.values, axis - 1, dense_op, segment_op, api))


def _positions_in_rows(splits):
    rowids = row_ops.rowids_of(splits)
    n = shape_of(rowids, out_type=splits.dtype)[0]
    return range_(n, dtype=splits.dtype) - gather(splits, rowids)


def _longest(splits):
    lengths = row_ops.lengths_of(splits)
    return math_ops.reduce_max(concat([lengths, convert_to_tensor([0], lengths.dtype)],
                                               0))


def _map(value, fn):
    if _is_ragged(value):
        return value.with_flat_values(fn(value.flat_values))
    return fn(value)


def _divide(total, count):
    if _is_ragged(total):
        return total.with_flat_values(_divide(total.flat_values, count.flat_values))
    return total / count
