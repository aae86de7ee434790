"""Function.__call__'s hot path (a memoized trace called with eager tensors while nothing records
runs the generated function itself): same values, structures and errors as the general path
through apply_op(PartitionedCall)."""
import numpy as np
import pytest

import defun as tf
from defun.core import errors


def _gather_fn():
    params = tf.constant([10.0, 20.0, 30.0])

    @tf.function
    def f(i):
        return tf.gather(params, i) * 2.0
    return f


def _error_of(fn):
    with pytest.raises(Exception) as info:
        fn()
    return info.value


def test_kernel_failure_raises_the_error_of_the_general_path():
    f = _gather_fn()
    np.testing.assert_array_equal(f(tf.constant([2, 0])).numpy(), [60.0, 20.0])
    bad = tf.constant([1, 7])
    hot = _error_of(lambda: f(bad))
    general = _error_of(lambda: f(i=bad))  # keyword arguments take the general path
    assert isinstance(hot, errors.InvalidArgumentError)
    assert type(hot) is type(general)
    assert str(hot) == str(general)
    assert 'GatherV2' in str(hot)


def test_op_errors_raised_inside_pass_through_unchanged():
    @tf.function
    def f(x):
        return tf.debugging.check_numerics(x, 'bad value') + 1.0

    f(tf.constant([1.0]))
    hot = _error_of(lambda: f(tf.constant([np.nan])))
    general = _error_of(lambda: f(x=tf.constant([np.nan])))
    assert isinstance(hot, errors.InvalidArgumentError)
    assert str(hot) == str(general) and 'bad value' in str(hot)


def test_structures_captures_and_several_arguments():
    w = tf.constant([[1.0, 2.0], [3.0, 4.0]])

    @tf.function
    def f(x, y):
        return {'sum': x + y, 'pair': (tf.matmul(w, x), None)}

    x = tf.constant([[1.0], [2.0]])
    y = tf.constant([[0.5], [0.5]])
    for _ in range(2):  # the second call is a memo hit
        out = f(x, y)
        np.testing.assert_array_equal(out['sum'].numpy(), [[1.5], [2.5]])
        np.testing.assert_array_equal(out['pair'][0].numpy(), [[5.0], [11.0]])
        assert out['pair'][1] is None


def test_one_argument_calls_alternating_signatures():
    f = tf.function(lambda x: x * 2)
    a, b = tf.constant([1.0, 2.0]), tf.constant([3, 4])
    for _ in range(3):
        assert f(a).dtype == tf.float32 and f(b).dtype == tf.int32
        np.testing.assert_array_equal(f(a).numpy(), [2.0, 4.0])
        np.testing.assert_array_equal(f(b).numpy(), [6, 8])
        np.testing.assert_array_equal(f(tf.constant(5.0)).numpy(), 10.0)


def test_recording_and_run_eagerly_take_the_general_path():
    f = tf.function(lambda x: x * x)
    x = tf.constant(3.0)
    f(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    assert tape.gradient(y, x).numpy() == 6.0
    seen = []

    def g(v):
        seen.append(type(v))
        return v + 1.0

    gf = tf.function(g)
    gf(x)
    tf.config.run_functions_eagerly(True)
    try:
        assert gf(x).numpy() == 4.0
    finally:
        tf.config.run_functions_eagerly(False)
    assert seen[-1] is type(x)  # ran as plain Python on the eager tensor


def _warm(f, x, calls=3):
    """Calls `f(x)` until its one-argument hot slot is filled (the second memoized call)."""
    for _ in range(calls):
        out = f(x)
    return out


def test_warm_hot_slot_still_records_on_tapes_and_in_graphs():
    f = tf.function(lambda x: x * x + 1.0)
    x = tf.constant([3.0, -2.0])
    _warm(f, x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), [6.0, -4.0])

    @tf.function
    def outer(v):
        return f(v) * 2.0       # inside a trace: a call op in the outer graph, not the hot path
    np.testing.assert_array_equal(outer(x).numpy(), [20.0, 10.0])
    with tf.GradientTape() as tape:   # and the outer trace's call records on a tape too
        tape.watch(x)
        y = outer(x)
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), [12.0, -8.0])


def test_warm_hot_slot_yields_to_run_functions_eagerly():
    seen = []

    def g(v):
        seen.append(type(v))
        return v + 1.0
    gf = tf.function(g)
    x = tf.constant(1.0)
    _warm(gf, x)
    traced = len(seen)
    tf.config.run_functions_eagerly(True)
    try:
        assert gf(x).numpy() == 2.0
    finally:
        tf.config.run_functions_eagerly(False)
    assert len(seen) == traced + 1 and seen[-1] is type(x)
    assert gf(x).numpy() == 2.0 and len(seen) == traced + 1   # back on the compiled trace


