"""tf.image.ssim and ssim_multiscale against values recorded with TF 2.21 (float32 rounding
apart), their gradient, and bad input."""
import numpy as np
import pytest

import defun as tf

RNG = np.random.default_rng(0)
A = RNG.random((2, 24, 20, 3)).astype(np.float32)
B = np.clip(A + RNG.normal(0, 0.1, A.shape), 0, 1).astype(np.float32)
BIG = RNG.random((1, 181, 170, 1)).astype(np.float32)
BIG2 = np.clip(BIG + 0.05, 0, 1).astype(np.float32)


def test_ssim_matches_tf():
    np.testing.assert_allclose(tf.image.ssim(A, B, 1.0).numpy(),
                               [0.9434232115745544, 0.9424667358398438], rtol=2e-6)
    np.testing.assert_allclose(tf.image.ssim(A, B, 1.0, filter_size=5, filter_sigma=0.8,
                                             k1=0.02).numpy(),
                               [0.9330549240112305, 0.9375123977661133], rtol=2e-6)
    assert tf.image.ssim(A, B, 1.0, return_index_map=True).shape == (2, 14, 10)
    u, v = (A * 255).astype(np.uint8), (B * 255).astype(np.uint8)
    np.testing.assert_allclose(tf.image.ssim(u, v, 255).numpy(),
                               [0.9433495998382568, 0.942537248134613], rtol=2e-6)


def test_ssim_multiscale_matches_tf():
    np.testing.assert_allclose(tf.image.ssim_multiscale(BIG, BIG2, 1.0).numpy(),
                               [0.9992238283157349], rtol=2e-5)
    np.testing.assert_allclose(tf.image.ssim_multiscale(
        BIG, BIG2, 1.0, power_factors=(0.5, 0.5), filter_size=7).numpy(), [0.9975876212120056],
        rtol=2e-6)


def test_ssim_gradient():
    x = tf.constant(A)
    with tf.GradientTape() as tape:
        tape.watch(x)
        total = tf.reduce_sum(tf.image.ssim(x, B, 1.0))
    np.testing.assert_allclose(float(tf.reduce_sum(tape.gradient(total, x))),
                               0.02956300973892212, rtol=1e-4)


def test_ssim_bad_input():
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.image.ssim(np.zeros((1, 5, 5, 1), np.float32), np.zeros((1, 5, 5, 1), np.float32), 1.0)
    with pytest.raises(ValueError):
        tf.image.ssim(np.zeros((1, 12, 12, 1), np.float32), np.zeros((1, 12, 13, 1), np.float32),
                      1.0)
