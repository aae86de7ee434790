"""Gradients of compiled loops, over the whole matrix: tape outside or inside the compiled
function; `tf.while_loop`, `for i in tf.range(n)` and `for row in tensor`; the loop body reading a
Variable, a captured tensor or an argument; first and second order; and a retrace with another
trip count. Every value is checked against central finite differences of a numpy reference.
"""
import itertools

import numpy as np
import pytest

import defun as tf

LOOPS = ('while_loop', 'range', 'rows')
READS = ('variable', 'captured', 'argument')
PLACES = ('outside', 'inside')
ORDERS = (1, 2)
ROWS = np.array([0.3, -0.2, 0.5, 0.1, -0.4], dtype=np.float64)


def _numpy_loop(w, h0, n):
    """The loop every variant computes: h <- tanh(h * w + row_i), i < n; returns sum of h * w."""
    h = h0
    total = 0.0
    for i in range(n):
        h = np.tanh(h * w + ROWS[i])
        total += h * w
    return total


def _fd(fun, x, eps=1e-5):
    return (fun(x + eps) - fun(x - eps)) / (2 * eps)


def _expected(wrt, order, w, h0, n):
    if wrt == 'w':
        first = lambda a: _fd(lambda b: _numpy_loop(b, h0, n), a)
        x = w
    else:
        first = lambda a: _fd(lambda b: _numpy_loop(w, b, n), a)
        x = h0
    return first(x) if order == 1 else _fd(first, x, 1e-4)


def _body_builder(loop, read_w):
    """A Python function (w_arg, h0, n) -> value of _numpy_loop, written with the given loop."""
    rows = tf.constant(ROWS)

    def step(h, w, row):
        h = tf.tanh(h * w + row)
        return h, h * w

    if loop == 'while_loop':
        def run(w_arg, h0, n):
            w = read_w(w_arg)
            def body(i, h, total):
                h, add = step(h, w, tf.gather(rows, i))
                return i + 1, h, total + add
            _, _, total = tf.while_loop(lambda i, h, total: i < n, body,
                                        (tf.constant(0), h0, tf.constant(0.0, tf.float64)))
            return total
    elif loop == 'range':
        def run(w_arg, h0, n):
            w = read_w(w_arg)
            h, total = h0, tf.constant(0.0, tf.float64)
            for i in tf.range(n):
                h, add = step(h, w, tf.gather(rows, i))
                total += add
            return total
    else:
        def run(w_arg, h0, n):
            w = read_w(w_arg)
            h, total = h0, tf.constant(0.0, tf.float64)
            for row in rows[:n]:
                h, add = step(h, w, row)
                total += add
            return total
    return run


def _setup(read):
    """The differentiated parameter w (as the body reads it) and a reader for the body."""
    if read == 'variable':
        w = tf.Variable(0.7, dtype=tf.float64)
        return w, (lambda w_arg: w * 1.0), (lambda: None)
    if read == 'captured':
        w = tf.constant(0.7, tf.float64)
        return w, (lambda w_arg: w), (lambda: None)
    w = tf.constant(0.7, tf.float64)
    return w, (lambda w_arg: w_arg), (lambda: w)


def _grads_outside(order, compiled, w, w_in, h_in, n_in):
    src = w_in if w_in is not None else w
    with tf.GradientTape(persistent=True) as outer:
        outer.watch([src, h_in])
        with tf.GradientTape(persistent=True) as inner:
            inner.watch([src, h_in])
            y = compiled(w_in, h_in, n_in)
        dw, dh = inner.gradient(y, [src, h_in])
    if order == 1:
        return dw, dh
    return outer.gradient(dw, src), outer.gradient(dh, h_in)


@pytest.mark.parametrize('place,loop,read,order',
                         list(itertools.product(PLACES, LOOPS, READS, ORDERS)))
