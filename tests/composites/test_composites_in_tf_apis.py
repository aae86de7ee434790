"""SparseTensor and RaggedTensor where TF's public API takes them: tf.is_tensor, a dense-by-sparse
tf.sparse.sparse_dense_matmul, tf.nn.embedding_lookup_sparse, a scalar tf.ragged.constant.
Expected values recorded from TensorFlow 2.21."""
import numpy as np
import pytest

import defun as tf


def test_is_tensor_counts_sparse_and_ragged_as_tf():
    sparse = tf.SparseTensor([[0, 0], [1, 2]], [1., 2.], [2, 3])
    ragged = tf.ragged.constant([[1, 2], [3]])
    slices = tf.IndexedSlices(tf.constant([[1., 2.]]), tf.constant([0]), tf.constant([2, 2]))
    assert tf.is_tensor(sparse) and tf.is_tensor(ragged) and tf.is_tensor(slices)
    assert not tf.is_tensor(tf.TensorSpec([])) and not tf.is_tensor(np.ones(2))
    with pytest.raises(ValueError, match='unsupported type'):
        tf.convert_to_tensor(sparse)


def test_ragged_constant_of_a_scalar_is_a_tensor():
    for value, dtype in ((1, tf.int32), (0, tf.int32), (2.5, tf.float32)):
        result = tf.ragged.constant(value)
        assert not isinstance(result, tf.RaggedTensor)
        assert result.dtype == dtype and result.shape.rank == 0 and result.numpy() == value
    assert tf.ragged.constant([1, 2]).numpy().tolist() == [1, 2]


def test_sparse_dense_matmul_with_the_sparse_operand_second():
    sp = tf.SparseTensor([[0, 1], [1, 0], [2, 2]], [1., 2., 3.], [3, 3])
    d = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3))
    assert tf.sparse.sparse_dense_matmul(d, sp).numpy().tolist() == \
        [[2.0, 0.0, 6.0], [8.0, 3.0, 15.0]]
    assert tf.sparse.sparse_dense_matmul(d, sp, adjoint_b=True).numpy().tolist() == \
        [[1.0, 0.0, 6.0], [4.0, 6.0, 15.0]]


PARAMS = np.arange(12, dtype=np.float32).reshape(4, 3)
# combiner -> (weighted, unweighted) results, recorded from TF 2.21
EMBEDDINGS = {
    'sum': ([[10.5, 13.0, 15.5], [0.0, 0.0, 0.0], [-3.0, -3.0, -3.0]],
            [[12.0, 14.0, 16.0], [0.0, 0.0, 0.0], [3.0, 5.0, 7.0]]),
    'mean': ([[4.199999809265137, 5.199999809265137, 6.199999809265137], [0.0, 0.0, 0.0],
              [0.0, 0.0, 0.0]],
             [[6.0, 7.0, 8.0], [0.0, 0.0, 0.0], [1.5, 2.5, 3.5]]),
    'sqrtn': ([[5.09324836730957, 6.305926322937012, 7.518604755401611], [0.0, 0.0, 0.0],
               [-2.1213204860687256, -2.1213204860687256, -2.1213204860687256]],
              [[8.485280990600586, 9.899495124816895, 11.313708305358887], [0.0, 0.0, 0.0],
               [2.1213202476501465, 3.535533905029297, 4.949747562408447]]),
}


def _ids_and_weights():
    indices = [[0, 0], [0, 1], [2, 0], [2, 3]]
    return (tf.SparseTensor(indices, tf.constant([1, 3, 0, 1], tf.int64), [4, 4]),
            tf.SparseTensor(indices, [2., 0.5, 1., -1.], [4, 4]))


@pytest.mark.parametrize('combiner', sorted(EMBEDDINGS))
def test_embedding_lookup_sparse_as_tf(combiner):
    ids, weights = _ids_and_weights()
    weighted, unweighted = EMBEDDINGS[combiner]
    np.testing.assert_allclose(
        tf.nn.embedding_lookup_sparse(PARAMS, ids, weights, combiner=combiner), weighted,
        rtol=1e-6)
    np.testing.assert_allclose(
        tf.nn.embedding_lookup_sparse(PARAMS, ids, None, combiner=combiner), unweighted,
        rtol=1e-6)


