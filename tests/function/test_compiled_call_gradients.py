"""Gradients where user gradient code meets a compiled call: custom gradients and tf.function in
every arrangement, py_function inside a compiled function, integer outputs of compiled calls and
loops. Expected values recorded from TensorFlow 2.21."""
import numpy as np
import pytest

import defun as tf


@tf.function
@tf.custom_gradient
def log1pexp(x):
    e = tf.exp(x)

    def grad(upstream):
        return upstream * (1 - 1 / (1 + e))
    return tf.math.log(1 + e), grad


def _tape_grad(f, x):
    with tf.GradientTape() as t:
        t.watch(x)
        y = f(x)
    return t.gradient(y, x)


class TestFunctionOnCustomGradient:
    """The custom gradient is used, not the forward's own derivative (which is nan at 100)."""

    def test_outer_tape(self):
        assert float(_tape_grad(log1pexp, tf.constant(100.))) == 1.0

    def test_variable_input(self):
        x = tf.Variable(100.)
        with tf.GradientTape() as t:
            y = log1pexp(x) * 2
        assert float(t.gradient(y, x)) == 2.0

    def test_called_from_another_function(self):
        outer = tf.function(lambda x: log1pexp(x))
        assert float(_tape_grad(outer, tf.constant(100.))) == 1.0

    def test_inner_tape(self):
        @tf.function
        def g(x):
            with tf.GradientTape() as t:
                t.watch(x)
                y = log1pexp(x)
            return t.gradient(y, x)
        assert float(g(tf.constant(100.))) == 1.0

    def test_tf_gradients_in_a_graph(self):
        g = tf.function(lambda x: tf.gradients(log1pexp(x), x)[0])
        assert float(g(tf.constant(100.))) == 1.0

    def test_concrete_function(self):
        cf = log1pexp.get_concrete_function(tf.TensorSpec([], tf.float32))
        assert float(_tape_grad(cf, tf.constant(100.))) == 1.0

    def test_jit_compile(self):
        f = tf.function(log1pexp.python_function, jit_compile=True)
        assert float(_tape_grad(f, tf.constant(100.))) == 1.0

    def test_custom_gradient_around_a_function(self):
        f = tf.function(lambda x: tf.math.log(1 + tf.exp(x)))

        @tf.custom_gradient
        def h(x):
            def grad(dy):
                return dy * (1 - 1 / (1 + tf.exp(x)))
            return f(x), grad
        assert float(_tape_grad(h, tf.constant(100.))) == 1.0

    def test_at_one_and_second_order(self):
        x = tf.constant(1.0)
        with tf.GradientTape() as t2:
            t2.watch(x)
            with tf.GradientTape() as t:
                t.watch(x)
                y = log1pexp(x)
            g = t.gradient(y, x)
        np.testing.assert_allclose(float(g), 0.7310586, rtol=1e-6)
        np.testing.assert_allclose(float(t2.gradient(g, x)), 0.19661194, rtol=1e-6)

    def test_variables_and_two_outputs(self):
        v = tf.Variable(2.0)

        @tf.function
        @tf.custom_gradient
        def scaled(x):
            def grad(dy, variables=None):
                return dy * 10.0, [dy * 100.0]
            return x * v, grad

        @tf.function
        @tf.custom_gradient
        def two_out(x):
            def grad(d1, d2):
                return d1 * 2.0 + d2 * 3.0
            return (x * 0.0, x * 0.0), grad
        x = tf.constant(3.0)
        with tf.GradientTape(persistent=True) as t:
            t.watch(x)
            y = scaled(x)
            a, b = two_out(x)
            z = a + b
        assert [float(g) for g in t.gradient(y, [x, v])] == [10.0, 100.0]
        assert float(t.gradient(z, x)) == 5.0


def _sq(x):
    return x * x


