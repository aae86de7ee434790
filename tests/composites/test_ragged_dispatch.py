"""TF's elementwise APIs on RaggedTensor (and, for the zero-preserving ones, SparseTensor)
operands, as TF dispatches them. Expected values recorded from TensorFlow 2.21."""
import numpy as np
import pytest

import defun as tf


def _rt():
    return tf.ragged.constant([[1., -2.], [3.], []])


@pytest.mark.parametrize('fn, expected', [
    (lambda rt: tf.abs(rt), [[1.0, 2.0], [3.0], []]),
    (lambda rt: tf.math.abs(rt), [[1.0, 2.0], [3.0], []]),
    (lambda rt: tf.sqrt(tf.abs(rt)), [[1.0, 1.4142135381698608], [1.7320507764816284], []]),
    (lambda rt: tf.add(rt, 1.), [[2.0, -1.0], [4.0], []]),
    (lambda rt: tf.math.add(rt, tf.ragged.constant([[4., 5.], [6.], []])),
     [[5.0, 3.0], [9.0], []]),
    (lambda rt: tf.add(rt, tf.constant([[1.], [2.], [3.]])), [[2.0, -1.0], [5.0], []]),
    (lambda rt: tf.maximum(rt, 0.), [[1.0, 0.0], [3.0], []]),
    (lambda rt: tf.equal(rt, 1.), [[True, False], [False], []]),
    (lambda rt: tf.pow(rt, 2.), [[1.0, 4.0], [9.0], []]),
    (lambda rt: tf.cast(rt, tf.int32), [[1, -2], [3], []]),
    (lambda rt: tf.nn.relu(rt), [[1.0, 0.0], [3.0], []]),
    (lambda rt: tf.zeros_like(rt), [[0.0, 0.0], [0.0], []]),
    (lambda rt: tf.ones_like(rt, dtype=tf.int32), [[1, 1], [1], []]),
    (lambda rt: tf.clip_by_value(rt, -1., 1.), [[1.0, -1.0], [1.0], []]),
    (lambda rt: tf.logical_not(tf.equal(rt, 1.)), [[False, True], [True], []]),
    (lambda rt: tf.math.multiply(x=rt, y=2.), [[2.0, -4.0], [6.0], []]),
    (lambda rt: tf.sigmoid(rt), [[0.7310585975646973, 0.11920291930437088],
                                 [0.9525741338729858], []]),
    (lambda rt: tf.where(rt > 0., rt, 0.), [[1.0, 0.0], [3.0], []]),
])
def test_elementwise_apis_take_ragged_operands(fn, expected):
    out = fn(_rt())
    assert isinstance(out, tf.RaggedTensor)
    np.testing.assert_allclose(np.array(sum(out.to_list(), []), dtype=float),
                               np.array(sum(expected, []), dtype=float), rtol=1e-6)


def test_string_apis_on_ragged_strings():
    words = tf.ragged.constant([['ab', 'b'], ['c']])
    assert tf.strings.upper(words).to_list() == [[b'AB', b'B'], [b'C']]
    assert tf.strings.length(words).to_list() == [[2, 1], [1]]


def test_different_partitions_are_invalid_argument():
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.add(_rt(), tf.ragged.constant([[1.], [2.], [3.]]))


def test_dense_arguments_still_fail_as_before():
    with pytest.raises(ValueError, match='could not be converted'):
        tf.math.argmax(_rt(), axis=1)   # not an elementwise API: TF refuses it too
    with pytest.raises(ValueError):
        tf.add(object(), 1.)


def test_zero_preserving_unary_apis_map_sparse_values():
    st = tf.sparse.SparseTensor([[0, 0], [1, 2]], [1., -2.], [2, 3])
    assert tf.sparse.to_dense(tf.abs(st)).numpy().tolist() == [[1., 0., 0.], [0., 0., 2.]]
    assert tf.sparse.to_dense(tf.math.negative(st)).numpy().tolist() == [[-1., 0., 0.],
                                                                        [0., 0., 2.]]
    assert tf.sparse.to_dense(tf.cast(st, tf.int32)).numpy().tolist() == [[1, 0, 0], [0, 0, -2]]
    with pytest.raises(ValueError):
        tf.math.exp(st)   # exp(0) is not 0: TF refuses a SparseTensor
    with pytest.raises(ValueError):
        tf.add(st, 1.)


def test_inside_tf_function():
    @tf.function
    def f(r):
        return tf.add(tf.abs(r), 1.)
    assert f(_rt()).to_list() == [[2.0, 3.0], [4.0], []]


def test_gradient_through_ragged_apis_matches_finite_differences():
    values = np.array([1., -2., 3.])

    def objective(flat):
        rt = tf.RaggedTensor.from_row_splits(flat, [0, 2, 3, 3])
        return tf.reduce_sum(tf.math.multiply(tf.sin(rt), rt) + tf.maximum(rt, 0.5))

    flat = tf.constant(values)
    with tf.GradientTape() as tape:
        tape.watch(flat)
        y = objective(flat)
    grad = tape.gradient(y, flat).numpy()
    eps = 1e-6
    numeric = [(float(objective(tf.constant(values + eps * e))) -
                float(objective(tf.constant(values - eps * e)))) / (2 * eps)
               for e in np.eye(3)]
    np.testing.assert_allclose(grad, numeric, rtol=1e-6)
