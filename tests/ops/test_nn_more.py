"""tf.nn.dropout, the clipping functions and the other additions of nn_more.py / clip_ops.py beyond
the registry walk: statistics, None entries, TF's errors and edge cases (checked against TF 2.21)."""
import numpy as np
import pytest

import defun as tf


def test_dropout_scales_kept_elements_and_drops_about_rate():
    tf.random.set_seed(3)
    y = tf.nn.dropout(tf.ones([200, 100]), rate=0.25).numpy()
    kept = y != 0
    np.testing.assert_allclose(y[kept], 1 / 0.75, rtol=1e-6)
    assert abs(kept.mean() - 0.75) < 0.02


def test_dropout_noise_shape_broadcasts_the_mask():
    y = tf.nn.dropout(tf.ones([50, 4]), rate=0.5, noise_shape=[50, 1]).numpy()
    assert all(len(set(row)) == 1 for row in y)
    z = tf.nn.dropout(tf.ones([3, 40]), rate=0.5, noise_shape=[None, 1]).numpy()
    assert all(len(set(row)) == 1 for row in z)


def test_dropout_rate_zero_is_the_input_and_bad_arguments_raise():
    x = tf.constant([1.0, 2.0])
    assert tf.nn.dropout(x, 0.0) is x
    with pytest.raises(ValueError, match='rate'):
        tf.nn.dropout(x, 1.0)
    with pytest.raises(ValueError, match='floating point'):
        tf.nn.dropout(tf.constant([1, 2]), 0.5)


def test_dropout_gradient_is_the_mask_times_scale():
    x = tf.constant(np.ones([20, 20]))
    tf.random.set_seed(5)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.dropout(x, 0.5)
    g = tape.gradient(y, x).numpy()
    np.testing.assert_array_equal(g, y.numpy())


def test_dropout_in_a_compiled_function_draws_per_call():
    f = tf.function(lambda x: tf.nn.dropout(x, 0.5))
    x = tf.ones([1000])
    assert not np.array_equal(f(x).numpy(), f(x).numpy())


def test_clip_by_global_norm_as_tf():
    # Values recorded from TF 2.21.
    clipped, norm = tf.clip_by_global_norm([tf.constant([3., 4.]), None, tf.constant([12.])], 6.5)
    assert clipped[1] is None
    np.testing.assert_allclose(clipped[0].numpy(), [1.5, 2.0])
    np.testing.assert_allclose(clipped[2].numpy(), [6.0])
    assert float(norm) == 13.0
    none_only, zero = tf.clip_by_global_norm([None], 6.5)
    assert none_only == [None] and float(zero) == 0.0
    with pytest.raises(TypeError, match='t_list'):
        tf.clip_by_global_norm(tf.constant([1.0]), 1.0)


def test_clip_by_global_norm_infinite_norm_gives_nan():
    clipped, norm = tf.clip_by_global_norm([tf.constant([np.inf, 1.0])], 1.0)
    assert np.isinf(norm.numpy()) and np.isnan(clipped[0].numpy()).all()


def test_clip_by_norm_zero_tensor_has_finite_gradient():
    x = tf.zeros([3])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.clip_by_norm(x, 1.0)
    assert np.isfinite(tape.gradient(y, x).numpy()).all()


def test_embedding_lookup_in_a_compiled_function_with_unknown_shapes():
    f = tf.function(lambda a, b, ids: tf.nn.embedding_lookup([a, b], ids),
                    input_signature=[tf.TensorSpec([None, 2]), tf.TensorSpec([None, 2]),
                                     tf.TensorSpec([None], tf.int32)])
    a, b = np.array([[0., 0], [2, 2], [4, 4]]), np.array([[1., 1], [3, 3]])
    ids = tf.constant([4, 1, 0, 3])
    np.testing.assert_array_equal(f(a, b, ids).numpy()[:, 0], [4, 1, 0, 3])


def test_grid_helpers_errors():
    with pytest.raises(ValueError, match='indexing'):
        tf.meshgrid([1, 2], [3], indexing='ab')
    with pytest.raises(ValueError, match='maxlen'):
        tf.sequence_mask([1, 2], maxlen=[3])
    assert tf.sequence_mask([1., 2.]).shape == (2, 2)   # TF accepts float lengths


def test_scatter_extrema_split_gradient_between_ties():
    x = tf.constant([1.0, 5.0])
    u = tf.constant([5.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, u])
        y = tf.tensor_scatter_nd_max(x, [[1]], u)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [1.0, 0.5])
    np.testing.assert_allclose(tape.gradient(y, u).numpy(), [0.5])


def test_bad_arguments_raise_tf_classes():
    with pytest.raises(TypeError, match='ids'):
        tf.nn.embedding_lookup(tf.ones([3, 2]), tf.constant([0.5]))
    with pytest.raises(tf.errors.InvalidArgumentError, match='rank'):
        tf.linalg.lstsq(tf.constant(1.5), tf.ones([2, 2]))
