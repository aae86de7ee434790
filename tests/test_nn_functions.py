"""tf.nn functions built by composition (gelu, silu, moments, cross entropies) and the debugging
ops: values against numpy, gradients against finite differences, TF's errors, and tf.print's
format and timing (it prints when a compiled function runs, not when it is traced)."""
import math
import sys

import numpy as np
import pytest

import defun as tf
from defun.core import errors
from defun.autodiff import gradient_check as testing
from tests.ops.spec import rand

_erf = np.vectorize(math.erf)


def test_gelu_exact_and_approximate():
    x = rand(7)
    # TF casts its Python constants (1/sqrt(2), 0.044715) from float32, so in float64 its gelu is
    # the formula with those float32 constants (TF 2.21 differs from the exact one by ~5e-9).
    inv_sqrt2, coeff = float(np.float32(0.7071067811865476)), float(np.float32(0.044715))
    np.testing.assert_allclose(tf.nn.gelu(tf.constant(x)).numpy(),
                               0.5 * x * (1 + _erf(x * inv_sqrt2)), rtol=1e-10)
    np.testing.assert_allclose(tf.nn.gelu(tf.constant(x)).numpy(),
                               0.5 * x * (1 + _erf(x / np.sqrt(2))), rtol=1e-7)
    c = np.sqrt(2 / np.pi)
    np.testing.assert_allclose(tf.nn.gelu(tf.constant(x), approximate=True).numpy(),
                               0.5 * x * (1 + np.tanh(c * (x + coeff * x ** 3))), rtol=1e-10)


@pytest.mark.parametrize('fn', [tf.nn.gelu, lambda x: tf.nn.gelu(x, approximate=True),
                                tf.nn.silu, tf.nn.sigmoid, tf.nn.tanh],
                         ids=['gelu', 'gelu-approx', 'silu', 'sigmoid', 'tanh'])
def test_activation_gradients(fn):
    assert testing.gradient_error(fn, [rand(5)]) < 1e-6
    assert testing.second_order_error(fn, [rand(5)]) < 1e-4


def test_cross_entropies_match_numpy():
    logits, labels = rand(3, 4), rand(3, 4, low=0.0, high=1.0)
    log_p = logits - np.log(np.exp(logits).sum(-1, keepdims=True))
    np.testing.assert_allclose(
        tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits).numpy(),
        -(labels * log_p).sum(-1))
    idx = np.array([0, 3, 1], np.int32)
    np.testing.assert_allclose(
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=idx, logits=logits).numpy(),
        -log_p[np.arange(3), idx])
    z = labels[0]
    x = logits[0]
    np.testing.assert_allclose(
        tf.nn.sigmoid_cross_entropy_with_logits(labels=z, logits=x).numpy(),
        -z * np.log(1 / (1 + np.exp(-x))) - (1 - z) * np.log(1 - 1 / (1 + np.exp(-x))))


def test_sigmoid_cross_entropy_does_not_overflow():
    y = tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.constant([0.0, 1.0]),
                                                logits=tf.constant([100.0, -100.0]))
    np.testing.assert_allclose(y.numpy(), [100.0, 100.0])


@pytest.mark.parametrize('loss', [
    lambda z, x: tf.nn.softmax_cross_entropy_with_logits(labels=z, logits=x),
    lambda z, x: tf.nn.sigmoid_cross_entropy_with_logits(labels=z, logits=x)],
    ids=['softmax', 'sigmoid'])
def test_cross_entropy_gradients(loss):
    args = [rand(2, 3, low=0.0, high=1.0), rand(2, 3)]
    assert testing.gradient_error(loss, args) < 1e-6
    assert testing.second_order_error(loss, args) < 1e-4


def test_sparse_cross_entropy_gradient_and_errors():
    labels = np.array([2, 0], np.int32)
    loss = lambda x: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=x)  # noqa
    assert testing.gradient_error(loss, [rand(2, 3)]) < 1e-6
    with pytest.raises(errors.InvalidArgumentError):
        loss(tf.zeros([2, 2]))
    with pytest.raises(ValueError, match='Shape mismatch'):
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[0, 1, 1], logits=tf.zeros([2, 3]))


def test_sparse_cross_entropy_label_out_of_range_has_tfs_message():
    # Message recorded from TF 2.21's CPU kernel (eager and in a tf.function alike).
    expected = (r'Received a label value of 3 which is outside the valid range of \[0, 3\)\.  '
                r'Label values: 0 3')
    with pytest.raises(errors.InvalidArgumentError, match=expected):
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[0, 3], logits=tf.zeros([2, 3]))
    f = tf.function(lambda z: tf.nn.sparse_softmax_cross_entropy_with_logits(z, tf.zeros([2, 3])))
    with pytest.raises(errors.InvalidArgumentError, match='Received a label value of -1 .*: 0 -1'):
        f(tf.constant([0, -1]))


