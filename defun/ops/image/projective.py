"""ImageProjectiveTransformV2/V3: each output pixel (x, y) of a [batch, height, width, channels]
image reads the input at the point a projective transform [a0, a1, a2, b0, b1, b2, c0, c1] maps it
to, ((a0 x + a1 y + a2) / k, (b0 x + b1 y + b2) / k) with k = c0 x + c1 y + 1, as TF's CPU kernel
computes it (float32 coordinates): points outside the image are brought back by the fill mode
(REFLECT, WRAP, NEAREST, or CONSTANT: the fill value), then read by NEAREST or BILINEAR
interpolation. Keras's RandomRotation, RandomZoom, RandomTranslation and RandomShear run on it.

Its gradient is TF's: the output gradient moved back through the inverse transform.
"""
import numpy as np

from defun.core import dtypes
from defun.core.dispatch import apply_op
from defun.core.registry import define_op
from defun.ops.array.joining import concat
from defun.ops.array.transform import reshape
from defun.ops.framework.base_ops import ones_like, shape
from defun.ops.linalg.products import inv
from defun.ops.support import validation
from defun.ops.support.helpers import dims, shape_arg_dims, to_tensor

__all__ = ['image_projective_transform']

_F = np.float32
INTERPOLATIONS = ('NEAREST', 'BILINEAR')
FILL_MODES = ('REFLECT', 'WRAP', 'CONSTANT', 'NEAREST')


def _trunc(x):
    """C++'s static_cast<int64> of a float: toward zero."""
    return np.trunc(x).astype(np.int64)


def _reflect(c, n):
    # [abcd] -> [dcba|abcd|dcba], TF's (scipy's) rule.
    if n <= 1:
        return np.zeros_like(c)
    sz2 = 2 * n
    low = (_trunc(-c / _F(sz2)) * sz2).astype(_F) + c
    low = np.where(low < -n, low + _F(sz2), -low - _F(1))
    high = c - (_trunc(c / _F(sz2)) * sz2).astype(_F)
    high = np.where(high >= n, _F(sz2) - high - _F(1), high)
    out = np.where(c < 0, low, np.where(c > n - 1, high, c))
    return np.clip(out, _F(0), _F(n - 1)).astype(_F)


def _wrap(c, n):
    # [abcd] -> [abcd|abcd|abcd]
    if n <= 1:
        return np.zeros_like(c)
    sz = n - 1
    low = c + (n * (_trunc(-c / _F(sz)) + 1)).astype(_F)
    high = c - (n * _trunc(c / _F(sz))).astype(_F)
    out = np.where(c < 0, low, np.where(c > n - 1, high, c))
    return np.clip(out, _F(0), _F(n - 1)).astype(_F)


_MAPS = {'REFLECT': _reflect, 'WRAP': _wrap, 'CONSTANT': lambda c, n: c,
         'NEAREST': lambda c, n: np.clip(c, _F(0), _F(n - 1)).astype(_F)}


def _round_half_away(v):
    t = np.trunc(v)
    return (t + np.sign(v) * (np.abs(v - t) >= _F(0.5))).astype(np.int64)


def _reader(image, fill):
    """read(y, x): the pixels at integer coordinates (channels last), `fill` outside, as float32
    (the kernel reads each value converted to float)."""
    h, w = image.shape[:2]
    padded = image.astype(_F)

    def read(y, x):
        inside = (y >= 0) & (y < h) & (x >= 0) & (x < w)
        values = padded[np.where(inside, y, 0), np.where(inside, x, 0)]
        return np.where(inside[..., None], values, _F(fill))
    return read


def _one_image(image, t, out_h, out_w, interpolation, fill_mode, fill):
    ys, xs = np.meshgrid(np.arange(out_h, dtype=_F), np.arange(out_w, dtype=_F), indexing='ij')
    k = t[6] * xs + t[7] * ys + _F(1)
    with np.errstate(divide='ignore', invalid='ignore'):
        in_x = (t[0] * xs + t[1] * ys + t[2]) / k
        in_y = (t[3] * xs + t[4] * ys + t[5]) / k
    infinite = k == 0
    in_x, in_y = np.where(infinite, _F(0), in_x), np.where(infinite, _F(0), in_y)
    x = _MAPS[fill_mode](in_x.astype(_F), image.shape[1])
    y = _MAPS[fill_mode](in_y.astype(_F), image.shape[0])
    read = _reader(image, fill)
    if interpolation == 'NEAREST':
        out = read(_round_half_away(y), _round_half_away(x))
    else:
        y0, x0 = np.floor(y), np.floor(x)
        y1, x1 = y0 + _F(1), x0 + _F(1)
        iy0, ix0, iy1, ix1 = (v.astype(np.int64) for v in (y0, x0, y1, x1))
        top = (x1 - x)[..., None] * read(iy0, ix0) + (x - x0)[..., None] * read(iy0, ix1)
        bottom = (x1 - x)[..., None] * read(iy1, ix0) + (x - x0)[..., None] * read(iy1, ix1)
        out = (y1 - y)[..., None] * top + (y - y0)[..., None] * bottom
    return np.where(infinite[..., None], _F(fill), out)


