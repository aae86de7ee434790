"""Ragged elementwise ops, reductions, factories and conversions against TF 2.21: every result
below (and a gradient through the flat values) was recorded from TF by running these same calls."""
import numpy as np
import pytest

import defun as tf
from defun.autodiff import gradient_check

TF_RESULTS = {'abs': [[1.0, 2.0], [3.0], [4.0, 5.0, 6.0]],
 'add': [[2, 3], [4], []],
 'all1': [False, True, True],
 'any1': [True, False, False],
 'bcast': [[11.0, 12.0], [23.0]],
 'div': [[0.5, 1.0], [1.5], [-2.0, 2.5, 3.0]],
 'from_sparse': [[1, 2], [], [3]],
 'from_tensor_pad3': [[[1, 1]], [[2, 0]]],
 'grad': [1.0, 6.0, 7.0, 1.0, 2.0, 15.0],
 'gt': [[False, True], [True], []],
 'ids_splits': [0, 2, 2, 5],
 'mapfv': [[1.0, 4.0], [9.0], [16.0, 25.0, 36.0]],
 'max0': [3.0, 5.0, 6.0],
 'max1': [2.0, 3.0, 6.0],
 'mean0': [0.0, 3.5, 6.0],
 'mean1': [1.5, 3.0, 2.3333332538604736],
 'mean2': [[1.5, 3.0], [4.0]],
 'merge': [[1.0, 2.0], [3.0], [4.0]],
 'min1': [1.0, 3.0, -4.0],
 'mul': [[1, 4], [9], []],
 'neg': [[-1, -2], [-3], []],
 'nested_lengths': [2, 1, 1],
 'pow': [[1.0, 4.0], [9.0], [16.0, 25.0, 36.0]],
 'prod1': [2.0, 3.0, -120.0],
 'range': [[3, 4], [], [4, 6, 8]],
 'rowsplits_ids': [0, 0, 2, 2, 2],
 'rr': [[2.0, 4.0], [6.0], [-8.0, 10.0, 12.0]],
 'rsub': [[0, -1], [-2], []],
 'sum0': [4, 2],
 'sum1': [3, 3, 0],
 'sum_12': [6.0, 4.0],
 'sum_rt3_1': [[4.0, 6.0], [5.0, 6.0]],
 'sumall': 6,
 'to_tensor_def': [[1.0, 2.0, -1.0], [3.0, -1.0, -1.0], [-4.0, 5.0, 6.0]],
 'to_tensor_shape': [[1.0, 2.0, 0.0, 0.0], [3.0, 0.0, 0.0, 0.0]]}


