"""Gradients through compiled calls: tape over a call, variables inside, nested calls, custom
gradients in graphs, higher order, gradients() over calls; checked against eager and finite
differences."""
import numpy as np
import pytest

import defun as tf
from defun.autodiff import gradient_check as testing


def eager_and_compiled(fn):
    return fn, tf.function(fn)


def tape_grad(fn, x):
    x = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = fn(x)
    return tape.gradient(y, x).numpy()


@pytest.mark.parametrize('body', [
    lambda x: tf.reduce_sum(x * x * x + tf.sin(x)),
    lambda x: tf.reduce_sum(tf.exp(x) / (1.0 + x * x)),
    lambda x: tf.reduce_sum(tf.matmul(tf.reshape(x, [2, 2]), tf.reshape(x, [2, 2]))),
])
def test_compiled_gradient_matches_eager_and_finite_differences(body):
    data = np.array([0.3, -0.7, 1.1, 0.2])
    compiled = tf.function(body)
    np.testing.assert_allclose(tape_grad(compiled, data), tape_grad(body, data), rtol=1e-10)
    assert testing.gradient_error(compiled, [data]) < 1e-6


def test_backward_is_a_traced_graph_reusing_intermediates():
    @tf.function
    def f(x):
        return tf.reduce_sum(tf.exp(x) * x)
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    tape.gradient(y, x)
    cf = f.get_concrete_function(x)
    source = cf.backward_source
    assert 'def f_backward(' in source
    assert 'k_Exp' not in source  # exp(x) is an intermediate of the forward, not recomputed


def test_variables_read_inside_are_watched():
    v = tf.Variable([1.0, 2.0])

    @tf.function
    def loss(x):
        return tf.reduce_sum(v * v * x)
    with tf.GradientTape() as tape:
        y = loss(tf.constant(3.0))
    g = tape.gradient(y, v)
    np.testing.assert_allclose(g.numpy(), [6.0, 12.0])
    assert tape.watched_variables() == (v,)


def test_nested_compiled_calls_and_second_order():
    @tf.function
    def inner(x):
        return x * x * x

    @tf.function
    def outer(x):
        return inner(x) * 2.0
    x = tf.constant(2.0)
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = outer(x)
        d1 = t1.gradient(y, x)
    d2 = t2.gradient(d1, x)
    assert float(d1) == pytest.approx(24.0) and float(d2) == pytest.approx(24.0)


def test_gradients_inside_function_over_calls():
    @tf.function
    def inner(x):
        return tf.sin(x) * x

    @tf.function
    def outer(x):
        return tf.gradients(inner(x), x)[0]
    x = 0.7
    assert float(outer(tf.constant(x))) == pytest.approx(np.cos(x) * x + np.sin(x), rel=1e-6)


def test_custom_gradient_inside_function():
    @tf.custom_gradient
    def clipped_identity(x):
        def grad(dy):
            return tf.clip_by_value(dy, -0.5, 0.5)
        return tf.identity(x), grad

    @tf.function
    def f(x):
        return tf.reduce_sum(clipped_identity(x) * 3.0)
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [0.5, 0.5])


def test_tape_inside_function_with_variables():
    w = tf.Variable(2.0)

    @tf.function
    def step(x):
        with tf.GradientTape() as tape:
            loss = (w * x - 1.0) ** 2
        g = tape.gradient(loss, w)
        w.assign_sub(0.1 * g)
        return loss
    step(tf.constant(1.0))
    assert float(w.numpy()) == pytest.approx(2.0 - 0.1 * 2 * (2.0 - 1.0))


def test_py_and_numpy_function_run_at_call_time():
    seen = []

    def record(x):
        seen.append(float(x))
        return x * 2

    @tf.function
    def f(x):
        a = tf.py_function(record, [x], tf.float32)
        b = tf.numpy_function(lambda v: np.sqrt(v), [x], tf.float32)
        return a + b
    assert float(f(tf.constant(4.0))) == pytest.approx(10.0)
    assert float(f(tf.constant(9.0))) == pytest.approx(21.0)
    assert seen == [4.0, 9.0]


def test_nested_function_closing_over_the_enclosing_trace():
    @tf.function
    def outer(x):
        y = x * 2.0

        @tf.function
        def inner(z):
            return z + y
        return inner(x)
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        r = outer(x)
    assert float(r) == 9.0 and float(tape.gradient(r, x)) == 3.0
    assert float(outer(tf.constant(4.0))) == 12.0
