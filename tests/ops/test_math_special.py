"""tf.math.special's domain conventions and erfcinv (values recorded with TF 2.21); the functions'
values and gradients are checked by the registry walk (specs_math_special.py)."""
import numpy as np
import pytest

import defun as tf

S = tf.math.special
EDGE = np.array([-30., -0.1, 0., 0.1])


@pytest.mark.parametrize('name, expected', [
    ('bessel_y0', [-np.inf, -np.inf, -np.inf, -1.53423865]),
    ('bessel_y1', [-np.inf, -np.inf, -np.inf, -6.45895109]),
    ('bessel_k0', [np.inf, np.inf, np.inf, 2.42706902]),
    ('bessel_k1e', [np.inf, np.inf, np.inf, 10.89018268]),
    ('dawsn', [-0.01667594, -0.09933599, 0., 0.09933599]),
    ('expint', [np.nan, np.nan, -np.inf, -1.62281281]),
    ('fresnel_cos', [-0.49999625, -0.09999753, 0., 0.09999753]),
    ('fresnel_sin', [-0.48938967, -0.00052359, 0., 0.00052359]),
    ('spence', [np.nan, np.nan, 1.64493407, 1.29971472])])
def test_domain_edges_as_tf(name, expected):
    got = getattr(S, name)(EDGE).numpy()
    np.testing.assert_allclose(got, expected, rtol=1e-7, atol=1e-8)


def test_odd_and_even_bessels_and_dtypes():
    x = tf.constant([-1., -0.5, 0.5, 1.])
    np.testing.assert_allclose(S.bessel_i1(x), [-0.5651591, -0.25789431, 0.25789431, 0.5651591],
                               rtol=1e-6)
    np.testing.assert_allclose(tf.math.bessel_i0e(x), [0.46575961, 0.64503527, 0.64503527,
                                                       0.46575961], rtol=1e-6)
    assert S.bessel_j0(x).dtype == tf.float32 and S.spence(tf.constant([1.], tf.float64)) == 0
    with pytest.raises(tf.errors.InvalidArgumentError):
        S.bessel_j0(tf.constant([1, 2]))


def test_erfcinv_as_tf():
    got = tf.math.erfcinv([0., 0.2, 1., 1.5, 2., 0.01, 1e-10, -1., 3.]).numpy()
    np.testing.assert_allclose(got, [np.inf, 0.9061938, -0., -0.4769363, -np.inf, 1.8213863,
                                     4.5728254, np.nan, np.nan], rtol=2e-7)
    assert np.signbit(got[2])


def test_float32_bessel_i_and_k0e_give_tfs_bits_where_tf_computes_in_float():
    # TF 2.21's float kernels (Cephes' float Chebyshev series), |x| <= 8 and 0 < x <= 2
    x = np.array([-7.5, -1., -0.5, 0., 0.25, 1., 3.3, 8.], np.float32)
    assert S.bessel_i0(x).numpy().tolist() == [
        268.1613464355469, 1.2660659551620483, 1.063483476638794, 1.0, 1.015686273574829,
        1.2660659551620483, 6.242629528045654, 427.5641784667969]
    assert S.bessel_i1e(x).numpy().tolist() == [
        -0.13804128766059875, -0.207910418510437, -0.15642082691192627, 0.0,
        0.09811264276504517, 0.207910418510437, 0.1910901665687561, 0.13414257764816284]
    k = np.array([0.1, 0.5, 1., 1.7, 2.], np.float32)
    assert S.bessel_k0e(k).numpy().tolist() == [
        2.6823270320892334, 1.5241093635559082, 1.144463062286377, 0.9059179425239563,
        0.8415684103965759]
