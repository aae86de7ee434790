"""Specs for defun/ops/math/truncating.py and the segment products; references are numpy's
(np.rint, np.arctan2, np.fmod, C-style truncation, np.multiply.at)."""
import numpy as np

import defun as tf
from tests.ops.spec import Spec, ints, positive, rand

_IDS = np.array([0, 1, 0, 2], np.int32)


def _np_prod(data, ids, n):
    out = np.ones((n,) + data.shape[1:], data.dtype)
    np.multiply.at(out, ids, data)
    return out


def _np_truncdiv(x, y):
    return (np.sign(x) * np.sign(y) * (np.abs(x) // np.abs(y))).astype(x.dtype)


SPECS = [
    Spec('Rint', tf.math.rint, [np.array([0.5, 1.5, -2.5, 0.2, 2.7])], np.rint, grad=False),
    Spec('Angle', lambda re, im: tf.math.angle(tf.complex(re, im)), [rand(4), rand(4, seed=1)],
         lambda re, im: np.arctan2(im, re), second_order=False),
    Spec('TruncateDiv', tf.truncatediv, [ints(5), np.array([2, -3, 4, -1, 3], np.int32)],
         _np_truncdiv),
    Spec('TruncateMod', tf.truncatemod, [ints(5), np.array([2, -3, 4, -1, 3], np.int32)],
         np.fmod),
    Spec('TruncateMod', tf.truncatemod, [rand(4), positive(4)], np.fmod, grad=False, id='float'),
    Spec('UnsortedSegmentProd', lambda d: tf.math.unsorted_segment_prod(d, _IDS, 4), [rand(4, 2)],
         lambda d: _np_prod(d, _IDS, 4)),
    Spec('UnsortedSegmentProd', lambda d: tf.math.segment_prod(d, [0, 0, 1]), [rand(3)],
         lambda d: np.array([d[0] * d[1], d[2]]), id='segment_prod'),
    Spec('NextAfter', tf.math.nextafter, [rand(4), rand(4, seed=2)], np.nextafter),
    Spec('InvertPermutation', tf.math.invert_permutation, [np.array([3, 0, 2, 1], np.int32)],
         lambda p: np.argsort(p).astype(np.int32)),
    Spec('UniqueWithCounts', lambda x: tuple(tf.unique_with_counts(x)),
         [np.array([3, 1, 3, 2, 3], np.int32)],
         lambda x: (np.array([3, 1, 2], np.int32), np.array([0, 1, 0, 2, 0], np.int32),
                    np.array([3, 1, 1], np.int32))),
]
