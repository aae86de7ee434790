"""GradientTape: watching, persistence, nesting (higher order), stop_recording, reset, structures,
output_gradients, unconnected gradients, dtypes without gradients, jacobians, broadcasting, garbage
collection, threads and exceptions. Oracles: closed-form derivatives evaluated with numpy, and
central finite differences (defun.autodiff.gradient_check)."""
import gc
import threading
import weakref

import numpy as np
import pytest

import defun as tf
from defun.core import context
from defun.autodiff.gradient_check import gradient_error, numeric_gradient


def f64(a):
    return tf.constant(np.asarray(a, dtype=np.float64))


def grad_of(fn, *values):
    xs = [f64(v) for v in values]
    with tf.GradientTape() as tape:
        tape.watch(xs)
        y = fn(*xs)
    return tape.gradient(y, xs)


# ------------------------------------------------------------------ basics

def test_watch_and_simple_gradient():
    x = np.array([0.3, -1.2, 2.0])
    g, = grad_of(lambda t: tf.reduce_sum(t * t * t), x)
    np.testing.assert_allclose(g.numpy(), 3 * x ** 2)


def test_unwatched_constant_has_no_gradient():
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        y = x * x
    assert tape.gradient(y, x) is None


def test_watch_nested_structure():
    a, b = tf.constant(1.0), tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch({'a': a, 'rest': [b]})
        y = a * b
    ga, gb = tape.gradient(y, [a, b])
    assert float(ga) == 2.0 and float(gb) == 1.0


def test_tensor_used_twice_sums_its_gradients():
    x = np.array([0.5, 2.0])
    g, = grad_of(lambda t: tf.reduce_sum(t * t + t + tf.sin(t)), x)
    np.testing.assert_allclose(g.numpy(), 2 * x + 1 + np.cos(x))


def test_variables_are_watched_automatically():
    v = tf.Variable([1.0, 2.0])
    frozen = tf.Variable(3.0, trainable=False)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(v * v) * frozen
    assert tape.watched_variables() == (v,)
    np.testing.assert_allclose(tape.gradient(y, v).numpy(), [6.0, 12.0])


def test_watch_accessed_variables_false():
    v = tf.Variable(2.0)
    w = tf.Variable(5.0)
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(w)
        y = v * w
    assert tape.watched_variables() == (w,)
    gv, gw = tape.gradient(y, [v, w])
    assert gv is None and float(gw) == 2.0


def test_watched_variables_order_is_first_access():
    a, b = tf.Variable(1.0), tf.Variable(2.0)
    with tf.GradientTape() as tape:
        _ = b * 1.0
        _ = a * b
    assert tape.watched_variables() == (b, a)


def test_non_persistent_tape_second_call_raises():
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    assert float(tape.gradient(y, x)) == 6.0
    with pytest.raises(RuntimeError, match='non-persistent'):
        tape.gradient(y, x)
    with pytest.raises(RuntimeError):
        tape.jacobian(y, x)


def test_persistent_tape_allows_many_calls():
    x = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        z = y * y
    assert float(tape.gradient(y, x)) == 6.0
    assert float(tape.gradient(z, x)) == 4 * 27.0
    assert float(tape.gradient(z, y)) == 18.0
    del tape


def test_reentering_an_active_tape_raises():
    tape = tf.GradientTape()
    with tape:
        with pytest.raises(ValueError):
            tape.__enter__()


@pytest.mark.parametrize('bad', [1.0, 'x', None, [tf.constant(1.0), 2.0]], ids=repr)
def test_watching_a_non_tensor_raises(bad):
    with tf.GradientTape() as tape:
        with pytest.raises(ValueError, match='not tf.Tensor or tf.Variable'):
            tape.watch(bad)


def test_sources_must_be_tensors_or_variables():
    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * 2.0
    with pytest.raises(TypeError, match='sources'):
        tape.gradient(y, [1.0])


# ------------------------------------------------------------------ higher order

@pytest.mark.parametrize('fn,second', [
    (tf.sin, lambda x: -np.sin(x)),
    (tf.tanh, lambda x: -2 * np.tanh(x) * (1 - np.tanh(x) ** 2)),
    (lambda t: t ** 3, lambda x: 6 * x),
], ids=['sin', 'tanh', 'cube'])
def test_second_derivative_through_nested_tapes(fn, second):
    xv = np.array([-1.3, 0.2, 0.9, 2.5])
    x = f64(xv)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = fn(x)
        dy = inner.gradient(y, x)
    d2y = outer.gradient(dy, x)
    np.testing.assert_allclose(d2y.numpy(), second(xv), rtol=1e-10, atol=1e-12)


