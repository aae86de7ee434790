"""tf.linalg beyond the registry walk: TF's return types, errors, graph mode with unknown shapes,
degenerate inputs, and values recorded from TensorFlow 2.21 where conventions matter."""
import numpy as np
import pytest

import defun as tf
from defun.core import errors


def test_decompositions_return_tf_types():
    a = tf.constant([[2.0, 1.0], [1.0, 3.0]])
    q, r = tf.linalg.qr(a)
    assert type(tf.linalg.qr(a)).__name__ == 'Qr' and tf.linalg.qr(a).q is not None
    np.testing.assert_allclose((q @ r).numpy(), a.numpy(), atol=1e-6)
    result = tf.linalg.slogdet(a)
    assert type(result).__name__ == 'LogMatrixDeterminant'
    np.testing.assert_allclose(result.log_abs_determinant.numpy(), np.log(5.0), rtol=1e-6)
    assert tf.linalg.svd(a, compute_uv=False).shape == (2,)
    assert len(tf.linalg.svd(a)) == 3


def test_shapes_as_tf():
    # Shapes recorded from TF 2.21 for a 4x2 and a 2x4 matrix.
    tall, wide = np.ones((4, 2)), np.ones((2, 4))
    assert [t.shape for t in tf.linalg.svd(tall, full_matrices=True)] == [(2,), (4, 4), (2, 2)]
    assert [t.shape for t in tf.linalg.svd(wide, full_matrices=True)] == [(2,), (2, 2), (4, 4)]
    assert [t.shape for t in tf.linalg.qr(tall, full_matrices=True)] == [(4, 4), (4, 2)]
    assert [t.shape for t in tf.linalg.qr(wide)] == [(2, 2), (2, 4)]
    assert tf.linalg.tensor_diag([[1, 2], [3, 4]]).shape == (2, 2, 2, 2)


def test_values_recorded_from_tf():
    # tf.linalg.diag([1, 2], k=-1, num_rows=3, num_cols=4) and diag_part(k=1) in TF 2.21.
    np.testing.assert_array_equal(tf.linalg.diag([1, 2], k=-1, num_rows=3, num_cols=4).numpy(),
                                  [[0, 0, 0, 0], [1, 0, 0, 0], [0, 2, 0, 0]])
    np.testing.assert_array_equal(tf.linalg.diag([1, 2], num_rows=4).numpy(),
                                  [[1, 0], [0, 2], [0, 0], [0, 0]])
    np.testing.assert_array_equal(tf.linalg.diag_part(np.arange(12).reshape(3, 4), k=1).numpy(),
                                  [1, 6, 11])
    x = tf.linalg.lstsq(tf.constant([[1., 2], [3, 4], [5, 7]]), tf.constant([[1.], [2], [3]]))
    np.testing.assert_allclose(x.numpy(), [[-0.07143538], [0.5000048]], rtol=1e-4)
    np.testing.assert_allclose(
        tf.linalg.triangular_solve([[1., 5], [3, 2]], [[1.], [1]], adjoint=True).numpy(),
        [[-0.5], [0.5]])
    assert int(tf.linalg.trace([[1, 2], [3, 4]])) == 5


def test_degenerate_inputs_as_tf():
    # TF's CPU kernels: a singular triangular matrix gives inf, a non-PD matrix NaNs.
    x = tf.linalg.triangular_solve([[1., 0], [3, 0]], [[1.], [1]]).numpy()
    assert x[0, 0] == 1.0 and np.isinf(x[1, 0])
    assert np.isnan(tf.linalg.cholesky([[1., 2], [3, -4]]).numpy()).all()
    batch = tf.linalg.cholesky(np.stack([np.eye(2), -np.eye(2)])).numpy()
    np.testing.assert_allclose(batch[0], np.eye(2))
    assert np.isnan(batch[1]).all()


def test_errors_name_the_op():
    with pytest.raises(errors.InvalidArgumentError, match='square'):
        tf.linalg.eigh(tf.constant([[1., 2, 3], [2, 4, 5]]))
    with pytest.raises(errors.InvalidArgumentError, match='svd'):
        tf.linalg.svd(tf.constant([[1, 2], [2, 4]]))
    with pytest.raises(errors.InvalidArgumentError, match='2-dim'):
        tf.linalg.diag_part([1, 2])
    with pytest.raises(errors.InvalidArgumentError, match='not consistent'):
        tf.linalg.diag([1, 2], num_rows=4, num_cols=4)
    with pytest.raises(errors.UnimplementedError, match='band of diagonals'):
        tf.linalg.diag([1, 2], k=(0, 1))
    with pytest.raises(errors.InvalidArgumentError, match='rhs'):
        tf.linalg.triangular_solve(tf.eye(2), tf.ones([3, 1]))


def test_graph_mode_with_unknown_shapes():
    @tf.function(input_signature=[tf.TensorSpec([None, None], tf.float64)] * 2)
    def solve(a, b):
        return tf.linalg.lstsq(a, b), tf.linalg.pinv(a)

    a, b = np.array([[1., 2], [3, 4], [5, 7]]), np.array([[1.], [2], [3]])
    x, p = solve(a, b)
    np.testing.assert_allclose(x.numpy(), np.linalg.lstsq(a, b, rcond=None)[0], rtol=1e-8)
    np.testing.assert_allclose(p.numpy(), np.linalg.pinv(a), rtol=1e-8, atol=1e-12)
    np.testing.assert_allclose(solve(a.T, b[:2])[0].numpy(),
                               np.linalg.lstsq(a.T, b[:2], rcond=None)[0], rtol=1e-8)


def test_lstsq_regularized_and_slow_path():
    a, b = np.array([[1., 2], [3, 4], [5, 7]]), np.array([[1.], [2], [3]])
    expected = np.linalg.solve(a.T @ a + 0.5 * np.eye(2), a.T @ b)
    np.testing.assert_allclose(tf.linalg.lstsq(a, b, l2_regularizer=0.5).numpy(), expected)
    rank_one = np.array([[1., 2], [2, 4]])
    np.testing.assert_allclose(tf.linalg.lstsq(rank_one, b[:2], fast=False).numpy(),
                               np.linalg.pinv(rank_one) @ b[:2], atol=1e-10)


def test_gradients_through_compiled_decompositions():
    a = tf.constant(np.array([[3., 1, 0], [1, 4, 1], [0, 1, 5]]))

    @tf.function
    def loss(x):
        s = tf.linalg.svd(x, compute_uv=False)
        e = tf.linalg.eigvalsh(x)
        return tf.reduce_sum(s) + tf.reduce_sum(e ** 2) + tf.linalg.logdet(x)

    with tf.GradientTape() as tape:
        tape.watch(a)
        y = loss(a)
    g = tape.gradient(y, a).numpy()
    # For a symmetric positive-definite x: d sum(s) = I, d sum(e^2) = 2x, d logdet = x^-1 (as the
    # gradient with respect to the lower triangle for eigvalsh, doubled off the diagonal).
    inv = np.linalg.inv(a.numpy())
    sym = np.eye(3) + inv
    lower = np.tril(2 * (2 * a.numpy()))
    lower[np.diag_indices(3)] /= 2
    np.testing.assert_allclose(g, sym + lower, rtol=1e-6, atol=1e-8)
