"""tf.random: sample statistics, dtypes and shapes, seeding through tf.random.set_seed, bad
arguments, and that compiled functions draw anew on every call (the ops are stateful)."""
import numpy as np
import pytest

import defun as tf
from defun.core import errors
from defun.ops.random.stateful import gamma_sample_grad, regularized_lower_gamma


def test_normal_statistics_and_dtype():
    tf.random.set_seed(0)
    x = tf.random.normal([20000], mean=2.0, stddev=3.0)
    assert x.dtype == tf.float32 and x.shape == (20000,)
    assert abs(float(np.mean(x.numpy())) - 2.0) < 0.1
    assert abs(float(np.std(x.numpy())) - 3.0) < 0.1


def test_normal_float64_and_tensor_shape():
    x = tf.random.normal(tf.constant([3, 4]), dtype=tf.float64)
    assert x.dtype == tf.float64 and x.shape == (3, 4)


def test_uniform_float_range():
    tf.random.set_seed(1)
    x = tf.random.uniform([5000], minval=-1.0, maxval=3.0).numpy()
    assert x.dtype == np.float32
    assert x.min() >= -1.0 and x.max() < 3.0
    assert abs(x.mean() - 1.0) < 0.1


def test_uniform_default_is_unit_interval():
    x = tf.random.uniform([1000]).numpy()
    assert x.min() >= 0.0 and x.max() < 1.0


def test_uniform_int():
    tf.random.set_seed(2)
    x = tf.random.uniform([4000], minval=3, maxval=7, dtype=tf.int32).numpy()
    assert x.dtype == np.int32
    assert set(np.unique(x)) == {3, 4, 5, 6}
    assert tf.random.uniform([2], 0, 10, dtype=tf.int64).dtype == tf.int64


def test_uniform_int_needs_maxval():
    with pytest.raises(ValueError, match='maxval'):
        tf.random.uniform([2], dtype=tf.int32)


def test_uniform_int_needs_minval_below_maxval():
    with pytest.raises(errors.InvalidArgumentError):
        tf.random.uniform([2], 5, 5, dtype=tf.int32)


def test_set_seed_repeats_the_sequence():
    tf.random.set_seed(42)
    a = [tf.random.normal([3]).numpy(), tf.random.uniform([2], seed=7).numpy()]
    tf.random.set_seed(42)
    b = [tf.random.normal([3]).numpy(), tf.random.uniform([2], seed=7).numpy()]
    for u, v in zip(a, b):
        np.testing.assert_array_equal(u, v)
    assert not np.array_equal(a[0], tf.random.normal([3]).numpy())


def test_shuffle_permutes_first_dim():
    tf.random.set_seed(3)
    x = np.arange(20).reshape(10, 2)
    y = tf.random.shuffle(tf.constant(x)).numpy()
    assert sorted(map(tuple, y)) == sorted(map(tuple, x))
    assert not np.array_equal(x, y)


def test_random_ops_have_no_gradient():
    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.random.normal([2], mean=x)
    assert tape.gradient(y, x).numpy() == 2.0  # through `mean`, not through the sample


def test_compiled_function_draws_on_every_call():
    @tf.function
    def draw():
        return tf.random.uniform([4])

    a, b = draw().numpy(), draw().numpy()
    assert not np.array_equal(a, b)
    assert draw.experimental_get_tracing_count() == 1


def test_graph_shape_inference():
    with tf.Graph().as_default():
        n = tf.compat.v1.placeholder(tf.int32, [2])
        assert tf.random.normal(n).shape.as_list() == [None, None]
        assert tf.random.uniform([3, 2], dtype=tf.int64, maxval=5).shape.as_list() == [3, 2]
        assert tf.random.shuffle(tf.zeros([4, 2])).shape.as_list() == [4, 2]


# ---------------------------------------------------------------- TF's seed semantics
# The equality patterns below are those TF 2.21 gives for the same programs (bit values differ).

def _value(t):
    return float(np.ravel(t.numpy())[0])


def test_global_seed_repeats_the_sequence_of_unseeded_and_seeded_ops():
    tf.random.set_seed(1234)
    first = [_value(tf.random.uniform([1])), _value(tf.random.uniform([1], seed=1)),
             _value(tf.random.uniform([1], seed=1))]
    tf.random.set_seed(1234)
    again = [_value(tf.random.uniform([1])), _value(tf.random.uniform([1], seed=1)),
             _value(tf.random.uniform([1], seed=1))]
    assert first == again
    assert first[1] != first[2]   # the same seeded op continues its stream


