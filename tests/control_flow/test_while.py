"""while_loop: eager and compiled loops, structures, invariants, errors, generated code, gradients."""
import collections

import numpy as np
import pytest

import defun as tf
from tests.control_flow.util import both_modes, check_gradients, check_second_order


@pytest.mark.parametrize('mode', ['eager', 'compiled'])
def test_loop_matches_a_python_loop(mode):
    def f(n):
        return tf.while_loop(lambda i, s: i < n, lambda i, s: (i + 1, s + i * i), (0, 0))
    f = dict(both_modes(f))[mode]
    for n in (0, 1, 5):
        i, s = f(tf.constant(n))
        assert (int(i), int(s)) == (n, sum(k * k for k in range(n)))


def test_body_and_cond_are_traced_once_and_the_loop_is_python_code():
    traced = []

    @tf.function
    def f(x):
        def body(i, x):
            traced.append(1)
            return i + 1, x * 1.5
        return tf.while_loop(lambda i, x: i < 4, body, [0, x])[1]
    assert float(f(tf.constant(2.0))) == pytest.approx(10.125)
    assert float(f(tf.constant(4.0))) == pytest.approx(20.25)
    assert len(traced) == 1
    concrete = f.get_concrete_function(tf.constant(2.0))
    assert 'while ' in concrete.function_source
    text = concrete.graph.as_text()
    assert 'StatelessWhile' in text and '  cond:' in text and '  body:' in text


def test_nested_structures_and_single_values():
    Point = collections.namedtuple('Point', 'x y')

    @tf.function
    def f(v):
        state = [{'v': v, 'n': tf.constant(0)}, Point(v, 1.0)]

        def body(s, p):
            return [{'v': s['v'] * 2.0, 'n': s['n'] + 1}, Point(p.x + 1.0, p.y * 2.0)]
        return tf.while_loop(lambda s, p: s['n'] < 3, body, state)
    s, p = f(tf.constant([1.0, -1.0]))
    np.testing.assert_allclose(s['v'].numpy(), [8.0, -8.0])
    assert int(s['n']) == 3 and isinstance(p, Point) and float(p.y) == 8.0
    single = tf.function(lambda: tf.while_loop(lambda x: x < 10, lambda x: x + 4,
                                               [tf.constant(1)]))()
    assert isinstance(single, list) and int(single[0]) == 13
    # Eagerly TF 2.21 iterates the body's bare result as the list of loop vars (checked there).
    with pytest.raises(TypeError, match='Cannot iterate over a scalar tensor'):
        tf.while_loop(lambda x: x < 10, lambda x: x + 4, [tf.constant(1)])
    bare = tf.while_loop(lambda x: x < 10, lambda x: x + 4, tf.constant(1))
    assert int(bare) == 13


@pytest.mark.parametrize('mode', ['eager', 'compiled'])
def test_maximum_iterations(mode):
    def f(x):
        return tf.while_loop(lambda i, x: True, lambda i, x: (i + 1, x * 2.0), [0, x],
                             maximum_iterations=5)
    f = dict(both_modes(f))[mode]
    i, x = f(tf.constant(1.0))
    assert int(i) == 5 and float(x) == 32.0


def test_shape_invariants():
    @tf.function
    def grow(n):
        i, x = tf.while_loop(lambda i, x: i < n, lambda i, x: (i + 1, tf.concat([x, x], 0)),
                             [tf.constant(0), tf.constant([1])],
                             shape_invariants=[tf.TensorShape([]), tf.TensorShape([None])])
        assert x.shape.as_list() == [None]
        return x
    assert grow(tf.constant(3)).numpy().tolist() == [1] * 8

    @tf.function
    def fixed():
        return tf.while_loop(lambda x: tf.size(x) < 4, lambda x: tf.concat([x, x], 0),
                             [tf.constant([1])])
    with pytest.raises(ValueError, match=r'loop_vars\[0\] enters the loop with shape \(1,\), but '
                                         r'has shape \(2,\).*shape_invariants'):
        fixed()

    @tf.function
    def incompatible(x):
        return tf.while_loop(lambda x: False, lambda x: x, [x],
                             shape_invariants=[tf.TensorShape([3])])
    with pytest.raises(ValueError, match='not compatible with the initial shape'):
        incompatible(tf.constant([1.0, 2.0]))


def test_bad_loops_raise_tf_errors():
    @tf.function
    def dtype_change(x):
        return tf.while_loop(lambda i, x: i < 2, lambda i, x: (i + 1, tf.cast(x, tf.int32)),
                             [0, x])
    with pytest.raises(TypeError, match=r'loop_vars\[1\] enters the loop with type float32, but '
                                        r'has type int32'):
        dtype_change(tf.constant(1.0))

    @tf.function
    def wrong_count(x):
        return tf.while_loop(lambda i, x: i < 2, lambda i, x: (i + 1,), [0, x])
    with pytest.raises(ValueError, match='same structure as loop_vars'):
        wrong_count(tf.constant(1.0))

    @tf.function
    def not_bool(x):
        return tf.while_loop(lambda x: x, lambda x: x - 1.0, [x])
    with pytest.raises(TypeError, match='boolean'):
        not_bool(tf.constant(1.0))
    with pytest.raises(ValueError, match='No loop variables'):
        tf.while_loop(lambda: True, lambda: (), [])