def test_third_derivative_of_sin():
    x = f64(0.5)
    with tf.GradientTape() as t3:
        t3.watch(x)
        with tf.GradientTape() as t2:
            t2.watch(x)
            with tf.GradientTape() as t1:
                t1.watch(x)
                y = tf.sin(x)
            d1 = t1.gradient(y, x)
        d2 = t2.gradient(d1, x)
    d3 = t3.gradient(d2, x)
    np.testing.assert_allclose([d1.numpy(), d2.numpy(), d3.numpy()],
                               [np.cos(0.5), -np.sin(0.5), -np.cos(0.5)], rtol=1e-12)


def test_hessian_vector_product():
    rng = np.random.default_rng(0)
    A = rng.normal(size=(4, 4))
    xv, vv = rng.normal(size=4), rng.normal(size=4)
    x, v, a = f64(xv), f64(vv), f64(A)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            # f(x) = x.A.x / 2 + sum(x^4) / 4: Hessian (A + A^T)/2 + diag(3 x^2)
            ax = tf.reshape(tf.matmul(a, tf.reshape(x, [4, 1])), [4])
            y = 0.5 * tf.reduce_sum(x * ax) + tf.reduce_sum(x ** 4) / 4.0
        g = inner.gradient(y, x)
        gv = tf.reduce_sum(g * v)
    hvp = outer.gradient(gv, x)
    hessian = (A + A.T) / 2 + np.diag(3 * xv ** 2)
    np.testing.assert_allclose(hvp.numpy(), hessian @ vv, rtol=1e-10)


