"""tf.raw_ops.ImageProjectiveTransformV3/V2 (what Keras's RandomRotation, RandomZoom and
RandomTranslation run on): every fill mode and interpolation, integer images, a transform per
image or one for all, the gradient, and use in a function, against the lines TF 2.21 printed for
the same calls (data/projective_transform_tf.txt)."""
import pathlib
import re

import numpy as np

import defun as tf

EXPECTED = pathlib.Path(__file__).parent / 'data' / 'projective_transform_tf.txt'
NUMBER = re.compile(r'-?\d+\.?\d*(?:e-?\d+)?')
TRANSFORMS = np.array([[0.9, -0.3, 1.2, 0.25, 1.1, -1.7, 0.01, -0.02],
                       [1.3, 0.2, -2.5, -0.4, 0.8, 3.1, 0.0, 0.0]], 'float32')


def _lines():
    rng = np.random.RandomState(0)
    img = rng.rand(2, 5, 7, 3).astype('float32') * 10
    ints = (rng.rand(1, 4, 4, 1) * 200).astype('uint8')
    t = TRANSFORMS
    for interp in ('NEAREST', 'BILINEAR'):
        for mode in ('REFLECT', 'WRAP', 'CONSTANT', 'NEAREST'):
            out = tf.raw_ops.ImageProjectiveTransformV3(
                images=img, transforms=t, output_shape=[6, 4], fill_value=-1.0,
                interpolation=interp, fill_mode=mode).numpy()
            yield (f'{interp} {mode} {out.shape} {np.round(out.sum(axis=(1, 2)), 3).tolist()} '
                   f'{np.round(out[1, :, :, 0], 3).tolist()}')
        o = tf.raw_ops.ImageProjectiveTransformV3(
            images=ints, transforms=t[1:], output_shape=[4, 4], fill_value=7.0,
            interpolation=interp, fill_mode='CONSTANT')
        yield f'{o.dtype} {o.numpy()[0, :, :, 0].tolist()}'
    o = tf.raw_ops.ImageProjectiveTransformV2(images=img, transforms=t[:1], output_shape=[5, 7],
                                              interpolation='BILINEAR')
    yield str(np.round(o.numpy()[0, :, :, 1], 3).tolist())
    x = tf.constant(img)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.raw_ops.ImageProjectiveTransformV3(
            images=x, transforms=t, output_shape=[5, 7], fill_value=0.0,
            interpolation='BILINEAR', fill_mode='REFLECT')
        weights = np.arange(y.shape.num_elements()).reshape(y.shape).astype('float32')
        loss = tf.reduce_sum(y * weights)
    yield str(np.round(tape.gradient(loss, x).numpy()[0, :, :, 0], 3).tolist())
    shapes = []

    @tf.function
    def wrapped(x):
        y = tf.raw_ops.ImageProjectiveTransformV3(
            images=x, transforms=t, output_shape=tf.shape(x)[1:3], fill_value=0.0,
            interpolation='NEAREST', fill_mode='WRAP')
        shapes.append(str(y.shape))
        return y
    result = wrapped(x)
    yield shapes[0]
    yield str(np.round(result.numpy()[1, :, :, 2], 3).tolist())


def test_projective_transforms_give_tfs_values():
    want = EXPECTED.read_text().splitlines()
    got = list(_lines())
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert NUMBER.sub('#', g) == NUMBER.sub('#', w), (g, w)
        np.testing.assert_allclose([float(v) for v in NUMBER.findall(g)],
                                   [float(v) for v in NUMBER.findall(w)], rtol=1e-4, atol=2e-3)
