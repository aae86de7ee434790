"""Generated code that teaches: a header gives the values of the constants (and dtypes) the lines
name, captured inputs are named after what they hold, a loop counter nothing reads after the loop
is not cast back to int32, and `Function.source(*args)` shows the source of the trace those
arguments select. None of it changes what runs."""
import numpy as np

import defun as tf


def test_constants_header_gives_values_and_dtypes():
    f = tf.function(lambda x: tf.reshape(x * 2.5, [2, 1]))
    source = f.source(tf.constant([1.0, 2.0]))
    header, body = source.split('def ', 1)
    assert header.startswith('# constants:\n')
    assert '= 2.5 (float32)' in header and '= [2, 1] (int32)' in header
    for line in header.splitlines():
        assert line.startswith('#')
    # every constant named in the header appears in the body
    for line in header.splitlines()[1:]:
        assert line.split('=')[0].strip('# ').strip() in body


def test_large_constants_show_dtype_and_shape_and_the_header_stays_short():
    big = np.arange(100, dtype=np.float32)

    @tf.function
    def f(x):
        return x + tf.constant(big)
    source = f.source(tf.zeros([100]))
    assert 'float32[100] ' not in source and 'float32[100]' in source


def test_captured_variables_are_parameters_named_after_them():
    w = tf.Variable(tf.ones([2, 2]), name='weights')
    bias = tf.Variable(tf.zeros([2]), name='layer/bias')

    @tf.function
    def f(x):
        return x @ w + bias
    first_line = next(l for l in f.source(tf.ones([1, 2])).splitlines() if l.startswith('def '))
    assert first_line == 'def f(x, weights, layer_bias):'


def test_backward_inputs_are_named_after_the_forward_values_they_hold():
    @tf.function
    def f(x):
        for _ in tf.range(3):
            x = tf.sin(x) * 2.0
        return x
    x = tf.constant([0.5, 1.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    assert np.all(np.isfinite(tape.gradient(y, x).numpy()))
    backward = f.get_concrete_function(x).backward_source
    signature = next(l for l in backward.splitlines() if l.startswith('def '))
    assert 'capture' not in signature and 'while_' in signature


def test_no_dead_int32_cast_after_a_loop():
    @tf.function
    def f(x):
        i = tf.constant(0)
        while i < 10:
            x = x * 2.0
            i += 1
        return x
    source = f.source(tf.constant([1.0]))
    assert 'np.int32(' not in source
    assert f(tf.constant([1.0])).numpy().tolist() == [1024.0]

    @tf.function
    def g(x):
        i = tf.constant(0)
        while i < 10:
            x = x * 2.0
            i += 1
        return x, i        # the counter is read after the loop: cast back to TF's int32
    out, count = g(tf.constant([1.0]))
    assert count.dtype == tf.int32 and count.numpy() == 10
    assert 'np.int32(' in g.source(tf.constant([1.0]))


def test_source_is_the_selected_traces():
    @tf.function
    def f(x):
        return x * 2.0
    f(tf.constant([1.0]))
    assert f.source(tf.constant([1.0])) == f.get_concrete_function(tf.constant([1.0])).function_source
    assert f.experimental_get_tracing_count() == 1
    assert 'def f(x):' in f.source(tf.constant([[1.0, 2.0]]))
    assert f.experimental_get_tracing_count() == 2


def test_generated_code_with_a_header_reports_failures_at_the_right_line():
    # The header shifts the function down; a failing kernel must still be named correctly.
    @tf.function
    def f(x, idx):
        return tf.gather(x * 3.0, idx)
    try:
        f(tf.constant([1.0, 2.0]), tf.constant([5]))
    except tf.errors.InvalidArgumentError as exc:
        assert 'GatherV2' in str(exc) or 'gather' in str(exc).lower()
        assert 'test_readable_source.py' in str(exc)
    else:
        raise AssertionError('an out-of-range gather must fail')
