"""tf.linalg.eig, eigvals, lu, lu_solve, lu_matrix_inverse and lu_reconstruct against values
recorded from TensorFlow 2.21 (eigenvectors compared up to their phase, which is not unique)."""
import numpy as np
import pytest

import defun as tf

A = np.array([[1.0, 2, 3], [4, 5, 6], [7, 8, 10]])
TF_LU = [[7.0, 8.0, 10.0], [0.14285714285714285, 0.8571428571428572, 1.5714285714285716],
         [0.5714285714285714, 0.5000000000000002, -0.49999999999999967]]
TF_LU_F32 = [[7.0, 8.0, 10.0], [0.1428571492433548, 0.8571428060531616, 1.5714285373687744],
             [0.5714285969734192, 0.4999997913837433, -0.4999998211860657]]
TF_EIGENVALUES = [16.70749331612474, -0.9057401795217613, 0.19824686339700892]
TF_EIGENVECTORS = [[0.2235133577278518, 0.8658457814289259, 0.27829648598057183],
                   [0.5039456275263903, -0.08565120135087248, -0.8318468022052949],
                   [0.8343144391740167, -0.49292489741225776, 0.4801895079566922]]
# d/dA of sum(real(e) * [1, 2, 3]) + sum(imag(e)), by TF's Eig gradient
TF_EIG_GRAD = [[1.9462815785325482, -0.3899490662414754, -0.3034237947810925],
               [-0.36989164287834714, 2.430918061079124, -0.8965095389880238],
               [-0.030086135044691615, -0.7598407091198228, 1.6228003603883279]]


def test_lu_matches_tf():
    lu, p = tf.linalg.lu(A)
    np.testing.assert_allclose(lu.numpy(), TF_LU, rtol=1e-14, atol=1e-15)
    assert p.numpy().tolist() == [2, 0, 1] and p.dtype == tf.int32
    lu32, p64 = tf.linalg.lu(A.astype(np.float32), output_idx_type=tf.int64)
    np.testing.assert_allclose(lu32.numpy(), TF_LU_F32, rtol=1e-6)
    assert p64.dtype == tf.int64
    batched, perms = tf.linalg.lu(np.array([[[2.0, 1], [1, 3]], [[0, 1], [3, 2]]]))
    assert batched.numpy().tolist() == [[[2.0, 1.0], [0.5, 2.5]], [[3.0, 2.0], [0.0, 1.0]]]
    assert perms.numpy().tolist() == [[0, 1], [1, 0]]


def test_lu_helpers_match_tf():
    lu, p = tf.linalg.lu(A)
    np.testing.assert_allclose(tf.linalg.lu_reconstruct(lu, p).numpy(), A, rtol=1e-14)
    np.testing.assert_allclose(tf.linalg.lu_solve(lu, p, np.array([[1.0], [2], [3]])).numpy(),
                               [[-1 / 3], [2 / 3], [0.0]], atol=1e-14)
    inverse = [[-0.6666666666666656, -1.3333333333333341, 1.0000000000000004],
               [-0.6666666666666689, 3.666666666666669, -2.000000000000001],
               [1.000000000000001, -2.0000000000000013, 1.0000000000000004]]
    np.testing.assert_allclose(tf.linalg.lu_matrix_inverse(lu, p).numpy(), inverse, rtol=1e-12)
    stack = np.stack([A, A.T + np.eye(3)])
    lu2, p2 = tf.linalg.lu(stack)
    np.testing.assert_allclose(tf.linalg.lu_reconstruct(lu2, p2).numpy(), stack, rtol=1e-14)
    np.testing.assert_allclose(tf.linalg.lu_matrix_inverse(lu2, p2).numpy(),
                               np.linalg.inv(stack), rtol=1e-12)


@pytest.mark.parametrize('matrix, message', [(np.ones((2, 3)), 'must be square'),
                                             (np.zeros((2, 2)), 'not invertible'),
                                             (np.array([[1.0, 2], [2, 4]]), 'not invertible')])
def test_lu_refusals(matrix, message):
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        tf.linalg.lu(matrix)


def test_eig_matches_tf():
    e, v = tf.linalg.eig(A)
    assert e.dtype == tf.complex128 and v.dtype == tf.complex128
    np.testing.assert_allclose(e.numpy(), TF_EIGENVALUES, rtol=1e-13)
    # each eigenvector up to a factor of modulus 1 (here a sign)
    phases = np.sum(np.conj(np.array(TF_EIGENVECTORS)) * v.numpy(), axis=0)
    np.testing.assert_allclose(np.abs(phases), 1.0, rtol=1e-12)
    np.testing.assert_allclose(v.numpy() / phases, TF_EIGENVECTORS, atol=1e-12)
    rotation = tf.linalg.eigvals(np.array([[0.0, -1], [1, 0]], np.float32))
    assert rotation.dtype == tf.complex64 and rotation.numpy().tolist() == [1j, -1j]
    with pytest.raises(tf.errors.InvalidArgumentError, match='must be square'):
        tf.linalg.eig(np.ones((2, 3)))


def test_eig_gradient_matches_tf():
    x = tf.constant(A)
    with tf.GradientTape() as tape:
        tape.watch(x)
        e, _ = tf.linalg.eig(x)
        loss = tf.reduce_sum(tf.math.real(e) * [1.0, 2, 3]) + tf.reduce_sum(tf.math.imag(e))
    np.testing.assert_allclose(tape.gradient(loss, x).numpy(), TF_EIG_GRAD, rtol=1e-10)


def test_shapes_in_a_graph():
    @tf.function(input_signature=[tf.TensorSpec([None, 3, 3], tf.float64)])
    def f(x):
        lu, p = tf.linalg.lu(x)
        e, v = tf.linalg.eig(x)
        assert lu.shape.as_list() == [None, 3, 3] and p.shape.as_list() == [None, 3]
        assert e.shape.as_list() == [None, 3] and v.shape.as_list() == [None, 3, 3]
        return tf.linalg.lu_reconstruct(lu, p)
    stack = np.stack([A, A.T + np.eye(3)])
    np.testing.assert_allclose(f(stack).numpy(), stack, rtol=1e-14)
