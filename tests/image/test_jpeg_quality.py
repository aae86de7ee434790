"""tf.image.adjust_jpeg_quality, random_jpeg_quality and stateless_random_jpeg_quality (the image
extra's codecs). With dct_method='INTEGER_ACCURATE' the round trip is TF's to the pixel; with
TF's default fast IDCT, within a few levels. Expected values recorded with TF 2.21."""
import numpy as np
import pytest

import defun as tf

pytest.importorskip('PIL')

RNG = np.random.default_rng(3)
IMAGE = (RNG.random((16, 20, 3)) * 255).astype(np.uint8)
SMALL = tf.constant([[[1, 2, 3], [4, 5, 6]], [[7, 8, 9], [10, 11, 12]]], dtype=tf.uint8)


def test_adjust_jpeg_quality_accurate_idct_is_tf_exactly():
    out = tf.image.adjust_jpeg_quality(IMAGE, 60, dct_method='INTEGER_ACCURATE').numpy()
    out = out.astype(np.int64)
    assert out.shape == (16, 20, 3) and out.sum() == 119818
    assert (out * np.arange(out.size).reshape(out.shape)).sum() == 56912351
    assert out[5, 7:10].ravel().tolist() == [161, 159, 183, 109, 92, 136, 115, 82, 137]
    grey = tf.image.adjust_jpeg_quality(IMAGE[..., :1], 50, dct_method='INTEGER_ACCURATE')
    assert grey.numpy().astype(np.int64).sum() == 43030
    assert grey.numpy()[3, :6, 0].tolist() == [121, 229, 7, 172, 207, 139]


def test_adjust_jpeg_quality_keeps_the_dtype():
    out = tf.image.adjust_jpeg_quality(IMAGE.astype(np.float32) / 255, 90)
    assert out.dtype == tf.float32 and out.shape == (16, 20, 3)
    as_uint8 = tf.image.adjust_jpeg_quality(IMAGE, 90).numpy()
    np.testing.assert_allclose(out.numpy(), as_uint8 / 255, atol=1e-6)


def test_stateless_random_jpeg_quality_draws_tf_quality():
    # TF draws quality 75 from seed (1, 2); its fast-IDCT pixels are [0 4 5 1 5 6 5 9 10 5 9 10]
    out = tf.image.stateless_random_jpeg_quality(SMALL, 75, 95, (1, 2))
    np.testing.assert_array_equal(out.numpy(), tf.image.adjust_jpeg_quality(SMALL, 75).numpy())
    np.testing.assert_allclose(out.numpy().ravel(), [0, 4, 5, 1, 5, 6, 5, 9, 10, 5, 9, 10], atol=3)
    assert tf.image.random_jpeg_quality(SMALL, 75, 95).shape == (2, 2, 3)


def test_bad_input():
    with pytest.raises(ValueError, match='must be less than `max_jpeg_quality`'):
        tf.image.random_jpeg_quality(SMALL, 90, 80)
    with pytest.raises(ValueError, match='between 0 and 100'):
        tf.image.stateless_random_jpeg_quality(SMALL, -1, 80, (1, 2))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r'quality must be in \[0,100\]'):
        tf.image.adjust_jpeg_quality(SMALL, 101)