def _record():
    out = {}

    def rec(name, v):
        out[name] = v.to_list() if isinstance(v, tf.RaggedTensor) else np.asarray(v).tolist()
    rt = tf.ragged.constant([[1, 2], [3], []])
    rt3 = tf.ragged.constant([[[1., 2.], [3.]], [[4.]]])
    rf = tf.ragged.constant([[1., 2.], [3.], [-4., 5., 6.]])
    rec('add', rt + 1)
    rec('mul', rt * rt)
    rec('rsub', 1 - rt)
    rec('gt', rt > 1)
    rec('neg', -rt)
    rec('div', rf / 2.)
    rec('pow', rf ** 2)
    rec('abs', abs(rf))
    rec('sum1', tf.reduce_sum(rt, axis=1))
    rec('mean2', tf.reduce_mean(rt3, axis=2))
    rec('sumall', tf.reduce_sum(rt))
    rec('max0', tf.reduce_max(rf, axis=0))
    rec('sum0', tf.reduce_sum(rt, axis=0))
    rec('max1', tf.reduce_max(rf, axis=1))
    rec('min1', tf.reduce_min(rf, axis=1))
    rec('prod1', tf.reduce_prod(rf, axis=1))
    rec('mean1', tf.reduce_mean(rf, axis=1))
    rec('mean0', tf.reduce_mean(rf, axis=0))
    rec('any1', tf.reduce_any(tf.ragged.constant([[True, False], [False], []]), axis=1))
    rec('all1', tf.reduce_all(tf.ragged.constant([[True, False], [True], []]), axis=1))
    rec('bcast', tf.ragged.constant([[1., 2.], [3.]]) + tf.constant([[10.], [20.]]))
    rec('sum_rt3_1', tf.reduce_sum(tf.ragged.constant([[[1., 2.], [3., 4.]], [[5., 6.]]], ragged_rank=1), axis=1))
    rec('sum_12', tf.reduce_sum(rt3, axis=[1, 2]))
    rec('rr', rf + rf)
    rec('mapfv', tf.ragged.map_flat_values(tf.square, rf))
    rec('range', tf.ragged.range([3, 1, 4], [5, 1, 9], [1, 1, 2]))
    rec('rowsplits_ids', tf.ragged.row_splits_to_segment_ids([0, 2, 2, 5]))
    rec('ids_splits', tf.ragged.segment_ids_to_row_splits([0, 0, 2, 2, 2]))
    rec('to_tensor_shape', rf.to_tensor(shape=[2, 4]))
    rec('to_tensor_def', rf.to_tensor(default_value=-1.))
    rec('from_tensor_pad3', tf.RaggedTensor.from_tensor([[[1, 1], [0, 0]], [[2, 0], [0, 0]]], padding=[0, 0]))
    rec('from_sparse', tf.RaggedTensor.from_sparse(tf.SparseTensor([[0, 0], [0, 1], [2, 0]], [1, 2, 3], [3, 4])))
    rec('nested_lengths', rt3.nested_row_lengths()[1])
    rec('merge', rt3.merge_dims(0, 1) if hasattr(rt3, 'merge_dims') else [])
    with tf.GradientTape() as tape:
        fv = tf.constant([1., 2., 3., -4., 5., 6.])
        tape.watch(fv)
        r = tf.RaggedTensor.from_row_lengths(fv, [2, 1, 3])
        y = tf.reduce_sum(tf.reduce_max(r * r, axis=1)) + tf.reduce_sum(r.to_tensor() * tf.constant([[1., 2., 3.]]))
    rec('grad', tape.gradient(y, fv))
    return out


RESULTS = _record()


@pytest.mark.parametrize('name', sorted(TF_RESULTS))
def test_matches_tf(name):
    assert RESULTS[name] == TF_RESULTS[name]


def test_gradients_through_flat_values_match_finite_differences():
    def f(values):
        rt = tf.RaggedTensor.from_row_lengths(values, [2, 1, 3])
        return tf.reduce_sum(tf.reduce_max(rt * rt, axis=1)) + tf.reduce_sum(rt.to_tensor() * 2.)

    values = np.array([1., 2.5, 3., -4., 5., 6.5])
    assert gradient_check.gradient_error(f, [values]) < 1e-6


def test_different_partitions_are_refused():
    with pytest.raises(tf.errors.InvalidArgumentError, match='different row partitions'):
        tf.ragged.constant([[1, 2], [3]]) + tf.ragged.constant([[1], [2, 3]])


def test_ragged_range_takes_the_widest_dtype_of_its_arguments():
    # TF 2.21: tf.ragged.range(tf.constant([2, 3], tf.int64)) has int64 values (the start, a
    # Python 0, follows the limits' dtype).
    rt = tf.ragged.range(tf.constant([2, 3], tf.int64))
    assert rt.dtype == tf.int64 and rt.to_list() == [[0, 1], [0, 1, 2]]
    assert tf.ragged.range(tf.constant([1.5]), 3).to_list() == [[1.5, 2.5]]


def test_sparse_to_dense_without_entries():
    empty = tf.SparseTensor(tf.zeros([0, 1], tf.int64), tf.zeros([0]), [3])
    assert tf.sparse.to_dense(empty).numpy().tolist() == [0., 0., 0.]