def test_compiled_functions_each_restart_the_sequence_and_ops_draw_per_call():
    tf.random.set_seed(1234)

    @tf.function
    def f():
        return tf.random.uniform([1]), tf.random.uniform([1])

    @tf.function
    def g():
        return tf.random.uniform([1]), tf.random.uniform([1])

    a, b, c = [tuple(_value(t) for t in fn()) for fn in (f, g, f)]
    assert a == b                 # two functions built after one set_seed draw alike
    assert a[0] != a[1]           # each op has its own stream
    assert c[0] not in a and c[1] not in a   # and it advances per call


def test_op_seed_without_global_seed_is_deterministic_per_program():
    tf.random.set_seed(None)
    a = [_value(tf.random.normal([1], seed=3)), _value(tf.random.normal([1], seed=3))]
    tf.random.set_seed(None)   # as a fresh program: TF's default global seed is used
    b = [_value(tf.random.normal([1], seed=3)), _value(tf.random.normal([1], seed=3))]
    assert a == b and a[0] != a[1]
    tf.random.set_seed(None)
    unseeded = [_value(tf.random.normal([1])) for _ in range(2)]
    tf.random.set_seed(None)
    assert [_value(tf.random.normal([1])) for _ in range(2)] != unseeded


def test_new_random_ops():
    tf.random.set_seed(0)
    t = tf.random.truncated_normal([10000], mean=1.0, stddev=0.5).numpy()
    assert t.min() >= 0.0 and t.max() <= 2.0 and abs(t.mean() - 1.0) < 0.02
    c = tf.random.categorical(tf.math.log([[0.1, 0.9]]), 5000).numpy()
    assert c.shape == (1, 5000) and c.dtype == np.int64 and abs(c.mean() - 0.9) < 0.02
    assert tf.random.categorical([[0.0, 1.0]], 3, dtype=tf.int32).dtype == tf.int32
    gam = tf.random.gamma([8000], alpha=[2.0, 4.0], beta=2.0).numpy()
    assert gam.shape == (8000, 2)
    np.testing.assert_allclose(gam.mean(axis=0), [1.0, 2.0], rtol=0.05)
    poi = tf.random.poisson([8000], lam=[1.0, 6.0]).numpy()
    assert poi.shape == (8000, 2) and poi.dtype == np.float32
    np.testing.assert_allclose(poi.mean(axis=0), [1.0, 6.0], rtol=0.05)
    assert tf.random.poisson([3], 2.0, dtype=tf.int64).dtype == tf.int64


def test_gamma_gradient_in_alpha_is_the_implicit_reparameterisation():
    # The mean of many draws has expectation alpha / beta, so its gradient in alpha is ~1 / beta.
    tf.random.set_seed(4)
    alpha = tf.constant([0.7, 2.5], tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(alpha)
        y = tf.reduce_mean(tf.random.gamma([20000], alpha, beta=2.0, dtype=tf.float64), axis=0)
    np.testing.assert_allclose(tape.gradient(y, alpha).numpy(), [0.5, 0.5], rtol=0.03)
    with tf.GradientTape() as tape:
        tape.watch(alpha)
        s = tf.random.stateless_gamma([20000, 2], seed=[1, 2], alpha=alpha, dtype=tf.float64)
    np.testing.assert_allclose(tape.gradient(s, alpha).numpy() / 20000, [1.0, 1.0], rtol=0.03)


def test_gamma_sample_gradient_matches_the_quantile_derivative():
    a, u = 2.5, 0.3

    def quantile(alpha):   # bisection on P(alpha, x) = u
        lo, hi = 0.0, 100.0
        for _ in range(200):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if regularized_lower_gamma(alpha, mid) < u else (lo, mid)
        return (lo + hi) / 2

    numeric = (quantile(a + 1e-5) - quantile(a - 1e-5)) / 2e-5
    np.testing.assert_allclose(gamma_sample_grad(a, quantile(a)), numeric, rtol=1e-6)
    x = np.array([0.1, 1.0, 5.0])
    np.testing.assert_allclose(regularized_lower_gamma(2.0, x), 1 - (1 + x) * np.exp(-x), atol=1e-12)
