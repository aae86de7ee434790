"""rint, angle, truncatediv/truncatemod, realdiv, segment products, invert_permutation and
unique_with_counts; tf.nn.experimental dropout. Expected values recorded with TensorFlow 2.21."""
import numpy as np
import pytest

import defun as tf


def test_rint_rounds_half_to_even_and_has_no_gradient():
    assert tf.math.rint(tf.constant([0.5, 1.5, -0.5, 2.5])).numpy().tolist() == [0., 2., -0., 2.]
    x = tf.constant([1.2])
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.math.rint(x)
    assert t.gradient(y, x) is None


def test_angle_values_and_gradient():
    x, y = tf.constant([-7., 7., 2.5]), tf.constant([3., -3., 2.])
    with tf.GradientTape(persistent=True) as t:
        t.watch([x, y])
        a = tf.math.angle(tf.complex(x, y))
    assert a.numpy().tolist() == np.float32([2.7367008, -0.4048918, 0.67474097]).tolist()
    gx, gy = t.gradient(a, [x, y])
    np.testing.assert_allclose(gx, [-0.05172414, 0.05172414, -0.19512196], rtol=1e-6)
    np.testing.assert_allclose(gy, [-0.12068966, 0.12068966, 0.24390244], rtol=1e-6)
    assert tf.math.angle(tf.constant([-1., 1., 0.])).numpy().tolist() == [np.float32(np.pi), 0, 0]


def test_truncating_division_and_realdiv():
    a, b = tf.constant([-7, 7]), tf.constant([2, -2])
    assert tf.truncatediv(a, b).numpy().tolist() == [-3, -3]
    assert tf.truncatemod(a, b).numpy().tolist() == [-1, 1]
    assert tf.truncatemod(tf.constant([-7., 7., 2.5]), tf.constant([3., -3., 2.])).numpy().tolist() == [-1., 1., .5]
    with pytest.raises(tf.errors.InvalidArgumentError, match='division by zero'):
        tf.truncatediv(a, tf.constant([1, 0]))
    x, y = tf.constant([-7., 7., 2.5]), tf.constant([3., -3., 2.])
    with tf.GradientTape() as t:
        t.watch(y)
        r = tf.realdiv(x, y)
    # TF's gradient order, g * ((-x / y) / y), bit for bit.
    assert t.gradient(r, y).numpy().tolist() == np.float32([0.77777773, -0.77777773, -0.625]).tolist()


def test_segment_products_and_their_gradient_around_zeros():
    x = tf.constant([-7., 7., 2.5])
    assert tf.math.unsorted_segment_prod(x, [0, 1, 0], 3).numpy().tolist() == [-17.5, 7., 1.]
    assert tf.math.segment_prod(tf.constant([1, 2, 3, 4]), [0, 0, 1, 1]).numpy().tolist() == [2, 12]
    z = tf.constant([0., 2., 3., 0., 0., 5.])
    with tf.GradientTape() as t:
        t.watch(z)
        p = tf.math.unsorted_segment_prod(z, [0, 0, 1, 1, 1, 2], 3)
    g = t.gradient(p, z, output_gradients=tf.constant([1., 2., 3.]))
    assert p.numpy().tolist() == [0., 0., 5.]
    assert g.numpy().tolist() == [2., 0., 0., 0., 0., 3.]


def test_invert_permutation_and_unique_with_counts():
    assert tf.math.invert_permutation([2, 0, 1]).numpy().tolist() == [1, 2, 0]
    y, idx, count = tf.unique_with_counts(tf.constant([4, 2, 4, 1, 2]))
    assert (y.numpy().tolist(), idx.numpy().tolist(), count.numpy().tolist()) == (
        [4, 2, 1], [0, 1, 0, 2, 1], [2, 2, 1])


def test_stateless_and_general_dropout_match_tf_bits():
    x = tf.ones([2, 8])
    expected = [[2., 0., 2., 0., 0., 0., 0., 2.], [0., 2., 0., 0., 0., 0., 2., 0.]]
    assert tf.nn.experimental.stateless_dropout(x, rate=0.5, seed=[1, 0]).numpy().tolist() == expected
    sampler = lambda shape, dtype: tf.random.stateless_uniform(shape, [1, 0], dtype=dtype)  # noqa: E731
    assert tf.nn.experimental.general_dropout(x, 0.5, sampler).numpy().tolist() == expected
    assert tf.nn.experimental.stateless_dropout(tf.ones([3], tf.float64), rate=0.5,
                                                seed=[7, 7]).numpy().tolist() == [2., 0., 2.]


def test_sigmoid_and_rsqrt_gradients_follow_tf_order_of_operations():
    # Bits recorded with TensorFlow 2.21: SigmoidGrad is (dy * y) * (1 - y) and RsqrtGrad
    # -0.5 * (dy * y) * (y * y); another order rounds differently in float32.
    y = np.array([1053653199, 1051696211], np.uint32).view(np.float32)
    dy = np.array([3206103960, 1051696211], np.uint32).view(np.float32)
    z = tf.constant(np.log(y / (1 - y)))
    with tf.GradientTape() as t:
        t.watch(z)
        s = tf.sigmoid(z)
    g = t.gradient(s, z, output_gradients=tf.constant(dy)).numpy()
    yy = s.numpy()
    assert g.tolist() == (dy * yy * (np.float32(1) - yy)).tolist()
    x = tf.constant([0.3, 1.7, 2.9])
    with tf.GradientTape() as t:
        t.watch(x)
        r = tf.math.rsqrt(x)
    w = np.float32([0.7, -1.3, 0.2])
    ry = r.numpy()
    expected = np.float32(-0.5) * (w * ry) * (ry * ry)
    assert t.gradient(r, x, output_gradients=tf.constant(w)).numpy().tolist() == expected.tolist()


def test_nextafter_and_math_zero_fraction():
    # Recorded with TensorFlow 2.21.
    x, y = tf.constant([1.0, 0.0, -1.0]), tf.constant([2.0, -1.0, -1.0])
    with tf.GradientTape() as t:
        t.watch(x)
        z = tf.math.nextafter(x, y)
    assert z.numpy().view(np.uint32).tolist() == [1065353217, 2147483649, 3212836864]
    assert t.gradient(z, x).numpy().tolist() == [1., 1., 1.]
    with pytest.raises(tf.errors.InvalidArgumentError, match='int32'):
        tf.math.nextafter(tf.constant([1]), tf.constant([2]))
    assert tf.math.zero_fraction(tf.constant([0., 1., 0., 2.])).numpy() == 0.5
