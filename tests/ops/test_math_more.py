"""math_more.py / array_more.py beyond the registry walk: values recorded from TF 2.21, TF's
errors, and graph-mode shape facts."""
import numpy as np
import pytest

import defun as tf
from defun import errors


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
