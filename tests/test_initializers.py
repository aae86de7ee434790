"""tf.zeros/ones/constant/random_normal/random_uniform_initializer, checked against TF 2.21's
behaviour: seeded random initializers repeat their values, configs round-trip, TF's errors."""
import numpy as np
import pytest

import defun as tf


def test_deterministic_initializers():
    assert tf.zeros_initializer()([2, 2], tf.int32).numpy().tolist() == [[0, 0], [0, 0]]
    assert tf.ones_initializer()([2]).dtype == tf.float32
    assert tf.constant_initializer([1, 2])([2]).numpy().tolist() == [1.0, 2.0]
    assert tf.constant_initializer(3.0)([2, 2]).numpy().tolist() == [[3.0, 3.0], [3.0, 3.0]]
    assert tf.constant_initializer([[1, 2], [3, 4]])([4], tf.int64).dtype == tf.int64


def test_seeded_random_initializers_repeat_and_unseeded_vary():
    init = tf.random_normal_initializer(stddev=2.0, seed=1)
    np.testing.assert_array_equal(init([3]).numpy(), init([3]).numpy())
    unseeded = tf.random_uniform_initializer(-1.0, 1.0)
    a, b = unseeded([1000]).numpy(), unseeded([1000]).numpy()
    assert not np.array_equal(a, b) and a.min() >= -1.0 and a.max() < 1.0
    ints = tf.random_uniform_initializer(0, 5, seed=3)([100], tf.int32).numpy()
    assert ints.dtype == np.int32 and ints.min() >= 0 and ints.max() < 5
    big = tf.random_normal_initializer(mean=1.0, stddev=0.5)([20000]).numpy()
    assert abs(big.mean() - 1.0) < 0.02 and abs(big.std() - 0.5) < 0.02


def test_config_round_trip_and_errors():
    init = tf.random_normal_initializer(mean=0.0, stddev=0.05, seed=1)
    assert init.get_config() == {'mean': 0.0, 'stddev': 0.05, 'seed': 1}
    again = tf.random_normal_initializer.from_config(init.get_config())
    np.testing.assert_array_equal(again([2]).numpy(), init([2]).numpy())
    with pytest.raises(TypeError, match='has 2 elements'):
        tf.constant_initializer([1, 2])([3])
    with pytest.raises(ValueError, match='numeric or boolean'):
        tf.zeros_initializer()([2], tf.string)


def test_initializers_make_variables():
    v = tf.Variable(tf.random_normal_initializer(seed=2)([3, 2]))
    assert v.shape == (3, 2) and v.dtype == tf.float32


def test_seeded_initializers_give_tfs_values():
    # Recorded from TF 2.21 (its stateless draws with seed [seed, 0]).
    np.testing.assert_allclose(tf.random_normal_initializer(seed=1)([2]).numpy(),
                               [0.00633252, -0.02465083], rtol=1e-5)
    np.testing.assert_allclose(tf.random_uniform_initializer(0, 1, seed=3)([2]).numpy(),
                               [0.19591284, 0.93934524], rtol=1e-6)
    assert tf.random_uniform_initializer(0, 5, seed=3)([2], tf.int32).numpy().tolist() == [3, 2]
