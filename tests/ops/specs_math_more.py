"""Specs for defun/ops/math/math_ops.py and array_more.py; references are numpy's (np.add.at for the
segment reductions, np.roll, np.repeat, np.searchsorted, ...)."""
import math

import numpy as np

import defun as tf
from tests.ops.spec import Spec, ints, positive, rand

_IDS = np.array([0, 2, 0, 3], np.int32)
_FULL = np.array([0, 1, 0, 2], np.int32)


def _np_segment(ufunc, data, ids, n, initial):
    out = np.full((n,) + data.shape[1:], initial, data.dtype)
    ufunc.at(out, ids, data)
    return out


def _np_xlogy(x, y):
    return np.where(x == 0, 0.0, x * np.log(np.where(x == 0, 1.0, y)))


def _inverse(fn, targets, lo=-40.0, hi=40.0):
    """Solves fn(y) = t for each target by bisection (fn increasing): an independent reference."""
    out = []
    for t in np.ravel(targets):
        a, b = lo, hi
        for _ in range(200):
            mid = (a + b) / 2
            a, b = (mid, b) if fn(mid) < t else (a, mid)
        out.append((a + b) / 2)
    return np.reshape(out, np.shape(targets))


def _distinct(*shape, seed=0):
    rng = np.random.default_rng(seed)
    return rng.permutation(int(np.prod(shape))).reshape(shape) * 0.31 - 1.5


_LOW32 = np.finfo(np.float64).min

