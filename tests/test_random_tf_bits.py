"""Random numbers are TensorFlow's own: Philox4x32-10 and TF's conversions. Every expected value
here was recorded by running the same call under TensorFlow 2.21 (CPU)."""
import numpy as np
import pytest

import defun as tf
from defun.ops.random.philox import Draws, Stream, key_counter_from_seed


def close(actual, expected):
    np.testing.assert_allclose(np.asarray(actual), expected, rtol=2e-6, atol=2e-7)


def test_generator_from_seed_draws_tfs_numbers_and_advances_256_per_number():
    g = tf.random.Generator.from_seed(1)
    assert list(g.state.numpy()) == [1, 0, 0]
    close(g.normal([]), 0.43842274)
    assert list(g.state.numpy()) == [257, 0, 0]
    close(g.normal([]), 1.6272374)
    close(g.normal([2, 3]), [[1.6307176, 0.00784778, 0.02775633],
                             [-0.7729474, 1.385969, 1.2318633]])
    assert list(g.state.numpy()) == [2049, 0, 0]
    close(g.normal([1000])[:3], [0.9560716, 0.43019655, -0.31551504])
    close(g.uniform([5]), [0.7378795, 0.9403585, 0.88514435, 0.79512596, 0.7398945])
    np.testing.assert_array_equal(g.uniform([5], maxval=10, dtype=tf.int32), [2, 4, 9, 3, 9])
    np.testing.assert_array_equal(g.uniform([3], minval=-5, maxval=1000, dtype=tf.int64),
                                  [901, 883, 758])
    close(g.uniform([3], dtype=tf.float64), [0.64456188, 0.34990576, 0.32988267])
    close(g.normal([3], dtype=tf.float64), [0.56490298, 0.73822433, 1.41293323])
    close(g.truncated_normal([6]), [1.3175548, -0.51141846, -0.49733773, -0.27973077,
                                    -0.01746031, 0.27692166])
    np.testing.assert_array_equal(g.uniform_full_int([3], dtype=tf.int64),
                                  [3607264044285924882, -3869443045938197853,
                                   -245749485725654221])
    assert list(g.state.numpy()) == [265217, 0, 0]


def test_split_and_reset_as_tf():
    g = tf.random.Generator.from_seed(1)
    first, second = g.split(2)
    assert list(first.state.numpy()) == [0, 0, 6679402142117448868]
    assert list(second.state.numpy()) == [0, 0, 684265014234019051]
    assert list(g.state.numpy()) == [513, 0, 0]
    g.reset_from_seed(1)
    close(g.normal([]), 0.43842274)


def test_stateless_ops_are_tfs():
    close(tf.random.stateless_normal([4], seed=[1, 2]),
          [0.5441101, 0.20738031, 0.07356432, 0.04643455])
    close(tf.random.stateless_uniform([4], seed=[1, 2]),
          [0.8440604, 0.19204533, 0.9962232, 0.1603874])
    np.testing.assert_array_equal(
        tf.random.stateless_uniform([4], seed=[1, 2], minval=0, maxval=10, dtype=tf.int32),
        [0, 9, 4, 9])


def test_global_seed_sequences_are_tfs():
    tf.random.set_seed(42)
    close(tf.random.normal([3]), [0.3274685, -0.8426258, 0.3194337])
    close(tf.random.normal([3]), [0.08422458, -0.86090374, 0.37812304])
    close(tf.random.uniform([3]), [0.7413678, 0.62854624, 0.01738465])
    # An op seed: the kernel is reused, so a second call continues its stream.
    close(tf.random.normal([3], seed=7), [-0.45274156, -0.30040753, -0.07882862])
    close(tf.random.normal([3], seed=7), [-0.5042276, 1.3658841, -0.27591008])
    tf.random.set_seed(42)  # restarts both the op-seed sequence and the op kernels
    close(tf.random.normal([3]), [0.3274685, -0.8426258, 0.3194337])


def test_philox_building_blocks():
    key, counter = key_counter_from_seed(1, 2)
    close(Draws(key, counter).standard_normal((4,)), [0.5441101, 0.20738031, 0.07356432,
                                                      0.04643455])
    stream = Stream(42, 7)
    first = stream.take(3)
    assert stream.take(1).counter == first.counter + 3 * 256


@pytest.mark.parametrize('dtype', [tf.float16, tf.float32, tf.float64])
def test_normal_statistics_in_every_float_dtype(dtype):
    x = tf.random.stateless_normal([20000], seed=[3, 4], dtype=dtype).numpy().astype(np.float64)
    assert abs(x.mean()) < 0.03 and abs(x.std() - 1) < 0.03
