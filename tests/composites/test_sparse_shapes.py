"""tf.sparse.eye, tf.sparse.reset_shape and tf.sparse.mask. Expected values recorded with TF
2.21."""
import pytest

import defun as tf


def test_eye():
    assert tf.sparse.to_dense(tf.sparse.eye(3, 4, dtype=tf.int32)).numpy().tolist() == \
        [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]]
    square = tf.sparse.eye(2)
    assert square.dense_shape.numpy().tolist() == [2, 2] and square.values.dtype == tf.float32


def test_reset_shape():
    st = tf.SparseTensor([[0, 1], [2, 0]], [5, 6], [4, 5])
    assert tf.sparse.reset_shape(st).dense_shape.numpy().tolist() == [3, 2]
    assert tf.sparse.reset_shape(st, [6, 7]).dense_shape.numpy().tolist() == [6, 7]
    empty = tf.SparseTensor(tf.zeros([0, 2], tf.int64), tf.zeros([0]), [3, 3])
    assert tf.sparse.reset_shape(empty).dense_shape.numpy().tolist() == [0, 0]
    with pytest.raises(ValueError, match='should have dimension sizes >= sp_input.shape'):
        tf.sparse.reset_shape(st, [3, 7])


def test_mask():
    slices = tf.IndexedSlices(tf.constant([[1., 2.], [3., 4.], [5., 6.]]), tf.constant([4, 7, 9]),
                              tf.constant([10, 2]))
    kept = tf.sparse.mask(slices, [7, 12])
    assert kept.values.numpy().tolist() == [[1.0, 2.0], [5.0, 6.0]]
    assert kept.indices.numpy().tolist() == [4, 9]
    assert kept.dense_shape.numpy().tolist() == [10, 2]