SPECS = [
    Spec('Asinh', tf.math.asinh, [rand(3, 2)], np.arcsinh),
    Spec('Acosh', tf.math.acosh, [positive(4) + 1.0], np.arccosh),
    Spec('Atanh', tf.math.atanh, [rand(4, low=-0.8, high=0.8)], np.arctanh),
    Spec('Square', tf.math.squared_difference, [rand(2, 3), rand(3)],
         lambda x, y: (x - y) ** 2, id='squared_difference'),
    Spec('Softplus', tf.math.log_sigmoid, [rand(5)], lambda x: -np.log1p(np.exp(-x)),
         id='log_sigmoid'),
    Spec('Cast', lambda x: tf.math.count_nonzero(x, axis=1), [np.array([[0, 1], [2, 3]], np.int32)],
         lambda x: np.count_nonzero(x, axis=1).astype(np.int64), id='count_nonzero'),
    # At x == 0 TF's gradient is 0 by convention (not the limit), so the zero cases are checked
    # forward only and the gradients away from zero.
    Spec('SelectV2', tf.math.xlogy, [np.array([0.0, 1.5, -2.0, 0.0]), positive(4)], _np_xlogy,
         grad=False, id='xlogy-zero'),
    Spec('SelectV2', tf.math.xlogy, [np.array([0.5, 1.5, -2.0]), positive(3)], _np_xlogy,
         id='xlogy'),
    Spec('SelectV2', tf.math.xlog1py, [np.array([0.3, 1.5, 2.0]), positive(3)],
         lambda x, y: np.where(x == 0, 0.0, x * np.log1p(y)), id='xlog1py'),
    Spec('SelectV2', tf.math.xdivy, [np.array([0.3, 1.5, 2.0]), positive(3)],
         lambda x, y: np.where(x == 0, 0.0, x / y), id='xdivy'),
    Spec('MulNoNan', tf.math.multiply_no_nan, [rand(3), np.array([0.0, 1.5, -2.0])],
         lambda x, y: np.where(y == 0, 0.0, x * y), grad=False, id='multiply_no_nan-zero'),
    Spec('MulNoNan', tf.math.multiply_no_nan, [rand(3), np.array([0.4, 1.5, -2.0])],
         lambda x, y: x * y, id='multiply_no_nan'),
    Spec('DivNoNan', tf.math.reciprocal_no_nan, [np.array([0.0, 1.5, -2.0])],
         lambda x: np.where(x == 0, 0.0, 1 / np.where(x == 0, 1, x)), grad=False,
         id='reciprocal_no_nan-zero'),
    Spec('DivNoNan', tf.math.reciprocal_no_nan, [np.array([0.5, 1.5, -2.0])],
         lambda x: 1 / x, id='reciprocal_no_nan'),
    Spec('UnsortedSegmentSum', lambda d: tf.math.unsorted_segment_sum(d, _IDS, 5), [rand(4, 2)],
         lambda d: _np_segment(np.add, d, _IDS, 5, 0)),
    Spec('UnsortedSegmentSum', lambda d: tf.math.unsorted_segment_sum(d, [0, -1, 1], 2),
         [ints(3)], lambda d: np.array([d[0], d[2]], np.int32), id='negative-id-int'),
    Spec('UnsortedSegmentSum', lambda d: tf.math.unsorted_segment_mean(d, _IDS, 4), [rand(4)],
         lambda d: np.array([(d[0] + d[2]) / 2, 0, d[1], d[3]]), id='mean'),
    Spec('UnsortedSegmentSum', lambda d: tf.math.segment_sum(d, [0, 0, 1, 3]), [rand(4, 3)],
         lambda d: _np_segment(np.add, d, np.array([0, 0, 1, 3]), 4, 0), id='segment_sum'),
    Spec('UnsortedSegmentSum', lambda d: tf.math.segment_mean(d, [0, 0, 1]), [rand(3)],
         lambda d: np.array([(d[0] + d[1]) / 2, d[2]]), id='segment_mean'),
    # Empty segments hold the dtype's finite extremes (as TF); their huge constants would drown
    # finite differences, so the gradient specs fill every segment.
    Spec('UnsortedSegmentMax', lambda d: tf.math.unsorted_segment_max(d, _IDS, 5),
         [_distinct(4, 2)], lambda d: _np_segment(np.maximum, d, _IDS, 5, _LOW32), grad=False,
         id='empty'),
    Spec('UnsortedSegmentMax', lambda d: tf.math.unsorted_segment_max(d, _FULL, 3),
         [_distinct(4, 2)], lambda d: _np_segment(np.maximum, d, _FULL, 3, _LOW32)),
    Spec('UnsortedSegmentMin', lambda d: tf.math.unsorted_segment_min(d, _FULL, 3),
         [_distinct(4)], lambda d: _np_segment(np.minimum, d, _FULL, 3, -_LOW32)),
    Spec('UnsortedSegmentMax', lambda d: tf.math.segment_max(d, [0, 0, 2]), [_distinct(3)],
         lambda d: np.array([max(d[0], d[1]), 0.0, d[2]]), id='segment_max'),
    Spec('UnsortedSegmentMin', lambda d: tf.math.segment_min(d, [1, 1]), [_distinct(2, 2)],
         lambda d: np.stack([np.zeros(2), np.minimum(d[0], d[1])]), id='segment_min'),
    Spec('TopKV2', lambda p: tf.math.in_top_k([1, 0, 2], p, 2), [_distinct(3, 3)],
         lambda p: np.array([(p[i] > p[i, t]).sum() < 2 for i, t in enumerate([1, 0, 2])]),
         id='in_top_k'),
    Spec('Bincount', tf.math.bincount, [np.array([1, 1, 3, 0], np.int32)],
         lambda a: np.bincount(a).astype(np.int32)),
    Spec('Bincount', lambda a, w: tf.math.bincount(a, weights=w, minlength=6),
         [np.array([1, 1, 3], np.int32), rand(3)],
         lambda a, w: np.bincount(a, w, minlength=6), grad=False, id='weights'),  # as TF: no gradient
    Spec('Roll', lambda x: tf.roll(x, 1, 0), [rand(4, 2)], lambda x: np.roll(x, 1, 0)),
    Spec('Roll', lambda x: tf.roll(x, [2, -1], [0, 1]), [rand(3, 4)],
         lambda x: np.roll(x, [2, -1], [0, 1]), id='multi'),
    Spec('RepeatIndices', lambda x: tf.repeat(x, [1, 2], axis=0), [rand(2, 3)],
         lambda x: np.repeat(x, [1, 2], axis=0)),
    Spec('GatherV2', lambda x: tf.repeat(x, 2), [rand(2, 2)], lambda x: np.repeat(x, 2),
         id='repeat-flat'),
    Spec('Unique', lambda x: tuple(tf.unique(x)), [np.array([3, 1, 3, 2], np.int32)],
         lambda x: (np.array([3, 1, 2], np.int32), np.array([0, 1, 0, 2], np.int32))),
    Spec('SearchSorted', lambda s, v: tf.searchsorted(s, v), [np.array([[1., 3, 5], [0, 2, 4]]),
                                                            np.array([[3., 6], [-1, 2]])],
         lambda s, v: np.array([[1, 3], [0, 1]], np.int32)),
    Spec('SearchSorted', lambda s, v: tf.searchsorted(s, v, side='right'),
         [np.array([1., 3, 5]), np.array([3., 0])], lambda s, v: np.array([2, 0], np.int32),
         id='right'),
    Spec('Lgamma', tf.math.lgamma, [positive(5) * 3],
         lambda x: np.array([math.lgamma(v) for v in x])),
    Spec('Lgamma', tf.math.lgamma, [np.array([-1.5, -0.5, 0.3])],
         lambda x: np.array([math.lgamma(v) for v in x]), id='negative'),
    # digamma's references: closed forms at half-integers and integers (ψ(1) = -γ, ψ(1/2) =
    # -γ - 2 ln 2, ψ(x + 1) = ψ(x) + 1/x).
    Spec('Digamma', tf.math.digamma, [np.array([0.5, 1.0, 3.0, 12.5])],
         lambda x: np.array([-np.euler_gamma - 2 * np.log(2), -np.euler_gamma,
                             1.5 - np.euler_gamma,
                             -np.euler_gamma - 2 * np.log(2) + sum(1 / (k + 0.5)
                                                                   for k in range(12))])),
    Spec('Polygamma', lambda x: tf.math.polygamma(tf.constant([1.0, 1.0, 2.0], tf.float64), x),
         [np.array([0.5, 1.0, 3.0])],
         lambda x: np.array([np.pi ** 2 / 2, np.pi ** 2 / 6, -0.1541138063191886])),
    Spec('Erfinv', tf.math.erfinv, [np.array([-0.999999, -0.99, 1e-12, 0.999])],
         lambda x: _inverse(math.erf, x), rtol=1e-9, grad=False, id='tails'),
    Spec('Erfinv', tf.math.erfinv, [np.array([-0.8, -0.4, 0.1, 0.7])],
         lambda x: _inverse(math.erf, x), rtol=1e-9),
    Spec('Ndtri', tf.math.ndtri, [np.array([1e-300, 1e-8, 0.999999])],
         lambda p: _inverse(lambda v: 0.5 * math.erfc(-v / math.sqrt(2)), p), rtol=1e-9,
         grad=False, id='tails'),
    Spec('Ndtri', tf.math.ndtri, [np.array([0.1, 0.3, 0.5, 0.8])],
         lambda p: _inverse(lambda v: 0.5 * math.erfc(-v / math.sqrt(2)), p), rtol=1e-9),
    Spec('Pack', tf.linalg.cross, [rand(2, 3), rand(3)], lambda a, b: np.cross(a, b),
         id='cross'),
    Spec('Mul', lambda x: tf.math.polyval([1.0, -2.0, 3.0], x), [rand(4)],
         lambda x: x * x - 2 * x + 3, id='polyval'),
    Spec('AddV2', lambda a, b: tf.math.accumulate_n([a, b, a]), [rand(3), rand(3)],
         lambda a, b: 2 * a + b, id='accumulate_n'),
    Spec('Cumsum', lambda x: tf.math.cumulative_logsumexp(x, axis=1), [rand(2, 4)],
         lambda x: np.log(np.cumsum(np.exp(x), axis=1)), id='cumulative_logsumexp'),
    Spec('UnravelIndex', lambda i: tf.unravel_index(i, [7, 6]), [np.array([22, 41, 37], np.int32)],
         lambda i: np.stack(np.unravel_index(i, (7, 6))).astype(np.int32)),
    Spec('HistogramFixedWidth', lambda v: tf.histogram_fixed_width(v, [0.0, 5.0], nbins=5),
         [np.array([-1., 0., 1.5, 2., 5., 15])], lambda v: np.array([2, 1, 1, 0, 2], np.int32)),
    Spec('UnsortedSegmentSum', lambda l, p: tf.math.confusion_matrix(l, p, num_classes=3),
         [np.array([0, 1, 2, 1], np.int32), np.array([0, 2, 2, 1], np.int32)],
         lambda l, p: np.array([[1, 0, 0], [0, 1, 1], [0, 0, 1]], np.int32), id='confusion'),
    Spec('All', tf.math.is_non_decreasing, [np.array([1, 2, 2], np.int32)],
         lambda x: np.bool_(True), id='is_non_decreasing'),
    Spec('Minimum', lambda x: tf.saturate_cast(x, tf.uint8), [np.array([300.0, -5.0, 7.5])],
         lambda x: np.array([255, 0, 7], np.uint8), id='saturate_cast'),
    Spec('EnsureShape', lambda x: tf.ensure_shape(x, [None, 3]), [rand(2, 3)], lambda x: x),
]