def test_variables_in_bodies_are_read_each_iteration():
    v = tf.Variable(2.0)

    @tf.function
    def f(x):
        return tf.while_loop(lambda i, x: i < 3, lambda i, x: (i + 1, x * v), [0, x])[1]
    assert float(f(tf.constant(1.0))) == 8.0
    v.assign(3.0)
    assert float(f(tf.constant(1.0))) == 27.0
    graph = f.get_concrete_function(tf.constant(1.0)).graph
    assert [op.type for op in graph.get_operations() if 'While' in op.type] == ['While']


def _power_loop(x):
    return tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, y * x + tf.sin(y)), [0, x])[1]


def _nested(x):
    def outer(i, acc):
        _, acc = tf.while_loop(lambda j, a: j < i, lambda j, a: (j + 1, a * x + tf.sin(a)),
                               [0, acc])
        return i + 1, acc
    return tf.while_loop(lambda i, a: i < 3, outer, [0, x])[1]


def _cond_in_loop(x):
    def body(i, a):
        return i + 1, tf.cond(tf.reduce_sum(a) > 1.0, lambda: a * 0.5 + x, lambda: a * x * 2.0)
    return tf.while_loop(lambda i, a: i < 4, body, [0, x])[1]


def _loop_in_cond(x):
    return tf.cond(tf.reduce_sum(x) > 0, lambda: _power_loop(x), lambda: x * 2.0)


def _bounded(x):
    return tf.while_loop(lambda i, a: i < 100, lambda i, a: (i + 1, a * x), [0, x],
                         maximum_iterations=3)[1]


def _grows(x):
    # a loop variable whose shape changes: its per-iteration stack is zero-padded
    def body(i, y):
        return i + 1, tf.concat([y, tf.sin(y[-1:]) * x[:1]], 0)
    return tf.while_loop(lambda i, y: i < 3, body, [0, x],
                         shape_invariants=[tf.TensorShape([]), tf.TensorShape([None])])[1]


LOOPS = [_power_loop, _nested, _cond_in_loop, _loop_in_cond, _bounded, _grows]


@pytest.mark.parametrize('fn', LOOPS, ids=lambda f: f.__name__)
def test_gradient_every_way(fn):
    check_gradients(fn, np.array([0.7, 1.3]))
    check_gradients(fn, np.array([-0.4, 0.2]))


@pytest.mark.parametrize('fn', LOOPS, ids=lambda f: f.__name__)
def test_second_order(fn):
    check_second_order(fn, np.array([0.7, 1.3]))


def test_gradient_with_respect_to_a_variable_in_the_body():
    w = tf.Variable(0.5)

    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            y = tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, y * w + 1.0), [0, x])[1]
        return y, tape.gradient(y, w)
    y, g = f(tf.constant(2.0))
    assert float(y) == 2.0 and float(g) == pytest.approx(3.5)
    with tf.GradientTape() as tape:
        y = tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, y * w + 1.0), [0, 2.0])[1]
    assert float(tape.gradient(y, w)) == pytest.approx(3.5)


def test_gradient_loop_runs_backwards_over_accumulated_stacks():
    @tf.function
    def f(x):
        y = _power_loop(x)
        return tf.gradients(tf.reduce_sum(y), x)[0]
    graph = f.get_concrete_function(tf.constant([1.0, 2.0])).graph
    loops = [op for op in graph.get_operations() if 'While' in op.type]
    assert len(loops) == 2
    forward, backward = loops
    assert forward.get_attr('accumulate')  # the body tensors the gradient reads, per iteration
    assert any(t.op is forward for t in backward.inputs)


def test_zero_iterations_give_the_identity_gradient():
    @tf.function
    def f(x, n):
        y = tf.while_loop(lambda i, y: i < n, lambda i, y: (i + 1, y * x), [0, x])[1]
        return tf.gradients(tf.reduce_sum(y), x)[0]
    np.testing.assert_allclose(f(tf.constant([2.0, 3.0]), tf.constant(0)).numpy(), [1.0, 1.0])
    np.testing.assert_allclose(f(tf.constant([2.0, 3.0]), tf.constant(2)).numpy(), [12.0, 27.0])


def test_eager_loop_body_sees_values_as_given():
    # TF 2.21 eagerly: the body gets the loop_vars unconverted (a Python int stays an int, a numpy
    # array adds as numpy does); the results become tensors at the end.
    i, v = tf.while_loop(lambda i, v: i < 10, lambda i, v: (i + 1, v + i), (0, np.array(0)))
    assert (i.dtype, int(i), v.dtype, int(v)) == (tf.int32, 10, tf.int64, 45)
    i, v = tf.while_loop(lambda i, v: i < 10, lambda i, v: (i + 1, v + i),
                         (tf.constant(0), np.array(0)))
    assert (i.dtype, int(i), v.dtype, int(v)) == (tf.int32, 10, tf.int32, 45)
