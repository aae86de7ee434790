"""tf.IndexedSlices and Variable's sparse updates. Expected values recorded with TF 2.21."""
import pytest

import defun as tf


def test_indexed_slices_convert_to_their_dense_tensor():
    s = tf.IndexedSlices(tf.constant([[1., 2.], [3., 4.]]), tf.constant([2, 0]),
                         dense_shape=tf.constant([3, 2]))
    assert s.shape.as_list() == [3, 2] and s.dtype == tf.float32
    assert s.indices.numpy().tolist() == [2, 0] and s.values.shape.as_list() == [2, 2]
    assert tf.convert_to_tensor(s).numpy().tolist() == [[3., 4.], [0., 0.], [1., 2.]]
    twice = tf.IndexedSlices(tf.constant([1., 2.]), tf.constant([1, 1]), tf.constant([3]))
    assert tf.convert_to_tensor(twice).numpy().tolist() == [0., 3., 0.]
    with pytest.raises(ValueError, match='without dense_shape'):
        tf.convert_to_tensor(tf.IndexedSlices(tf.constant([1.]), tf.constant([0])))


def test_variable_sparse_updates_follow_tf():
    v = tf.Variable([1., 2., 3., 4.])
    rows = lambda values, indices: tf.IndexedSlices(tf.constant(values), tf.constant(indices))  # noqa: E731
    steps = [(v.scatter_add, [1., 1.], [0, 0], [3., 2., 3., 4.]),
             (v.scatter_sub, [1.], [3], [3., 2., 3., 3.]),
             (v.scatter_update, [9.], [1], [3., 9., 3., 3.]),
             (v.scatter_max, [5., 0.], [2, 0], [3., 9., 5., 3.]),
             (v.scatter_min, [1.], [1], [3., 1., 5., 3.]),
             (v.scatter_mul, [2., 3.], [0, 0], [18., 1., 5., 3.]),
             (v.scatter_div, [2.], [3], [18., 1., 5., 1.5])]
    for method, values, indices, expected in steps:
        assert method(rows(values, indices)).numpy().tolist() == expected
    m = tf.Variable(tf.zeros([3, 2]))
    m.scatter_update(tf.IndexedSlices(tf.constant([[1., 2.]]), tf.constant([1])))
    assert m.numpy().tolist() == [[0., 0.], [1., 2.], [0., 0.]]
    f = tf.function(lambda: v.scatter_add(rows([10.], [0])))
    assert f().numpy().tolist() == [28., 1., 5., 1.5]


def test_sparse_updates_refuse_dense_deltas_and_bad_rows():
    v = tf.Variable([1., 2.])
    with pytest.raises(TypeError, match='must be a `tf.IndexedSlices`'):
        v.scatter_add(tf.constant([1.]))
    with pytest.raises(tf.errors.InvalidArgumentError):
        v.scatter_add(tf.IndexedSlices(tf.constant([1.]), tf.constant([7])))
    assert v.numpy().tolist() == [1., 2.]


def test_cond_branches_of_slices_get_int64_indices_as_tf():
    @tf.function
    def pick(p):
        a = tf.IndexedSlices(tf.ones([2, 2]), tf.constant([0, 1]), tf.constant([3, 2]))
        b = tf.IndexedSlices(tf.ones([1, 2]) * 2, tf.constant([2], tf.int64), tf.constant([3, 2]))
        r = tf.cond(p, lambda: a, lambda: b)
        return r.indices, r.values
    for p, rows, values in [(True, [0, 1], [[1., 1.], [1., 1.]]), (False, [2], [[2., 2.]])]:
        indices, got = pick(tf.constant(p))
        assert indices.dtype == tf.int64 and indices.numpy().tolist() == rows
        assert got.numpy().tolist() == values


def test_cast_keeps_composite_structure():
    s = tf.cast(tf.IndexedSlices(tf.constant([[1.5, 2.5]]), tf.constant([1]), tf.constant([2, 2])),
                tf.int32)
    assert isinstance(s, tf.IndexedSlices) and s.values.dtype == tf.int32
    assert s.values.numpy().tolist() == [[1, 2]] and s.indices.numpy().tolist() == [1]
    sp = tf.cast(tf.sparse.SparseTensor([[0, 1]], [2.7], [2, 2]), tf.int64)
    assert isinstance(sp, tf.sparse.SparseTensor) and sp.values.numpy().tolist() == [2]
    rt = tf.cast(tf.ragged.constant([[1, 2], [3]]), tf.float32)
    assert rt.dtype == tf.float32 and rt.to_list() == [[1.0, 2.0], [3.0]]
