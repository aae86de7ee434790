"""Specs for tf.raw_ops' own op (Bucketize), with numpy's upper-bound search as the reference."""
import numpy as np

import defun as tf
from tests.ops.spec import Spec, ints, rand

_BOUNDS = [-1.0, 0.0, 0.5, 2.0]


def _np_bucketize(x):
    return np.searchsorted(np.float32(_BOUNDS), x, side='right').astype(np.int32)


SPECS = [
    Spec('Bucketize', lambda x: tf.raw_ops.Bucketize(input=x, boundaries=_BOUNDS),
         [rand(3, 4)], _np_bucketize),
    Spec('Bucketize', lambda x: tf.raw_ops.Bucketize(input=x, boundaries=_BOUNDS),
         [ints(5, low=-3, high=4)], _np_bucketize, id='int32'),
]
