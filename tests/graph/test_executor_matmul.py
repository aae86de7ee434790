"""Emitter rules of MatMul: rank-2 float32/float64 products with transposes, outer products
included, are written as np.dot on .T views (faster than a broadcast multiply there, see
ops/linalg.py); results equal numpy's matmul of the transposed operands exactly (same dtype, shape
and bits), and other cases still call the kernel."""
import numpy as np
import pytest

import defun as tf
from defun.compiler import executor

SHAPES = [(5, 3, 4), (64, 1, 64), (64, 64, 1), (1, 1, 1), (0, 3, 2), (17, 33, 65)]


def _compiled_matmul(sa, sb, dtype, ta, tb):
    g = tf.Graph()
    with g.as_default():
        a = tf.compat.v1.placeholder(dtype, sa, name='a')
        b = tf.compat.v1.placeholder(dtype, sb, name='b')
        y = tf.matmul(a, b, transpose_a=ta, transpose_b=tb, name='prod')
    return executor.compile_graph(g, [a, b], [y])


@pytest.mark.parametrize('dtype', [np.float32, np.float64])
@pytest.mark.parametrize('ta', [False, True])
@pytest.mark.parametrize('tb', [False, True])
def test_transposed_and_outer_products_equal_numpy_matmul_exactly(dtype, ta, tb):
    rng = np.random.default_rng(7)
    for n, k, m in SHAPES:
        sa, sb = ((k, n) if ta else (n, k)), ((m, k) if tb else (k, m))
        fn = _compiled_matmul(sa, sb, tf.as_dtype(dtype), ta, tb)
        x = rng.standard_normal(sa).astype(dtype)
        y = rng.standard_normal(sb).astype(dtype)
        want = np.matmul(x.T if ta else x, y.T if tb else y)
        got = fn(x, y)[0]
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)
        assert 'np.dot(' in fn.source and 'k_MatMul' not in fn.source


def test_source_shows_the_folded_transposes():
    fn = _compiled_matmul((3, 4), (5, 3), tf.float32, True, True)
    assert 'prod = np.dot(a.T, b.T)' in fn.source
    fn = _compiled_matmul((6, 1), (6, 1), tf.float32, False, True)
    assert 'prod = np.dot(a, b.T)' in fn.source


def test_unknown_inner_dimension_batched_and_integer_matmuls():
    # An inner dimension not known to be 1 on both sides is no outer product.
    fn = _compiled_matmul((6, 1), (None, 4), tf.float32, False, False)
    assert 'prod = np.dot(a, b)' in fn.source
    for sa, sb, dtype in [((2, 3, 4), (2, 4, 5), tf.float32),      # batched
                          ((3, 4), (4, 5), tf.int32),              # not a BLAS dtype
                          (None, (4, 5), tf.float32)]:             # unknown rank
        fn = _compiled_matmul(sa, sb, dtype, False, False)
        assert 'k_MatMul(' in fn.source


def test_shape_mismatch_at_run_time_still_fails_naming_the_op():
    fn = _compiled_matmul((None, 3), (3, None), tf.float32, False, False)
    assert 'np.dot(a, b)' in fn.source
    np.testing.assert_array_equal(fn(np.ones((2, 3), np.float32), np.ones((3, 2), np.float32))[0],
                                  np.full((2, 2), 3.0, np.float32))

    @tf.function
    def f(a, b):
        return tf.matmul(a, b)

    sig_a = tf.TensorSpec([None, None], tf.float32)
    concrete = f.get_concrete_function(sig_a, sig_a)
    with pytest.raises(tf.errors.InvalidArgumentError, match='MatMul'):
        concrete(tf.ones([2, 3]), tf.ones([4, 2]))


def test_gradient_of_an_outer_product_through_a_compiled_function():
    @tf.function
    def f(u, v):
        with tf.GradientTape() as tape:
            tape.watch(u)
            y = tf.reduce_sum(tf.matmul(u, v, transpose_b=True) ** 2)
        return tape.gradient(y, u)

    u = np.arange(1.0, 5.0, dtype=np.float32).reshape(4, 1)
    v = np.array([[0.5], [-1.0], [2.0]], np.float32)
    want = 2 * (u @ v.T) @ v  # d/du sum((u v^T)^2)
    np.testing.assert_allclose(f(tf.constant(u), tf.constant(v)).numpy(), want, rtol=1e-6)
