"""tf.RaggedTensor, RaggedTensorSpec and tf.ragged's factories. Expected values recorded with
TF 2.21."""
import numpy as np
import pytest

import defun as tf


def test_constant_shape_spec_and_text():
    rt = tf.ragged.constant([[1, 2], [3], []])
    assert repr(rt) == '<tf.RaggedTensor [[1, 2], [3], []]>' and str(rt) == repr(rt)
    assert rt.shape.as_list() == [3, None] and rt.dtype == tf.int32
    assert rt.row_splits.dtype == tf.int64 and rt.ragged_rank == 1
    assert repr(rt._type_spec) == 'RaggedTensorSpec(TensorShape([3, None]), tf.int32, 1, tf.int64)'
    rt2 = tf.ragged.constant([[[1.0], [2.0]], [[3.0]]], ragged_rank=1)
    assert rt2.shape.as_list() == [2, None, 1]
    assert repr(rt2._type_spec) == \
        'RaggedTensorSpec(TensorShape([2, None, 1]), tf.float32, 1, tf.int64)'
    rt3 = tf.ragged.constant([[[1, 2], [3]], [[4]]])
    assert repr(rt3._type_spec) == \
        'RaggedTensorSpec(TensorShape([2, None, None]), tf.int32, 2, tf.int64)'
    assert rt.to_list() == [[1, 2], [3], []]


def test_partition_accessors():
    rt = tf.ragged.constant([[1, 2], [3], []])
    np.testing.assert_array_equal(rt.to_tensor().numpy(), [[1, 2], [3, 0], [0, 0]])
    np.testing.assert_array_equal(rt.row_lengths().numpy(), [2, 1, 0])
    assert int(rt.nrows()) == 3 and rt.nrows().dtype == tf.int64
    np.testing.assert_array_equal(rt.value_rowids().numpy(), [0, 0, 1])
    np.testing.assert_array_equal(rt.row_starts().numpy(), [0, 2, 3])
    np.testing.assert_array_equal(rt.row_limits().numpy(), [2, 3, 3])
    np.testing.assert_array_equal(rt.bounding_shape().numpy(), [3, 2])


def test_factories():
    R = tf.RaggedTensor
    assert R.from_tensor([[1, 0], [2, 3]], padding=0).to_list() == [[1], [2, 3]]
    assert R.from_tensor([[1, 0], [2, 3]], lengths=[1, 2]).to_list() == [[1], [2, 3]]
    assert R.from_row_lengths([1, 2, 3], [1, 2]).to_list() == [[1], [2, 3]]
    assert R.from_value_rowids([1, 2, 3, 4], [0, 0, 2, 2], 4).to_list() == [[1, 2], [], [3, 4], []]
    assert R.from_row_starts([1, 2, 3], [0, 1]).to_list() == [[1], [2, 3]]
    assert R.from_row_limits([1, 2, 3], [1, 3]).to_list() == [[1], [2, 3]]
    nested = R.from_nested_row_lengths([1, 2, 3, 4], [[2, 1], [1, 2, 1]])
    assert nested.to_list() == [[[1], [2, 3]], [[4]]]


def test_nested_to_tensor_and_flatten_order():
    rt3 = tf.ragged.constant([[[1, 2], [3]], [[4]]])
    np.testing.assert_array_equal(rt3.to_tensor().numpy(), [[[1, 2], [3, 0]], [[4, 0], [0, 0]]])
    flat = tf.nest.flatten(rt3, expand_composites=True)
    assert [f.numpy().tolist() for f in flat] == [[1, 2, 3, 4], [0, 2, 3], [0, 2, 3, 4]]
    specs = tf.nest.flatten(rt3._type_spec, expand_composites=True)
    assert specs == [tf.TensorSpec([None], tf.int32), tf.TensorSpec([3], tf.int64),
                     tf.TensorSpec([None], tf.int64)]


def test_indexing_rows():
    rt = tf.ragged.constant([[1, 2], [3], []])
    np.testing.assert_array_equal(rt[0].numpy(), [1, 2])
    assert rt[1:].to_list() == [[3], []]
    assert rt[:, :1].to_list() == [[1], [3], []]
    assert [r.numpy().tolist() for r in rt] == [[1, 2], [3], []]


def test_bad_splits_raise_invalid_argument():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match='Arguments to from_row_splits do not form a valid RaggedTensor'):
        tf.RaggedTensor.from_row_splits([1, 2, 3], [0, 2, 1])
    with pytest.raises(ValueError, match='constructor is private'):
        tf.RaggedTensor([1], [0, 1])


