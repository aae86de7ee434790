"""tf.image.draw_bounding_boxes and tf.image.extract_glimpse, as TF's DrawBoundingBoxesV2 and
ExtractGlimpseV2 kernels compute them.

Drawing: each box's corners are its [y_min, x_min, y_max, x_max] times (size - 1) in float32,
truncated toward zero; the four edges that fall inside the image are painted with the box's
colour (boxes cycle through `colors`, or TF's table of ten when none are given); inverted boxes
and boxes wholly outside are skipped. Glimpses: each window's top-left corner is its offset
(normalized and/or centered as asked) truncated toward zero; where the window leaves the image it
is filled with noise (uniform between the image's extremes, Gaussian with each channel's mean and
deviation, or zeros), drawn from numpy's generator (TF's Eigen generator is unseeded too).
Neither op has a gradient in TF."""
import numpy as np

from defun.core import dtypes, errors
from defun.core.dispatch import apply_op
from defun.core.registry import define_op
from defun.ops.support.helpers import dims, static_value, to_tensor

__all__ = ['draw_bounding_boxes', 'extract_glimpse']

_F32 = np.float32

# TF's colours when none are given: yellow, blue, red, lime, purple, olive, maroon, navy, aqua,
# fuchsia (RGBA).
_DEFAULT_COLORS = np.array([[1, 1, 0, 1], [0, 0, 1, 1], [1, 0, 0, 1], [0, 1, 0, 1],
                            [0.5, 0, 0.5, 1], [0.5, 0.5, 0, 1], [0.5, 0, 0, 1], [0, 0, 0.5, 1],
                            [0, 1, 1, 1], [1, 0, 1, 1]], _F32)


def _shape_text(shape):
    return '[' + ','.join(str(d) for d in shape) + ']'


def _color_table(colors, depth):
    colors = np.asarray(colors, _F32)
    if colors.ndim != 2:
        raise errors.InvalidArgumentError(f'colors must be a 2-D matrix{_shape_text(colors.shape)}')
    if colors.shape[1] < depth:
        raise errors.InvalidArgumentError(f'colors must have equal or more channels than the '
                                          f'image provided: {_shape_text(colors.shape)}')
    if colors.size:
        return colors[:, :depth]
    table = _DEFAULT_COLORS.copy()
    if depth == 1:
        table[:, 0] = 1
    return table[:, :depth]


def _check_draw(images, boxes):
    if images.ndim != 4:
        raise errors.InvalidArgumentError('The rank of the images should be 4')
    if boxes.ndim != 3:
        raise errors.InvalidArgumentError('The rank of the boxes tensor should be 3')
    if images.shape[0] != boxes.shape[0]:
        raise errors.InvalidArgumentError('The batch sizes should be the same')
    if images.shape[3] not in (1, 3, 4):
        raise errors.InvalidArgumentError('Channel depth should be either 1 (GRY), 3 (RGB), or '
                                          '4 (RGBA)')
    if boxes.shape[2] != 4:
        raise errors.InvalidArgumentError(f'The size of the third dimension of the box must be '
                                          f'4. Received: {boxes.shape[2]}')


def _draw_kernel(images, boxes, colors):
    images, boxes = np.asarray(images), np.asarray(boxes, _F32)
    _check_draw(images, boxes)
    _, height, width, depth = images.shape
    table = _color_table(colors, depth).astype(images.dtype)
    canvas = images.copy()
    for b in range(boxes.shape[0]):
        for k, box in enumerate(boxes[b]):
            # float32 products truncated toward zero, as C++'s float -> int64 conversion
            top, left, bottom, right = (int(v) for v in (
                box[0] * _F32(height - 1), box[1] * _F32(width - 1),
                box[2] * _F32(height - 1), box[3] * _F32(width - 1)))
            if top > bottom or left > right:
                continue   # inverted: TF skips it
            if top >= height or bottom < 0 or left >= width or right < 0:
                continue   # wholly outside the image
            color = table[k % len(table)]
            rows = slice(max(top, 0), min(bottom, height - 1) + 1)
            cols = slice(max(left, 0), min(right, width - 1) + 1)
            if top >= 0:
                canvas[b, top, cols] = color
            if bottom < height:
                canvas[b, bottom, cols] = color
            if left >= 0:
                canvas[b, rows, left] = color
            if right < width:
                canvas[b, rows, right] = color
    return canvas


DRAW_BOUNDING_BOXES = define_op(
    'DrawBoundingBoxesV2', _draw_kernel, lambda images, boxes, colors: (images.dtype,
                                                                        dims(images)), None,
    inputs=('images: T', 'boxes: float', 'colors: float'), attrs=('T: {float, half}',))


