"""Symbolic gradients(): grad_ys, stop_gradients, aggregation, unconnected, overrides, errors,
gradients of gradients; checked against the eager tape and numpy."""
import numpy as np
import pytest

import defun as tf
from defun.compiler import executor


def run(graph, inputs, outputs, *arrays):
    return executor.compile_graph(graph, inputs, outputs)(*arrays)


def graph_with(shape=(3,), dtype=tf.float64):
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(dtype, shape)
    return g, x


def test_gradient_matches_tape():
    data = np.array([0.5, -1.0, 2.0])
    g, x = graph_with()
    with g.as_default():
        y = tf.reduce_sum(tf.sin(x) * x * x)
        (dx,) = tf.gradients(y, x)
    (symbolic,) = run(g, [x], [dx], data)
    xe = tf.constant(data)
    with tf.GradientTape() as tape:
        tape.watch(xe)
        ye = tf.reduce_sum(tf.sin(xe) * xe * xe)
    np.testing.assert_allclose(symbolic, tape.gradient(ye, xe).numpy())
    np.testing.assert_allclose(symbolic, np.cos(data) * data ** 2 + 2 * data * np.sin(data))


def test_grad_ys_and_aggregation():
    g, x = graph_with()
    with g.as_default():
        y1 = x * 2.0
        y2 = x * x
        (dx,) = tf.gradients([y1, y2], x, grad_ys=[tf.ones([3], tf.float64) * 3.0, None],
                             aggregation_method=tf.AggregationMethod.ADD_N)
    (out,) = run(g, [x], [dx], np.array([1.0, 2.0, 3.0]))
    np.testing.assert_allclose(out, 6.0 + 2 * np.array([1.0, 2.0, 3.0]))


def test_stop_gradients_treats_tensor_as_constant():
    g, x = graph_with()
    with g.as_default():
        a = x * x
        b = a * x
        (dx,) = tf.gradients(b, x, stop_gradients=[a])
    (out,) = run(g, [x], [dx], np.array([1.0, 2.0, 3.0]))
    np.testing.assert_allclose(out, np.array([1.0, 4.0, 9.0]))


@pytest.mark.parametrize('wrt,stops,expected', [
    # Values recorded from TF 2.21 (tf.gradients in a tf.function at a = 3.0), where
    # b = 2a, c = b*b, y = c*a + b: a stopped tensor that is also in xs gets its gradient, with
    # everything below it cut off.
    (('a', 'b'), ('b',), [36.0, 37.0]),
    (('a', 'b', 'c'), ('b', 'c'), [36.0, 1.0, 3.0]),
    (('b',), ('b',), [37.0]),
    (('a',), ('a',), [110.0]),
    (('a', 'c'), ('b',), [36.0, 3.0]),
])
def test_stopped_tensor_in_xs_gets_its_gradient(wrt, stops, expected):
    @tf.function
    def grads(a):
        t = {'a': a}
        t['b'] = 2.0 * a
        t['c'] = t['b'] * t['b']
        y = t['c'] * a + t['b']
        return tf.gradients(y, [t[k] for k in wrt], stop_gradients=[t[k] for k in stops])

    out = grads(tf.constant(3.0))
    np.testing.assert_allclose([g.numpy() for g in out], expected)


def test_unconnected_none_and_zero():
    g, x = graph_with()
    with g.as_default():
        z = tf.compat.v1.placeholder(tf.float64, [3])
        y = x * 2.0
        assert tf.gradients(y, z) == [None]
        (dz,) = tf.gradients(y, z, unconnected_gradients=tf.UnconnectedGradients.ZERO)
    (out,) = run(g, [x, z], [dz], np.ones(3), np.ones(3))
    np.testing.assert_array_equal(out, np.zeros(3))


def test_missing_gradient_is_lookup_error_with_tf_text():
    from defun.core.registry import define_op
    from defun.core.dispatch import apply_op
    opdef = define_op('TestNoGradRegistered', lambda x: x * 1, lambda x: (x.dtype, x.shape.as_tuple()))
    g, x = graph_with()
    with g.as_default():
        y = apply_op(opdef, (x,), None, 'mystery')
        with pytest.raises(LookupError, match="No gradient defined for operation 'mystery' "
                                              r"\(op type: TestNoGradRegistered\)"):
            tf.gradients(y, x)


def test_gradient_override_map():
    @tf.RegisterGradient('TestDoubleGrad')
    def _double(op, grad):
        return grad * 2.0
    g, x = graph_with()
    with g.as_default():
        with g.gradient_override_map({'Identity': 'TestDoubleGrad'}):
            y = tf.identity(x)
        (dx,) = tf.gradients(y, x)
    (out,) = run(g, [x], [dx], np.ones(3))
    np.testing.assert_allclose(out, 2.0 * np.ones(3))


def test_second_order_gradients():
    g, x = graph_with(shape=())
    with g.as_default():
        y = x * x * x
        (dx,) = tf.gradients(y, x)
        (ddx,) = tf.gradients(dx, x)
    d1, d2 = run(g, [x], [dx, ddx], np.float64(2.0))
    assert d1 == pytest.approx(12.0) and d2 == pytest.approx(12.0)


def test_gradients_needs_a_graph_and_graph_tensors():
    with pytest.raises(RuntimeError, match='GradientTape'):
        tf.gradients(tf.constant(1.0), tf.constant(1.0))
    g, x = graph_with()
    other, w = graph_with()
    with g.as_default(), pytest.raises(ValueError, match='not in the graph'):
        tf.gradients(x * 2.0, w)


def test_gradient_of_int_source_is_none():
    g, x = graph_with(dtype=tf.int32)
    with g.as_default():
        y = x * 2
        assert tf.gradients(y, x) == [None]


def test_variables_as_xs_inside_function():
    v = tf.Variable([1.0, 2.0])

    @tf.function
    def f():
        y = tf.reduce_sum(v * v)
        return tf.gradients(y, v)[0]
    np.testing.assert_allclose(f().numpy(), [2.0, 4.0])


def test_reduction_gradients_with_unknown_shapes():
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float64, [None, None])
        y = tf.reduce_sum(tf.reduce_sum(x * x, axis=1) * 3.0)
        (dx,) = tf.gradients(y, x)
    data = np.arange(6.0).reshape(2, 3)
    (out,) = run(g, [x], [dx], data)
    np.testing.assert_allclose(out, 6.0 * data)
    assert any(op.type == 'ReducedShape' for op in g.get_operations())
