"""tf.sparse's ops against TF 2.21: every result below (indices, values, dense shapes, dense
results and a gradient through the values) was recorded from TF by running these same calls."""
import numpy as np
import pytest

import defun as tf
from defun.autodiff import gradient_check

TF_RESULTS = {'add_sd': [[1.0, 2.0, 1.0, 1.0], [3.0, 1.0, 4.0, 1.0], [1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 5.0]],
 'add_ss': {'i': [[0, 1], [1, 0], [1, 2], [2, 2], [3, 3]],
            's': [4, 4],
            'v': [11.0, 2.0, 3.0, -1.0, 4.0]},
 'add_thresh': {'i': [[1, 0], [1, 2], [3, 3]], 's': [4, 4], 'v': [2.0, 3.0, 4.0]},
 'bincount': {'i': [[0], [2], [3]], 's': [4], 'v': [1, 1, 2]},
 'bincount_dense': {'i': [[0, 1], [0, 4], [1, 0], [1, 2]], 's': [2, 5], 'v': [1, 1, 1, 1]},
 'bincount_row': {'i': [[0, 0], [0, 3], [1, 2], [2, 3]], 's': [3, 4], 'v': [1, 1, 1, 1]},
 'concat': {'i': [[0, 1], [0, 5], [1, 0], [1, 2], [2, 6], [3, 3]],
            's': [4, 8],
            'v': [1.0, 10.0, 2.0, 3.0, -1.0, 4.0]},
 'concat0': {'i': [[0, 1], [1, 0], [1, 2], [3, 3], [4, 1], [6, 2]],
             's': [8, 4],
             'v': [1.0, 2.0, 3.0, 4.0, 10.0, -1.0]},
 'fill': [{'i': [[0, 1], [1, 0], [1, 2], [2, 0], [3, 3]],
           's': [4, 4],
           'v': [1.0, 2.0, 3.0, -1.0, 4.0]},
          [False, False, True, False]],
 'grad_vals': [29.0, 37.0, 269.0, 683.0],
 'indicator': [[True, False, False, True], [False, False, True, False],
               [False, False, False, True]],
 'matmul': [[2.0, 3.0], [12.0, 17.0], [0.0, 0.0], [24.0, 28.0]],
 'matmul_adj': [[2.0, 3.0], [12.0, 17.0], [0.0, 0.0], [24.0, 28.0]],
 'matmul_adja': [[4.0, 6.0], [0.0, 1.0], [6.0, 9.0], [24.0, 28.0]],
 'reorder': {'i': [[0, 1], [1, 0], [1, 2], [3, 3]], 's': [4, 4], 'v': [1.0, 2.0, 3.0, 4.0]},
 'reshape': {'i': [[0, 1], [0, 4], [0, 6], [1, 7]], 's': [2, 8], 'v': [1.0, 2.0, 3.0, 4.0]},
 'reshape3': {'i': [[0, 1], [2, 0], [3, 0], [7, 1]], 's': [8, 2], 'v': [1.0, 2.0, 3.0, 4.0]},
 'retain': {'i': [[0, 1], [1, 2]], 's': [4, 4], 'v': [1.0, 3.0]},
 'rmax': -1.0,
 'rmax0': [-2.0, -1.0, -3.0, 0.0],
 'rmax1': [-1.0, -2.0, 0.0],
 'rsum': 10.0,
 'rsum0k': [[2.0, 1.0, 3.0, 4.0]],
 'rsum1': [1.0, 5.0, 0.0, 4.0],
 'rsum_sp': {'i': [[0], [1], [3]], 's': [4], 'v': [1.0, 5.0, 4.0]},
 'seg_mean': [[3.0, 4.0], [0.0, 0.0], [3.0, 4.0]],
 'seg_sqrt': [[4.242640495300293, 5.656854152679443], [3.0, 4.0]],
 'seg_sum': [[6.0, 8.0], [3.0, 4.0]],
 'seg_sum_n': [[6.0, 8.0], [3.0, 4.0], [0.0, 0.0], [0.0, 0.0]],
 'slice': {'i': [[0, 0], [0, 2]], 's': [2, 3], 'v': [2.0, 3.0]}}


