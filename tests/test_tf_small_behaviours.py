"""Small TensorFlow behaviours real code relies on (issue 9, item 9); the expected values and
messages were recorded from TensorFlow 2.21."""
import logging
import pathlib

import numpy as np
import pytest

import defun as tf
from defun.core import context


@pytest.mark.parametrize('make,expected', [
    (lambda: tf.zeros(2), [0.0, 0.0]),
    (lambda: tf.ones(3), [1.0, 1.0, 1.0]),
    (lambda: tf.zeros(np.int64(2)), [0.0, 0.0]),
    (lambda: tf.fill(2, 1.0), [1.0, 1.0]),
])
def test_python_int_shapes(make, expected):
    t = make()
    assert t.shape == (len(expected),) and t.dtype == tf.float32
    np.testing.assert_array_equal(t.numpy(), expected)


def test_python_int_shape_in_a_compiled_function():
    f = tf.function(lambda x: x + tf.zeros(2))
    np.testing.assert_array_equal(f(tf.constant(1.0)).numpy(), [1.0, 1.0])


def test_py_function_and_numpy_function_as_decorators():
    @tf.py_function(Tout=tf.float32)
    def doubled(x):
        return x * 2

    @tf.numpy_function(Tout=tf.float32)
    def tripled(x):
        return x * 3

    assert doubled(tf.constant(2.0)).numpy() == 4.0
    assert tripled(np.float32(2.0)).numpy() == 6.0
    compiled = tf.function(lambda x: doubled(x) + tripled(x))
    assert compiled(tf.constant(1.0)).numpy() == 5.0
    assert doubled.__name__ == 'doubled'


def test_gradient_of_a_variable_with_respect_to_itself():
    v = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        pass
    assert tape.gradient(v, v).numpy() == 1.0  # even unwatched, as TF
    w = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        y = w * 2.0
    np.testing.assert_array_equal(tape.gradient([w, y], w).numpy(), [3.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(w)
    grads = tape.gradient(w, [w, v])
    assert grads[1] is None
    np.testing.assert_array_equal(grads[0].numpy(), [1.0, 1.0])
    with tf.GradientTape() as tape:
        pass
    np.testing.assert_array_equal(
        tape.gradient(w, w, output_gradients=tf.constant([3.0, 4.0])).numpy(), [3.0, 4.0])


def test_gradient_of_a_target_that_is_its_source():
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        pass
    assert tape.gradient(x, x).numpy() == 1.0
    i = tf.Variable(1)
    with tf.GradientTape() as tape:
        pass
    g = tape.gradient(i, i)
    assert g.dtype == tf.int32 and g.numpy() == 1  # TF passes the seed through, int or not

    @tf.function
    def compiled():
        with tf.GradientTape() as t:
            pass
        return t.gradient(i, i)
    assert compiled().numpy() == 1


def test_symbolic_tensors_have_no_numpy():
    seen = []

    @tf.function
    def f(x):
        seen.append(hasattr(x, 'numpy'))
        with pytest.raises(AttributeError, match="'SymbolicTensor' object has no attribute 'numpy'"):
            x.numpy()
        return x
    f(tf.constant(1.0))
    assert seen == [False]


def test_concrete_function_called_with_the_wrong_dtype():
    cf = tf.function(lambda x: x * 2).get_concrete_function(tf.TensorSpec([], tf.float32))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r'input #0\(zero-based\) was expected to be a float tensor but is a '
                             r'int32 tensor'):
        cf(tf.constant(1))


def test_runaway_recursion_raises_tf_staging_error():
    @tf.function
    def rec(n):
        return rec(n - 1) + 1

    with pytest.raises(Exception) as info:
        rec(tf.constant(3))
    assert type(info.value).__name__ == 'StagingError'  # TF's class (not a bare RecursionError)
    text = str(info.value)
    assert text.startswith('in user code:') and 'return rec(n - 1) + 1' in text
    assert 'RecursionError: maximum recursion depth exceeded' in text


def test_watching_a_non_float_tensor_logs_tf_warning(caplog, monkeypatch):
    # TF logs it the first five times only; the count is process-wide, so it is lifted here.
    monkeypatch.setattr(context, 'log_first_n', lambda token, n: True)
    with caplog.at_level(logging.WARNING, logger='defun'):
        with tf.GradientTape() as tape:
            tape.watch(tf.constant(1))
            tape.watch(tf.constant(1.0))
    messages = [r.getMessage() for r in caplog.records]
    assert messages == ['The dtype of the watched tensor must be floating (e.g. tf.float32), '
                        'got tf.int32']


def test_log_first_n_counts_per_token():
    token = object()
    assert [context.log_first_n(token, 2) for _ in range(4)] == [True, True, False, False]


def test_where_am_i_queries_as_tf():
    # Results recorded from TF 2.21 for the same program.
    assert tf.get_current_name_scope() == '' and not tf.inside_function()
    assert not tf.is_symbolic_tensor(tf.constant(1))
    with tf.name_scope('a'):
        with tf.name_scope('b'):
            assert tf.get_current_name_scope() == 'a/b'
    seen = []

    @tf.function
    def f(x):
        with tf.name_scope('s'):
            seen.append((tf.get_current_name_scope(), tf.inside_function(),
                         tf.is_symbolic_tensor(x), tf.is_symbolic_tensor(3)))
        return x

    f(tf.constant(1))
    assert seen == [('s', True, True, False)]
    with tf.Graph().as_default():
        assert not tf.inside_function()
        with tf.name_scope('q'):
            assert tf.get_current_name_scope() == 'q'


def test_compat_text_helpers():
    # TF 2.21: as_text/as_bytes convert between str and bytes, keep their own type, refuse others.
    assert tf.compat.as_text(b'caf\xc3\xa9') == 'café' and tf.compat.as_str('x') == 'x'
    assert tf.compat.as_bytes('café') == b'caf\xc3\xa9'
    assert tf.compat.as_bytes(bytearray(b'ab')) == b'ab'
    assert tf.compat.as_str_any(3) == '3' and tf.compat.as_str_any(b'q') == 'q'
    assert tf.compat.path_to_str(pathlib.Path('/a/b')) == '/a/b'
    with pytest.raises(TypeError, match='Expected binary or unicode string, got 1'):
        tf.compat.as_text(1)
    assert tf.as_string(3).numpy() == b'3'
