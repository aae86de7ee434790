"""custom_gradient (eager, with and without variables), stop_gradient, and the gradient registry:
RegisterGradient, no_gradient, get_gradient_function, duplicate definitions."""
import itertools
import os

import numpy as np
import pytest

import defun as tf
from defun.core import registry
from defun.core.dispatch import OpRecord, apply_op
from defun.ops.support.helpers import same_as_first

_fresh = itertools.count()


def fresh_op_type(prefix):
    """A never-used op type name, so these tests can define ops in the process-wide registry."""
    return f'TestOnly{prefix}{os.getpid()}_{next(_fresh)}'


def f64(a):
    return tf.constant(np.asarray(a, dtype=np.float64))


# ------------------------------------------------------------------ custom_gradient

@tf.custom_gradient
def log1pexp(x):
    e = tf.exp(x)

    def grad(dy):
        return dy * (1 - 1 / (1 + e))
    return tf.math.log(1 + e), grad


def test_custom_gradient_value_and_gradient():
    xv = np.array([-3.0, 0.0, 2.0])
    x = f64(xv)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = log1pexp(x)
    np.testing.assert_allclose(y.numpy(), np.log1p(np.exp(xv)))
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), 1 / (1 + np.exp(-xv)))


def test_custom_gradient_replaces_the_true_gradient():
    @tf.custom_gradient
    def square_fake(x):
        def grad(dy):
            return dy * 7.0
        return x * x, grad

    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = square_fake(x) + x
    np.testing.assert_allclose(y.numpy(), [2.0, 6.0])
    g = tape.gradient(y, x, output_gradients=tf.constant([1.0, 2.0]))
    np.testing.assert_allclose(g.numpy(), [8.0, 16.0])


def test_custom_gradient_with_several_arguments_and_outputs():
    @tf.custom_gradient
    def pair(a, b):
        def grad(d_sum, d_prod):
            return d_sum + d_prod * b, d_sum + d_prod * a
        return (a + b, a * b), grad

    a, b = f64(2.0), f64(5.0)
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        s, p = pair(a, b)
        y = 3.0 * s + p
    ga, gb = tape.gradient(y, [a, b])
    assert float(ga) == 3.0 + 5.0 and float(gb) == 3.0 + 2.0


def test_custom_gradient_python_arguments_are_converted():
    x = 1.0
    y = log1pexp(x)
    assert y.dtype is tf.float32
    np.testing.assert_allclose(y.numpy(), np.log1p(np.e), rtol=1e-6)


def test_custom_gradient_second_order_uses_the_user_gradient():
    @tf.custom_gradient
    def cube(x):
        def grad(dy):
            return dy * 3.0 * x * x
        return x * x * x, grad

    xv = 1.7
    x = f64(xv)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = cube(x)
        dy = inner.gradient(y, x)
    np.testing.assert_allclose(dy.numpy(), 3 * xv ** 2)
    np.testing.assert_allclose(outer.gradient(dy, x).numpy(), 6 * xv)


def test_custom_gradient_with_variables():
    w = tf.Variable(np.array([2.0, -1.0]))

    @tf.custom_gradient
    def scaled(x):
        def grad(dy, variables=None):
            assert variables == [w]
            return dy * w, [dy * x * 10.0]
        return x * w, grad

    xv = np.array([3.0, 4.0])
    x = f64(xv)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(scaled(x))
    gx, gw = tape.gradient(y, [x, w])
    np.testing.assert_allclose(gx.numpy(), w.numpy())
    np.testing.assert_allclose(gw.numpy(), 10.0 * xv)
    assert w in tape.watched_variables()


def test_custom_gradient_with_only_a_variable_connected():
    w = tf.Variable(2.0)

    @tf.custom_gradient
    def scaled(x):
        def grad(dy, variables=None):
            return dy * w, [dy * x * 10.0]
        return x * w, grad

    with tf.GradientTape() as tape:
        y = scaled(tf.constant(3.0))  # nothing watched: the variable read alone connects y
    assert tape.watched_variables() == (w,)
    assert float(tape.gradient(y, w)) == 30.0


def test_custom_gradient_reading_variables_needs_variables_argument():
    w = tf.Variable(2.0)

    @tf.custom_gradient
    def bad(x):
        def grad(dy):
            return dy * w
        return x * w, grad

    # TF checks grad_fn's signature on the forward call, as soon as the variable read is seen.
    with pytest.raises(TypeError, match="keyword argument 'variables'"):
        bad(tf.constant(1.0))

    @tf.custom_gradient
    def good(x):
        def grad(dy, **kwargs):
            return dy * w, [dy * x]
        return x * w, grad

    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = good(x)
    assert [float(g) for g in tape.gradient(y, [x, w])] == [2.0, 1.0]


def test_custom_gradient_wrong_number_of_gradients():
    @tf.custom_gradient
    def two_args(a, b):
        def grad(dy):
            return dy
        return a * b, grad

    a, b = tf.constant(1.0), tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        y = two_args(a, b)
    with pytest.raises(ValueError, match='2 tensor arguments'):
        tape.gradient(y, [a, b])


def test_custom_gradient_inner_ops_are_not_recorded():
    calls = []

    @tf.custom_gradient
    def ident(x):
        def grad(dy):
            calls.append(dy)
            return dy
        return tf.sin(x), grad

    x = tf.constant(0.5)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = ident(x)
    assert float(tape.gradient(y, x)) == 1.0  # not cos(0.5): sin's own gradient never ran
    assert len(calls) == 1