def _kernel(images, transforms, output_shape, fill_value, interpolation, fill_mode):
    transforms = np.asarray(transforms, _F)
    if transforms.ndim != 2 or transforms.shape[1] != 8 or \
            transforms.shape[0] not in (1, images.shape[0]):
        raise validation.invalid_argument(
            f'ImageProjectiveTransformV3: Input transform should be num_images x 8 or 1 x 8, got '
            f'shape {list(transforms.shape)} for {images.shape[0]} images')
    out_h, out_w = (int(v) for v in np.reshape(output_shape, [-1]))
    fill = np.asarray(fill_value).astype(images.dtype).astype(_F)
    out = np.empty((images.shape[0], out_h, out_w, images.shape[3]), images.dtype)
    for b in range(images.shape[0]):
        t = transforms[0 if transforms.shape[0] == 1 else b]
        value = _one_image(images[b], t, out_h, out_w, interpolation, fill_mode, fill)
        # T(float): a float type rounds, an integer type truncates (C++'s conversion).
        out[b] = value if images.dtype.kind == 'f' else np.trunc(value).astype(images.dtype)
    return out


def _infer(images, transforms, output_shape, fill_value, interpolation, fill_mode):
    d, s = dims(images), shape_arg_dims(output_shape)
    hw = (None, None) if s is None else tuple(s)
    return images.dtype, None if d is None else (d[0],) + hw + (d[3],)


def _grad(op, grad):
    """TF's gradient: the output gradient transformed by the inverse transform, zeros outside."""
    images, transforms = op.inputs[0], op.inputs[1]
    matrices = reshape(concat([transforms, ones_like(transforms[:, :1])], 1), [-1, 3, 3])
    inverse = reshape(inv(matrices), [-1, 9])
    flat = inverse[:, :8] / inverse[:, 8:9]
    zero = to_tensor(0.0, dtype=dtypes.float32)
    attrs = {'interpolation': op.get_attr('interpolation'), 'fill_mode': op.get_attr('fill_mode')}
    back = apply_op(TRANSFORM, (grad, flat, shape(images)[1:3], zero), attrs)
    return back, None, None, None


TRANSFORM = define_op('ImageProjectiveTransformV3', _kernel, _infer, _grad,
                      doc='Images resampled at the points projective transforms map them to.')


def image_projective_transform(images, transforms, output_shape, fill_value=0.0,
                               interpolation='BILINEAR', fill_mode='CONSTANT', name=None):
    """TF's ImageProjectiveTransformV3 (V2 is the same with a fill value of zero)."""
    op = 'ImageProjectiveTransformV3'
    x = to_tensor(images, name='images', op=op)
    if x.shape.rank is not None and x.shape.rank != 4:
        raise ValueError(f'{op}: images must be rank 4 [batch, height, width, channels], got '
                         f'shape {x.shape}')
    interpolation, fill_mode = str(interpolation).upper(), str(fill_mode).upper()
    if interpolation not in INTERPOLATIONS:
        raise validation.invalid_argument(f'{op}: Invalid interpolation {interpolation}')
    if fill_mode not in FILL_MODES:
        raise validation.invalid_argument(f'{op}: Invalid mode {fill_mode}')
    t = to_tensor(transforms, dtype=dtypes.float32, name='transforms', op=op)
    size = to_tensor(output_shape, dtype=dtypes.int32, name='output_shape', op=op)
    fill = to_tensor(fill_value, dtype=dtypes.float32, name='fill_value', op=op)
    return apply_op(TRANSFORM, (x, t, size, fill),
                    {'interpolation': interpolation, 'fill_mode': fill_mode}, name)
