"""Grouped 2-D convolution (filter depth a divisor of the input depth), as TF 2.21's CPU kernel
runs it eagerly; expected values recorded from TF."""
import numpy as np
import pytest

import defun as tf


def _inputs():
    x = tf.constant(np.arange(2 * 5 * 5 * 4, dtype=np.float32).reshape(2, 5, 5, 4) / 50)
    w = tf.constant(np.arange(2 * 2 * 2 * 6, dtype=np.float32).reshape(2, 2, 2, 6) / 30 - 0.3)
    return x, w


def test_grouped_forward_matches_tf():
    x, w = _inputs()
    y = tf.nn.conv2d(x, w, 1, 'VALID')
    assert y.shape == (2, 4, 4, 6)
    np.testing.assert_allclose(y.numpy()[0, 0, 0], [1.512, 1.5787, 1.6453, 1.872, 1.9493, 2.0267],
                               atol=1e-4)
    assert float(tf.reduce_sum(y)) == pytest.approx(1615.616, abs=1e-2)


def test_grouped_gradients_match_tf():
    x, w = _inputs()
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, w])
        y = tf.nn.conv2d(x, w, [1, 2, 2, 1], 'SAME')
        loss = tf.reduce_sum(y * y)
    assert y.shape == (2, 3, 3, 6)
    assert float(tf.reduce_sum(y)) == pytest.approx(435.02, abs=1e-2)
    np.testing.assert_allclose(tape.gradient(loss, x).numpy()[1, 1, 2],
                               [29.099, 39.979, 42.5154, 55.9138], rtol=1e-4)
    np.testing.assert_allclose(tape.gradient(loss, w).numpy()[1, 0, 1],
                               [289.063, 313.707, 338.351, 374.528, 399.974, 425.42], rtol=1e-4)


def test_grouped_in_function_keeps_static_shape():
    f = tf.function(lambda a, b: tf.nn.conv2d(a, b, 1, 'VALID'))
    out = f.get_concrete_function(tf.TensorSpec([None, 5, 5, 4]),
                                  tf.TensorSpec([2, 2, 2, 6])).structured_outputs
    assert out.shape.as_list() == [None, 4, 4, 6]


@pytest.mark.parametrize('filter_shape, message', [
    ([2, 2, 2, 5], 'output depth must be evenly divisible by number of groups: 5 vs 2'),
    ([2, 2, 3, 6], 'input depth must be evenly divisible by filter depth: 4 vs 3'),
])
def test_grouped_bad_depths(filter_shape, message):
    x, _ = _inputs()
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        tf.nn.conv2d(x, tf.ones(filter_shape), 1, 'VALID')
