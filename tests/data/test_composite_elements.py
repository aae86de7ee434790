"""tf.data with RaggedTensor and SparseTensor elements: specs, slicing, batching, user functions
and iteration inside tf.function. Expected values recorded from TensorFlow 2.21."""
import numpy as np
import pytest

import defun as tf

D = tf.data.Dataset


def _rt():
    return tf.ragged.constant([[1, 2], [3], [], [4, 5, 6]])


def _st():
    return tf.sparse.SparseTensor([[0, 0], [1, 2], [3, 1]], [1., 2., 3.], [4, 3])


def _lists(ds):
    return [x.to_list() for x in ds]


def _sparse(x):
    return (x.indices.numpy().tolist(), x.values.numpy().tolist(), x.dense_shape.numpy().tolist())


def test_ragged_slices_are_rows_and_batch_regains_a_ragged_dimension():
    ds = D.from_tensor_slices(_rt())
    assert ds.element_spec == tf.RaggedTensorSpec([None], tf.int32, 0, tf.int64)
    rows = list(ds)
    assert all(type(r).__name__ == 'EagerTensor' for r in rows)
    assert [r.numpy().tolist() for r in rows] == [[1, 2], [3], [], [4, 5, 6]]
    b = ds.batch(3)
    assert b.element_spec == tf.RaggedTensorSpec([None, None], tf.int32, 1, tf.int64)
    assert _lists(b) == [[[1, 2], [3], []], [[4, 5, 6]]]
    u = b.unbatch()
    assert u.element_spec == tf.RaggedTensorSpec([None], tf.int32, 0, tf.int64)
    assert [r.numpy().tolist() for r in u] == [[1, 2], [3], [], [4, 5, 6]]


def test_ragged_rank_two_slices_and_batches():
    ds = D.from_tensor_slices(tf.ragged.constant([[[1], [2, 3]], [[4]]]))
    assert ds.element_spec == tf.RaggedTensorSpec([None, None], tf.int32, 1, tf.int64)
    assert _lists(ds) == [[[1], [2, 3]], [[4]]]
    b = ds.batch(2)
    assert b.element_spec == tf.RaggedTensorSpec([None, None, None], tf.int32, 2, tf.int64)
    assert _lists(b) == [[[[1], [2, 3]], [[4]]]]


def test_map_returning_ragged_and_batch_with_drop_remainder():
    m = D.range(4).map(lambda x: tf.ragged.range(x))
    assert m.element_spec == tf.RaggedTensorSpec([1, None], tf.int64, 1, tf.int64)
    assert _lists(m) == [[[]], [[0]], [[0, 1]], [[0, 1, 2]]]
    b = m.batch(2)
    assert b.element_spec == tf.RaggedTensorSpec([None, 1, None], tf.int64, 2, tf.int64)
    assert _lists(b) == [[[[]], [[0]]], [[[0, 1]], [[0, 1, 2]]]]
    d = m.batch(2, drop_remainder=True)
    assert d.element_spec == tf.RaggedTensorSpec([2, 1, None], tf.int64, 2, tf.int64)


def test_map_on_ragged_elements():
    m = D.from_tensor_slices(_rt()).map(lambda x: x * 2)
    assert m.element_spec == tf.TensorSpec([None], tf.int32)
    assert [x.numpy().tolist() for x in m] == [[2, 4], [6], [], [8, 10, 12]]
    m = D.from_tensor_slices(_rt()).batch(2).map(lambda x: (x.row_lengths(), x + 1))
    assert m.element_spec == (tf.TensorSpec([None], tf.int64),
                              tf.RaggedTensorSpec([None, None], tf.int32, 1, tf.int64))
    out = [(a.numpy().tolist(), b.to_list()) for a, b in m]
    assert out == [([2, 1], [[2, 3], [4]]), ([0, 3], [[], [5, 6, 7]])]


def test_filter_and_reduce_over_ragged_elements():
    ds = D.from_tensor_slices((_rt(), tf.range(4))).filter(lambda r, i: i > 1)
    assert [(r.numpy().tolist(), int(i)) for r, i in ds] == [([], 2), ([4, 5, 6], 3)]
    total = D.from_tensor_slices(_rt()).batch(2).reduce(
        tf.constant(0), lambda s, x: s + tf.reduce_sum(x.flat_values))
    assert int(total) == 21


def test_as_numpy_iterator_of_composites():
    ragged = list(D.from_tensor_slices(_rt()).batch(2).as_numpy_iterator())
    assert [[r.tolist() for r in batch] for batch in ragged] == [[[1, 2], [3]], [[], [4, 5, 6]]]
    sparse = list(D.from_tensor_slices(_st()).as_numpy_iterator())
    np.testing.assert_array_equal(sparse[1], np.array([0., 0., 2.], np.float32))
    assert sparse[2].tolist() == [0., 0., 0.]


def test_sparse_slices_batch_and_unbatch():
    ds = D.from_tensor_slices(_st())
    assert ds.element_spec == tf.SparseTensorSpec([3], tf.float32)
    assert [_sparse(x) for x in ds] == [([[0]], [1.], [3]), ([[2]], [2.], [3]), ([], [], [3]),
                                        ([[1]], [3.], [3])]
    b = ds.batch(3)
    assert b.element_spec == tf.SparseTensorSpec([None, 3], tf.float32)
    assert [_sparse(x) for x in b] == [([[0, 0], [1, 2]], [1., 2.], [3, 3]),
                                       ([[0, 1]], [3.], [1, 3])]
    assert b.unbatch().element_spec == tf.SparseTensorSpec([3], tf.float32)
    assert len(list(b.unbatch())) == 4


