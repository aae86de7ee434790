"""tf.test: build queries and compute_gradient (expected values recorded with TensorFlow 2.21)."""
import numpy as np
import pytest

import defun as tf
from defun.core.unsupported import NotInDefunError


def test_build_queries_say_cpu_only():
    assert not tf.test.is_built_with_cuda() and not tf.test.is_built_with_rocm()
    assert not tf.test.is_gpu_available() and not tf.test.is_built_with_gpu_support()
    assert tf.test.gpu_device_name() == ''


def test_compute_gradient_shapes_and_values():
    # TF 2.21: y_size rows, x_size columns per argument, theoretical then numeric.
    theo, num = tf.test.compute_gradient(lambda x, y: x * y, [tf.constant([1., 2.]), tf.constant(3.)])
    np.testing.assert_allclose(theo[0], [[3., 0.], [0., 3.]])
    np.testing.assert_allclose(theo[1], [[1.], [2.]])
    np.testing.assert_allclose(num[1], [[1.], [2.]], rtol=1e-4)
    assert theo[0].dtype == np.float32
    theo, num = tf.test.compute_gradient(lambda x: tf.reduce_sum(x), [tf.constant([1., 2., 3.])])
    assert theo[0].shape == num[0].shape == (1, 3)
    theo, num = tf.test.compute_gradient(tf.sin, [tf.constant([1., 2.], tf.float64)])
    np.testing.assert_allclose(np.diag(theo[0]), np.cos([1., 2.]))
    np.testing.assert_allclose(np.diag(num[0]), np.cos([1., 2.]), rtol=1e-6)


def test_compute_gradient_refuses_integers_and_testcase_is_not_here():
    with pytest.raises(TypeError, match='int32'):
        tf.test.compute_gradient(lambda x: x * 2, [tf.constant([1, 2])])
    with pytest.raises(NotInDefunError, match='tf.test.TestCase'):
        tf.test.TestCase