def test_embedding_lookup_sparse_dtype_gradient_and_refusals():
    ids, weights = _ids_and_weights()
    assert tf.nn.embedding_lookup_sparse(tf.cast(PARAMS, tf.float16), ids, weights).dtype == \
        tf.float16
    table = tf.Variable(PARAMS)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.nn.embedding_lookup_sparse(table, ids, weights, combiner='sum'))
    grad = tf.convert_to_tensor(tape.gradient(loss, table))
    # d/dparams of the weighted sum: each id's row gets its weights' total
    np.testing.assert_allclose(grad.numpy()[:, 0], [1.0, 1.0, 0.0, 0.5])
    with pytest.raises(ValueError, match="combiner must be one of 'mean', 'sqrtn' or 'sum'"):
        tf.nn.embedding_lookup_sparse(PARAMS, ids, weights, combiner='max')
    with pytest.raises(TypeError, match='sp_ids must be SparseTensor'):
        tf.nn.embedding_lookup_sparse(PARAMS, tf.constant([[1]]), None)


def test_shape_size_rank_of_composites_as_tf():
    sparse = tf.SparseTensor([[0, 0], [1, 2]], [1., 2.], [2, 3])
    ragged = tf.ragged.constant([[1, 2], [3]])
    assert tf.shape(sparse).numpy().tolist() == [2, 3] and tf.shape(sparse).dtype == tf.int32
    assert tf.shape(sparse, out_type=tf.int64).dtype == tf.int64
    assert tf.size(sparse).numpy() == 6 and tf.size(sparse, out_type=tf.int64).dtype == tf.int64
    assert tf.size(ragged).numpy() == 3 and tf.size(ragged).dtype == tf.int32
    assert tf.rank(sparse).numpy() == 2 and tf.rank(ragged).numpy() == 2
    assert tf.shape(ragged).rank == 2
    with pytest.raises(ValueError, match='unsupported type'):
        tf.shape(object())


X = np.arange(60, dtype=np.float32).reshape(3, 4, 5)
# axis -> (ragged shape, nested row splits, to_tensor().sum(-1)), recorded from TF 2.21
RAGGED_GATHERS = {
    0: ([2, None, 4, 5], [[0, 1, 4]],
        [[[210.0, 235.0, 260.0, 285.0], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]],
         [[10.0, 35.0, 60.0, 85.0], [210.0, 235.0, 260.0, 285.0], [110.0, 135.0, 160.0, 185.0]]]),
    1: ([3, 2, None, 5], [[0, 2, 4, 6], [0, 1, 4, 5, 8, 9, 12]],
        [[[60.0, 0.0, 0.0], [10.0, 60.0, 35.0]], [[160.0, 0.0, 0.0], [110.0, 160.0, 135.0]],
         [[260.0, 0.0, 0.0], [210.0, 260.0, 235.0]]]),
    2: ([3, 4, 2, None], [[0, 4, 8, 12], list(range(0, 25, 2)),
                          [0, 1, 4, 5, 8, 9, 12, 13, 16, 17, 20, 21, 24, 25, 28, 29, 32, 33, 36,
                           37, 40, 41, 44, 45, 48]],
        [[[2.0, 3.0], [7.0, 18.0], [12.0, 33.0], [17.0, 48.0]],
         [[22.0, 63.0], [27.0, 78.0], [32.0, 93.0], [37.0, 108.0]],
         [[42.0, 123.0], [47.0, 138.0], [52.0, 153.0], [57.0, 168.0]]]),
}


@pytest.mark.parametrize('axis', sorted(RAGGED_GATHERS))
def test_gather_at_ragged_indices_as_tf(axis):
    shape, splits, sums = RAGGED_GATHERS[axis]
    result = tf.gather(tf.constant(X), tf.ragged.constant([[2], [0, 2, 1]]), axis=axis)
    assert isinstance(result, tf.RaggedTensor)
    assert result.shape.as_list() == shape
    assert [s.numpy().tolist() for s in result.nested_row_splits] == splits
    assert result.to_tensor().numpy().sum(axis=-1).tolist() == sums


