"""Specs for the tf.image op tables: the resize ops against their separable weights applied with
numpy, their gradient ops, and AdjustSaturation/AdjustHue; values recorded from TensorFlow and
finite-difference gradients are checked in tests/image/."""
import numpy as np

import defun as tf
from defun.ops.image import resize_weights
from tests.ops.spec import Spec

_IMG = np.random.default_rng(3).uniform(0, 1, (2, 4, 5, 3)).astype(np.float32)
_U8 = (_IMG[0] * 255).astype(np.uint8)


def _separable(rows, cols):
    return lambda x: np.einsum('oh,bhwc,pw->bopc', rows, x.astype(np.float64), cols).astype(
        np.float32)


def _grad_of(method, antialias=False):
    def call(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.image.resize(x, [6, 3], method, antialias=antialias)
        return tape.gradient(y, x)
    return call


def _crop_grad(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.image.crop_and_resize(x, [[0.0, 0.0, 1.0, 1.0]], [0], [4, 5])
    return tape.gradient(y, x)


def _spec(op_type, call, reference=None):
    return Spec(op_type, call, [_IMG], reference, grad=False)


SPECS = [
    _spec('ResizeBilinear', lambda x: tf.image.resize(x, [6, 3]),
          _separable(resize_weights.bilinear(4, 6), resize_weights.bilinear(5, 3))),
    _spec('ResizeBicubic', lambda x: tf.image.resize(x, [6, 3], 'bicubic'),
          _separable(resize_weights.bicubic(4, 6), resize_weights.bicubic(5, 3))),
    _spec('ResizeArea', lambda x: tf.image.resize(x, [2, 3], 'area'),
          _separable(resize_weights.area(4, 2), resize_weights.area(5, 3))),
    _spec('ScaleAndTranslate', lambda x: tf.image.resize(x, [6, 3], 'lanczos3'),
          _separable(resize_weights.scale_and_translate(4, 6, 'lanczos3', False),
                     resize_weights.scale_and_translate(5, 3, 'lanczos3', False))),
    _spec('ResizeNearestNeighbor', lambda x: tf.image.resize(x, [6, 3], 'nearest'),
          lambda x: x[:, resize_weights.nearest_indices(4, 6)][:, :, resize_weights.nearest_indices(5, 3)]),
    _spec('ResizeBilinearGrad', _grad_of('bilinear'),
          lambda x: np.broadcast_to(np.einsum('oh,pw->hw', resize_weights.bilinear(4, 6),
                                              resize_weights.bilinear(5, 3))[None, :, :, None],
                                    x.shape).astype(np.float32)),
    _spec('ResizeBicubicGrad', _grad_of('bicubic')),
    _spec('ScaleAndTranslateGrad', _grad_of('bilinear', antialias=True)),
    _spec('ResizeNearestNeighborGrad', _grad_of('nearest')),
    Spec('CropAndResize', lambda x: tf.image.crop_and_resize(x, [[0.0, 0.0, 1.0, 1.0]], [1],
                                                              [4, 5]), [_IMG], lambda x: x[1:2],
         grad=False),
    Spec('CropAndResizeGradImage', _crop_grad, [_IMG], lambda x: (np.ones_like(x)[:1].repeat(
        2, 0) * np.array([1, 0])[:, None, None, None]).astype(np.float32), grad=False),
    Spec('NonMaxSuppressionV5', lambda b, s: tf.image.non_max_suppression(b, s, 2),
         [np.array([[0, 0, 1, 1], [0, 0, 1, 0.9], [2, 2, 3, 3]], np.float32),
          np.array([0.9, 0.8, 0.7], np.float32)], lambda b, s: np.array([0, 2], np.int32),
         grad=False),
    Spec('EncodeImage', lambda x: tf.io.decode_png(tf.io.encode_png(x)), [_U8], lambda x: x,
         grad=False),
    Spec('DecodeImage', lambda x: tf.io.decode_image(tf.io.encode_png(x)), [_U8], lambda x: x,
         grad=False),
    Spec('IsJpeg', lambda x: tf.image.is_jpeg(tf.io.encode_png(x)), [_U8],
         lambda x: np.array(False), grad=False),
    Spec('ExtractJpegShape', lambda x: tf.image.extract_jpeg_shape(tf.io.encode_jpeg(x)), [_U8],
         lambda x: np.array(x.shape, np.int32), grad=False),
    _spec('AdjustSaturation', lambda x: tf.image.adjust_saturation(x, 1.0), lambda x: x),
    _spec('AdjustHue', lambda x: tf.image.adjust_hue(x, 0.0), lambda x: x),
    Spec('DrawBoundingBoxesV2', lambda x: tf.image.draw_bounding_boxes(
        x, [[[0.0, 0.0, 1.0, 1.0]], [[0.0, 0.0, 1.0, 1.0]]], [[0.5, 0.5, 0.5]]),
         [np.zeros((2, 3, 3, 3), np.float32)],
         lambda x: np.pad(np.zeros((2, 1, 1, 3), np.float32), [(0, 0), (1, 1), (1, 1), (0, 0)],
                          constant_values=0.5), grad=False),
    Spec('ExtractGlimpseV2', lambda x: tf.image.extract_glimpse(
        x, [2, 3], [[1, 1], [0, 2]], centered=False, normalized=False),
         [np.arange(2 * 4 * 5 * 1, dtype=np.float32).reshape(2, 4, 5, 1)],
         lambda x: np.stack([x[0, 1:3, 1:4], x[1, 0:2, 2:5]]), grad=False),
    Spec('StatelessSampleDistortedBoundingBox',
         lambda s: tf.image.stateless_sample_distorted_bounding_box(
             s, [[[0.0, 0.0, 1.0, 1.0]]], seed=(1, 2))[1],
         [np.array([3, 3, 1], np.int32)], lambda s: np.array([2, 2, -1], np.int32), grad=False),
    Spec('SampleDistortedBoundingBoxV2',
         lambda s: tf.image.sample_distorted_bounding_box(
             s, [[[0.0, 0.0, 1.0, 1.0]]], seed=1, area_range=(1.0, 1.0))[1],
         [np.array([3, 3, 1], np.int32)], lambda s: np.array([3, 3, -1], np.int32), grad=False),
]
