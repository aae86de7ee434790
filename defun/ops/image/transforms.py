"""tf.image's geometric transforms, crops and patches, written with public array ops as TF writes
them (so gradients come from those ops): flips, rot90, transpose, central_crop,
crop_to_bounding_box, pad_to_bounding_box, resize_with_crop_or_pad, resize_with_pad and
extract_patches. Images are [height, width, channels] or [batch, height, width, channels];
arguments TF checks when the graph is built raise ValueError here too."""
import numpy as np

from defun.ops.array.gathering import gather
from defun.ops.array.transform import pad, reverse, slice as slice_, transpose as transpose_
from defun.ops.framework.base_ops import reshape
from defun.ops.image.resize import ResizeMethod, resize
from defun.ops.support.helpers import dims, to_tensor

__all__ = ['flip_left_right', 'flip_up_down', 'rot90', 'transpose', 'central_crop',
           'crop_to_bounding_box', 'pad_to_bounding_box', 'resize_with_crop_or_pad',
           'resize_with_pad', 'extract_patches']


def image_input(image, op, ranks=(3, 4), name='image'):
    """An image tensor of rank 3 or 4 (TF's ValueError otherwise), and its static shape."""
    x = to_tensor(image, name=name, op=op)
    d = dims(x)
    if d is not None and len(d) not in ranks:
        raise ValueError(f"'{name}' (shape {list(d)}) must have either 3 or 4 dimensions."
                         if ranks == (3, 4) else f"'{name}' must be three-dimensional.")
    if d is not None and any(n == 0 for n in d[-3:]):
        raise ValueError(f'all dims of \'{name}.shape\' must be > 0 (shape {list(d)})')
    return x, d


def flip_left_right(image):
    """Mirrors each image horizontally (the width axis)."""
    x, d = image_input(image, 'flip_left_right')
    return reverse(x, [-2])


def flip_up_down(image):
    """Mirrors each image vertically (the height axis)."""
    x, d = image_input(image, 'flip_up_down')
    return reverse(x, [-3])


def rot90(image, k=1, name=None):
    """Rotates each image by `k` quarter turns counter-clockwise."""
    x, d = image_input(image, 'rot90')
    k = int(k) % 4
    lead = [0] if len(d) == 4 else []
    n = len(lead)
    swap = lead + [n + 1, n, n + 2]
    if k == 1:
        return transpose_(reverse(x, [n + 1]), swap)
    if k == 2:
        return reverse(x, [n, n + 1])
    if k == 3:
        return reverse(transpose_(x, swap), [n + 1])
    return x


def transpose(image, name=None):
    """Swaps the height and width of each image."""
    x, d = image_input(image, 'transpose')
    return transpose_(x, [0, 2, 1, 3] if len(d) == 4 else [1, 0, 2])


def central_crop(image, central_fraction):
    """The central `central_fraction` (0, 1] of each image's height and width."""
    x, d = image_input(image, 'central_crop')
    if central_fraction <= 0.0 or central_fraction > 1.0:
        raise ValueError('central_fraction must be within (0, 1]')
    if central_fraction == 1.0:
        return x
    h, w = d[-3], d[-2]
    top = int((h - h * central_fraction) / 2)
    left = int((w - w * central_fraction) / 2)
    return crop_to_bounding_box(x, top, left, h - 2 * top, w - 2 * left)


def _check_box(offset_height, offset_width, target_height, target_width, op):
    if offset_height < 0 or offset_width < 0:
        raise ValueError(f'{op}: offset_height and offset_width must be >= 0.')
    if target_height <= 0 or target_width <= 0:
        raise ValueError(f'{op}: target_height and target_width must be > 0.')


def crop_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    """The box of size target at (offset_height, offset_width) of each image."""
    x, d = image_input(image, 'crop_to_bounding_box')
    _check_box(offset_height, offset_width, target_height, target_width, 'crop_to_bounding_box')
    h, w = d[-3], d[-2]
    if h is not None and h < offset_height + target_height:
        raise ValueError('height must be >= target + offset.')
    if w is not None and w < offset_width + target_width:
        raise ValueError('width must be >= target + offset.')
    begin = [offset_height, offset_width, 0]
    size = [target_height, target_width, -1]
    if len(d) == 4:
        begin, size = [0] + begin, [-1] + size
    return slice_(x, begin, size)


