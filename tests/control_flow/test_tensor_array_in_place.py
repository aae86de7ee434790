"""TensorArray writes in a compiled loop that rebinds the array are written in place
(control_flow/loop_buffers.py): same values, errors and gradients as the copying write."""
import numpy as np
import pytest

import defun as tf
from defun.core import errors
from tests.control_flow.util import check_gradients


def _fill(n, dynamic=False):
    def f(x):
        ta = tf.TensorArray(tf.float32, size=0 if dynamic else n, dynamic_size=dynamic)
        for i in tf.range(n):
            ta = ta.write(i, x * tf.cast(i, tf.float32) + 1.0)
        return ta.stack()
    return f


@pytest.mark.parametrize('dynamic', [False, True])
def test_loop_of_writes_matches_numpy_and_is_in_place(dynamic):
    f = tf.function(_fill(300, dynamic))
    x = np.linspace(-1, 1, 5).astype(np.float32)
    expected = np.arange(300, dtype=np.float32)[:, None] * x + np.float32(1.0)
    for _ in range(2):   # a second call starts again from an untouched initial buffer
        np.testing.assert_array_equal(f(tf.constant(x)).numpy(), expected)
    assert 'k_write_in_place(' in f.get_concrete_function(tf.constant(x)).function_source


def test_initial_array_read_after_the_loop_is_unchanged():
    @tf.function
    def f(x):
        ta0 = tf.TensorArray(tf.float32, size=3).write(0, x)
        ta = ta0
        for i in tf.range(1, 3):
            ta = ta.write(i, x * tf.cast(i, tf.float32))
        return ta0.stack(), ta.stack()
    x = np.array([1.0, 2.0], np.float32)
    before, after = f(tf.constant(x))
    np.testing.assert_array_equal(before.numpy(), np.stack([x, 0 * x, 0 * x]))
    np.testing.assert_array_equal(after.numpy(), np.stack([x, x, 2 * x]))


def test_a_buffer_also_read_in_the_body_is_not_written_in_place():
    @tf.function
    def f(x):
        ta = tf.TensorArray(tf.float32, size=4).write(0, x)
        for i in tf.range(1, 4):
            ta = ta.write(i, ta.read(i - 1) * 2.0)
        return ta.stack()
    x = np.array([1.0, 3.0], np.float32)
    np.testing.assert_array_equal(f(tf.constant(x)).numpy(),
                                  np.stack([x * 2.0 ** k for k in range(4)]))


def test_writing_past_a_fixed_size_fails_as_before():
    @tf.function
    def f(x):
        ta = tf.TensorArray(tf.float32, size=3)
        for i in tf.range(4):
            ta = ta.write(i, x)
        return ta.stack()
    with pytest.raises(errors.InvalidArgumentError, match='not resizeable and size is: 3'):
        f(tf.constant([1.0]))


def test_element_shape_mismatch_fails_as_before():
    @tf.function
    def f(x, y):
        ta = tf.TensorArray(tf.float32, size=2, infer_shape=False)
        ta = ta.write(0, x)
        for i in tf.range(1, 2):
            ta = ta.write(i, y)
        return ta.stack()
    with pytest.raises(errors.InvalidArgumentError):
        f(tf.constant([1.0, 2.0]), tf.constant([1.0, 2.0, 3.0]))


@pytest.mark.parametrize('dynamic', [False, True])
def test_gradient_through_in_place_writes_by_finite_differences(dynamic):
    def fn(x):
        ta = tf.TensorArray(tf.float64, size=0 if dynamic else 6, dynamic_size=dynamic)
        _, ta = tf.while_loop(
            lambda i, ta: i < 6,
            lambda i, ta: (i + 1, ta.write(i, tf.sin(x) * tf.cast(i + 1, tf.float64))), (0, ta))
        return ta.stack() * tf.constant(np.arange(12.0).reshape(6, 2))
    check_gradients(fn, np.array([0.3, -1.2]))


def _numpy_recurrence(xs, h0):
    """h = tanh(0.5 h + x_t); d h_T / d h0 and d h_T / d xs by the chain rule."""
    hs = [h0]
    for x in xs:
        hs.append(np.tanh(0.5 * hs[-1] + x))
    dh, dxs = np.ones_like(h0), np.zeros_like(xs)
    for t in range(len(xs) - 1, -1, -1):
        da = dh * (1 - hs[t + 1] ** 2)
        dxs[t] = da
        dh = 0.5 * da
    return hs[-1], dh, dxs


@pytest.mark.parametrize('steps', [0, 1, 16, 17, 100])
def test_stacks_of_a_run_time_trip_count_grow_in_place(steps):
    """The gradient's per-step stacks of a loop whose trip count is known only at run time are
    one buffer grown as the loop runs (while_runner.grow_rows): same values for lengths around
    the growth points."""
    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float64),
                                  tf.TensorSpec([3], tf.float64)])
    def f(xs, h0):
        with tf.GradientTape() as tape:
            tape.watch([xs, h0])
            h = h0
            for t in tf.range(tf.shape(xs)[0]):
                h = tf.tanh(0.5 * h + xs[t])
            loss = tf.reduce_sum(h)
        return (h,) + tuple(tape.gradient(loss, [h0, xs]))
    xs = np.random.default_rng(5).standard_normal((steps, 3))
    h0 = np.array([0.1, -0.4, 0.7])
    for got, want in zip(f(tf.constant(xs), tf.constant(h0)), _numpy_recurrence(xs, h0)):
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=1e-12)
    assert 'grow_rows(' in f.get_concrete_function().function_source
