"""tf.image's dtype and colour conversions and adjustments: convert_image_dtype (TF's scaling
rules), adjust_brightness / contrast / gamma / saturation / hue, rgb_to_grayscale,
grayscale_to_rgb, rgb_to_hsv / hsv_to_rgb, rgb_to_yiq / yiq_to_rgb, rgb_to_yuv / yuv_to_rgb,
per_image_standardization, total_variation and image_gradients.

As in TF, an integer image is adjusted in float32 and converted back with saturation. Most are
compositions of public ops (so they are differentiable); AdjustSaturation and AdjustHue are ops
of their own with TF's HSV arithmetic and, as in TF, no gradient."""
import numpy as np

from defun.core import dtypes
from defun.core.dispatch import apply_op
from defun.core.registry import define_op
from defun.ops.array.joining import concat, stack, unstack
from defun.ops.array.repeat_unique import saturate_cast
from defun.ops.array.transform import tile
from defun.ops.array.expand_squeeze import expand_dims
from defun.ops.framework.base_ops import cast, shape
from defun.ops.linalg.products import tensordot
from defun.ops.math.arithmetic import clip_by_value, floordiv, maximum, multiply
from defun.ops.math.elementary import abs as abs_, log, pow as pow_, rsqrt
from defun.ops.math.logic import equal, greater, less, where
from defun.ops.math.reductions import reduce_max, reduce_mean, reduce_min, reduce_std, reduce_sum
from defun.ops.image.transforms import image_input
from defun.ops.support import validation
from defun.ops.support.helpers import same_as_first, to_tensor

__all__ = ['convert_image_dtype', 'adjust_brightness', 'adjust_contrast', 'adjust_gamma',
           'adjust_saturation', 'adjust_hue', 'rgb_to_grayscale', 'grayscale_to_rgb',
           'rgb_to_hsv', 'hsv_to_rgb', 'rgb_to_yiq', 'yiq_to_rgb', 'rgb_to_yuv', 'yuv_to_rgb',
           'per_image_standardization', 'total_variation', 'image_gradients', 'psnr']

_IMAGE_TYPES = (dtypes.uint8, dtypes.uint16, dtypes.uint32, dtypes.uint64, dtypes.int8,
                dtypes.int16, dtypes.int32, dtypes.int64, dtypes.float16, dtypes.float32,
                dtypes.float64)