def test_embedding_lookup_and_row_gather_of_ragged_as_tf():
    looked_up = tf.nn.embedding_lookup(X, tf.ragged.constant([[2], [0, 2, 1]]))
    assert looked_up.shape.as_list() == [2, None, 4, 5] and looked_up.ragged_rank == 1
    nested = tf.gather(tf.constant(X), tf.ragged.constant([[[1], [0, 2]], [[1]]]), axis=1)
    assert nested.shape.as_list() == [3, 2, None, None, 5] and nested.ragged_rank == 3
    assert nested.to_tensor().shape.as_list() == [3, 2, 2, 2, 5]
    with pytest.raises(ValueError, match='The values contained by the inputs have type '
                                         "<dtype: 'float32'> and cannot be processed"):
        tf.nn.embedding_lookup(X, tf.ragged.constant([[1.]]))
    rows = tf.gather(tf.ragged.constant([[1, 2], [3]]), [1, 0])
    assert rows.to_list() == [[3], [1, 2]]


def test_shape_of_ragged_is_a_dynamic_ragged_shape_as_tf():
    shape = tf.shape(tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []]))
    assert repr(shape) == '<DynamicRaggedShape lengths=[5, (4, 0, 3, 1, 0)] num_row_partitions=1>'
    assert shape.rank == 2 and shape.dtype == tf.int32 and shape.num_row_partitions == 1
    assert shape.inner_rank == 1 and shape.inner_shape.numpy().tolist() == [8]
    assert shape[0].numpy() == 5 and shape[-2].numpy() == 5
    assert shape.is_uniform(0) and not shape.is_uniform(1)
    with pytest.raises(ValueError, match='Index 1 is not uniform'):
        shape[1]
    with pytest.raises(IndexError, match='Index is too big: 5>=2'):
        shape[5]
    rows = tf.RaggedTensor.from_row_lengths(tf.zeros([15, 2]), [4, 5, 6])
    wide = tf.shape(rows, out_type=tf.int64)
    assert wide.dtype == tf.int64 and wide[0].numpy() == 3 and wide[2].numpy() == 2
    assert wide.static_lengths() == [3, (4, 5, 6), 2]
    assert wide.inner_shape.numpy().tolist() == [15, 2]
    uniform = tf.shape(tf.RaggedTensor.from_uniform_row_length(tf.range(6), 3))
    assert repr(uniform) == '<DynamicRaggedShape lengths=[2, 3] num_row_partitions=1>'
    assert uniform[1].numpy() == 3

    @tf.function
    def dims(x):
        s = tf.shape(x)
        return s[0], s[2]

    assert [int(v) for v in dims(rows)] == [3, 2]


def test_safe_embedding_lookup_sparse_as_tf():
    ids = tf.SparseTensor([[0, 0, 0], [0, 1, 0], [1, 1, 0], [1, 1, 1], [2, 0, 0]],
                          tf.constant([1, -1, 3, 0, 2], tf.int64), [3, 2, 2])
    weights = tf.SparseTensor(ids.indices, [2., 1., 0.5, -1., 3.], ids.dense_shape)
    # recorded from TF 2.21: negative ids and (but for 'sum') non-positive weights dropped, an
    # empty row zeros (default_id None) or default_id's row
    assert tf.nn.safe_embedding_lookup_sparse(PARAMS, ids).numpy().tolist() == \
        [[[3.0, 4.0, 5.0], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [4.5, 5.5, 6.5]],
         [[6.0, 7.0, 8.0], [0.0, 0.0, 0.0]]]
    assert tf.nn.safe_embedding_lookup_sparse(PARAMS, ids, weights, combiner='sum',
                                              default_id=3).numpy().tolist() == \
        [[[6.0, 8.0, 10.0], [9.0, 10.0, 11.0]], [[9.0, 10.0, 11.0], [4.5, 4.0, 3.5]],
         [[18.0, 21.0, 24.0], [9.0, 10.0, 11.0]]]
    assert tf.nn.safe_embedding_lookup_sparse(PARAMS, ids, weights).numpy().tolist() == \
        [[[3.0, 4.0, 5.0], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [9.0, 10.0, 11.0]],
         [[6.0, 7.0, 8.0], [0.0, 0.0, 0.0]]]
    columns = tf.sparse.expand_dims(
        tf.SparseTensor([[0, 1], [1, 0]], tf.constant([2, 1], tf.int64), [2, 3]), -1)
    result = tf.nn.safe_embedding_lookup_sparse(PARAMS, columns, default_id=0)
    assert result.shape.as_list() == [2, 3, 3]
    assert result.numpy().tolist() == \
        [[[0.0, 1.0, 2.0], [6.0, 7.0, 8.0], [0.0, 1.0, 2.0]],
         [[3.0, 4.0, 5.0], [0.0, 1.0, 2.0], [0.0, 1.0, 2.0]]]
