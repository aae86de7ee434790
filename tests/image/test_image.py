"""tf.image against values recorded from TensorFlow 2.21 (tests/image/data/*.npz: every resize
method and size with its gradient, the transforms, colour ops, and seeded random augmentations),
finite-difference gradients of the differentiable ops, and TF's exceptions for bad input."""
import pathlib

import numpy as np
import pytest

import defun as tf
from defun.core.tensor import EagerTensor
from tests.image import image_cases

DATA = pathlib.Path(__file__).parent / 'data'
RESIZE = np.load(DATA / 'resize_ref.npz')
OPS = np.load(DATA / 'ops_ref.npz')
RESIZE_CASES = [k for k in RESIZE.files if k.count('_') == 2 and not k.startswith(('grad', 'u8'))]


@pytest.mark.parametrize('key', RESIZE_CASES)
def test_resize_matches_tf(key):
    method, size, antialias = key.split('_')
    size = [int(n) for n in size.split('x')]
    x = tf.constant(RESIZE['img'])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.image.resize(x, size, method, antialias=bool(int(antialias)))
        loss = tf.reduce_sum(y * y)
    assert y.dtype is tf.float32
    np.testing.assert_allclose(y.numpy(), RESIZE[key], atol=2e-6)
    if method != 'area':  # TF has no gradient for ResizeArea
        np.testing.assert_allclose(tape.gradient(loss, x).numpy(), RESIZE['grad_' + key], atol=1e-5)


def test_resize_dtypes_ranks_and_aspect():
    img = RESIZE['img']
    u8 = (img * 255).astype(np.uint8)
    nearest = tf.image.resize(u8, (4, 9), 'nearest')
    assert nearest.dtype is tf.uint8
    np.testing.assert_array_equal(nearest.numpy(), RESIZE['u8_nearest'])
    np.testing.assert_allclose(tf.image.resize(u8, (4, 9)).numpy(), RESIZE['u8_bilinear'],
                               atol=1e-4)
    np.testing.assert_allclose(tf.image.resize(img, (4, 4), preserve_aspect_ratio=True).numpy(),
                               RESIZE['aspect'], atol=1e-6)
    np.testing.assert_allclose(tf.image.resize(img[0], (3, 3)).numpy(), RESIZE['rank3'], atol=1e-6)


def test_resize_in_a_function_with_a_dynamic_size():
    @tf.function
    def f(x, size):
        return tf.image.resize(x, size, 'bicubic')
    out = f(tf.constant(RESIZE['img']), tf.constant([9, 4]))
    np.testing.assert_allclose(out.numpy(), RESIZE['bicubic_9x4_0'], atol=2e-6)


@pytest.mark.parametrize('key', sorted(OPS.files))
def test_image_ops_match_tf(key):
    cases = image_cases.cases(tf, tf.constant(OPS['x']), tf.constant(OPS['u8']))
    if key not in cases:
        pytest.skip('an input or a gradient, checked elsewhere')
    out = cases[key]().numpy()
    assert out.dtype == OPS[key].dtype and out.shape == OPS[key].shape
    np.testing.assert_allclose(out.astype(float), OPS[key].astype(float), atol=2e-6)


def test_seeded_random_ops_match_tf():
    x = tf.constant(OPS['x'])
    tf.random.set_seed(7)
    try:
        flipped = tf.image.random_flip_left_right(x, seed=3).numpy()
        cropped = tf.image.random_crop(x[0], [2, 3, 3], seed=4).numpy()
        brightened = tf.image.random_brightness(x[0], 0.2, seed=5).numpy()
    finally:
        tf.random.set_seed(None)   # the global seed is process state other tests read
    np.testing.assert_array_equal(flipped, OPS['rflip'])
    np.testing.assert_array_equal(cropped, OPS['rcrop'])
    np.testing.assert_allclose(brightened, OPS['rbright'], atol=1e-7)


@pytest.mark.parametrize('name,fn', [
    ('contrast', lambda v: tf.image.adjust_brightness(v, 0.1)),
    ('gamma', lambda v: tf.image.adjust_gamma(v, 2.0)),
    ('hsv', tf.image.rgb_to_hsv), ('gray', tf.image.rgb_to_grayscale),
    ('std', tf.image.per_image_standardization),
    ('patches', lambda v: tf.image.extract_patches(v, [1, 2, 2, 1], [1, 2, 2, 1], [1, 1, 1, 1],
                                                   'SAME'))])
def test_gradients_match_tf(name, fn):
    x = tf.constant(OPS['x'])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = fn(x)
        loss = tf.reduce_sum(y * y)
    np.testing.assert_allclose(tape.gradient(loss, x).numpy(), OPS['g_' + name], atol=1e-5)


def _finite_difference(fn, x, delta):
    weights = np.random.default_rng(0).uniform(0.5, 1.5, np.shape(fn(tf.constant(x))))
    def objective(a):
        return float(np.sum(fn(EagerTensor(a)).numpy().astype(np.float64) * weights))
    xt = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(xt)
        total = tf.reduce_sum(tf.cast(fn(xt), tf.float64) * weights)
    analytic = tape.gradient(total, xt).numpy()
    numeric = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[i] += delta
        down[i] -= delta
        numeric[i] = (objective(up) - objective(down)) / (2 * delta)
    return np.max(np.abs(analytic - numeric))