def test_sparse_cross_entropy_gradient_is_softmax_minus_one_hot():
    logits = rand(4, 5)
    labels = np.array([4, 0, 0, 2], np.int32)
    x = tf.Variable(logits)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.nn.sparse_softmax_cross_entropy_with_logits(labels, x) * [1., 2., 3., 4.])
    p = np.exp(logits) / np.exp(logits).sum(-1, keepdims=True)
    np.testing.assert_allclose(tape.gradient(loss, x).numpy(),
                               (p - np.eye(5)[labels]) * [[1.], [2.], [3.], [4.]], rtol=1e-12)


def test_moments():
    x = rand(3, 4)
    mean, var = tf.nn.moments(tf.constant(x), axes=[0])
    np.testing.assert_allclose(mean.numpy(), x.mean(0))
    np.testing.assert_allclose(var.numpy(), x.var(0))
    mean, var = tf.nn.moments(tf.constant(x), axes=[0, 1], keepdims=True)
    assert mean.shape == (1, 1) and var.shape == (1, 1)
    assert testing.gradient_error(lambda t: tf.nn.moments(t, axes=[1]), [x]) < 1e-6


def test_moments_dtypes_as_tf():
    # Integers stay integers (integer means), float16 is computed in float32 and cast back.
    mean, var = tf.nn.moments(tf.constant([[1, 2], [3, 5]]), axes=[0])
    assert mean.dtype == tf.int32 and mean.numpy().tolist() == [2, 3]
    assert var.numpy().tolist() == [1, 2]
    mean, var = tf.nn.moments(tf.constant([1.0, 2.0, 4.0], tf.float16), axes=[0])
    assert mean.dtype == tf.float16 and abs(float(var) - 14.0 / 9.0) < 1e-3


def test_integer_features_of_leaky_relu_and_gelu():
    y = tf.nn.leaky_relu(tf.constant([-1, 2]))  # TF casts to float32
    assert y.dtype == tf.float32 and y.numpy().tolist() == [-0.2 * np.float32(1), 2.0]
    with pytest.raises(ValueError):
        tf.nn.gelu(tf.constant([1]))


def test_nn_argument_errors():
    # TF 2.21: a refused dtype is an InvalidArgumentError eagerly and a TypeError in a graph.
    with pytest.raises(errors.InvalidArgumentError, match='softmax.*int32'):
        tf.nn.softmax(tf.constant([1, 2]))
    with pytest.raises(TypeError, match='softmax.*int32'):
        tf.function(lambda: tf.nn.softmax(tf.constant([1, 2])))()
    with pytest.raises(errors.InvalidArgumentError, match='axis'):
        tf.nn.log_softmax(tf.zeros([2, 3]), axis=2)
    with pytest.raises(errors.InvalidArgumentError, match='padding'):
        tf.nn.conv2d(tf.zeros([1, 3, 3, 1]), tf.zeros([2, 2, 1, 1]), 1, 'FULL')
    with pytest.raises(errors.InvalidArgumentError, match='depth'):
        tf.nn.conv2d(tf.zeros([1, 3, 3, 2]), tf.zeros([2, 2, 1, 1]), 1, 'VALID')
    with pytest.raises(errors.InvalidArgumentError, match='biases'):
        tf.nn.bias_add(tf.zeros([2, 3]), tf.zeros([2]))


def test_conv_and_pool_shapes_in_graph():
    with tf.Graph().as_default():
        x = tf.compat.v1.placeholder(tf.float32, [None, 7, None, 3])
        y = tf.nn.conv2d(x, tf.zeros([3, 3, 3, 5]), 2, 'SAME')
        assert y.shape.as_list() == [None, 4, None, 5]
        assert tf.nn.max_pool2d(x, 2, 2, 'VALID').shape.as_list() == [None, 3, None, 3]


# ---------------------------------------------------------------- debugging

def test_check_numerics_message_and_gradient():
    with pytest.raises(errors.InvalidArgumentError, match='bad : Tensor had NaN values'):
        tf.debugging.check_numerics(tf.constant([np.nan, 1.0]), 'bad')
    with pytest.raises(errors.InvalidArgumentError, match='Inf and NaN'):
        tf.debugging.check_numerics(tf.constant([np.nan, np.inf]), 'bad')
    assert testing.gradient_error(lambda x: tf.debugging.check_numerics(x, 'm'), [rand(3)]) < 1e-6


def test_asserts_eager():
    assert tf.debugging.assert_equal(tf.constant([1, 2]), [1, 2]) is None
    assert tf.debugging.assert_greater(tf.constant([1.0]), 0.0) is None
    with pytest.raises(errors.InvalidArgumentError, match='x == y'):
        tf.debugging.assert_equal(tf.constant([1, 2]), [1, 3], message='mine')
    with pytest.raises(errors.InvalidArgumentError, match='x > y'):
        tf.debugging.assert_greater(tf.constant([1, -2]), 0)
    # TF's eager Assert message, recorded from TF 2.21
    with pytest.raises(errors.InvalidArgumentError) as info:
        tf.debugging.Assert(tf.constant(False), ['value', tf.constant([1, 2])])
    assert str(info.value) == ("Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. "
                               "Summarized data: b'value'\n1, 2")


