"""TF's UniqueV2 and UniqueWithCountsV2 (tf.raw_ops): the distinct slices of a tensor along one
axis, in order of first appearance, with each slice's index among them (and their counts).

Slices are compared as TF compares them: element by element, so -0.0 equals 0.0 and a slice
holding NaN equals no other (NaN is not equal to itself). An empty `axis` takes a vector.
The outputs are indices and gathered values: not differentiable, as in TF.
"""
import collections

import numpy as np

from defun.core import dtypes
from defun.core.dispatch import apply_op
from defun.core.registry import define_op
from defun.ops.support import validation
from defun.ops.support.helpers import dims, static_value, to_tensor

__all__ = ['unique_v2', 'unique_with_counts_v2']


def _axis(x, axis):
    chosen = np.ravel(axis)
    if chosen.size > 1:
        raise validation.invalid_argument('axis does not support input tensors larger than 1 '
                                          'elements')
    if chosen.size == 0:
        if x.ndim != 1:
            raise validation.invalid_argument('unique expects a 1D vector.')
        return 0
    a = int(chosen[0])
    a = a + x.ndim if a < 0 else a
    if not 0 <= a < x.ndim:
        raise validation.invalid_argument(f'axis has to be between [0, {x.ndim})')
    return a


def _first_appearances(x, axis):
    """(positions of each distinct slice's first appearance, each slice's index among them)."""
    n = x.shape[axis]
    rows = np.moveaxis(x, axis, 0).reshape(n, x.size // n if n else 0)
    if x.dtype.kind in 'iub' and rows.shape[1]:   # exact equality: numpy's sort is TF's test
        _, first, inverse = np.unique(rows, axis=0, return_index=True, return_inverse=True)
        order = np.argsort(first, kind='stable')
        rank = np.empty_like(order)
        rank[order] = np.arange(len(order))
        return first[order], rank[np.ravel(inverse)]
    # Python's equality of the rows' values: -0.0 == 0.0, and each NaN object differs.
    seen, firsts = {}, []
    inverse = np.empty(len(rows), np.int64)
    for i, row in enumerate(rows.tolist()):
        key = tuple(row)
        j = seen.setdefault(key, len(firsts))
        if j == len(firsts):
            firsts.append(i)
        inverse[i] = j
    return np.asarray(firsts, np.int64), inverse


def _unique_kernel(x, axis, out_idx):
    a = _axis(x, axis)
    firsts, inverse = _first_appearances(x, a)
    return np.take(x, firsts, axis=a), inverse.astype(out_idx.np_dtype)


def _counts_kernel(x, axis, out_idx):
    a = _axis(x, axis)
    firsts, inverse = _first_appearances(x, a)
    counts = np.bincount(inverse, minlength=len(firsts)).astype(out_idx.np_dtype)
    return np.take(x, firsts, axis=a), inverse.astype(out_idx.np_dtype), counts


def _slices_infer(x, axis):
    """TF's shapes: the unique slices of unknown dims (of the input's rank), the indices as long
    as the axis."""
    d = dims(x)
    chosen = static_value(axis)
    if d is None:
        return None, (None,)
    if chosen is None or np.size(chosen) > 1:
        return (None,) * len(d), (None,)
    a = int(np.ravel(chosen)[0]) if np.size(chosen) else 0
    return (None,) * len(d), (d[a % len(d)],) if d else (None,)


def _unique_infer(x, axis, out_idx):
    y, idx = _slices_infer(x, axis)
    return [(x.dtype, y), (out_idx, idx)]


def _counts_infer(x, axis, out_idx):
    y, idx = _slices_infer(x, axis)
    return [(x.dtype, y), (out_idx, idx), (out_idx, (None,))]


UNIQUE_V2 = define_op('UniqueV2', _unique_kernel, _unique_infer, None, num_outputs=2)
UNIQUE_WITH_COUNTS_V2 = define_op('UniqueWithCountsV2', _counts_kernel, _counts_infer, None,
                                  num_outputs=3)


UniqueV2Result = collections.namedtuple('UniqueV2', ['y', 'idx'])
UniqueWithCountsV2Result = collections.namedtuple('UniqueWithCountsV2', ['y', 'idx', 'count'])


def _args(x, axis, what):
    x = to_tensor(x, name='x', op=what)
    axis = to_tensor(axis, name='axis', op=what, hint=dtypes.int64)
    return x, axis


def unique_v2(x, axis, out_idx=dtypes.int32, name=None):
    """(y, idx): the distinct slices of `x` along `axis` (a 1-element vector; empty for a vector
    `x`) in order of first appearance, and each slice's index in y."""
    attrs = {'out_idx': dtypes.as_dtype(out_idx)}
    return UniqueV2Result(*apply_op(UNIQUE_V2, _args(x, axis, 'UniqueV2'), attrs, name))


def unique_with_counts_v2(x, axis, out_idx=dtypes.int32, name=None):
    """(y, idx, count): unique_v2's results and how often each distinct slice occurs."""
    attrs = {'out_idx': dtypes.as_dtype(out_idx)}
    return UniqueWithCountsV2Result(*apply_op(UNIQUE_WITH_COUNTS_V2,
                                              _args(x, axis, 'UniqueWithCountsV2'), attrs, name))