def draw_bounding_boxes(images, boxes, colors, name=None):
    """A copy of `images` [batch, height, width, depth] with each box of `boxes` [batch, n, 4]
    (normalized [y_min, x_min, y_max, x_max]) outlined in its colour from `colors` [m, >= depth]
    (TF's default colours when `colors` is None)."""
    images = to_tensor(images, hint=dtypes.float32, name='images', op='draw_bounding_boxes')
    boxes = to_tensor(boxes, dtype=dtypes.float32, name='boxes', op='draw_bounding_boxes')
    colors = to_tensor(np.zeros((0, 4), _F32) if colors is None else colors,
                       dtype=dtypes.float32, name='colors', op='draw_bounding_boxes')
    return apply_op(DRAW_BOUNDING_BOXES, (images, boxes, colors), None, name)


# ---------------------------------------------------------------- extract_glimpse

def _corner(offset, size, window, normalized, centered):
    """The window's first row (or column) from its offset along one axis, as TF's version 2."""
    x = _F32(offset)
    if normalized:
        x = x * _F32(size)
        if centered:
            x = x / _F32(2) + _F32(size) / _F32(2) - _F32(window) / _F32(2)
    elif centered:
        x = x + _F32(size) / _F32(2)
    return int(x)   # truncated toward zero


def _noise(image, shape, noise, rng):
    if noise == 'zero':
        return np.zeros(shape, _F32)
    if noise == 'uniform':
        low, high = image.min(), image.max()
        return low + rng.random(shape, dtype=_F32) * _F32(high - low)
    mean, sigma = image.mean(axis=(0, 1)), image.std(axis=(0, 1))
    drawn = mean + rng.standard_normal(shape, dtype=_F32) * sigma
    return np.clip(drawn, image.min(axis=(0, 1)), image.max(axis=(0, 1))).astype(_F32)


def _glimpse_kernel(images, size, offsets, centered, normalized, noise):
    images, size, offsets = np.asarray(images, _F32), np.asarray(size), np.asarray(offsets)
    if images.ndim != 4:
        raise errors.InvalidArgumentError(f'input must be 4-dimensional'
                                          f'{_shape_text(images.shape)}')
    if size.shape != (2,):
        raise errors.InvalidArgumentError(f'input must be 2-dimensional{_shape_text(size.shape)}')
    if offsets.ndim != 2:
        raise errors.InvalidArgumentError(f'input must be a matrix{_shape_text(offsets.shape)}')
    if offsets.shape[0] != images.shape[0]:
        raise errors.InvalidArgumentError(f'first dimension should be batch'
                                          f'{_shape_text(offsets.shape)}')
    if offsets.shape[1] != 2:
        raise errors.InvalidArgumentError(f'second dimension should be of size 2'
                                          f'{_shape_text(offsets.shape)}')
    batch, height, width, channels = images.shape
    win_h, win_w = int(size[0]), int(size[1])
    out = np.empty((batch, win_h, win_w, channels), _F32)
    rng = np.random.default_rng()
    for i in range(batch):
        top = _corner(offsets[i, 0], height, win_h, normalized, centered)
        left = _corner(offsets[i, 1], width, win_w, normalized, centered)
        inside = top >= 0 and left >= 0 and top + win_h < height and left + win_w < width
        if not inside:
            out[i] = _noise(images[i], out.shape[1:], noise, rng)
        rows = np.arange(top, top + win_h)
        cols = np.arange(left, left + win_w)
        r_ok, c_ok = (rows >= 0) & (rows < height), (cols >= 0) & (cols < width)
        out[i][np.ix_(r_ok, c_ok)] = images[i][np.ix_(rows[r_ok], cols[c_ok])]
    return out


EXTRACT_GLIMPSE = define_op(
    'ExtractGlimpseV2', _glimpse_kernel,
    lambda images, size, offsets, **attrs: (dtypes.float32, _glimpse_dims(images, size)), None,
    inputs=('input: float', 'size: int32', 'offsets: float'))


def _glimpse_dims(images, size):
    d, known = dims(images), static_value(size)
    window = (None, None) if known is None or np.shape(known) != (2,) else \
        tuple(int(v) for v in known)
    return None if d is None else (d[0],) + window + (d[3],)


def extract_glimpse(input, size, offsets, centered=True, normalized=True,  # noqa: A002
                    noise='uniform', name=None):
    """Windows of `size` [height, width] cut from each image of `input` at `offsets` [batch, 2]
    ([y, x]; normalized to [0, 1] or, centered, [-1, 1]; else pixels); parts outside the image
    are `noise` ('uniform', 'gaussian' or 'zero')."""
    if noise not in ('uniform', 'gaussian', 'zero'):
        raise errors.InvalidArgumentError(f'The noise could only be uniform, gaussian, or zero, '
                                          f'got{noise}')
    images = to_tensor(input, dtype=dtypes.float32, name='input', op='extract_glimpse')
    size = to_tensor(size, dtype=dtypes.int32, name='size', op='extract_glimpse')
    offsets = to_tensor(offsets, dtype=dtypes.float32, name='offsets', op='extract_glimpse')
    attrs = {'centered': bool(centered), 'normalized': bool(normalized), 'noise': noise}
    return apply_op(EXTRACT_GLIMPSE, (images, size, offsets), attrs, name)