@pytest.mark.parametrize('fn', [
    lambda v: tf.image.resize(v, [5, 2]), lambda v: tf.image.resize(v, [5, 2], 'bicubic'),
    lambda v: tf.image.resize(v, [2, 5], 'lanczos3'),
    lambda v: tf.image.resize(v, [2, 2], antialias=True),
    lambda v: tf.image.adjust_brightness(v, 0.2), lambda v: tf.image.adjust_contrast(v, 1.5),
    lambda v: tf.image.adjust_gamma(v, 1.7, 0.8), tf.image.rgb_to_grayscale,
    tf.image.per_image_standardization, tf.image.rgb_to_yuv,
    lambda v: tf.image.central_crop(tf.image.flip_left_right(tf.image.rot90(v)), 0.5)])
def test_finite_difference_gradients(fn):
    x = np.random.default_rng(5).uniform(0.1, 0.9, (1, 3, 4, 3)).astype(np.float32)
    assert _finite_difference(fn, x, 1e-2) < 2e-3


def test_resize_second_order_gradient():
    x = tf.constant(OPS['x'])
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.image.resize(x, [7, 3], 'bicubic')
            loss = tf.reduce_sum(y * y * y)
        g = inner.gradient(loss, x)
        total = tf.reduce_sum(g)
    assert outer.gradient(total, x).shape == x.shape


def test_bad_input():
    img = OPS['x']
    with pytest.raises(ValueError, match='3 or 4 dimensions'):
        tf.image.resize(img[0, 0], [2, 2])
    with pytest.raises(ValueError, match='Resize method is not implemented'):
        tf.image.resize(img, [2, 2], 'cubicle')
    with pytest.raises(ValueError, match="'size' must be a 1-D Tensor of 2 elements"):
        tf.image.resize(img, [2, 2, 2])
    with pytest.raises(ValueError, match='central_fraction'):
        tf.image.central_crop(img, 1.5)
    with pytest.raises(ValueError, match='width must be >= target \\+ offset'):
        tf.image.crop_to_bounding_box(img, 0, 3, 2, 3)
    with pytest.raises(ValueError):
        tf.image.grayscale_to_rgb(img)
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.image.rgb_to_grayscale(img[..., :2])
    with pytest.raises(ValueError, match='upper must be > lower'):
        tf.image.random_contrast(img, 0.5, 0.2)


def test_crop_and_resize_and_sobel_match_tf():
    ref = np.load(DATA / 'crops_ref.npz')
    for key in ('bilinear_4x5', 'bilinear_1x3', 'nearest_4x5', 'nearest_1x3'):
        method, size = key.split('_')
        out = tf.image.crop_and_resize(ref['img'], ref['boxes'], ref['idx'],
                                       [int(n) for n in size.split('x')], method=method,
                                       extrapolation_value=-1.0)
        np.testing.assert_allclose(out.numpy(), ref[key], atol=1e-6)
    np.testing.assert_allclose(tf.image.sobel_edges(tf.constant(ref['img'])).numpy(),
                               ref['sobel'], atol=1e-6)


@pytest.mark.parametrize('method', ['bilinear', 'nearest'])
def test_crop_and_resize_gradient_matches_tf(method):
    ref, grads = np.load(DATA / 'crops_ref.npz'), np.load(DATA / 'crops_grad_ref.npz')
    x = tf.constant(ref['img'])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.image.crop_and_resize(x, ref['boxes'], ref['idx'], (4, 5), method=method)
        loss = tf.reduce_sum(y * y)
    np.testing.assert_allclose(tape.gradient(loss, x).numpy(), grads[method], atol=1e-5)
    boxes = [[0.1, 0.2, 0.8, 0.9]]
    fn = lambda v: tf.image.crop_and_resize(v, boxes, [0], (3, 2), method=method)  # noqa: E731
    assert _finite_difference(fn, ref['img'][:1, :4, :4], 1e-2) < 2e-3


def test_psnr_matches_tf():
    rng = np.random.default_rng(0)
    a = rng.uniform(0, 1, (2, 4, 4, 3)).astype(np.float32)
    b = np.clip(a + rng.normal(0, 0.1, a.shape), 0, 1).astype(np.float32)
    np.testing.assert_allclose(tf.image.psnr(a, b, max_val=1.0).numpy(), [20.70949, 20.878384],
                               rtol=1e-6)
    np.testing.assert_allclose(tf.image.psnr((a * 255).astype(np.uint8), (b * 255).astype(np.uint8),
                                             max_val=255).numpy(), [20.741014, 20.919052], rtol=1e-6)


def test_non_max_suppression_matches_tf():
    ref = np.load(DATA / 'nms_ref.npz')
    boxes, scores = ref['boxes'], ref['scores']
    out = tf.image.non_max_suppression(boxes, scores, 10)
    assert out.dtype is tf.int32 and out.numpy().tolist() == ref['a'].tolist()
    assert tf.image.non_max_suppression(boxes, scores, 20, iou_threshold=0.2,
                                        score_threshold=0.3).numpy().tolist() == ref['b'].tolist()
    indices, kept = tf.image.non_max_suppression_with_scores(boxes, scores, 8, iou_threshold=0.3)
    assert indices.numpy().tolist() == ref['c_i'].tolist()
    np.testing.assert_array_equal(kept.numpy(), ref['c_s'])
    indices, valid = tf.image.non_max_suppression_padded(boxes, scores, 40, iou_threshold=0.4,
                                                         pad_to_max_output_size=True)
    assert indices.numpy().tolist() == ref['d_i'].tolist() and valid.numpy() == ref['d_n']
