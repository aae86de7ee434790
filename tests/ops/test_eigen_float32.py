"""float32/float16 erf and log1p give TF's bits (Eigen's algorithms): values recorded with TF 2.21."""
import numpy as np

import defun as tf

ERF_X = [-4.5, -3.9000000953674316, -1.0, -0.5, -0.0010000000474974513, 0.0, 9.99994610111476e-41,
         0.0010000000474974513, 0.30000001192092896, 0.5, 0.8427000045776367, 1.0, 1.5, 2.0, 3.0,
         3.8299999237060547, 4.0, 10.0]
ERF_TF = [-1.0, -1.0, -0.8427008390426636, -0.5204998850822449, -0.001128378789871931, 0.0, 0.0,
          0.001128378789871931, 0.3286267817020416, 0.5204998850822449, 0.7666438221931458,
          0.8427008390426636, 0.9661051034927368, 0.9953223466873169, 0.9999780058860779, 1.0,
          1.0, 1.0]
LOG1P_X = [0.0, 9.99994610111476e-41, 9.99999993922529e-09, 9.999999747378752e-05, 0.25, 0.5, 1.0,
           3.0, 5.0, 100.0, 10000000000.0, 3.0000000054977558e+38, np.inf, -0.5]
LOG1P_TF = [0.0, 0.0, 9.99999993922529e-09, 9.999499161494896e-05, 0.2231435477733612,
            0.40546509623527527, 0.6931471824645996, 1.3862943649291992, 1.7917594909667969,
            4.6151204109191895, 23.025850296020508, 88.59684753417969, np.inf, -0.6931471824645996]


def test_float32_erf_bits():
    assert tf.math.erf(np.array(ERF_X, np.float32)).numpy().tolist() == ERF_TF
    # the docstring's example: TF prints 0.999978 for erf(3)
    assert repr(tf.math.erf([[1.0, 2.0, 3.0]]).numpy()[0, 2]) == 'np.float32(0.999978)'


def test_float32_log1p_bits():
    assert tf.math.log1p(np.array(LOG1P_X, np.float32)).numpy().tolist() == LOG1P_TF


def test_half_goes_through_float32():
    h = np.array([-2., -0.5, 0.3, 1., 2.5], np.float16)
    assert tf.math.erf(h).numpy().tolist() == [-0.9951171875, -0.5205078125, 0.32861328125,
                                               0.8427734375, 0.99951171875]
    assert tf.math.log1p(np.abs(h)).numpy().tolist() == [1.0986328125, 0.405517578125,
                                                         0.262451171875, 0.693359375,
                                                         1.2529296875]


def test_float64_stays_correctly_rounded():
    np.testing.assert_allclose(tf.math.erf(tf.constant([1.0], tf.float64)), [0.8427007929497149],
                               rtol=0, atol=1e-16)


def test_log1p_packets_and_scalar_remainder():
    # TF: whole packets of 8 take Eigen's algorithm, the rest the C library's log1pf
    assert tf.math.log1p(np.array([1e10], np.float32)).numpy().tolist() == [23.025850296020508]
    nine = tf.math.log1p(np.full([9], 1e10, np.float32)).numpy().tolist()
    assert nine == [23.02585220336914] * 8 + [23.025850296020508]