def test_asserts_run_in_compiled_functions():
    @tf.function
    def f(x):
        tf.debugging.assert_greater(x, 0)
        tf.debugging.Assert(tf.reduce_all(x < 100), [x])
        return x * 2

    np.testing.assert_array_equal(f(tf.constant([1, 2])).numpy(), [2, 4])
    with pytest.raises(errors.InvalidArgumentError):
        f(tf.constant([1, -2]))
    with pytest.raises(errors.InvalidArgumentError):
        f(tf.constant([1, 200]))


def test_static_assert_fails_at_trace_time():
    @tf.function
    def f(x):
        tf.debugging.assert_equal(tf.shape(x)[0], 3)
        return x

    with pytest.raises(errors.InvalidArgumentError):
        f(tf.zeros([2]))


def _printed(*args, **kwargs):
    tf.print(*args, output_stream=sys.stdout, **kwargs)


@pytest.mark.parametrize('args, kwargs, expected', [
    (('x:', tf.constant([1, 2, 3])), {}, 'x: [1 2 3]\n'),
    ((tf.constant([[1.5, 2.0], [1 / 3, 4.0]]),), {}, '[[1.5 2]\n [0.333333343 4]]\n'),
    ((tf.range(10),), {}, '[0 1 2 ... 7 8 9]\n'),
    ((tf.range(10),), {'summarize': -1}, '[0 1 2 3 4 5 6 7 8 9]\n'),
    ((tf.range(10),), {'summarize': 1}, '[0 ... 9]\n'),
    ((tf.constant(2.5), tf.constant(True)), {'sep': ',', 'end': '!'}, '2.5,1!'),
    (([tf.constant(1), 'a'], {'k': tf.constant([True, False])}), {}, "[1, 'a'] {'k': [1 0]}\n"),
    ((tf.zeros([2, 1, 2], tf.int32),), {}, '[[[0 0]]\n\n [[0 0]]]\n'),
    ((tf.constant(0.1, tf.float64),), {}, '0.1\n'),
])
def test_print_format(capsys, args, kwargs, expected):
    _printed(*args, **kwargs)
    assert capsys.readouterr().out == expected


def test_print_defaults_to_stderr(capsys):
    tf.print('hello', tf.constant(1))
    captured = capsys.readouterr()
    assert captured.out == '' and captured.err == 'hello 1\n'


def test_print_runs_on_every_call_not_at_trace(capsys):
    @tf.function
    def f(x):
        tf.print('x =', x, output_stream=sys.stdout)
        return x + 1

    f(tf.constant(1))
    f(tf.constant(2))
    assert capsys.readouterr().out == 'x = 1\nx = 2\n'


def test_sparse_cross_entropy_gradient_of_transposed_logits():
    # Logits that arrive transposed (a time-distributed softmax swapped back to batch-major):
    # the backprop output is softmax minus the labels' one-hot there too. Values from TF 2.21.
    x = tf.constant(np.random.RandomState(0).randn(3, 4, 2).astype('float32'))
    labels = tf.constant([[0, 1, 1]] * 4, tf.int64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        logits = tf.transpose(x, [1, 0, 2])
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits))
    grad = tape.gradient(loss, x).numpy().ravel()[:6]
    np.testing.assert_allclose(grad, [-0.01696733, 0.01696733, -0.06494974, 0.06494974,
                                      -0.00457908, 0.00457907], rtol=1e-5, atol=1e-7)


def test_bias_add_channels_first_as_tf():
    # Recorded from TF 2.21 (CPU): NCHW / NC... add along axis 1, N...C along the last axis.
    x = tf.constant(np.arange(24, dtype='float32').reshape(2, 3, 2, 2))
    b = tf.constant([1., 10., 100.])
    for fmt in ('NCHW', 'NC...'):
        assert tf.nn.bias_add(x, b, data_format=fmt).numpy().ravel()[:8].tolist() == \
            [1.0, 2.0, 3.0, 4.0, 14.0, 15.0, 16.0, 17.0]
    assert tf.nn.bias_add(x, tf.constant([1., 10.]), data_format='N...C').numpy().ravel()[
        :8].tolist() == [1.0, 11.0, 3.0, 13.0, 5.0, 15.0, 7.0, 17.0]
    x3 = tf.constant(np.arange(12, dtype='float32').reshape(2, 3, 2))
    assert tf.nn.bias_add(x3, b, data_format='NCHW').numpy().ravel().tolist() == \
        [1.0, 2.0, 12.0, 13.0, 104.0, 105.0, 7.0, 8.0, 18.0, 19.0, 110.0, 111.0]
    w = tf.constant(np.arange(24, dtype='float32').reshape(2, 3, 2, 2))
    with tf.GradientTape() as t:
        t.watch(b)
        y = tf.nn.bias_add(x, b, data_format='NCHW') * w
    assert t.gradient(y, b).numpy().tolist() == [60.0, 92.0, 124.0]
    with pytest.raises(tf.errors.InvalidArgumentError, match='at least 2D'):
        tf.nn.bias_add(tf.constant([1., 2., 3.]), b, data_format='NCHW')
