"""tf.linalg.LinearOperator basics (FullMatrix, Diag, Identity, ScaledIdentity, LowerTriangular,
Tridiag): values recorded with TF 2.21."""
import numpy as np
import pytest

import defun as tf


def test_tridiag_formats_shape_and_log_abs_determinant():
    op = tf.linalg.LinearOperatorTridiag([[3., 4., 5.], [1., -1., 2.], [6., 7., 8]],
                                         diagonals_format='sequence')
    assert op.to_dense().numpy().tolist() == [[1.0, 3.0, 0.0], [7.0, -1.0, 4.0],
                                              [0.0, 8.0, 2.0]]
    assert op.shape == (3, 3) and op.batch_shape == () and op.domain_dimension == 3
    assert op.is_square
    np.testing.assert_allclose(op.log_abs_determinant(), 4.3307333, rtol=1e-6)
    d = np.arange(24, dtype=np.float32).reshape(2, 3, 4) + 1
    compact = tf.linalg.LinearOperatorTridiag(d)
    assert compact.shape == (2, 4, 4)
    assert compact.to_dense().numpy()[1].tolist() == [
        [17.0, 13.0, 0.0, 0.0], [22.0, 18.0, 14.0, 0.0], [0.0, 23.0, 19.0, 15.0],
        [0.0, 0.0, 24.0, 20.0]]
    np.testing.assert_allclose(compact.solve(np.ones([2, 4, 1], np.float32))[0, :, 0],
                               [0.1375, 0.3125, -1.125, 1.8125], rtol=1e-5)
    with pytest.raises(ValueError, match='Diagonals Format'):
        tf.linalg.LinearOperatorTridiag(d, diagonals_format='banded')


def test_full_matrix_operations():
    f = tf.linalg.LinearOperatorFullMatrix([[4., 1.], [2., 3.]])
    assert f.matmul([[1.], [2.]]).numpy().tolist() == [[6.0], [8.0]]
    assert f.matvec([1., 2.]).numpy().tolist() == [6.0, 8.0]
    np.testing.assert_allclose(f.solvevec([1., 2.]), [0.1, 0.6], rtol=1e-6)
    assert f.determinant().numpy() == 10.0 and f.trace().numpy() == 7.0
    assert f.adjoint().to_dense().numpy().tolist() == [[4.0, 2.0], [1.0, 3.0]]
    np.testing.assert_allclose(f.inverse().to_dense(), [[0.3, -0.1], [-0.2, 0.4]], rtol=1e-6)
    assert f.add_to_tensor(tf.ones([2, 2])).numpy().tolist() == [[5.0, 2.0], [3.0, 4.0]]
    assert (f @ tf.ones([2, 1])).numpy().tolist() == [[5.0], [5.0]]


def test_diag_identity_scaled_and_lower_triangular():
    g = tf.linalg.LinearOperatorDiag([1., -2., 4.])
    assert g.solve([[1.], [1.], [1.]]).numpy().tolist() == [[1.0], [-0.5], [0.25]]
    np.testing.assert_allclose(g.log_abs_determinant(), 2.0794415, rtol=1e-6)
    assert g.determinant().numpy() == -8.0
    assert g.matmul(tf.ones([3, 2])).numpy().tolist() == [[1.0, 1.0], [-2.0, -2.0], [4.0, 4.0]]
    i = tf.linalg.LinearOperatorIdentity(3, batch_shape=[2])
    assert i.shape == (2, 3, 3) and i.log_abs_determinant().numpy().tolist() == [0.0, 0.0]
    s = tf.linalg.LinearOperatorScaledIdentity(2, 3.)
    assert s.to_dense().numpy().tolist() == [[3.0, 0.0], [0.0, 3.0]] and s.determinant() == 9.0
    t = tf.linalg.LinearOperatorLowerTriangular([[2., 9.], [1., 4.]])
    assert t.to_dense().numpy().tolist() == [[2.0, 0.0], [1.0, 4.0]]
    assert t.solve([[2.], [5.]]).numpy().tolist() == [[1.0], [1.0]]
    assert t.determinant().numpy() == 8.0
    assert t.inverse().to_dense().numpy().tolist() == [[0.5, 0.0], [-0.125, 0.25]]


def test_gradients_flow_through_the_dense_form():
    d = tf.Variable([1., 2., 3.])
    with tf.GradientTape() as tape:
        value = tf.linalg.LinearOperatorDiag(d).log_abs_determinant()
    np.testing.assert_allclose(tape.gradient(value, d), [1., 0.5, 1 / 3], rtol=1e-6)
