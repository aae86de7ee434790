"""tf.vectorized_map against values recorded from TF 2.21: reductions and matmuls per element,
results that do not depend on the element (repeated), nested structures in and out, None results,
empty batches, gradients to captured Variables, use inside tf.function with new batch sizes, and
TF's refusals of scalars and of mismatched first dimensions."""
import numpy as np
import pytest

import defun as tf
from defun.core import errors

X = np.arange(6.0, dtype=np.float32).reshape(3, 2)


def test_values_match_tf():
    x = tf.constant(X)
    np.testing.assert_array_equal(tf.vectorized_map(lambda r: tf.reduce_sum(r * r), x),
                                  [1.0, 13.0, 41.0])
    np.testing.assert_array_equal(tf.vectorized_map(lambda r: tf.matmul(r[None], tf.ones([2, 3])),
                                                    x),
                                  [[[1.0] * 3], [[5.0] * 3], [[9.0] * 3]])
    out = tf.vectorized_map(lambda r: r * 2, tf.constant([[1, 2], [3, 4]]))
    assert out.dtype == tf.int32 and out.numpy().tolist() == [[2, 4], [6, 8]]


def test_results_independent_of_the_element_are_repeated():
    x = tf.constant(X)
    assert tf.vectorized_map(lambda r: tf.constant([1.0, 2.0]), x).numpy().tolist() == \
        [[1.0, 2.0]] * 3
    assert tf.vectorized_map(lambda r: 3.0, x).numpy().tolist() == [3.0] * 3


def test_structures_none_and_empty():
    x = tf.constant(X)
    a, b = tf.vectorized_map(lambda e: (e[0] + e[1], e[0] * 2), (x, tf.ones([3])))
    assert a.numpy().tolist() == [[1, 2], [3, 4], [5, 6]]
    assert b.numpy().tolist() == [[0, 2], [4, 6], [8, 10]]
    d = tf.vectorized_map(lambda e: {'s': e['p'] + 1}, {'p': x})
    assert d['s'].numpy().tolist() == [[1, 2], [3, 4], [5, 6]]
    assert tf.vectorized_map(lambda r: None, x) is None
    empty = tf.vectorized_map(lambda r: r * 2, tf.zeros([0, 2]))
    assert empty.shape == (0, 2)


def test_fallback_flag_is_accepted():
    out = tf.vectorized_map(lambda r: tf.reduce_sum(r), tf.constant(X),
                            fallback_to_while_loop=False)
    assert out.numpy().tolist() == [1.0, 5.0, 9.0]


def test_gradient_to_a_captured_variable_matches_tf():
    w = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        y = tf.vectorized_map(lambda r: tf.reduce_sum(r * w), tf.constant(X))
    assert y.numpy().tolist() == [2.0, 8.0, 14.0]
    assert tape.gradient(y, w).numpy().tolist() == [6.0, 9.0]


def test_inside_a_function_with_new_batch_sizes():
    @tf.function
    def f(z):
        return tf.vectorized_map(lambda r: tf.reduce_max(r), z)
    assert f(tf.constant(X)).numpy().tolist() == [1.0, 3.0, 5.0]
    assert f(tf.ones([5, 2])).numpy().tolist() == [1.0] * 5


def test_refusals_as_tf():
    with pytest.raises(IndexError):
        tf.vectorized_map(lambda a: a, tf.constant(1.0))
    with pytest.raises(errors.InvalidArgumentError):
        tf.vectorized_map(lambda a: a[0], (tf.constant(X), tf.ones([4])))