def convert_image_dtype(image, dtype, saturate=False, name=None):
    """Converts between integer images (0..max) and float images (0..1), TF's way."""
    x = to_tensor(image, name='image', op='convert_image_dtype')
    dtype = dtypes.as_dtype(dtype)
    if x.dtype not in _IMAGE_TYPES or dtype not in _IMAGE_TYPES:
        raise AttributeError(f'Image and output dtypes must be numeric, got {x.dtype.name} '
                             f'and {dtype.name}')
    if x.dtype is dtype:
        return x
    convert = saturate_cast if saturate else cast
    if x.dtype.is_integer and dtype.is_integer:
        scale_in, scale_out = int(x.dtype.max), int(dtype.max)
        if scale_in > scale_out:
            return convert(floordiv(x, cast((scale_in + 1) // (scale_out + 1), x.dtype)), dtype)
        return multiply(convert(x, dtype), cast((scale_out + 1) // (scale_in + 1), dtype))
    if x.dtype.is_floating and dtype.is_floating:
        return cast(x, dtype)
    if x.dtype.is_integer:
        return multiply(cast(x, dtype), cast(1.0 / int(x.dtype.max), dtype))
    return convert(multiply(x, cast(int(dtype.max) + 0.5, x.dtype)), dtype)


def _as_float(image, op):
    x = to_tensor(image, name='image', op=op)
    return x, x if x.dtype in (dtypes.float16, dtypes.float32) else convert_image_dtype(
        x, dtypes.float32)


def adjust_brightness(image, delta):
    """Adds `delta` to every pixel (of the image as floats in [0, 1])."""
    x, flt = _as_float(image, 'adjust_brightness')
    return convert_image_dtype(flt + cast(delta, flt.dtype), x.dtype, saturate=True)


def adjust_contrast(images, contrast_factor):
    """Moves each channel's pixels away from (or toward) that channel's mean by the factor."""
    x, flt = _as_float(images, 'adjust_contrast')
    mean = reduce_mean(flt, axis=[-3, -2], keepdims=True)
    adjusted = (flt - mean) * cast(contrast_factor, flt.dtype) + mean
    return convert_image_dtype(adjusted, x.dtype, saturate=True)


def adjust_gamma(image, gamma=1, gain=1):
    """gain * image ** gamma, on the image as floats in [0, 1]."""
    x, flt = _as_float(image, 'adjust_gamma')
    if isinstance(gamma, (int, float)) and gamma < 0:
        raise ValueError('Gamma should be a non-negative real number.')
    adjusted = cast(gain, flt.dtype) * pow_(flt, cast(gamma, flt.dtype))
    return convert_image_dtype(adjusted, x.dtype, saturate=True)


def _rgb_channels(images, op):
    x = to_tensor(images, name='images', op=op)
    last = (x.shape.as_tuple() or (None,))[-1:]
    if last not in ((3,), (None,)):
        raise validation.invalid_argument(
            f'{op}: the last dimension of `images` must be 3 (RGB), got shape {x.shape}')
    return x


def rgb_to_grayscale(images, name=None):
    """The luma (0.2989 R + 0.5870 G + 0.1140 B) of each pixel, in a channel of its own."""
    x = _rgb_channels(images, 'rgb_to_grayscale')
    flt = convert_image_dtype(x, dtypes.float32)
    gray = tensordot(flt, cast([0.2989, 0.5870, 0.1140], dtypes.float32), [[-1], [-1]])
    return convert_image_dtype(expand_dims(gray, -1), x.dtype)


def grayscale_to_rgb(images, name=None):
    """Each one-channel pixel repeated into three channels."""
    x = to_tensor(images, name='images', op='grayscale_to_rgb')
    d = x.shape.as_tuple()
    if d is None or len(d) < 2 or d[-1] not in (1, None):
        raise ValueError('Last dimension of a grayscale image should be size 1.')
    return tile(x, [1] * (len(d) - 1) + [3])


def _float_image(images, op):
    x = to_tensor(images, name='images', op=op)
    if not x.dtype.is_floating:
        raise validation.dtype_mismatch(f'{op}: `images` must be a float tensor, got '
                                        f'{x.dtype.name}')
    return x


def rgb_to_hsv(images, name=None):
    """RGB to hue, saturation, value, all in [0, 1] (TF's RGBToHSV formulas)."""
    x = _float_image(images, 'rgb_to_hsv')
    r, g, b = unstack(x, 3, axis=-1)
    v = reduce_max(x, axis=-1)
    spread = v - reduce_min(x, axis=-1)
    zero = cast(0.0, x.dtype)
    s = where(greater(v, zero), spread / where(greater(v, zero), v, 1.0), zero)
    norm = 1.0 / (6.0 * where(greater(spread, zero), spread, 1.0))
    h = where(equal(r, v), norm * (g - b),
              where(equal(g, v), norm * (b - r) + 2.0 / 6.0, norm * (r - g) + 4.0 / 6.0))
    h = where(greater(spread, zero), h, zero)
    h = where(less(h, zero), h + 1.0, h)
    return stack([h, s, v], axis=-1)


def hsv_to_rgb(images, name=None):
    """Hue, saturation, value in [0, 1] back to RGB (TF's HSVToRGB formulas)."""
    x = _float_image(images, 'hsv_to_rgb')
    h, s, v = unstack(x, 3, axis=-1)
    dh = h * 6.0
    dr = clip_by_value(abs_(dh - 3.0) - 1.0, 0.0, 1.0)
    dg = clip_by_value(2.0 - abs_(dh - 2.0), 0.0, 1.0)
    db = clip_by_value(2.0 - abs_(dh - 4.0), 0.0, 1.0)
    grey = 1.0 - s
    return stack([(grey + s * dr) * v, (grey + s * dg) * v, (grey + s * db) * v], axis=-1)


_YIQ = np.array([[0.299, 0.59590059, 0.2115], [0.587, -0.27455667, -0.52273617],
                 [0.114, -0.32134392, 0.31119955]])
_YUV = np.array([[0.299, -0.14714119, 0.61497538], [0.587, -0.28886916, -0.51496512],
                 [0.114, 0.43601035, -0.10001026]])
# TF's inverse kernels are rounded constants of their own (not the exact inverses).
_YIQ_INVERSE = np.array([[1, 1, 1], [0.95598634, -0.27201283, -1.10674021],
                         [0.6208248, -0.64720424, 1.70423049]])
_YUV_INVERSE = np.array([[1, 1, 1], [0, -0.394642334, 2.03206185], [1.13988303, -0.58062185, 0]])


def _linear_colour(images, matrix, op):
    x = _float_image(images, op)
    return tensordot(x, cast(matrix, x.dtype), [[-1], [0]])


def rgb_to_yiq(images):
    """RGB to the YIQ colour space."""
    return _linear_colour(images, _YIQ, 'rgb_to_yiq')


def yiq_to_rgb(images):
    """YIQ back to RGB."""
    return _linear_colour(images, _YIQ_INVERSE, 'yiq_to_rgb')


def rgb_to_yuv(images):
    """RGB to the YUV colour space."""
    return _linear_colour(images, _YUV, 'rgb_to_yuv')


def yuv_to_rgb(images):
    """YUV back to RGB."""
    return _linear_colour(images, _YUV_INVERSE, 'yuv_to_rgb')


# ---------------------------------------------------------------- saturation and hue (ops)

def _saturation_kernel(x, factor):
    # TF's AdjustSaturation arithmetic (float32, chroma c = s * v added to m = v - c per sector).
    f = x.astype(np.float32)
    r, g, b = f[..., 0], f[..., 1], f[..., 2]
    v = np.maximum(r, np.maximum(g, b))
    spread = v - np.minimum(r, np.minimum(g, b))
    with np.errstate(divide='ignore', invalid='ignore'):
        s = np.where(v > 0, spread / v, np.float32(0))
        norm = np.float32(1) / (np.float32(6) * spread)
        # TF adds the sector offsets as doubles (2.0 / 6.0), then stores a float.
        h = np.where(r == v, norm * (g - b), np.where(
            g == v, (norm * (b - r)).astype(np.float64) + 2.0 / 6.0,
            (norm * (r - g)).astype(np.float64) + 4.0 / 6.0)).astype(np.float32)
    h = np.where(spread <= 0, np.float32(0), h)
    h = np.where(h < 0, h + np.float32(1), h).astype(np.float32)
    s = np.clip(s * np.float32(factor), 0, 1).astype(np.float32)
    c = s * v
    m = v - c
    dh = h * np.float32(6)
    sector = dh.astype(np.int64)
    fmodu = np.mod(dh, np.float32(2)).astype(np.float32)
    fmodu = np.where(fmodu <= 0, fmodu + np.float32(2), fmodu)
    fmodu = np.where(fmodu >= 2, fmodu - np.float32(2), fmodu)
    xx = c * (np.float32(1) - np.abs(fmodu - np.float32(1)))
    zero = np.zeros_like(c)
    table = {0: (c, xx, zero), 1: (xx, c, zero), 2: (zero, c, xx), 3: (zero, xx, c),
             4: (xx, zero, c), 5: (c, zero, xx)}
    out = np.stack([np.select([sector == k for k in table], [table[k][i] for k in table], 0)
                    for i in range(3)], axis=-1) + m[..., None]
    return out.astype(x.dtype)


def _hue_kernel(x, delta):
    # TF's AdjustHue arithmetic: the hue as a sector in [0, 6) between the pixel's minimum and
    # maximum channels, which the rotation keeps exactly.
    f = x.astype(np.float32)
    r, g, b = f[..., 0], f[..., 1], f[..., 2]
    low, high = np.minimum(np.minimum(r, g), b), np.maximum(np.maximum(r, g), b)
    mid = np.maximum(np.minimum(r, g), np.minimum(np.maximum(r, g), b))
    sector = np.select([(r >= g) & (b < g), (r < g) & (b < r), (r < g) & (b >= r) & (b <= g),
                        (r < g) & (b > g), (r >= g) & (b > r)], [0, 1, 2, 3, 4], 5)
    with np.errstate(divide='ignore', invalid='ignore'):
        ratio = (mid - low) / (high - low)
    hue = np.where(sector % 2 == 0, sector + ratio, sector + 1 - ratio)
    hue = np.where(high == low, np.float32(0), hue).astype(np.float32)
    hue = np.mod(hue + np.float32(delta) * np.float32(6), np.float32(6)).astype(np.float32)
    hue = np.where(hue >= 6, hue - np.float32(6), hue)  # a tiny negative hue wraps to 6.0
    sector = hue.astype(np.int64)
    ratio = hue - sector
    ratio = np.where(sector % 2 == 0, ratio, np.float32(1) - ratio)
    mid = low + ratio * (high - low)
    table = {0: (high, mid, low), 1: (mid, high, low), 2: (low, high, mid), 3: (low, mid, high),
             4: (mid, low, high), 5: (high, low, mid)}
    return np.stack([np.select([sector == k for k in table], [table[k][i] for k in table])
                     for i in range(3)], axis=-1).astype(x.dtype)


ADJUST_SATURATION = define_op('AdjustSaturation', _saturation_kernel,
                              lambda x, f: same_as_first(x), None)
ADJUST_HUE = define_op('AdjustHue', _hue_kernel, lambda x, d: same_as_first(x), None)


def adjust_saturation(image, saturation_factor, name=None):
    """Scales each pixel's HSV saturation by the factor (clipped to [0, 1])."""
    x, flt = _as_float(_rgb_channels(image, 'adjust_saturation'), 'adjust_saturation')
    factor = cast(saturation_factor, dtypes.float32)
    return convert_image_dtype(apply_op(ADJUST_SATURATION, (flt, cast(factor, flt.dtype)), None,
                                        name), x.dtype, saturate=True)


def adjust_hue(image, delta, name=None):
    """Rotates each pixel's hue by `delta` (in [-1, 1]; a full turn is 1)."""
    x, flt = _as_float(_rgb_channels(image, 'adjust_hue'), 'adjust_hue')
    if isinstance(delta, (int, float)) and not -1 <= delta <= 1:
        raise validation.invalid_argument(f'adjust_hue: delta must be in [-1, 1], got {delta}')
    return convert_image_dtype(apply_op(ADJUST_HUE, (flt, cast(delta, flt.dtype)), None, name),
                               x.dtype, saturate=True)


# ---------------------------------------------------------------- statistics

def per_image_standardization(image):
    """Each image scaled to mean 0 and variance 1 (the deviation floored at 1/sqrt(pixels))."""
    x, d = image_input(image, 'per_image_standardization')
    if not x.dtype.is_floating:
        x = cast(x, dtypes.float32)
    pixels = cast(shape(x)[-3] * shape(x)[-2] * shape(x)[-1], x.dtype)
    mean = reduce_mean(x, axis=[-1, -2, -3], keepdims=True)
    deviation = maximum(reduce_std(x, axis=[-1, -2, -3], keepdims=True), rsqrt(pixels))
    return (x - mean) / deviation


def total_variation(images, name=None):
    """The sum of absolute differences of neighbouring pixels, per image."""
    x, d = image_input(images, 'total_variation')
    axes = [-3, -2, -1] if len(d) == 4 else None
    down = abs_(x[..., 1:, :, :] - x[..., :-1, :, :])
    right = abs_(x[..., :, 1:, :] - x[..., :, :-1, :])
    return reduce_sum(down, axis=axes) + reduce_sum(right, axis=axes)


def image_gradients(image):
    """(dy, dx): differences to the next pixel down and right, zero in the last row/column."""
    x, d = image_input(image, 'image_gradients', ranks=(4,))
    dy = x[:, 1:, :, :] - x[:, :-1, :, :]
    dx = x[:, :, 1:, :] - x[:, :, :-1, :]
    dy = concat([dy, 0 * x[:, :1, :, :]], axis=1)
    dx = concat([dx, 0 * x[:, :, :1, :]], axis=2)
    return dy, dx


def psnr(a, b, max_val, name=None):
    """Peak signal-to-noise ratio of each pair of images, in dB (as float32)."""
    x, y = to_tensor(a, name='a', op='psnr'), to_tensor(b, name='b', op='psnr')
    peak = convert_image_dtype(cast(max_val, x.dtype), dtypes.float32)
    x, y = convert_image_dtype(x, dtypes.float32), convert_image_dtype(y, dtypes.float32)
    mse = reduce_mean((x - y) * (x - y), axis=[-3, -2, -1])
    return 20.0 * log(peak) / log(cast(10.0, dtypes.float32)) - \
        np.float32(10 / np.log(10)) * log(mse)
