"""Specs for the stateless random ops (defun/ops/random/stateless.py): being pure functions of
their seed, they go through the registry walk's shape and dtype inference checks; their values
(determinism, statistics) are checked in tests/test_random_stateless.py."""
import numpy as np

import defun as tf
from tests.ops.spec import Spec

_SEED = np.array([3, 7], np.int32)


def _spec(op_type, call, *extra, id=''):
    return Spec(op_type, call, [_SEED, *extra], None, grad=False, id=id)


SPECS = [
    _spec('StatelessRandomGetKeyCounter', lambda s: tf.random.stateless_normal([2, 3], seed=s)),
    _spec('StatelessRandomNormalV2', lambda s: tf.random.stateless_normal([2, 3], seed=s)),
    _spec('StatelessRandomNormalV2', lambda s: tf.random.stateless_normal(
        [4], seed=s, dtype=tf.float64), id='f64'),
    _spec('StatelessRandomUniformV2', lambda s: tf.random.stateless_uniform([3], seed=s)),
    _spec('StatelessTruncatedNormalV2',
          lambda s: tf.random.stateless_truncated_normal([2, 2], seed=s)),
    _spec('StatelessRandomUniformIntV2', lambda s: tf.random.stateless_uniform(
        [5], seed=s, minval=2, maxval=9, dtype=tf.int64)),
    _spec('StatelessRandomUniformFullIntV2', lambda s: tf.random.stateless_uniform(
        [5], seed=s, minval=None, maxval=None, dtype=tf.int32)),
    _spec('StatelessRandomBinomial', lambda s: tf.random.stateless_binomial(
        [3], seed=s, counts=[5., 10., 20.], probs=0.3)),
    _spec('StatelessRandomGammaV3', lambda s, a: tf.random.stateless_gamma([4, 2], seed=s, alpha=a),
          np.array([1.5, 3.0], np.float32)),
    _spec('StatelessRandomPoisson', lambda s: tf.random.stateless_poisson(
        [2, 3], seed=s, lam=[1., 2., 3.])),
    _spec('StatelessMultinomial', lambda s, z: tf.random.stateless_categorical(z, 4, seed=s),
          np.log(np.array([[0.2, 0.8], [0.5, 0.5]]))),
]


# TF 2.21's permutations for these seeds (its Simon cycle-walking cipher; Fisher-Yates on Philox)
SPECS += [
    Spec('RandomIndexShuffle',
         lambda i: tf.random.experimental.index_shuffle(i, [5, 8], tf.constant(9, tf.int64)),
         [np.arange(10, dtype=np.int64)],
         lambda i: np.array([3, 8, 0, 1, 2, 7, 6, 9, 4, 5], np.int64), grad=False),
    Spec('StatelessShuffle', lambda v: tf.random.experimental.stateless_shuffle(v, seed=[1, 2]),
         [np.arange(10, dtype=np.int32)],
         lambda v: np.array([0, 3, 8, 1, 5, 4, 9, 7, 6, 2], np.int32), grad=False),
]
