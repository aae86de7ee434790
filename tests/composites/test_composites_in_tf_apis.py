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