class TestPyFunctionInAFunction:
    def test_outer_inner_tape_and_gradients(self):
        f = tf.function(lambda x: tf.py_function(_sq, [x], tf.float32))
        assert float(_tape_grad(f, tf.constant(3.0))) == 6.0

        @tf.function
        def inner(x):
            with tf.GradientTape() as t:
                t.watch(x)
                y = tf.py_function(_sq, [x], tf.float32)
            return t.gradient(y, x)
        assert float(inner(tf.constant(3.0))) == 6.0
        g = tf.function(lambda x: tf.gradients(tf.py_function(_sq, [x], tf.float32), x))
        assert float(g(tf.constant(3.0))[0]) == 6.0

    def test_two_results_chain_and_vectors(self):
        @tf.function
        def f(a, b):
            p, s = tf.py_function(lambda x, y: (x * y, x + y), [a, b], [tf.float32, tf.float32])
            return p + 2 * s
        a, b = tf.constant(3.0), tf.constant(4.0)
        with tf.GradientTape() as t:
            t.watch([a, b])
            y = f(a, b)
        assert [float(g) for g in t.gradient(y, [a, b])] == [6.0, 5.0]

        @tf.function
        def chain(a):
            y = tf.py_function(lambda x: x * x, [a], tf.float32)
            return tf.py_function(lambda x: x * 3, [y], tf.float32)
        np.testing.assert_array_equal(_tape_grad(chain, tf.constant([1.0, 2.0])), [6., 12.])
        f64 = tf.function(lambda a: tf.py_function(lambda x: x * x, [a], tf.float64))
        g = _tape_grad(f64, tf.constant([1.0, 2.0], tf.float64))
        assert g.dtype == tf.float64
        np.testing.assert_array_equal(g, [2., 4.])

    def test_variable_read_inside_gets_none(self):
        v = tf.Variable(2.0)
        f = tf.function(lambda x: tf.py_function(lambda z: z * v, [x], tf.float32))
        x = tf.constant(3.0)
        with tf.GradientTape() as t:
            t.watch(x)
            y = f(x)
        gx, gv = t.gradient(y, [x, v])
        assert float(gx) == 2.0 and gv is None

    def test_unused_argument_and_opaque_result_give_a_scalar_zero(self):
        f = tf.function(lambda a, b: tf.py_function(lambda x, y: x * 2.0, [a, b], tf.float32))
        a, b = tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])
        with tf.GradientTape() as t:
            t.watch([a, b])
            y = f(a, b)
        ga, gb = t.gradient(y, [a, b])
        np.testing.assert_array_equal(ga, [2., 2.])
        assert gb.shape == () and float(gb) == 0.0
        opaque = tf.function(lambda a: tf.py_function(lambda x: x.numpy() * 2, [a], tf.float32))
        g = _tape_grad(opaque, tf.constant([1.0, 2.0]))
        assert g.shape == () and float(g) == 0.0

    def test_second_order_is_none(self):
        @tf.function
        def g(x):
            with tf.GradientTape() as t2:
                t2.watch(x)
                with tf.GradientTape() as t:
                    t.watch(x)
                    y = tf.py_function(lambda z: z ** 3, [x], tf.float32)
                g1 = t.gradient(y, x)
            return g1, t2.gradient(g1, x)
        g1, g2 = g(tf.constant(2.0))
        assert float(g1) == 12.0 and g2 is None

    def test_errors_as_tf(self):
        f = tf.function(lambda a, n: tf.py_function(
            lambda x, k: x * tf.cast(k, tf.float32), [a, n], tf.float32))
        a = tf.constant([1.0, 2.0])
        with tf.GradientTape() as t:
            t.watch(a)
            y = f(a, tf.constant(3))
        with pytest.raises(tf.errors.InvalidArgumentError, match='Cannot convert 0.0'):
            t.gradient(y, a)
        mixed = tf.function(lambda a, n: tf.py_function(
            lambda x, k: (x * 2, k * 2), [a, n], [tf.float32, tf.int32]))
        with tf.GradientTape() as t:
            t.watch(a)
            # As TF: the backward is built when the call is recorded, and fails there.
            with pytest.raises(TypeError, match="passed to 'input' of 'EagerPyFunc'"):
                mixed(a, tf.constant(2))
        # One tape per op, its latest run: two calls' gradients at once fail, as in TF.
        g = tf.function(lambda a: tf.py_function(lambda x: x * x, [a], tf.float32))
        with tf.GradientTape() as t:
            t.watch(a)
            s = g(a) + g(a * 2)
        with pytest.raises(tf.errors.UnknownError, match='KeyError'):
            t.gradient(s, a)

    def test_numpy_function_has_no_gradient(self):
        f = tf.function(lambda x: tf.numpy_function(lambda z: z * z, [x], tf.float32))
        assert _tape_grad(f, tf.constant(3.0)) is None


@tf.function
def _int_and_float(x):
    return tf.cast(x, tf.int32) * 2, x * 3.0


@tf.function
def _int_and_other_float(x, z):
    return tf.cast(x, tf.int32) * 2, z * 3.0


class TestIntegerOutputs:
    """A target that is an integer output of a compiled call (or loop) still runs the call's
    gradient: inputs reaching its float outputs get zeros, as TF's."""

    def _grads(self, fn, pick, n=1):
        x, z = tf.constant([1.5, 2.5]), tf.constant([1.0, 1.0])
        with tf.GradientTape() as t:
            t.watch([x, z])
            out = fn(x) if n == 1 else fn(x, z)
        return [None if g is None else g.numpy().tolist() for g in t.gradient(pick(out), [x, z])]

    def test_tape(self):
        assert self._grads(_int_and_float, lambda o: o[0]) == [[0., 0.], None]
        assert self._grads(_int_and_float, lambda o: o[0] * 2) == [None, None]
        assert self._grads(_int_and_float, lambda o: o[1]) == [[3., 3.], None]
        assert self._grads(_int_and_other_float, lambda o: o[0], 2) == [None, [0., 0.]]
        assert self._grads(lambda x: tf.cast(x, tf.int32) * 2, lambda o: o) == [None, None]
        int_only = tf.function(lambda x: tf.cast(x, tf.int32) * 2)
        assert self._grads(int_only, lambda o: o) == [None, None]

    def test_graph(self):
        @tf.function
        def grads(x):
            i, _ = _int_and_float(x)
            return tf.gradients(i, x)
        np.testing.assert_array_equal(grads(tf.constant([1.5, 2.5]))[0], [0., 0.])

        @tf.function
        def inner_tape(x):
            with tf.GradientTape() as t:
                t.watch(x)
                i, _ = _int_and_float(x)
            return t.gradient(i, x)
        np.testing.assert_array_equal(inner_tape(tf.constant([1.5, 2.5])), [0., 0.])
        cast = tf.function(lambda x: tf.gradients(tf.cast(x, tf.int32), x))
        assert cast(tf.constant([1.5, 2.5])) == [None]

    def test_loops_and_conds(self):
        def loop(x):
            return tf.while_loop(lambda i, f: i < 3, lambda i, f: (i + 1, f * 2.), (0, x))

        @tf.function
        def while_grads(x):
            i, _ = loop(x)
            return tf.gradients(i, x)
        np.testing.assert_array_equal(while_grads(tf.constant([1.5, 2.5]))[0], [0., 0.])

        @tf.function
        def cond_grads(x):
            i, _ = tf.cond(x[0] > 0, lambda: (tf.cast(x, tf.int32), x * 2.),
                           lambda: (tf.cast(x, tf.int32) + 1, x * 3.))
            return tf.gradients(i, x)
        assert cond_grads(tf.constant([1.5, 2.5])) == [None]
