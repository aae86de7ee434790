"""Errors name the user's line inside converted bodies, and tracebacks hide defun's own frames
(TF's traceback filtering, switchable with tf.debugging.*_traceback_filtering)."""
import os
import traceback

import pytest

import defun as tf

_DEFUN_DIRS = tuple(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), d)
                    + os.sep for d in ('defun', 'autograph'))


def _location(exc):
    """The 'in user code' line the message names."""
    text = str(exc)
    assert 'in user code:' in text, text
    return text.split('in user code:', 1)[1].strip().splitlines()[1].strip()


@tf.function
def _raise_in_tensor_if(x):
    if x > 0:
        y = x + 1
        raise ValueError('boom')
    else:
        y = x - 1
    return y


@tf.function
def _op_fails_in_tensor_if(x):
    if x > 0:
        y = tf.reshape(x, [2, 3])
    else:
        y = tf.reshape(x, [1])
    return y


@tf.function
def _op_fails_in_python_if(x):
    if True:
        y = x + 1
        z = tf.reshape(y, [2, 3])
    return z


@tf.function
def _op_fails_in_tensor_for(x):
    s = x
    for i in tf.range(3):
        s = s + tf.reshape(x, [2, 3])
    return s


@tf.function
def _op_fails_in_tensor_while(x):
    while x < 10:
        x = x + tf.reshape(x, [4])
    return x


@pytest.mark.parametrize('fn,line', [
    (_raise_in_tensor_if, "raise ValueError('boom')"),
    (_op_fails_in_tensor_if, 'y = tf.reshape(x, [2, 3])'),
    (_op_fails_in_python_if, 'z = tf.reshape(y, [2, 3])'),
    (_op_fails_in_tensor_for, 's = s + tf.reshape(x, [2, 3])'),
    (_op_fails_in_tensor_while, 'x = x + tf.reshape(x, [4])'),
])
def test_error_in_a_converted_body_names_the_body_line(fn, line):
    with pytest.raises(ValueError) as info:
        fn(tf.constant(1.0))
    assert _location(info.value) == line


def test_variable_created_on_a_non_first_call_names_its_line():
    @tf.function
    def f(x, n):
        if n > 1:
            v = tf.Variable(3.0)
            return v * x
        return x

    f(tf.constant(1.0), 1)
    with pytest.raises(ValueError, match='Creating variables on a non-first call') as info:
        f(tf.constant(1.0), 2)  # TF 2.21's message: the first call created no variable
    assert _location(info.value) == 'v = tf.Variable(3.0)'


def test_variable_created_on_every_call_names_its_line():
    @tf.function
    def g(x):
        v = tf.Variable(1.0)
        return v + x

    with pytest.raises(ValueError, match='singleton tf.Variables') as info:
        g(tf.constant(1.0))
    assert _location(info.value) == 'v = tf.Variable(1.0)'


def _frames(exc):
    return [f.filename for f in traceback.extract_tb(exc.__traceback__)]


def _internal(filenames):
    return [f for f in filenames
            if os.path.abspath(f).startswith(_DEFUN_DIRS) or f.startswith('<defun generated')]


def test_tracebacks_hide_defun_frames_and_the_switch_shows_them():
    assert tf.debugging.is_traceback_filtering_enabled()
    with pytest.raises(ValueError) as info:
        _op_fails_in_tensor_if(tf.constant(1.0))
    frames = _frames(info.value)
    assert frames[0] == __file__ and __file__ in frames[1:]
    # As TF's error_handler frame: the one frame that re-raises the filtered error.
    assert len(_internal(frames)) == 1
    tf.debugging.disable_traceback_filtering()
    try:
        assert not tf.debugging.is_traceback_filtering_enabled()
        with pytest.raises(ValueError) as info:
            _op_fails_in_tensor_if(tf.constant(2.0))
        assert len(_internal(_frames(info.value))) > 3
    finally:
        tf.debugging.enable_traceback_filtering()
    assert tf.debugging.is_traceback_filtering_enabled()


def test_runtime_failure_and_tape_errors_are_filtered_too():
    @tf.function
    def div(x, y):
        return tf.math.floordiv(x, y)

    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        div(tf.constant(1), tf.constant(0))
    assert len(_internal(_frames(info.value))) == 1
    with tf.GradientTape() as tape:
        pass
    with pytest.raises(TypeError) as info:
        tape.gradient(tf.constant(1.0), 'not a tensor')
    assert len(_internal(_frames(info.value))) == 1
