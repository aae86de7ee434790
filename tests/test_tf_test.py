"""tf.test: build queries and compute_gradient (expected values recorded with TensorFlow 2.21)."""
import os
import platform
import unittest

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


def test_compute_gradient_refuses_integers_and_benchmark_is_not_here():
    with pytest.raises(TypeError, match='int32'):
        tf.test.compute_gradient(lambda x: x * 2, [tf.constant([1, 2])])
    with pytest.raises(NotInDefunError, match='tf.test.Benchmark'):
        tf.test.Benchmark


def test_cpu_target_is_this_machines_family_and_unknown_targets_fail_as_tf():
    machine = platform.machine().lower()
    assert tf.test.is_cpu_target_available('x86') == machine.startswith(('x86', 'amd64'))
    assert tf.test.is_cpu_target_available('aarch64') == machine.startswith(('aarch64', 'arm64'))
    with pytest.raises(AssertionError, match='Unknown CPU target: foo'):
        tf.test.is_cpu_target_available('foo')


def _run(case):
    result = unittest.TestResult()
    unittest.defaultTestLoader.loadTestsFromTestCase(case).run(result)
    return result


def test_testcase_seeds_as_tf_and_compares_values():
    seen = []

    class Case(tf.test.TestCase):
        def test_values(self):
            # TF 2.21: setUp seeds tf.random, numpy and random with 87654321
            seen.append(tf.random.uniform([2]).numpy().tolist())
            seen.append(np.random.rand())
            self.assertAllClose({'a': tf.constant([1., 2.]), 'b': [3., (4., 5.)]},
                                {'a': [1., 2.0000001], 'b': [3., (4., 5.)]})
            self.assertNotAllClose([1., 2.], [1., 2.1])
            self.assertAllEqual(tf.constant([[1, 2]]), [[1, 2]])
            self.assertAllInRange(tf.constant([1, 2]), 1, 2)
            self.assertAllInSet(tf.constant([1, 2, 1]), {1, 2})
            self.assertDTypeEqual(tf.constant([1.]), np.float32)
            self.assertAllGreater(tf.constant([2, 3]), 1)
            self.assertEqual(self.evaluate((tf.constant(1), [tf.constant(2.)]))[1][0], 2.0)
            with self.assertRaisesOpError('must be'):
                tf.debugging.assert_positive(tf.constant([-1.0]), message='must be')

        def test_mismatches_fail(self):
            with self.assertRaises(AssertionError):
                self.assertAllClose([1., 2.], [1., 2.1])
            with self.assertRaises(AssertionError):
                self.assertAllEqual(tf.constant([1, 2]), [[1, 2]])
            with self.assertRaises(AssertionError):
                self.assertAllLess(tf.constant([1, 3]), 2)

    result = _run(Case)
    assert result.wasSuccessful(), result.failures + result.errors
    assert result.testsRun == 2
    np.testing.assert_allclose(seen[0], [0.5836374759674072, 0.2972298860549927])
    assert seen[1] == 0.18463433217903202


def test_testcase_get_temp_dir_is_removed_after_the_test():
    dirs = []

    class Case(tf.test.TestCase):
        def test_dir(self):
            dirs.append(self.get_temp_dir())
            assert os.path.isdir(dirs[0]) and self.get_temp_dir() == dirs[0]

    assert _run(Case).wasSuccessful()
    assert not os.path.exists(dirs[0])