def test_loop_gradient_matrix(place, loop, read, order):
    w, read_w, arg = _setup(read)
    run = _body_builder(loop, read_w)
    h0 = tf.constant(0.2, tf.float64)
    if place == 'inside':
        fn = tf.function(lambda w_arg, h, n: _grads_inside(order, run, w, w_arg, h, n))
    else:
        compiled = tf.function(run)
        fn = lambda w_arg, h, n: _grads_outside(order, compiled, w, w_arg, h, n)
    for n in (3, 5):  # the second trip count retraces (n is a Python int) ...
        dw, dh = fn(arg(), h0, n)
        np.testing.assert_allclose(dw.numpy(), _expected('w', order, 0.7, 0.2, n), rtol=1e-5,
                                   atol=1e-7)
        np.testing.assert_allclose(dh.numpy(), _expected('h', order, 0.7, 0.2, n), rtol=1e-5,
                                   atol=1e-7)
    for n in (2, 4):  # ... and a tensor trip count runs one trace with another count
        dw, dh = fn(arg(), h0, tf.constant(n))
        np.testing.assert_allclose(dw.numpy(), _expected('w', order, 0.7, 0.2, n), rtol=1e-5,
                                   atol=1e-7)


def _grads_inside(order, run, w, w_in, h_in, n_in):
    src = w_in if w_in is not None else w
    with tf.GradientTape(persistent=True) as outer:
        outer.watch([src, h_in])
        with tf.GradientTape(persistent=True) as inner:
            inner.watch([src, h_in])
            y = run(w_in, h_in, n_in)
        dw, dh = inner.gradient(y, [src, h_in])
    if order == 1:
        return dw, dh
    return outer.gradient(dw, src), outer.gradient(dh, h_in)


def test_rnn_over_rows_with_variable_weights_matches_finite_differences():
    """The issue's case: h = tanh(h @ w + x_row) over a tensor's rows, tape outside."""
    rng = np.random.RandomState(0)
    xs_np = rng.randn(4, 3)
    w_np = rng.randn(3, 3) * 0.5
    w = tf.Variable(w_np)

    @tf.function
    def rnn(xs):
        h = tf.zeros([1, 3], tf.float64)
        for row in xs:
            h = tf.tanh(tf.matmul(h, w) + row)
        return tf.reduce_sum(h)

    def ref(wv):
        h = np.zeros((1, 3))
        for row in xs_np:
            h = np.tanh(h @ wv + row)
        return h.sum()

    with tf.GradientTape() as tape:
        y = rnn(tf.constant(xs_np))
    g = tape.gradient(y, w).numpy()
    expected = np.zeros_like(w_np)
    for idx in np.ndindex(*w_np.shape):
        d = np.zeros_like(w_np)
        d[idx] = 1e-6
        expected[idx] = (ref(w_np + d) - ref(w_np - d)) / 2e-6
    np.testing.assert_allclose(g, expected, rtol=1e-5, atol=1e-8)


@pytest.mark.parametrize('compiled', [False, True])
@pytest.mark.parametrize('pred', [True, False])
def test_cond_second_order_of_a_captured_tensor(compiled, pred):
    """Second order through tf.cond of a tensor the function captures (values from TF 2.21,
    which agree with the closed forms d2/dw2 of sin(x w) w and of w^3)."""
    w = tf.constant(0.7, tf.float64)

    def second(x, p):
        with tf.GradientTape() as outer:
            outer.watch(w)
            with tf.GradientTape() as inner:
                inner.watch(w)
                y = tf.cond(p, lambda: tf.sin(x * w) * w, lambda: w * w * w)
            dw = inner.gradient(y, w)
        return dw, outer.gradient(dw, w)

    fn = tf.function(second) if compiled else second
    x = 0.2
    dw, d2w = fn(tf.constant(x, tf.float64), tf.constant(pred))
    if pred:
        expected = (np.cos(x * 0.7) * x * 0.7 + np.sin(x * 0.7),
                    -np.sin(x * 0.7) * x * x * 0.7 + 2 * x * np.cos(x * 0.7))
    else:
        expected = (3 * 0.49, 6 * 0.7)
    np.testing.assert_allclose([dw.numpy(), d2w.numpy()], expected, rtol=1e-12)
