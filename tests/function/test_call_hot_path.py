"""Function.__call__'s hot path (a memoized trace called with eager tensors while nothing records
runs the generated function itself): same values, structures and errors as the general path
through apply_op(PartitionedCall)."""
import numpy as np
import pytest

import defun as tf
from defun import errors


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
