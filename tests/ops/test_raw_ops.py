"""tf.raw_ops: Bucketize against values recorded from TF 2.21 (upper bounds over float32
boundaries, NaN and infinities, float64 inputs compared in float64, duplicate and empty
boundaries), TF's refusals, keyword-only calls, and the entries that run defun's public ops."""
import numpy as np
import pytest

import defun as tf
from defun.core import errors
from defun.core.unsupported import NotInDefunError

B = tf.raw_ops.Bucketize


@pytest.mark.parametrize('values, dtype, boundaries, expected', [
    ([[-5, 10000], [150, 10], [5, 100]], tf.int32, [0., 10., 100.], [[0, 3], [3, 2], [1, 3]]),
    ([0.5, 1.0, np.nan, -np.inf, np.inf], tf.float32, [0.5, 1.0], [1, 2, 2, 0, 2]),
    ([0.1, 0.30000001], tf.float64, [0.1, 0.3], [0, 1]),
    ([1, 2], tf.int64, [1.5], [0, 1]),
    ([1.0], tf.float32, [], [0]),
    ([1.0, 2.0], tf.float32, [1., 1., 2.], [2, 3]),
    ([1.0], tf.float32, [1, 2], [1]),
])
def test_bucketize_matches_tf(values, dtype, boundaries, expected):
    out = B(input=tf.constant(values, dtype), boundaries=boundaries)
    assert out.dtype == tf.int32
    np.testing.assert_array_equal(out.numpy(), expected)


def test_bucketize_scalar_graph_shape_and_no_gradient():
    assert int(B(input=tf.constant(1.5), boundaries=[1., 2.])) == 1
    f = tf.function(lambda x: B(input=x, boundaries=[1.5]))
    concrete = f.get_concrete_function(tf.TensorSpec([None, 3], tf.float32))
    assert concrete.outputs[0].shape.as_list() == [None, 3] and concrete.outputs[0].dtype == tf.int32
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.cast(B(input=x, boundaries=[1.5]), tf.float32)
    assert tape.gradient(y, x) is None


@pytest.mark.parametrize('call, kind', [
    (lambda: B(input=tf.constant([1.0]), boundaries=[2., 1.]), errors.InvalidArgumentError),
    (lambda: B(input=tf.constant([1.0], tf.float16), boundaries=[2.]), errors.InvalidArgumentError),
    (lambda: B(input=tf.constant([True]), boundaries=[2.]), errors.InvalidArgumentError),
    (lambda: B(tf.constant([1.0]), [2.]), TypeError),
    (lambda: B(input=tf.constant([1.0]), boundaries=tf.constant([1., 2.])), TypeError),
])
def test_bucketize_refusals_as_tf(call, kind):
    with pytest.raises(kind):
        call()


def test_unsorted_boundaries_fail_when_a_graph_runs():
    f = tf.function(lambda x: B(input=x, boundaries=[2., 1.]))
    with pytest.raises(errors.InvalidArgumentError, match='Expected sorted boundaries'):
        f(tf.constant([1.0]))


def test_raw_ops_run_the_public_ops():
    y, idx = tf.raw_ops.Unique(x=tf.constant([3, 1, 3]), out_idx=tf.int64)
    assert y.numpy().tolist() == [3, 1] and idx.dtype == tf.int64 and idx.numpy().tolist() == [0, 1, 0]
    assert tf.raw_ops.AddV2(x=tf.constant([3, 1, 3]), y=1).numpy().tolist() == [4, 2, 4]
    out = tf.raw_ops.Conv2D(input=tf.ones([1, 3, 3, 1]), filter=tf.ones([2, 2, 1, 1]),
                            strides=[1, 1, 1, 1], padding='EXPLICIT',
                            explicit_paddings=[0, 0, 1, 0, 0, 1, 0, 0])
    assert out.shape == (1, 3, 3, 1) and float(out[0, 0, 0, 0]) == 2.0


def test_other_raw_ops_are_named_as_missing():
    with pytest.raises(NotInDefunError, match='tf.raw_ops.CudnnRNNV3'):
        tf.raw_ops.CudnnRNNV3
    assert 'Bucketize' in dir(tf.raw_ops)