def test_batch_of_sparse_values_takes_the_largest_dense_shape():
    a = tf.sparse.SparseTensor([[0, 0]], [1.], [1, 2])
    b = tf.sparse.SparseTensor([[2, 3]], [2.], [3, 4])
    ds = D.from_tensors(a).concatenate(D.from_tensors(b))
    assert ds.element_spec == tf.SparseTensorSpec([None, None], tf.float32)
    assert [_sparse(x) for x in ds.batch(2)] == [([[0, 0, 0], [1, 2, 3]], [1., 2.], [2, 3, 4])]


def test_dict_of_ragged_and_sparse_batches():
    ds = D.from_tensor_slices({'r': _rt(), 's': _st()}).batch(3)
    out = [(x['r'].to_list(), _sparse(x['s'])) for x in ds]
    assert out == [([[1, 2], [3], []], ([[0, 0], [1, 2]], [1., 2.], [3, 3])),
                   ([[4, 5, 6]], ([[0, 1]], [3.], [1, 3]))]


def test_sparse_values_from_map_batch():
    m = D.range(3).map(lambda x: tf.sparse.from_dense(tf.one_hot(x, 3)))
    assert m.element_spec == tf.SparseTensorSpec([3], tf.float32)
    assert [_sparse(x) for x in m.batch(3)] == [([[0, 0], [1, 1], [2, 2]], [1., 1., 1.],
                                                 [3, 3])]


def test_ragged_batch_and_dense_to_ragged_batch():
    d = D.range(5).map(lambda x: tf.fill([x], x))
    r = d.ragged_batch(2)
    assert r.element_spec == tf.RaggedTensorSpec([None, None], tf.int64, 1, tf.int64)
    assert _lists(r) == [[[], [1]], [[2, 2], [3, 3, 3]], [[4, 4, 4, 4]]]
    assert d.apply(tf.data.experimental.dense_to_ragged_batch(2)).element_spec == r.element_spec
    d2 = D.range(4).map(lambda x: tf.zeros([x, 2]))
    assert d2.ragged_batch(2).element_spec == tf.RaggedTensorSpec([None, None, 2], tf.float32, 1)
    d3 = D.range(3).map(lambda x: tf.zeros([x, x]))
    assert d3.ragged_batch(2).element_spec == tf.RaggedTensorSpec([None, None, None],
                                                                  tf.float32, 2)
    assert _lists(d3.ragged_batch(2)) == [[[], [[0.0]]], [[[0.0, 0.0], [0.0, 0.0]]]]
    mixed = D.range(3).map(lambda x: {'a': x, 'b': tf.range(x)}).ragged_batch(
        2, row_splits_dtype=tf.int32)
    assert mixed.element_spec == {'a': tf.TensorSpec([None], tf.int64),
                                  'b': tf.RaggedTensorSpec([None, None], tf.int64, 1, tf.int32)}
    assert [x['b'].to_list() for x in mixed] == [[[], [0]], [[0, 1]]]


def test_sparse_batch_keeps_every_value_and_checks_the_row_shape():
    d = D.range(5).map(lambda x: tf.fill([x], x))
    s = d.sparse_batch(2, [5])
    assert s.element_spec == tf.SparseTensorSpec([None, 5], tf.int64)
    assert [_sparse(x) for x in s][:2] == [
        ([[1, 0]], [1], [2, 5]), ([[0, 0], [0, 1], [1, 0], [1, 1], [1, 2]], [2, 2, 3, 3, 3],
                                  [2, 5])]
    assert d.apply(tf.data.experimental.dense_to_sparse_batch(2, [6])).element_spec == \
        tf.SparseTensorSpec([None, 6], tf.int64)
    rows = D.from_tensor_slices([[0, 1, 0], [2, 0, 0]])
    assert [_sparse(x) for x in rows.sparse_batch(2, [3])] == [
        ([[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [1, 2]], [0, 1, 0, 2, 0, 0], [2, 3])]
    with pytest.raises(tf.errors.DataLossError, match='larger than the row shape'):
        list(rows.sparse_batch(2, [2]))
    with pytest.raises(ValueError):
        rows.sparse_batch(2, [-1])


def test_padded_batch_refuses_composites():
    with pytest.raises(TypeError, match='padded_batch'):
        D.range(3).map(lambda x: tf.ragged.range(x)).padded_batch(2)


def test_window_of_ragged_rows():
    w = D.from_tensor_slices(_rt()).window(2)
    assert [[r.numpy().tolist() for r in x] for x in w] == [[[1, 2], [3]], [[], [4, 5, 6]]]


def test_from_generator_with_composite_signature():
    def gen():
        for i in range(3):
            yield tf.ragged.constant([[i] * i, [1]])
    ds = D.from_generator(gen, output_signature=tf.RaggedTensorSpec([2, None], tf.int32, 1))
    assert _lists(ds.batch(2)) == [[[[], [1]], [[1], [1]]], [[[2, 2], [1]]]]


def test_iteration_inside_tf_function():
    @tf.function
    def total(ds):
        s = tf.constant(0)
        for x in ds:
            s += tf.reduce_sum(x)
        return s
    assert int(total(D.from_tensor_slices(_rt()).batch(2))) == 21

    @tf.function
    def built_inside():
        s = tf.constant(0)
        for x in D.from_tensor_slices(_rt()).batch(2):
            s += tf.reduce_sum(x.flat_values) + tf.cast(x.nrows(), tf.int32)
        return s
    assert int(built_inside()) == 25

    @tf.function
    def sparse_sum():
        s = tf.constant(0.)
        for x in D.from_tensor_slices(_st()).batch(2):
            s += tf.sparse.reduce_sum(x)
        return s
    assert float(sparse_sum()) == 6.0