def _record():
    out = {}

    def rec(name, v):
        if isinstance(v, tf.SparseTensor):
            v = {'i': v.indices.numpy().tolist(), 'v': v.values.numpy().tolist(),
                 's': v.dense_shape.numpy().tolist()}
        elif isinstance(v, (tuple, list)):
            v = [rec(None, x) for x in v]
        else:
            v = np.asarray(v).tolist()
        if name:
            out[name] = v
        return v
    st = tf.SparseTensor([[0, 1], [1, 0], [1, 2], [3, 3]], [1., 2., 3., 4.], [4, 4])
    un = tf.SparseTensor([[1, 2], [0, 1], [3, 3], [1, 0]], [3., 1., 4., 2.], [4, 4])
    b = tf.SparseTensor([[0, 1], [2, 2]], [10., -1.], [4, 4])
    d = tf.constant(np.arange(8, dtype=np.float32).reshape(4, 2))
    rec('reorder', tf.sparse.reorder(un))
    rec('reshape', tf.sparse.reshape(st, [2, -1]))
    rec('reshape3', tf.sparse.reshape(st, [8, 2]))
    rec('slice', tf.sparse.slice(st, [1, 0], [2, 3]))
    rec('concat', tf.sparse.concat(1, [st, b]))
    rec('concat0', tf.sparse.concat(0, [st, b]))
    rec('retain', tf.sparse.retain(st, [True, False, True, False]))
    rec('fill', tf.sparse.fill_empty_rows(st, -1.))
    rec('add_ss', tf.sparse.add(st, b))
    rec('add_thresh', tf.sparse.add(st, tf.SparseTensor([[0, 1]], [-0.5], [4, 4]), threshold=0.6))
    rec('add_sd', tf.sparse.add(st, tf.ones([4, 4])))
    rec('matmul', tf.sparse.sparse_dense_matmul(st, d))
    rec('matmul_adj', tf.sparse.sparse_dense_matmul(st, tf.transpose(d), adjoint_b=True))
    rec('matmul_adja', tf.sparse.sparse_dense_matmul(st, d, adjoint_a=True))
    rec('rsum', tf.sparse.reduce_sum(st))
    rec('rsum1', tf.sparse.reduce_sum(st, axis=1))
    rec('rsum0k', tf.sparse.reduce_sum(st, axis=0, keepdims=True))
    rec('rsum_sp', tf.sparse.reduce_sum(st, axis=1, output_is_sparse=True))
    neg = tf.SparseTensor([[0, 1], [1, 0], [1, 2]], [-1., -2., -3.], [3, 4])
    rec('rmax', tf.sparse.reduce_max(neg))
    rec('rmax1', tf.sparse.reduce_max(neg, axis=1))
    rec('rmax0', tf.sparse.reduce_max(neg, axis=0))
    ids = tf.SparseTensor([[0, 0], [0, 1], [1, 0], [2, 1]], [0, 3, 2, 3], [3, 2])
    rec('indicator', tf.sparse.to_indicator(ids, 4))
    rec('bincount', tf.sparse.bincount(ids))
    rec('bincount_row', tf.sparse.bincount(ids, axis=-1))
    rec('bincount_dense', tf.sparse.bincount(tf.constant([[1, 1, 4], [2, 0, 0]]), axis=-1, binary_output=True))
    data = tf.constant([[1., 2.], [3., 4.], [5., 6.]])
    rec('seg_sum', tf.sparse.segment_sum(data, [0, 2, 1], [0, 0, 1]))
    rec('seg_mean', tf.sparse.segment_mean(data, [0, 2, 1, 1], [0, 0, 2, 2]))
    rec('seg_sqrt', tf.sparse.segment_sqrt_n(data, [0, 2, 1], [0, 0, 1]))
    rec('seg_sum_n', tf.sparse.segment_sum(data, [0, 2, 1], [0, 0, 1], num_segments=4))
    vals = tf.Variable([1., 2., 3., 4.])
    with tf.GradientTape() as tape:
        s2 = tf.SparseTensor(st.indices, vals * 1., st.dense_shape)
        y = tf.reduce_sum(tf.sparse.sparse_dense_matmul(s2, d) ** 2) + tf.sparse.reduce_sum(tf.sparse.reorder(s2)) * 3
    rec('grad_vals', tape.gradient(y, vals))
    return out


RESULTS = _record()


@pytest.mark.parametrize('name', sorted(TF_RESULTS))
def test_matches_tf(name):
    assert RESULTS[name] == TF_RESULTS[name]


def test_matmul_gradients_match_finite_differences():
    indices = [[0, 1], [1, 0], [1, 2], [3, 3]]

    def f(values, b):
        return tf.sparse.sparse_dense_matmul(tf.SparseTensor(indices, values, [4, 4]), b)

    rng = np.random.default_rng(0)
    assert gradient_check.gradient_error(f, [rng.normal(size=4), rng.normal(size=(4, 2))]) < 1e-6


def test_bad_input_gets_tfs_exceptions():
    st = tf.SparseTensor([[0, 1]], [1.], [2, 2])
    with pytest.raises(tf.errors.InvalidArgumentError, match='Invalid reduction dimension 2'):
        tf.sparse.reduce_sum(st, axis=2)
    with pytest.raises(tf.errors.InvalidArgumentError, match='requested shape has 3'):
        tf.sparse.reshape(st, [3, 1])
    with pytest.raises(TypeError, match='expected a SparseTensor'):
        tf.sparse.reorder(tf.constant([1.]))
