"""Gradient rules of the math ops that finite differences cannot pin down: TF's choices at ties
and kinks, ops without a gradient, and gradients that stay finite where a naive formula overflows."""
import numpy as np
import pytest

import defun as tf


def _grad(f, *values):
    xs = [tf.constant(np.asarray(v, np.float64)) for v in values]
    with tf.GradientTape() as tape:
        for x in xs:
            tape.watch(x)
        y = f(*xs)
    grads = tape.gradient(y, xs)
    return [None if g is None else g.numpy() for g in grads]


def test_reduce_max_splits_the_gradient_between_ties():
    [g] = _grad(tf.reduce_max, [1.0, 3.0, 3.0, 2.0])
    np.testing.assert_allclose(g, [0, 0.5, 0.5, 0])
    [g] = _grad(lambda x: tf.reduce_min(x, axis=1), [[1.0, 1.0, 2.0], [0.0, 5.0, 0.0]])
    np.testing.assert_allclose(g, [[0.5, 0.5, 0], [0.5, 0, 0.5]])


def test_maximum_and_minimum_give_ties_to_the_first_argument():
    gx, gy = _grad(tf.maximum, [1.0, 2.0], [1.0, 1.0])
    np.testing.assert_allclose(gx, [1, 1])
    np.testing.assert_allclose(gy, [0, 0])
    gx, gy = _grad(tf.minimum, [1.0], [1.0])
    assert gx.tolist() == [1.0] and gy.tolist() == [0.0]


def test_clip_by_value_passes_the_gradient_inside_and_at_the_bounds():
    [g] = _grad(lambda x: tf.clip_by_value(x, -1.0, 1.0), [-2.0, -1.0, 0.5, 1.0, 3.0])
    np.testing.assert_allclose(g, [0, 1, 1, 1, 0])


@pytest.mark.parametrize('fn', [tf.round, tf.floor, tf.math.ceil])
def test_rounding_has_no_gradient(fn):
    assert _grad(fn, [0.3, 1.7]) == [None]


def test_floordiv_has_no_gradient_and_floormod_has_one():
    assert _grad(lambda x: x // 2.0, [3.5]) == [None]
    gx, gy = _grad(tf.math.floormod, [3.5], [2.0])
    assert gx.tolist() == [1.0] and gy.tolist() == [-1.0]


def test_sign_gradient_is_zero_as_in_tf():
    [g] = _grad(tf.sign, [-2.0, 0.0, 3.0])
    np.testing.assert_array_equal(g, [0, 0, 0])


def test_comparisons_and_argmax_stop_the_gradient():
    def f(x):
        return tf.cast(tf.less(x, 1.0), tf.float64) + tf.cast(tf.argmax(x), tf.float64)
    assert _grad(f, [0.5, 2.0]) == [None]


def test_where_routes_the_gradient_to_the_chosen_branch():
    cond = tf.constant([True, False, True])
    gx, gy = _grad(lambda x, y: tf.where(cond, x * 2.0, y * 3.0), [1.0, 1.0, 1.0], [1.0])
    np.testing.assert_allclose(gx, [2, 0, 2])
    np.testing.assert_allclose(gy, [3])   # the broadcast scalar collects the one unchosen element


def test_logsumexp_gradient_is_softmax_even_for_huge_inputs():
    [g] = _grad(tf.reduce_logsumexp, [1000.0, 1000.0])
    np.testing.assert_allclose(g, [0.5, 0.5])
    [g] = _grad(lambda x: tf.reduce_logsumexp(x, axis=1, keepdims=True), [[1.0, 2.0], [3.0, 3.0]])
    np.testing.assert_allclose(g.sum(axis=1), [1.0, 1.0])


def test_sigmoid_and_softplus_gradients_are_finite_at_extremes():
    [g] = _grad(tf.sigmoid, [-800.0, 800.0])
    np.testing.assert_allclose(g, [0, 0])
    [g] = _grad(tf.math.softplus, [-800.0, 800.0])
    np.testing.assert_allclose(g, [0, 1])


def test_reduce_prod_gradient_with_zeros_is_exact():
    [g] = _grad(tf.reduce_prod, [2.0, 0.0, 3.0])
    np.testing.assert_allclose(g, [0, 6, 0])
    [g] = _grad(tf.reduce_prod, [0.0, 0.0, 3.0])
    np.testing.assert_allclose(g, [0, 0, 0])


def test_mean_gradient_with_unknown_shapes_inside_a_function():
    @tf.function(input_signature=[tf.TensorSpec([None, None], tf.float64)])
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_mean(x, axis=0) * tf.reduce_prod(x, axis=1)[0]
        return tape.gradient(y, x)

    x = np.array([[1.0, 2.0], [3.0, 4.0]])
    # y sums to S * p with S = sum(mean(x, 0)) = 5 and p = x00 * x01 = 2.
    expected = np.array([[0.5 * 2 + 5 * 2, 0.5 * 2 + 5 * 1], [0.5 * 2, 0.5 * 2]])
    np.testing.assert_allclose(f(tf.constant(x)).numpy(), expected)


def test_det_and_inv_gradients_match_the_closed_forms():
    a = np.array([[4.0, 7.0], [2.0, 6.0]])
    [g] = _grad(tf.linalg.det, a)
    np.testing.assert_allclose(g, np.linalg.det(a) * np.linalg.inv(a).T)
    [g] = _grad(lambda m: tf.reduce_sum(tf.linalg.inv(m)), a)
    inv = np.linalg.inv(a)
    np.testing.assert_allclose(g, -inv.T @ np.ones((2, 2)) @ inv.T)


def test_higher_order_through_einsum():
    x = tf.constant(np.array([0.5, -1.0, 2.0]))
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.einsum('i,i->', x, x) * tf.reduce_sum(x)
        g = inner.gradient(y, x)
    h = outer.jacobian(g, x)
    s, v = float(np.sum(x.numpy())), x.numpy()
    expected = 2 * s * np.eye(3) + 2 * (v[:, None] + v[None, :])
    np.testing.assert_allclose(h.numpy(), expected)


def test_matmul_gradient_of_complex_inputs_is_conjugate_as_in_tf():
    z, w = tf.constant([[1 + 1j, 2.0]]), tf.constant([[2 + 1j], [1j]])
    with tf.GradientTape() as tape:
        tape.watch([z, w])
        y = tf.matmul(z, w)
    gz, gw = tape.gradient(y, [z, w])
    np.testing.assert_allclose(gz.numpy(), [[2 - 1j, -1j]])
    np.testing.assert_allclose(gw.numpy(), [[1 - 1j], [2.0]])


def test_matmul_rejects_vectors_as_tf():
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.matmul(tf.ones([2, 2]), tf.ones([2]))
