"""math_more.py / array_more.py beyond the registry walk: values recorded from TF 2.21, TF's
errors, and graph-mode shape facts."""
import numpy as np
import pytest

import defun as tf
from defun.core import errors


def test_values_recorded_from_tf():
    np.testing.assert_array_equal(tf.math.segment_max([1., 2., 3.], [0, 0, 2]).numpy(),
                                  [2., 0., 3.])
    np.testing.assert_array_equal(tf.math.unsorted_segment_max([1., 2., 3.], [0, 0, 2], 4).numpy(),
                                  np.array([2., -3.4028235e+38, 3., -3.4028235e+38], np.float32))
    np.testing.assert_array_equal(tf.math.unsorted_segment_max([1, 2, 3], [0, 0, 2], 4).numpy(),
                                  [2, -2147483648, 3, -2147483648])
    y, idx = tf.unique([3, 1, 3, 2])
    assert y.numpy().tolist() == [3, 1, 2] and idx.numpy().tolist() == [0, 1, 0, 2]
    assert type(tf.unique([1])).__name__ == 'Unique'
    assert tf.math.bincount([1, 1, 3]).numpy().tolist() == [0, 2, 0, 1]
    assert tf.math.bincount([1, 1, 3], minlength=6).numpy().tolist() == [0, 2, 0, 1, 0, 0]
    np.testing.assert_allclose(tf.math.bincount([1, 1, 3], weights=[.5, 1., 2.]).numpy(),
                               [0., 1.5, 0., 2.])
    assert tf.repeat([[1, 2], [3, 4]], [1, 2], axis=0).numpy().tolist() == [[1, 2], [3, 4], [3, 4]]
    assert tf.repeat([1, 2], 2).numpy().tolist() == [1, 1, 2, 2]
    assert tf.math.in_top_k([1, 0], [[0.1, 0.9], [0.5, 0.5]], 1).numpy().tolist() == [True, True]
    assert tf.math.count_nonzero([[0, 1], [2, 0]], axis=1).numpy().tolist() == [1, 1]
    assert tf.math.xlogy(0.0, 0.0).numpy() == 0.0


def test_errors():
    with pytest.raises(errors.InvalidArgumentError, match='Incompatible shapes'):
        tf.broadcast_dynamic_shape([2, 3], [4, 3])
    with pytest.raises(ValueError, match='Incompatible shapes'):
        tf.broadcast_static_shape(tf.TensorShape([2, 3]), tf.TensorShape([4, 3]))
    with pytest.raises(errors.InvalidArgumentError, match='not compatible'):
        tf.ensure_shape(tf.zeros([2, 3]), [3, None])
    with pytest.raises(errors.InvalidArgumentError, match='out of range'):
        tf.math.unsorted_segment_sum([1., 2.], [0, 5], 2)
    with pytest.raises(ValueError, match='side'):
        tf.searchsorted([1, 2], [1], side='middle')
    with pytest.raises(errors.InvalidArgumentError, match='non-negative'):
        tf.math.bincount([-1, 2])


def test_bincount_binary_output_refuses_weights():
    # TF 2.21: ValueError before the axis is checked, eager and traced, dense and ragged;
    # without weights, binary_output gives ones in the requested dtype.
    x, w = tf.constant([1, 2, 2, 5]), tf.constant([0.5, 1., 2., 3.])
    for axis in (None, 3):
        with pytest.raises(ValueError, match='`binary_output` and `weights` are mutually'):
            tf.math.bincount(x, weights=w, binary_output=True, axis=axis)
    with pytest.raises(ValueError, match='mutually exclusive'):
        tf.function(lambda a, b: tf.math.bincount(a, weights=b, binary_output=True))(x, w)
    with pytest.raises(ValueError, match='mutually exclusive'):
        tf.math.bincount(tf.ragged.constant([[1], [2, 2]]), weights=tf.ragged.constant(
            [[1.], [2., 3.]]), binary_output=True)
    out = tf.math.bincount(x, binary_output=True, dtype=tf.float32)
    assert out.dtype == tf.float32 and out.numpy().tolist() == [0., 1., 1., 0., 0., 1.]


def test_shape_helpers_and_graph_facts():
    assert tf.broadcast_static_shape(tf.TensorShape([2, 1]), tf.TensorShape([3])) == [2, 3]
    assert tf.broadcast_dynamic_shape([2, 1], [3]).numpy().tolist() == [2, 3]

    @tf.function(input_signature=[tf.TensorSpec([None, None])])
    def f(x):
        y = tf.ensure_shape(x, [None, 3])
        assert y.shape.as_list() == [None, 3]
        return y

    f(tf.zeros([2, 3]))
    with pytest.raises(errors.InvalidArgumentError):
        f(tf.zeros([2, 4]))
    assert [t.numpy() for t in tf.identity_n([1, 2.0])] == [1, 2.0]


def test_segment_gradients_split_ties_as_tf():
    data = tf.constant([1.0, 1.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(data)
        y = tf.math.unsorted_segment_max(data, [0, 0, 1], 2)
    np.testing.assert_allclose(tape.gradient(y, data).numpy(), [0.5, 0.5, 1.0])


def test_group_no_op_and_tuple():
    assert tf.no_op() is None and tf.group(tf.constant(1)) is None
    assert [int(t) for t in tf.tuple([tf.constant(1), tf.constant(2)])] == [1, 2]
    with tf.Graph().as_default():
        a, b = tf.constant(1), tf.constant(2)
        op = tf.group(a, b)
        assert op.type == 'NoOp' and {c.name for c in op.control_inputs} == {a.op.name, b.op.name}
        gated = tf.tuple([a, b])
        assert all(t.op.control_inputs for t in gated)
    v = tf.Variable(0)

    @tf.function
    def f():
        tf.group(v.assign_add(1), v.assign_add(2))

    f()
    assert int(v.numpy()) == 3


def test_debugging_asserts():
    tf.debugging.assert_less([1, 2], 3)
    tf.debugging.assert_non_negative([0, 1])
    with pytest.raises(errors.InvalidArgumentError, match='x < y'):
        tf.debugging.assert_less(tf.constant([1, 5]), 3)
    with pytest.raises(errors.InvalidArgumentError, match='x > 0'):
        tf.debugging.assert_positive([1.0, -1.0])
    # TF 2.21's text (recorded): two spaces, the tensor's name left empty.
    with pytest.raises(ValueError, match=r'^m\.  Tensor  must have rank 2\.  Received rank 1'):
        tf.assert_rank(tf.ones([2]), 2, message='m')

    @tf.function
    def f(x):
        tf.debugging.assert_less_equal(x, 3.0)
        return x * 2

    assert f(tf.constant([1.0, 3.0])).numpy().tolist() == [2.0, 6.0]
    with pytest.raises(errors.InvalidArgumentError):
        f(tf.constant([1.0, 4.0]))


def test_loss_helpers_as_tf():
    # Values recorded from TF 2.21.
    assert float(tf.nn.compute_average_loss([1., 2., 3.], global_batch_size=6)) == 1.0
    assert float(tf.nn.zero_fraction([0., 1., 0., 2.])) == 0.5
    assert float(tf.nn.scale_regularization_loss(3.0)) == 3.0
    assert bool(tf.math.is_strictly_increasing([3])) is True
