"""tf.SparseTensor, SparseTensorSpec, tf.sparse.to_dense/from_dense. Expected values recorded
with TF 2.21."""
import numpy as np
import pytest

import defun as tf


def _st():
    return tf.sparse.SparseTensor(indices=[[0, 0], [1, 2]], values=[1, 2], dense_shape=[3, 4])


def test_construction_types_shape_and_spec_follow_tf():
    st = _st()
    assert st.shape == tf.TensorShape([3, 4]) and st.dtype == tf.int32
    assert st.indices.dtype == tf.int64 and st.dense_shape.dtype == tf.int64
    assert repr(st._type_spec) == 'SparseTensorSpec(TensorShape([3, 4]), tf.int32)'
    assert repr(tf.SparseTensorSpec([None, 4], tf.float32)) == \
        'SparseTensorSpec(TensorShape([None, 4]), tf.float32)'
    assert repr(st) == (
        'SparseTensor(indices=tf.Tensor(\n[[0 0]\n [1 2]], shape=(2, 2), dtype=int64), '
        'values=tf.Tensor([1 2], shape=(2,), dtype=int32), '
        'dense_shape=tf.Tensor([3 4], shape=(2,), dtype=int64))')


def test_to_dense_and_from_dense():
    np.testing.assert_array_equal(tf.sparse.to_dense(_st()).numpy(),
                                  [[1, 0, 0, 0], [0, 0, 2, 0], [0, 0, 0, 0]])
    st = tf.sparse.from_dense([[0, 1], [2, 0]])
    np.testing.assert_array_equal(st.indices.numpy(), [[0, 1], [1, 0]])
    np.testing.assert_array_equal(st.values.numpy(), [1, 2])
    np.testing.assert_array_equal(st.dense_shape.numpy(), [2, 2])
    assert st.values.dtype == tf.int32


def test_bad_input_gets_tfs_exceptions():
    with pytest.raises(ValueError, match='Dimensions 1 and 2 are not compatible'):
        tf.SparseTensor([[0]], [1, 2], [3])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r'indices\[0\] = \[0,5\] is out of bounds: need 0 <= index < \[3,3\]'):
        tf.sparse.to_dense(tf.SparseTensor([[0, 5]], [1], [3, 3]))


def test_nest_expands_sparse_tensors_and_specs():
    st = _st()
    flat = tf.nest.flatten(st, expand_composites=True)
    assert [t.dtype for t in flat] == [tf.int64, tf.int32, tf.int64]
    specs = tf.nest.flatten(st._type_spec, expand_composites=True)
    assert specs == [tf.TensorSpec([None, 2], tf.int64), tf.TensorSpec([None], tf.int32),
                     tf.TensorSpec([2], tf.int64)]
    assert tf.nest.flatten(st) == [st]
    doubled = tf.nest.map_structure(lambda t: t * 2 if t.dtype == tf.int32 else t, st,
                                    expand_composites=True)
    np.testing.assert_array_equal(doubled.values.numpy(), [2, 4])


def test_to_dense_gradient_reaches_values_and_default():
    values = tf.constant([1.5, -2.0])
    with tf.GradientTape() as tape:
        tape.watch(values)
        dense = tf.sparse.to_dense(tf.SparseTensor([[0, 1], [1, 0]], values, [2, 3]))
        y = tf.reduce_sum(dense * tf.constant([[1., 2., 3.], [4., 5., 6.]]))
    np.testing.assert_allclose(tape.gradient(y, values).numpy(), [2., 4.])


def test_type_spec_is_tfs_base():
    assert isinstance(tf.TensorSpec([1]), tf.TypeSpec)
    assert isinstance(_st()._type_spec, tf.TypeSpec)