# ------------------------------------------------------------------ stop_gradient

def test_stop_gradient():
    xv = np.array([1.0, -2.0])
    x = f64(xv)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.stop_gradient(x * x)
        z = x * tf.stop_gradient(x)
    np.testing.assert_array_equal(y.numpy(), xv * xv)
    assert tape.gradient(y, x) is None
    zero = tape.gradient(y, x, unconnected_gradients=tf.UnconnectedGradients.ZERO)
    np.testing.assert_array_equal(zero.numpy(), [0.0, 0.0])
    np.testing.assert_array_equal(tape.gradient(z, x).numpy(), xv)
    del tape


def test_stop_gradient_accepts_python_values():
    assert tf.stop_gradient(2.0).dtype is tf.float32


# ------------------------------------------------------------------ the registry

def test_get_gradient_function_none_for_non_differentiable_ops():
    record = OpRecord(registry.get_op('StopGradient'), (), (), None)
    assert registry.get_gradient_function(record) is None
    record = OpRecord(registry.get_op('Equal'), (), (), None)
    assert registry.get_gradient_function(record) is None


def test_get_gradient_function_of_a_differentiable_op():
    record = OpRecord(registry.get_op('Sin'), (), (), None)
    assert callable(registry.get_gradient_function(record))


def test_get_gradient_function_lookup_error_for_op_without_gradient():
    op_type = fresh_op_type('NoGrad')
    registry.define_op(op_type, lambda x: x, same_as_first)
    record = OpRecord(registry.get_op(op_type), (), (), None)
    with pytest.raises(LookupError) as info:
        registry.get_gradient_function(record)
    assert str(info.value) == (f'No gradient defined for operation \'{op_type}\' '
                               f'(op type: {op_type})')


def test_tape_raises_lookup_error_only_when_the_gradient_is_needed():
    op_type = fresh_op_type('Missing')
    opdef = registry.define_op(op_type, lambda x: x * 2, same_as_first)
    x = tf.constant(1.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = apply_op(opdef, (x,))
        z = x * 3.0
    assert float(tape.gradient(z, x)) == 3.0
    with pytest.raises(LookupError, match=op_type):
        tape.gradient(y, x)
    del tape


def test_register_gradient_and_no_gradient():
    op_type = fresh_op_type('Doubler')
    opdef = registry.define_op(op_type, lambda x: x * 2, same_as_first)

    @tf.RegisterGradient(op_type)
    def _doubler_grad(op, dy):
        assert op.type == op_type and len(op.inputs) == 1
        return dy * 2.0

    x = tf.constant(1.5)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = apply_op(opdef, (x,))
    assert float(y) == 3.0 and float(tape.gradient(y, x)) == 2.0

    with pytest.raises(KeyError, match='test_custom_gradient.py'):
        tf.RegisterGradient(op_type)(lambda op, dy: dy)

    other = fresh_op_type('Opaque')
    tf.no_gradient(other)
    opaque = registry.define_op(other, lambda x: x, same_as_first)
    assert opaque.grad is None
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = apply_op(opaque, (x,))
    assert tape.gradient(y, x) is None
    with pytest.raises(TypeError):
        tf.no_gradient(3)
    with pytest.raises(TypeError):
        tf.RegisterGradient(None)


def test_defining_an_op_twice_names_the_first_definition():
    op_type = fresh_op_type('Twice')
    registry.define_op(op_type, lambda x: x, same_as_first, None)
    first_line = _line_of('registry.define_op(op_type, lambda x: x, same_as_first, None)')
    with pytest.raises(ValueError) as info:
        registry.define_op(op_type, lambda x: x, same_as_first, None)
    message = str(info.value)
    assert op_type in message
    assert f'test_custom_gradient.py:{first_line}' in message


def test_builtin_ops_cannot_be_redefined():
    with pytest.raises(ValueError, match='already defined at .*arithmetic.py'):
        registry.define_op('AddV2', np.add, same_as_first)


def test_get_op_unknown_raises_lookup_error():
    with pytest.raises(LookupError):
        registry.get_op(fresh_op_type('Unknown'))


def _line_of(text):
    with open(__file__) as f:
        for number, line in enumerate(f, 1):
            if text in line and 'first_line' not in line and 'pytest' not in line:
                return number
    raise AssertionError(text)


def test_recompute_grad_as_tf():
    # TF 2.21's values (sin to a float32 ulp of TF's kernel).
    f = tf.recompute_grad(lambda x: tf.sin(x) * x)
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as t:
        t.watch(x)
        y = f(x)
    np.testing.assert_allclose(y, [0.84147096, 1.8185948], rtol=1e-6)
    np.testing.assert_allclose(t.gradient(y, x), [1.3817732, 0.07700372], rtol=1e-5)

    @tf.function
    def inner(x):
        with tf.GradientTape() as t:
            t.watch(x)
            y = f(x)
        return t.gradient(y, x)
    np.testing.assert_allclose(inner(x), [1.3817732, 0.07700372], rtol=1e-5)

    v = tf.Variable(2.0)
    g = tf.recompute_grad(lambda x: tf.sin(x) * v)
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.reduce_sum(g(x))
    gx, gv = t.gradient(y, [x, v])
    np.testing.assert_allclose(gx, [1.0806046, -0.8322937], rtol=1e-6)
    np.testing.assert_allclose(gv, 1.7507684, rtol=1e-6)