def test_non_persistent_inner_tape_does_not_record_its_own_backward():
    x = f64(1.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x ** 3
        dy = tape.gradient(y, x)  # persistent and recording: the backward pass is recorded
    np.testing.assert_allclose(tape.gradient(dy, x).numpy(), 6.0)


# ------------------------------------------------------------------ stop_recording, reset

def test_stop_recording():
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        with tape.stop_recording():
            hidden = x * x
        y = x * 3.0 + hidden
    assert float(tape.gradient(y, x)) == 3.0
    assert context.tapes() == []


def test_stop_recording_outside_block_raises():
    with pytest.raises(ValueError):
        with tf.GradientTape().stop_recording():
            pass


def test_reset_forgets_what_was_recorded():
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y_before = x * x
        tape.reset()
        tape.watch(x)
        y_after = x * 5.0
        total = y_after + y_before  # y_before's history is forgotten: it is a constant now
    assert float(tape.gradient(total, x)) == 5.0


def test_reset_keeps_tape_recording_inside_outer_tape():
    x = tf.constant(1.0)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            _ = x * x
            inner.reset()
            assert len(context.tapes()) == 2
            inner.watch(x)
            y = x * 4.0
        assert float(inner.gradient(y, x)) == 4.0
        z = y * x
    assert float(outer.gradient(z, x)) == 8.0


# ------------------------------------------------------------------ targets and sources

def test_nested_targets_are_summed_and_sources_keep_their_structure():
    a, b = tf.constant(2.0), tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        targets = {'p': a * b, 'q': [a * a, (b,)]}
    grads = tape.gradient(targets, {'x': a, 'y': (b,)})
    assert set(grads) == {'x', 'y'} and isinstance(grads['y'], tuple)
    assert float(grads['x']) == 3.0 + 4.0
    assert float(grads['y'][0]) == 2.0 + 1.0


def test_output_gradients_weight_the_targets():
    xv = np.array([0.1, 0.7, -2.0])
    w = np.array([2.0, -1.0, 0.5])
    x = f64(xv)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.exp(x)
    g = tape.gradient(y, x, output_gradients=f64(w))
    np.testing.assert_allclose(g.numpy(), w * np.exp(xv))


def test_output_gradients_for_nested_targets():
    x = f64(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y1, y2 = x * x, x * 3.0
    g = tape.gradient([y1, y2], x, output_gradients=[f64(1.0), f64(10.0)])
    assert float(g) == 4.0 + 30.0


def test_output_gradients_count_mismatch_raises():
    x = f64(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    with pytest.raises(ValueError):
        tape.gradient([y, y], x, output_gradients=[f64(1.0)])


def test_unconnected_none_and_zero():
    a, b = tf.constant([1.0, 2.0]), tf.constant([[3.0]])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([a, b])
        y = tf.reduce_sum(a * 2.0)
    assert tape.gradient(y, b) is None
    assert tape.gradient(y, b, unconnected_gradients=tf.UnconnectedGradients.NONE) is None
    zero = tape.gradient(y, b, unconnected_gradients=tf.UnconnectedGradients.ZERO)
    np.testing.assert_array_equal(zero.numpy(), np.zeros((1, 1), np.float32))
    assert zero.dtype is tf.float32
    with pytest.raises(ValueError):
        tape.gradient(y, b, unconnected_gradients='sometimes')
    del tape


def test_target_that_is_a_source():
    x = tf.constant(4.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
    assert float(tape.gradient(x, x)) == 1.0


def test_integer_sources_and_targets_give_none():
    i = tf.constant(3)
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([i, x])
        yi = i * i
        as_int = tf.cast(x * 2.0, tf.int32)
        y = x * tf.cast(i, tf.float32)
    assert tape.gradient(yi, i) is None
    assert tape.gradient(as_int, x) is None
    gi, gx = tape.gradient(y, [i, x])
    assert gi is None and float(gx) == 3.0
    del tape


def test_gradient_through_cast_between_floats():
    x = tf.constant(1.5, dtype=tf.float32)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.cast(x, tf.float64) ** 2
    g = tape.gradient(y, x)
    assert g.dtype is tf.float32 and float(g) == 3.0


# ------------------------------------------------------------------ jacobians

def _fd_jacobian(fn, xv, delta=1e-6):
    """d fn(x) / d x by central differences; fn maps a float64 ndarray to an ndarray."""
    y0 = np.asarray(fn(xv))
    jac = np.zeros(y0.shape + xv.shape)
    for idx in np.ndindex(*xv.shape):
        plus, minus = xv.copy(), xv.copy()
        plus[idx] += delta
        minus[idx] -= delta
        jac[(Ellipsis,) + idx] = (np.asarray(fn(plus)) - np.asarray(fn(minus))) / (2 * delta)
    return jac


def _model(x, w):
    return tf.tanh(tf.matmul(x, w)) * tf.reduce_sum(x)


def test_jacobian_matches_finite_differences():
    rng = np.random.default_rng(1)
    xv, wv = rng.normal(size=(2, 3)), rng.normal(size=(3, 2))
    x, w = f64(xv), f64(wv)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, w])
        y = _model(x, w)
    jx, jw = tape.jacobian(y, [x, w])
    assert jx.shape == [2, 2, 2, 3] and jw.shape == [2, 2, 3, 2]
    np.testing.assert_allclose(jx.numpy(), _fd_jacobian(lambda a: _model(f64(a), w).numpy(), xv),
                               atol=1e-7)
    np.testing.assert_allclose(jw.numpy(), _fd_jacobian(lambda a: _model(x, f64(a)).numpy(), wv),
                               atol=1e-7)
    del tape


def test_jacobian_of_unconnected_source():
    x, z = f64([1.0, 2.0]), f64([3.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, z])
        y = x * 2.0
    assert tape.jacobian(y, z) is None
    zero = tape.jacobian(y, z, unconnected_gradients=tf.UnconnectedGradients.ZERO)
    np.testing.assert_array_equal(zero.numpy(), np.zeros((2, 1)))
    del tape


def test_batch_jacobian_matches_finite_differences():
    rng = np.random.default_rng(2)
    xv, wv = rng.normal(size=(4, 3)), rng.normal(size=(3, 2))
    x, w = f64(xv), f64(wv)

    def per_example(a):
        return tf.sin(tf.matmul(a, w)) * a[:, :1]

    with tf.GradientTape() as tape:
        tape.watch(x)
        y = per_example(x)
    bj = tape.batch_jacobian(y, x)
    assert bj.shape == [4, 2, 3]
    full = _fd_jacobian(lambda a: per_example(f64(a)).numpy(), xv)  # [4, 2, 4, 3]
    expected = np.stack([full[b, :, b, :] for b in range(4)])
    np.testing.assert_allclose(bj.numpy(), expected, atol=1e-7)



def test_jacobians_inside_a_function():
    @tf.function
    def f(x):
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            y = x * x
        return tape.jacobian(y, x), tape.batch_jacobian(y, x)

    j, bj = f(f64([[1.0, 2.0], [3.0, 4.0]]))
    expected = np.zeros((2, 2, 2, 2))
    for i in np.ndindex(2, 2):
        expected[i + i] = 2.0 * (2 * i[0] + i[1] + 1)
    np.testing.assert_array_equal(j.numpy(), expected)
    np.testing.assert_array_equal(bj.numpy(), [[[2.0, 0.0], [0.0, 4.0]], [[6.0, 0.0], [0.0, 8.0]]])

# ------------------------------------------------------------------ broadcasting gradients

BROADCAST_SHAPES = [((3, 1), (1, 4)), ((2, 3, 4), (4,)), ((), (2, 2)), ((2, 1, 3), (5, 1)),
                    ((1,), (3,))]


@pytest.mark.parametrize('shapes', BROADCAST_SHAPES, ids=str)
@pytest.mark.parametrize('op', [tf.add, tf.subtract, tf.multiply, tf.divide, tf.maximum,
                                tf.pow], ids=lambda f: f.__name__)
def test_broadcasting_gradients_reduce_to_input_shape(op, shapes):
    rng = np.random.default_rng(3)
    a = rng.uniform(0.5, 2.0, size=shapes[0])
    b = rng.uniform(0.5, 2.0, size=shapes[1])
    ga, gb = grad_of(lambda x, y: op(x, y), a, b)
    assert ga.shape.as_tuple() == a.shape and gb.shape.as_tuple() == b.shape
    assert gradient_error(op, [a, b]) < 1e-6


def test_slicing_gradient_scatters():
    xv = np.arange(12, dtype=np.float64).reshape(3, 4)
    g, = grad_of(lambda x: tf.reduce_sum(x[1:, ::-2] * 3.0) + x[0, -1], xv)
    expected = np.zeros_like(xv)
    expected[1:, ::-2] = 3.0
    expected[0, -1] += 1.0
    np.testing.assert_array_equal(g.numpy(), expected)


def test_numeric_gradient_helper_agrees_with_closed_form():
    xv = np.array([0.3, 1.1])
    fd = numeric_gradient(lambda a: float(np.sum(np.exp(a))), [xv], 0)
    np.testing.assert_allclose(fd, np.exp(xv), rtol=1e-8)


# ------------------------------------------------------------------ garbage collection

def _recorded_intermediate(persistent):
    x = tf.constant([1.0, 2.0])
    tape = tf.GradientTape(persistent=persistent)
    with tape:
        tape.watch(x)
        mid = tf.exp(x)
        y = tf.reduce_sum(mid * mid)
    return tape, x, y, weakref.ref(mid)


def test_intermediate_dies_when_tape_is_dropped():
    gc.disable()
    try:
        tape, x, y, ref = _recorded_intermediate(persistent=True)
        assert ref() is not None  # the tape keeps it for a later gradient call
        del tape
        assert ref() is None
    finally:
        gc.enable()


def test_intermediate_dies_once_non_persistent_tape_is_used():
    gc.disable()
    try:
        tape, x, y, ref = _recorded_intermediate(persistent=False)
        tape.gradient(y, x)
        assert ref() is None  # released without the tape itself being dropped
    finally:
        gc.enable()


def test_used_tape_leaves_no_reference_cycle():
    gc.disable()
    try:
        tape, x, y, ref = _recorded_intermediate(persistent=False)
        g = tape.gradient(y, x)
        tape_ref = weakref.ref(tape)
        del tape, y
        assert tape_ref() is None and ref() is None
        assert g.shape == [2]
    finally:
        gc.enable()


def test_variable_gradient_tape_leaves_no_cycle():
    gc.disable()
    try:
        v = tf.Variable([1.0, 2.0])
        with tf.GradientTape() as tape:
            mid = v * 3.0
            y = tf.reduce_sum(mid)
        ref = weakref.ref(mid)
        del mid
        tape.gradient(y, v)
        tape_ref = weakref.ref(tape)
        del tape
        assert ref() is None and tape_ref() is None
    finally:
        gc.enable()


# ------------------------------------------------------------------ threads and exceptions

def test_two_threads_record_on_their_own_tapes():
    barrier = threading.Barrier(2, timeout=10)
    results, errors = {}, []

    def work(name, fn, derivative, xv):
        try:
            x = f64(xv)
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = x
                for _ in range(3):
                    barrier.wait()  # both threads are inside their tape blocks, interleaving ops
                    y = fn(y)
                results[name + '_tapes'] = len(context.tapes())
            results[name] = (float(tape.gradient(y, x)), derivative(xv))
        except Exception as exc:  # surfaced in the main thread below
            errors.append(exc)

    threads = [
        threading.Thread(target=work, args=('square', lambda y: y * y,
                                            lambda v: 8 * v ** 7, 1.1)),
        threading.Thread(target=work, args=('sin', tf.sin,
                                            lambda v: (np.cos(np.sin(np.sin(v)))
                                                       * np.cos(np.sin(v)) * np.cos(v)), 0.7))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    assert not errors, errors
    assert context.tapes() == []  # the main thread saw none of their tapes
    for name in ('square', 'sin'):
        got, expected = results[name]
        assert got == pytest.approx(expected, rel=1e-12)
        assert results[name + '_tapes'] == 1


def test_exception_inside_tape_block_pops_the_tape():
    x = tf.constant(2.0)
    with pytest.raises(ZeroDivisionError):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x * x
            1 / 0
    assert context.tapes() == []
    assert float(tape.gradient(y, x)) == 4.0
    # A later tape works as usual.
    with tf.GradientTape() as tape2:
        tape2.watch(x)
        z = x * 3.0
    assert float(tape2.gradient(z, x)) == 3.0


def test_exception_in_inner_tape_keeps_outer_recording():
    x = tf.constant(2.0)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with pytest.raises(tf.errors.InvalidArgumentError):
            with tf.GradientTape() as inner:
                inner.watch(x)
                x + tf.constant([1.0, 2.0, 3.0]) + tf.constant([1.0, 2.0])
        assert len(context.tapes()) == 1
        y = x * x
    assert float(outer.gradient(y, x)) == 4.0


def test_exception_inside_stop_recording_restores_recording():
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        with pytest.raises(KeyError):
            with tape.stop_recording():
                raise KeyError('boom')
        y = x * x
    assert float(tape.gradient(y, x)) == 4.0


# ------------------------------------------------------------------ backward-pass bookkeeping

def test_missing_output_gradients_of_multi_output_ops_are_zeros():
    xv = np.array([1.0, 2.0, 3.0])
    g, = grad_of(lambda x: tf.unstack(x)[1] * 2.0, xv)
    np.testing.assert_array_equal(g.numpy(), [0.0, 2.0, 0.0])


def test_target_that_is_also_an_intermediate_and_intermediate_sources():
    xv = np.array([1.0, 2.0, 3.0])
    x = f64(xv)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        z = tf.reduce_sum(y * y)
    # d(sum(y) + z)/dx = 2x + 4x^3
    np.testing.assert_allclose(tape.gradient([y, z], x).numpy(), 2 * xv + 4 * xv ** 3)
    gx, gy = tape.gradient(z, [x, y])
    np.testing.assert_allclose(gx.numpy(), 4 * xv ** 3)
    np.testing.assert_allclose(gy.numpy(), 2 * xv ** 2)
    gx1, gx2 = tape.gradient(z, [x, x])
    np.testing.assert_array_equal(gx1.numpy(), gx2.numpy())
    del tape


def test_gradient_of_a_long_chain_is_exact():
    x = f64(0.3)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x
        for _ in range(200):
            y = y * 1.01
    assert float(tape.gradient(y, x)) == pytest.approx(1.01 ** 200, rel=1e-12)


def test_reset_inside_stop_recording_keeps_recording_afterwards():
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        _ = x * 10.0
        with tape.stop_recording():
            tape.reset()
        tape.watch(x)
        y = x * x
    assert float(tape.gradient(y, x)) == 6.0


def test_reset_forgets_watched_variables_and_allows_a_new_gradient():
    v, w = tf.Variable(1.0), tf.Variable(2.0)
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * v
        assert float(tape.gradient(y, x)) == 1.0
        tape.reset()
        assert tape.watched_variables() == ()
        z = w * 3.0
    assert tape.watched_variables() == (w,)
    assert float(tape.gradient(z, w)) == 3.0


def test_a_tape_never_entered_raises_as_tf():
    # TF 2.21 raises this RuntimeError for a tape whose `with` block never ran (recorded).
    for persistent in (False, True):
        tape = tf.GradientTape(persistent=persistent)
        with pytest.raises(RuntimeError, match='can only be used to compute one set'):
            tape.gradient(tf.constant(1.0), tf.constant(1.0))


def test_reset_outside_the_block_raises_as_tf():
    # TF 2.21: reset() pops the tape, so outside its `with` block it raises this ValueError.
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(tf.constant(1.0))
    with pytest.raises(ValueError, match='Tape is not recording'):
        tape.reset()
