"""tf.ragged.stack_dynamic_partitions and tf.type_spec_from_value. Expected values recorded with
TF 2.21."""
import numpy as np
import pytest

import defun as tf


def test_stack_dynamic_partitions_matches_tf():
    sdp = tf.ragged.stack_dynamic_partitions
    assert sdp(['a', 'b', 'c', 'd', 'e'], [3, 0, 2, 2, 3], 5).to_list() == \
        [[b'b'], [], [b'c', b'd'], [b'a', b'e'], []]
    assert sdp([[1, 2], [3, 4], [5, 6]], [1, 0, 1], tf.constant(3)).to_list() == \
        [[[3, 4]], [[1, 2], [5, 6]], []]
    assert sdp([[1, 2], [3, 4]], [[1, 0], [0, 0]], 2).to_list() == [[2, 3, 4], [1]]
    assert sdp(tf.ragged.constant([[1, 2, 3], [4]]), tf.ragged.constant([[0, 1, 0], [1]]),
               2).to_list() == [[1, 3], [2, 4]]
    assert sdp(tf.ragged.constant([[1, 2, 3], [4], [5]]), [1, 0, 1], 2).to_list() == \
        [[[4]], [[1, 2, 3], [5]]]
    assert sdp([1, 2], 1, 3).to_list() == [[], [[1, 2]], []]


def test_stack_dynamic_partitions_in_a_function():
    f = tf.function(lambda d, p: tf.ragged.stack_dynamic_partitions(d, p, 3))
    out = f(tf.constant([5.0, 6.0, 7.0]), tf.constant([2, 0, 2]))
    assert out.to_list() == [[6.0], [], [5.0, 7.0]]


def test_stack_dynamic_partitions_bad_input():
    sdp = tf.ragged.stack_dynamic_partitions
    with pytest.raises(tf.errors.InvalidArgumentError, match='less than num_partitions'):
        sdp([1, 2], [0, 3], 3)
    with pytest.raises(tf.errors.InvalidArgumentError, match='must be non-negative'):
        sdp([1, 2], [-1, 0], 3)
    with pytest.raises(ValueError, match='value_rowids must have dtype int32 or int64'):
        sdp([1, 2], [1.0, 2.0], 3)


def test_type_spec_from_value():
    spec = tf.type_spec_from_value(tf.ragged.constant([['a'], ['b', 'c']], dtype=tf.string))
    assert spec.dtype == tf.string and spec.row_splits_dtype == tf.int64
    assert repr(spec) == 'RaggedTensorSpec(TensorShape([2, None]), tf.string, 1, tf.int64)'
    rt = tf.ragged.constant([[[0, 1]], [[1, 2], [3, 4]]], ragged_rank=1)
    assert tf.type_spec_from_value(rt).shape.as_list() == [2, None, 2]
    assert repr(tf.type_spec_from_value(np.zeros((2, 3)))) == \
        'TensorSpec(shape=(2, 3), dtype=tf.float64, name=None)'
    assert repr(tf.type_spec_from_value([1, 2])) == \
        'TensorSpec(shape=(2,), dtype=tf.int32, name=None)'
    assert repr(tf.type_spec_from_value(tf.Variable(1.0))) == \
        'VariableSpec(shape=(), dtype=tf.float32, trainable=True, alias_id=None)'
    assert repr(tf.type_spec_from_value(tf.sparse.from_dense([[1, 0]]))) == \
        'SparseTensorSpec(TensorShape([1, 2]), tf.int32)'
    with pytest.raises(TypeError, match='Could not build a TypeSpec for'):
        tf.type_spec_from_value(object())
