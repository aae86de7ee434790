"""The `tf.image` namespace: resizing, crops and geometric transforms, colour conversions and
adjustments, and random augmentations (defun/ops/image/)."""
from defun.core import unsupported
from defun.ops.image.resize import ResizeMethod, resize  # noqa: F401
from defun.ops.image.transforms import *  # noqa: F401,F403
from defun.ops.image.color import *  # noqa: F401,F403
from defun.ops.image.augment import *  # noqa: F401,F403
from defun.ops.image.crops import *  # noqa: F401,F403
from defun.ops.image.suppression import *  # noqa: F401,F403
from defun.ops.image.boxes import *  # noqa: F401,F403
from defun.ops.image.distorted_box import *  # noqa: F401,F403
from defun.ops.image.similarity import *  # noqa: F401,F403
from defun.ops.image.codecs import (decode_png, decode_jpeg, decode_gif, decode_bmp,  # noqa: F401
                                    decode_image, encode_png, encode_jpeg, extract_jpeg_shape,
                                    is_jpeg)


__getattr__ = unsupported.missing_names(__name__, 'tf.image', {
    'decode_and_crop_jpeg': 'image codecs',
    'adjust_jpeg_quality': 'image codecs', 'random_jpeg_quality': 'image codecs',
    'stateless_random_jpeg_quality': 'image codecs',
    'non_max_suppression_overlaps': None,
    'combined_non_max_suppression': None,
    'generate_bounding_box_proposals': None,
    'resize_with_crop_or_pad_v1': None})
