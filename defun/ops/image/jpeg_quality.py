"""tf.image.adjust_jpeg_quality and its random forms (random_jpeg_quality,
stateless_random_jpeg_quality): an image encoded as JPEG at a quality given as a tensor
(EncodeJpegVariableQuality, through Pillow like the other codecs) and decoded again, as TF
composes them. The quality is drawn as TF draws it (the same uniform int32 op), so a stateless
call picks TF's quality; the pixels are then those of defun's JPEG codecs (within a few levels
of TF's, see codecs.py). Needs the optional `image` extra. Not differentiable."""
import io

import numpy as np

from defun.core import dtypes, errors
from defun.core.dispatch import apply_op
from defun.core.registry import define_op
from defun.ops.image import codecs
from defun.ops.image.color import convert_image_dtype
from defun.ops.random.stateful import uniform as random_uniform
from defun.ops.random.stateless import stateless_uniform
from defun.ops.support.helpers import to_tensor

__all__ = ['adjust_jpeg_quality', 'random_jpeg_quality', 'stateless_random_jpeg_quality']


def _encode_kernel(images, quality):
    q = int(np.asarray(quality))
    if not 0 <= q <= 100:
        raise errors.InvalidArgumentError(f'quality must be in [0,100], got {q}')
    images = np.asarray(images)
    if images.ndim != 3 or images.shape[-1] not in (1, 3):
        raise errors.InvalidArgumentError(f'image must be 3-dimensional with 1 or 3 channels, '
                                          f'got shape {list(images.shape)}')
    picture = codecs.Image.fromarray(images[:, :, 0] if images.shape[-1] == 1 else images,
                                     'L' if images.shape[-1] == 1 else 'RGB')
    out = io.BytesIO()
    picture.save(out, format='JPEG', quality=q)
    return out.getvalue()


ENCODE_JPEG_VARIABLE_QUALITY = define_op(
    'EncodeJpegVariableQuality', _encode_kernel, lambda images, quality: (dtypes.string, ()),
    None, inputs=('images: uint8', 'quality: int32'))


def adjust_jpeg_quality(image, jpeg_quality, dct_method='', name=None):
    """`image` (3-D, 1 or 3 channels, any image dtype) after a JPEG round trip at quality
    `jpeg_quality` (0 to 100), in its own dtype."""
    codecs.require_pillow('adjust_jpeg_quality', 'tf.image')
    x = to_tensor(image, name='image', op='adjust_jpeg_quality')
    channels = x.shape.as_list()[-1]
    encoded = apply_op(ENCODE_JPEG_VARIABLE_QUALITY, (
        convert_image_dtype(x, dtypes.uint8, saturate=True),
        to_tensor(jpeg_quality, dtype=dtypes.int32, name='jpeg_quality',
                  op='adjust_jpeg_quality')), None, name)
    decoded = codecs.decode_jpeg(encoded, channels=channels or 0, dct_method=dct_method)
    return convert_image_dtype(decoded, x.dtype, saturate=True)


def _check_range(low, high):
    if low < 0 or high < 0 or low > 100 or high > 100:
        raise ValueError('jpeg encoding range must be between 0 and 100.')
    if low >= high:
        raise ValueError('`min_jpeg_quality` must be less than `max_jpeg_quality`.')


def random_jpeg_quality(image, min_jpeg_quality, max_jpeg_quality, seed=None):
    """adjust_jpeg_quality at a quality drawn uniformly from [min, max)."""
    _check_range(min_jpeg_quality, max_jpeg_quality)
    quality = random_uniform([], min_jpeg_quality, max_jpeg_quality, seed=seed,
                             dtype=dtypes.int32)
    return adjust_jpeg_quality(image, quality)


def stateless_random_jpeg_quality(image, min_jpeg_quality, max_jpeg_quality, seed):
    """adjust_jpeg_quality at a quality drawn from the stateless `seed` (TF's draw)."""
    _check_range(min_jpeg_quality, max_jpeg_quality)
    quality = stateless_uniform([], minval=min_jpeg_quality, maxval=max_jpeg_quality, seed=seed,
                                dtype=dtypes.int32)
    return adjust_jpeg_quality(image, quality)
