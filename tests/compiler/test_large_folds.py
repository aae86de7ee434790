"""Constant folding of large values, as Grappler: a chain of matmuls of constants is computed
once when the function is compiled (TF's first call is slow, later ones take milliseconds), and
a large splat (tf.ones) takes part in folding; folding can be turned off."""
import numpy as np

import defun as tf


def _chain(x):
    a = tf.ones([300, 300])   # 90,000 elements: beyond the limit for reading values at build
    c = a
    for _ in range(3):
        c = c @ a
    r = tf.random.stateless_normal([300, 300], seed=[1, 2])
    return c[0, 0] + x, tf.reduce_mean(r @ r)


def test_large_constant_chains_are_folded_once():
    f = tf.function(_chain)
    cf = f.get_concrete_function(tf.constant(1.0))
    body = cf.function_source.split('def ', 1)[1]
    assert 'matmul' not in body.replace('matmul_2_folded', '').lower()
    mean, other = f(tf.constant(2.0))
    assert float(mean) == 27000002.0
    expected = np.mean(tf.random.stateless_normal([300, 300], seed=[1, 2]).numpy() @
                       tf.random.stateless_normal([300, 300], seed=[1, 2]).numpy())
    np.testing.assert_allclose(float(other), expected, rtol=1e-4)


def test_folding_off_leaves_the_ops():
    saved = tf.config.optimizer.get_experimental_options()
    tf.config.optimizer.set_experimental_options({'constant_folding': False})
    try:
        cf = tf.function(_chain).get_concrete_function(tf.constant(1.0))
        assert 'folded' not in cf.function_source
        assert float(cf(tf.constant(2.0))[0]) == 27000002.0
    finally:
        tf.config.optimizer.set_experimental_options({'constant_folding': None})
    assert tf.config.optimizer.get_experimental_options() == saved
