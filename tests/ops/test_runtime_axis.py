"""gather, concat and expand_dims along an axis known only when the graph runs: values, traced
shapes, run-time errors and gradients as recorded from TF 2.21."""
import numpy as np
import pytest

import defun as tf
from defun.core import errors

P = tf.reshape(tf.range(24.), [2, 3, 4])
INT = tf.TensorSpec([], tf.int32)


def test_gather_runtime_axis():
    shapes = []

    @tf.function(input_signature=[tf.TensorSpec([2, 3, 4]), tf.TensorSpec([5], tf.int32), INT])
    def f(p, i, a):
        r = tf.gather(p, i, axis=a)
        shapes.append(r.shape.as_list())
        return r

    i = tf.constant([0, 1, 1, 0, 1])
    assert f(P, i, tf.constant(1)).shape == (2, 5, 4)
    np.testing.assert_array_equal(f(P, i, tf.constant(-1)).numpy()[0, 0], [0., 1., 1., 0., 1.])
    assert shapes == [[None, None, None]]
    with pytest.raises(errors.InvalidArgumentError):
        f(P, i, tf.constant(3))


def test_gather_runtime_axis_shapes_and_gradient():
    unknown = tf.function(lambda p, i, a: tf.gather(p, i, axis=a)).get_concrete_function(
        tf.TensorSpec(None), tf.TensorSpec([5], tf.int32), INT)
    assert unknown.outputs[0].shape.rank is None
    batched = tf.function(lambda p, i, a: tf.gather(p, i, axis=a, batch_dims=1)).\
        get_concrete_function(tf.TensorSpec([2, 3, 4]), tf.TensorSpec([2, 5], tf.int32), INT)
    assert batched.outputs[0].shape.as_list() == [None, None, None]
    p = tf.Variable(P)
    with tf.GradientTape() as t:
        y = tf.function(lambda p, a: tf.gather(p, [0, 0, 2], axis=a))(p, tf.constant(2))
    np.testing.assert_array_equal(t.gradient(y, p)[0].numpy(), [[2., 0., 1., 0.]] * 3)


def test_concat_runtime_axis():
    @tf.function(input_signature=[tf.TensorSpec([2, 3]), tf.TensorSpec([2, 3]), INT])
    def f(x, y, a):
        r = tf.concat([x, y], a)
        assert r.shape.as_list() == [None, None]
        return r

    ones = tf.ones([2, 3])
    assert f(ones, ones, tf.constant(-1)).shape == (2, 6)
    with pytest.raises(errors.InvalidArgumentError,
                       match=r'concatenating dimensions in the range \[-2, 2\), but got 2'):
        f(ones, ones, tf.constant(2))
    g = tf.function(lambda x, y, a: tf.concat([x, y], a))
    with pytest.raises(errors.InvalidArgumentError, match=r'Dimension 1 in both shapes must be '
                       r'equal: shape\[0\] = \[2,3\] vs. shape\[1\] = \[2,4\]'):
        g(ones, tf.ones([2, 4]), tf.constant(0))
    one = tf.function(lambda x, a: tf.concat([x], a)).get_concrete_function(
        tf.TensorSpec([2, 3]), INT)
    assert one.outputs[0].shape.as_list() == [2, 3]
    x = tf.Variable(ones)
    with tf.GradientTape() as t:
        y = f(x, x * 2, tf.constant(1)) * tf.range(6.)
    np.testing.assert_array_equal(t.gradient(y, x).numpy(), [[6., 9., 12.]] * 2)


def test_expand_dims_runtime_axis():
    @tf.function(input_signature=[tf.TensorSpec([2, 3]), INT])
    def f(x, a):
        r = tf.expand_dims(x, a)
        assert r.shape.rank is None  # TF's inference: rank unknown
        return r

    assert f(tf.ones([2, 3]), tf.constant(-1)).shape == (2, 3, 1)
    with pytest.raises(errors.InvalidArgumentError,
                       match='Tried to expand dim index 3 for tensor with 2 dimensions'):
        f(tf.ones([2, 3]), tf.constant(3))
    x = tf.Variable(tf.ones([2, 3]))
    with tf.GradientTape() as t:
        y = f(x, tf.constant(1)) * 3.
    np.testing.assert_array_equal(t.gradient(y, x).numpy(), [[3., 3., 3.]] * 2)