def test_warm_hot_slot_follows_retrace_rules():
    f = tf.function(lambda x: x + 1)
    a, b = tf.constant([1.0, 2.0]), tf.constant([1.0, 2.0, 3.0])
    _warm(f, a)
    assert f.experimental_get_tracing_count() == 1
    np.testing.assert_array_equal(f(b).numpy(), [2.0, 3.0, 4.0])      # new shape: a retrace
    assert f.experimental_get_tracing_count() == 2
    np.testing.assert_array_equal(f(a).numpy(), [2.0, 3.0])             # the first trace again
    np.testing.assert_array_equal(f(tf.constant([1, 2])).numpy(), [2, 3])  # new dtype
    assert f.experimental_get_tracing_count() == 3
    np.testing.assert_array_equal(f(a).numpy(), [2.0, 3.0])
    assert f.experimental_get_tracing_count() == 3


def test_warm_hot_slot_failure_names_the_users_line():
    @tf.function
    def f(x):
        return tf.reshape(x, tf.cast(x[:2], tf.int32))   # the shape comes from the values
    _warm(f, tf.constant([2.0, 2.0, 1.0, 1.0]))
    bad = tf.constant([3.0, 2.0, 1.0, 1.0])
    hot = _error_of(lambda: f(bad))
    general = _error_of(lambda: f(x=bad))
    assert isinstance(hot, errors.InvalidArgumentError)
    assert type(hot) is type(general) and str(hot) == str(general)
    assert 'Reshape' in str(hot) and 'tf.reshape(x, tf.cast(x[:2], tf.int32))' in str(hot)


def test_warm_hot_slot_string_and_structured_results():
    s = tf.function(lambda x: x + x)   # AddV2 concatenates strings
    _warm(s, tf.constant('ab'))
    out = s(tf.constant('ab'))
    assert out.dtype == tf.string and out.numpy() == b'abab'
    pair = tf.function(lambda x: (x, {'y': x * 2}))
    _warm(pair, tf.constant(2))
    out = pair(tf.constant(2))
    assert out[0].numpy() == 2 and out[1]['y'].numpy() == 4


def test_warm_hot_slots_in_threads_keep_their_own_results():
    import threading
    f = tf.function(lambda x: x * 3.0)
    inputs = [tf.constant(np.arange(n, dtype=np.float32)) for n in (1, 2, 3, 4)]
    failures = []

    def worker(x):
        want = x.numpy() * 3.0
        for _ in range(200):
            got = f(x).numpy()
            if got.shape != want.shape or not np.array_equal(got, want):
                failures.append((x.shape, got))
                return
    threads = [threading.Thread(target=worker, args=(x,)) for x in inputs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures
    assert f.experimental_get_tracing_count() == 4


def test_warm_hot_slot_with_several_or_no_arguments():
    v = tf.Variable(2.0)
    f = tf.function(lambda x, y: x * y + v)
    g = tf.function(lambda: v * 3.0)
    a, b = tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])
    for _ in range(3):
        np.testing.assert_array_equal(f(a, b).numpy(), [5.0, 10.0])
        assert g().numpy() == 6.0
    v.assign(1.0)                                   # Variables are read on every call
    np.testing.assert_array_equal(f(a, b).numpy(), [4.0, 9.0])
    assert g().numpy() == 3.0
    np.testing.assert_array_equal(f(a, tf.constant(2.0)).numpy(), [3.0, 5.0])   # new shape
    np.testing.assert_array_equal(f(a, 2.0).numpy(), [3.0, 5.0])                # a Python float
    assert f.experimental_get_tracing_count() == 3
    with tf.GradientTape() as tape:
        tape.watch(b)
        y = f(a, b)
    np.testing.assert_array_equal(tape.gradient(y, b).numpy(), [1.0, 2.0])
    with tf.GradientTape() as tape:
        y = g()
    assert tape.gradient(y, v).numpy() == 3.0


def test_warm_hot_slot_with_several_arguments_fails_as_the_general_path():
    @tf.function
    def f(x, shape):
        return tf.reshape(x, shape)
    x, good = tf.constant([1.0, 2.0, 3.0, 4.0]), tf.constant([2, 2])
    _warm(lambda s: f(x, s), good)
    bad = tf.constant([3, 2])
    hot = _error_of(lambda: f(x, bad))
    general = _error_of(lambda: f(x=x, shape=bad))
    assert isinstance(hot, errors.InvalidArgumentError)
    assert str(hot) == str(general) and 'tf.reshape(x, shape)' in str(hot)
