"""Image codecs (the optional `image` extra, Pillow) against bytes and pixels recorded from
TensorFlow 2.21: PNGs TF encoded decode to TF's pixels exactly (grey conversion included), JPEGs
within a few levels (TF uses libjpeg's fast IDCT), and what defun encodes decodes back."""
import pathlib

import numpy as np
import pytest

import defun as tf

pytest.importorskip('PIL')
REF = np.load(pathlib.Path(__file__).parent / 'data' / 'codecs_ref.npz')


def _bytes(key):
    return REF[key].tobytes()


def test_decode_what_tf_encoded():
    png = tf.io.decode_png(_bytes('png_rgb'))
    assert png.dtype is tf.uint8 and png.shape == (5, 7, 3)
    np.testing.assert_array_equal(png.numpy(), REF['rgb'])
    assert tf.io.decode_png(_bytes('png_rgba')).shape == (5, 7, 4)
    np.testing.assert_array_equal(tf.io.decode_png(_bytes('png_16'), dtype=tf.uint16).numpy(),
                                  REF['gray16'])
    np.testing.assert_array_equal(tf.io.decode_png(_bytes('png_rgb'), channels=1).numpy(),
                                  REF['png_as_gray'])
    np.testing.assert_allclose(tf.io.decode_image(_bytes('png_rgb'), dtype=tf.float32).numpy(),
                               REF['img_float'], atol=1e-7)
    jpeg = tf.io.decode_jpeg(_bytes('jpeg')).numpy().astype(int)
    assert np.abs(jpeg - REF['jpeg_decoded']).max() <= 3
    grey = tf.io.decode_jpeg(_bytes('jpeg'), channels=1).numpy().astype(int)
    assert np.abs(grey - REF['jpeg_gray']).max() <= 2
    assert tf.image.extract_jpeg_shape(_bytes('jpeg')).numpy().tolist() == \
        REF['jpeg_shape'].tolist()
    assert tf.image.is_jpeg(_bytes('jpeg')).numpy() and not tf.image.is_jpeg(_bytes('png_rgb'))


def test_encode_round_trips():
    np.testing.assert_array_equal(tf.io.decode_png(tf.io.encode_png(REF['rgb'])).numpy(),
                                  REF['rgb'])
    np.testing.assert_array_equal(
        tf.io.decode_png(tf.io.encode_png(REF['gray16']), dtype=tf.uint16).numpy(), REF['gray16'])
    jpeg = tf.io.encode_jpeg(REF['smooth'], quality=90)
    assert tf.image.is_jpeg(jpeg).numpy()
    assert np.abs(tf.io.decode_jpeg(jpeg).numpy().astype(int) - REF['smooth']).max() <= 8


def test_codecs_in_a_function_and_errors():
    @tf.function
    def f(data):
        return tf.image.resize(tf.io.decode_png(data, channels=3), [2, 2])
    assert f(tf.constant(_bytes('png_rgb'))).shape == (2, 2, 3)
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.io.decode_png(b'not an image')
    with pytest.raises(TypeError):
        tf.io.encode_jpeg(REF['gray16'])
