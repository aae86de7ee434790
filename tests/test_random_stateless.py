"""tf.random.stateless_*: deterministic in their shape-[2] seed (eagerly and compiled alike),
independent across seeds, with the right distributions, shapes, dtypes and TF's errors."""
import numpy as np
import pytest

import defun as tf
from defun.core import errors

SEED = [1, 2]


def test_same_seed_same_numbers_and_other_seeds_differ():
    a = tf.random.stateless_normal([2, 3], seed=SEED).numpy()
    b = tf.random.stateless_normal([2, 3], seed=SEED).numpy()
    c = tf.random.stateless_normal([2, 3], seed=[1, 3]).numpy()
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)


def test_compiled_draws_equal_eager_draws():
    f = tf.function(lambda s: tf.random.stateless_uniform([4], seed=s))
    eager = tf.random.stateless_uniform([4], seed=tf.constant(SEED)).numpy()
    np.testing.assert_array_equal(f(tf.constant(SEED)).numpy(), eager)
    np.testing.assert_array_equal(f(tf.constant(SEED)).numpy(), eager)
    assert not np.array_equal(f(tf.constant([5, 6])).numpy(), eager)


def test_distributions():
    n = tf.random.stateless_normal([20000], seed=SEED, mean=1.0, stddev=2.0).numpy()
    assert abs(n.mean() - 1.0) < 0.05 and abs(n.std() - 2.0) < 0.05
    t = tf.random.stateless_truncated_normal([20000], seed=SEED, stddev=3.0).numpy()
    assert np.abs(t).max() <= 6.0 and abs(t.mean()) < 0.1
    u = tf.random.stateless_uniform([20000], seed=SEED, minval=-2.0, maxval=2.0).numpy()
    assert u.min() >= -2.0 and u.max() < 2.0 and abs(u.mean()) < 0.05
    g = tf.random.stateless_gamma([20000], seed=SEED, alpha=3.0, beta=2.0).numpy()
    assert abs(g.mean() - 1.5) < 0.05
    p = tf.random.stateless_poisson([20000], seed=SEED, lam=4.0).numpy()
    assert p.dtype == np.int32 and abs(p.mean() - 4.0) < 0.1
    b = tf.random.stateless_binomial([20000], seed=SEED, counts=10.0, probs=0.3).numpy()
    assert b.dtype == np.int32 and b.min() >= 0 and b.max() <= 10 and abs(b.mean() - 3) < 0.1


def test_integers():
    i = tf.random.stateless_uniform([5000], seed=SEED, minval=3, maxval=7, dtype=tf.int64)
    assert i.dtype == tf.int64 and set(np.unique(i.numpy())) == {3, 4, 5, 6}
    full = tf.random.stateless_uniform([1000], seed=SEED, minval=None, maxval=None,
                                       dtype=tf.int32).numpy()
    assert full.dtype == np.int32 and full.min() < -2 ** 30 and full.max() > 2 ** 30
    with pytest.raises(ValueError, match='minval'):
        tf.random.stateless_uniform([2], seed=SEED, dtype=tf.int32)


def test_categorical():
    logits = tf.math.log([[0.2, 0.8], [1.0, 0.0]])
    draws = tf.random.stateless_categorical(logits, 4000, seed=SEED).numpy()
    assert draws.shape == (2, 4000) and draws.dtype == np.int64
    assert abs(draws[0].mean() - 0.8) < 0.03 and (draws[1] == 0).all()


def test_shapes_broadcast_parameters_as_tf():
    # Shapes recorded from TF 2.21: the stateless forms broadcast their parameter to `shape`.
    assert tf.random.stateless_gamma([2, 3], SEED, alpha=[1., 2., 3.]).shape == (2, 3)
    assert tf.random.stateless_poisson([2], SEED, lam=[3., 4.]).shape == (2,)


def test_seed_must_be_shape_two_integers():
    with pytest.raises(errors.InvalidArgumentError, match=r'seed must have shape \[2\], not \[1\]'):
        tf.random.stateless_normal([2], seed=[1])
    with pytest.raises(errors.InvalidArgumentError, match='shape'):
        tf.random.stateless_normal([2], seed=1)
    with pytest.raises(TypeError, match='seed'):
        tf.random.stateless_normal([2], seed=[1.0, 2.0])


def test_split_and_fold_in():
    seeds = tf.random.experimental.stateless_split(SEED, 3)
    assert seeds.shape == (3, 2) and seeds.dtype == tf.int32
    np.testing.assert_array_equal(seeds.numpy(),
                                  tf.random.experimental.stateless_split(SEED, 3).numpy())
    draws = [tf.random.stateless_normal([3], seed=s).numpy() for s in seeds]
    assert not np.array_equal(draws[0], draws[1])
    folded = tf.random.experimental.stateless_fold_in(SEED, 7)
    assert folded.shape == (2,) and int(folded[1]) == 7
    # As TF: the first word of a fold is the first word of a split.
    assert int(folded[0]) == int(seeds[0, 0])


def test_split_and_fold_in_aliases_match_tf():
    # tf.random.split / fold_in are TF's stateless_split / stateless_fold_in; values from TF 2.21.
    assert tf.random.split is tf.random.experimental.stateless_split
    assert tf.random.fold_in is tf.random.experimental.stateless_fold_in
    np.testing.assert_array_equal(tf.random.split([1, 2]),
                                  [[1105988140, 1738052849], [-335576002, 370444179]])
    np.testing.assert_array_equal(tf.random.fold_in([1, 2], 3), [1105988140, 3])