def pad_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    """Each image placed at (offset_height, offset_width) in a zero image of the target size."""
    x, d = image_input(image, 'pad_to_bounding_box')
    h, w = d[-3], d[-2]
    if offset_height < 0 or offset_width < 0:
        raise ValueError('offset_height and offset_width must be >= 0')
    after_h, after_w = target_height - offset_height - h, target_width - offset_width - w
    if after_h < 0:
        raise ValueError('height must be <= target - offset')
    if after_w < 0:
        raise ValueError('width must be <= target - offset')
    paddings = [[offset_height, after_h], [offset_width, after_w], [0, 0]]
    return pad(x, ([[0, 0]] if len(d) == 4 else []) + paddings)


def resize_with_crop_or_pad(image, target_height, target_width):
    """Each image centrally cropped and/or zero-padded to the target size."""
    x, d = image_input(image, 'resize_with_crop_or_pad')
    if target_height <= 0 or target_width <= 0:
        raise ValueError('target_height and target_width must be > 0')
    h, w = d[-3], d[-2]
    crop_top, crop_left = max((h - target_height) // 2, 0), max((w - target_width) // 2, 0)
    pad_top, pad_left = max((target_height - h) // 2, 0), max((target_width - w) // 2, 0)
    cropped = crop_to_bounding_box(x, crop_top, crop_left, min(target_height, h),
                                   min(target_width, w))
    return pad_to_bounding_box(cropped, pad_top, pad_left, target_height, target_width)


def resize_with_pad(image, target_height, target_width, method=ResizeMethod.BILINEAR,
                    antialias=False):
    """Each image resized keeping its aspect ratio, then zero-padded to the target size."""
    x, d = image_input(image, 'resize_with_pad')
    h, w = d[-3], d[-2]
    ratio = max(np.float32(w) / np.float32(target_width), np.float32(h) / np.float32(target_height))
    new_h, new_w = np.float32(h) / ratio, np.float32(w) / ratio
    resized = resize(x, [int(np.floor(new_h)), int(np.floor(new_w))], method=method,
                     antialias=antialias)
    # TF pads by half the difference to the unrounded size, rounded down.
    top = max(int(np.floor((np.float32(target_height) - new_h) / 2)), 0)
    left = max(int(np.floor((np.float32(target_width) - new_w) / 2)), 0)
    return pad_to_bounding_box(resized, top, left, target_height, target_width)


def _patch_axis(size, k, stride, rate, padding):
    """(pad_before, pad_after, start indices of the windows) along one axis."""
    effective = (k - 1) * rate + 1
    if padding == 'SAME':
        out = -(-size // stride)
        total = max((out - 1) * stride + effective - size, 0)
        before = total // 2
        return before, total - before, [i * stride for i in range(out)]
    out = max(-(-(size - effective + 1) // stride), 0)
    return 0, 0, [i * stride for i in range(out)]


def extract_patches(images, sizes, strides, rates, padding, name=None):
    """The patches of each image ([batch, h, w, c]) flattened into the depth dimension, in
    (row, column, channel) order, as TF's ExtractImagePatches."""
    x, d = image_input(images, 'extract_patches', ranks=(4,), name='images')
    if padding not in ('SAME', 'VALID'):
        raise ValueError(f'padding must be "SAME" or "VALID", got {padding!r}')
    (_, kh, kw, _), (_, sh, sw, _), (_, rh, rw, _) = sizes, strides, rates
    b, h, w, c = d
    top, bottom, rows = _patch_axis(h, kh, sh, rh, padding)
    left, right, cols = _patch_axis(w, kw, sw, rw, padding)
    padded = pad(x, [[0, 0], [top, bottom], [left, right], [0, 0]])
    width = w + left + right
    index = np.array([[(r + i * rh) * width + (q + j * rw) for i in range(kh) for j in range(kw)]
                      for r in rows for q in cols], np.int32)
    flat = reshape(padded, [-1 if b is None else b, (h + top + bottom) * width, c])
    patches = gather(flat, index.reshape(-1), axis=1)
    return reshape(patches, [-1 if b is None else b, len(rows), len(cols), kh * kw * c])

