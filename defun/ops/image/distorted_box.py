"""tf.image.sample_distorted_bounding_box and its stateless form: a random crop of an image that
covers enough of one of the given boxes, drawn as TF's SampleDistortedBoundingBox kernels draw it.

Each attempt takes an aspect ratio uniformly from its range, a height between the ones the area
range allows (rounded as C's lrintf, in float32), then a random top-left corner; the first crop
covering at least `min_object_covered` of a box wins, else the whole image. The random numbers
are 32-bit words of TF's Philox stream read one at a time (TF's SimplePhilox): floats from 23
mantissa bits, integers below n by TF's exact rejection rule. The stateless op starts the stream
at the seed's key and counter; the stateful one at its seeds, each call moving `max_attempts`
counters on (TF's ReserveSamples32). Not differentiable, as TF's."""
import numpy as np

from defun.core import context, dtypes, errors
from defun.core.dispatch import apply_op
from defun.core.registry import define_op
from defun.ops.random.philox import Stream
from defun.ops.random.stateful import random_attrs
from defun.ops.random.stateless import key_counter, philox
from defun.ops.support.helpers import to_tensor

__all__ = ['sample_distorted_bounding_box', 'stateless_sample_distorted_bounding_box']

_F32 = np.float32


class _Words:
    """TF's SimplePhilox over a Draws: uint32 words one at a time, refilled 4 per counter."""

    def __init__(self, draws):
        self._draws, self._buffer, self._used = draws, [], 0

    def next(self):
        if not self._buffer:   # the next 64 counters' words, to pop in order
            self._buffer = self._draws.words(64, self._used).tolist()[::-1]
            self._used += 64
        return self._buffer.pop()

    def rand_float(self):
        bits = np.uint32(0x3F800000) | np.uint32(self.next() & 0x7FFFFF)
        return bits.view(_F32) - _F32(1)

    def uniform(self, n):
        """A uniform integer in [0, n) (TF's ExactUniformInt over uint32 words)."""
        if n & (n - 1) == 0:
            return self.next() & (n - 1)
        reject_below = (0xFFFFFFFF % n) + 1
        while True:
            word = self.next()
            if word >= reject_below:
                return word % n


def _lrint(x):
    return int(np.rint(_F32(x)))   # round half to even, as lrintf in the default mode


def _random_crop(width, height, min_rel, max_rel, aspect, words):
    """(x, y, w, h) of a crop, or None when the constraints cannot be met (TF's rules)."""
    if max_rel <= 0 or aspect <= 0 or width <= 0 or height <= 0 or min_rel > max_rel:
        return None
    min_area = _F32(min_rel) * _F32(width) * _F32(height)
    max_area = _F32(max_rel) * _F32(width) * _F32(height)
    h = _lrint(np.sqrt(_F32(min_area / aspect)))
    max_h = _lrint(np.sqrt(_F32(max_area / aspect)))
    if _lrint(_F32(max_h) * aspect) > width:
        max_h = int((width + 0.5 - float(_F32(1e-7))) / float(aspect))
        if _lrint(_F32(max_h) * aspect) > width:
            max_h -= 1
    max_h = min(max_h, height)
    h = min(h, max_h)
    if h < max_h:
        h += words.uniform(max_h - h + 1)
    w = _lrint(_F32(h) * aspect)
    area = _F32(w * h)
    if area < min_area:
        h += 1
        w = _lrint(_F32(h) * aspect)
        area = _F32(w * h)
    if area > max_area:
        h -= 1
        w = _lrint(_F32(h) * aspect)
        area = _F32(w * h)
    if area < min_area or area > max_area or w > width or h > height or w <= 0 or h <= 0:
        return None
    y = words.uniform(height - h) if h < height else 0
    x = words.uniform(width - w) if w < width else 0
    return x, y, w, h


def _area(x0, y0, x1, y1):
    return _F32((x1 - x0) * (y1 - y0))


def _covers(crop, min_covered, rects):
    x, y, w, h = crop
    if _area(x, y, x + w, y + h) < 1:
        return False
    for bx0, by0, bx1, by1 in rects:
        object_area = _area(bx0, by0, bx1, by1)
        if object_area < 1:
            continue
        ix0, iy0, ix1, iy1 = max(x, bx0), max(y, by0), min(x + w, bx1), min(y + h, by1)
        inter = _F32(0) if ix0 > ix1 or iy0 > iy1 else _area(ix0, iy0, ix1, iy1)
        if inter / object_area >= _F32(min_covered):
            return True
    return False


def _boxes(boxes, width, height, use_image):
    boxes = np.asarray(boxes, _F32)
    if boxes.ndim != 3:
        raise errors.InvalidArgumentError(f'input boxes must be 3-dimensional [batch, num_boxes, '
                                          f'coords]: {list(boxes.shape)}')
    if boxes.shape[-1] != 4:
        raise errors.InvalidArgumentError(f'bounding boxes must have shape [4] or [*, 4], got '
                                          f'{list(boxes.shape)}')
    rects = []
    for box in boxes.reshape(-1, 4):
        for v in box:
            if not 0.0 <= v <= 1.0:
                raise errors.InvalidArgumentError(f'All bounding box coordinates must be in '
                                                  f'[0.0, 1.0]: {v:g}')
        rects.append((int(box[1] * _F32(width)), int(box[0] * _F32(height)),
                      int(box[3] * _F32(width)), int(box[2] * _F32(height))))
    if not rects:
        if not use_image:
            raise errors.InvalidArgumentError(
                'No bounding boxes provided as input. One must enable '
                'use_image_if_no_bounding_boxes if you wish to not provide any bounding boxes.')
        rects.append((0, 0, width, height))
    return rects


def _sample(image_size, boxes, min_covered, draws, aspect_ratio_range, area_range, max_attempts,
            use_image_if_no_bounding_boxes):
    """(begin, size, box) of the sampled crop, as TF's kernel computes them."""
    image_size = np.asarray(image_size)
    if image_size.shape != (3,):
        raise errors.InvalidArgumentError(f'image_size must be 1-dimensional and contain 3 '
                                          f'elements, got shape {list(image_size.shape)}')
    height, width = int(image_size[0]), int(image_size[1])
    if np.ndim(min_covered) != 0 or float(min_covered) < 0:
        raise errors.InvalidArgumentError(f'Min object covered must be non-negative: '
                                          f'{float(min_covered):g}')
    rects = _boxes(boxes, width, height, use_image_if_no_bounding_boxes)
    (min_aspect, max_aspect), (min_area, max_area) = aspect_ratio_range, area_range
    words, crop = _Words(draws), None
    for _ in range(max_attempts):
        aspect = words.rand_float() * (_F32(max_aspect) - _F32(min_aspect)) + _F32(min_aspect)
        found = _random_crop(width, height, min_area, max_area, aspect, words)
        if found is not None and _covers(found, min_covered, rects):
            crop = found
            break
    x, y, w, h = crop or (0, 0, width, height)
    dtype = image_size.dtype
    box = np.array([[[y / _F32(height), x / _F32(width), (y + h) / _F32(height),
                      (x + w) / _F32(width)]]], _F32)
    return np.array([y, x, 0], dtype), np.array([h, w, -1], dtype), box


def _check_attrs(aspect_ratio_range, area_range, max_attempts):
    if len(aspect_ratio_range) != 2:
        raise errors.InvalidArgumentError('Aspect ratio range field must specify 2 dimensions')
    if not (aspect_ratio_range[0] > 0 and aspect_ratio_range[1] > 0):
        raise errors.InvalidArgumentError(f'Aspect ratio range must be non-negative: '
                                          f'[{aspect_ratio_range[0]:g}, {aspect_ratio_range[1]:g}]')
    if len(area_range) != 2:
        raise errors.InvalidArgumentError('Area range field must specify 2 dimensions')
    if not (area_range[0] > 0 and area_range[1] > 0):
        raise errors.InvalidArgumentError(f'Area range must be non-negative: '
                                          f'[{area_range[0]:g}, {area_range[1]:g}]')
    if not (area_range[0] <= 1 and area_range[1] <= 1):
        raise errors.InvalidArgumentError(f'Area range must be less then or equal to 1.0: '
                                          f'[{area_range[0]:g}, {area_range[1]:g}]')
    if max_attempts <= 0:
        raise errors.InvalidArgumentError(f'Max attempts must be non-negative: {max_attempts}')


def _infer(image_size, *rest, **attrs):
    return [(image_size.dtype, (3,)), (image_size.dtype, (3,)), (dtypes.float32, (1, 1, 4))]


def _stateless_kernel(image_size, boxes, min_covered, key, counter, **attrs):
    return _sample(image_size, boxes, min_covered, philox(key, counter), **attrs)


def _stateful_kernel(image_size, boxes, min_covered, seed, seed2, stream, **attrs):
    # Each call reserves max_attempts counters of the op's stream (4 words per attempt).
    return _sample(image_size, boxes, min_covered, stream.take_counters(attrs['max_attempts']),
                   **attrs)


_SIZE_TYPES = 'T: {uint8, int8, int16, int32, int64}'
STATELESS_SAMPLE = define_op(
    'StatelessSampleDistortedBoundingBox', _stateless_kernel, _infer, None, num_outputs=3,
    inputs=('image_size: T', 'bounding_boxes: float', 'min_object_covered: float',
            'key: int64', 'counter: int64'), attrs=(_SIZE_TYPES,))
SAMPLE = define_op(
    'SampleDistortedBoundingBoxV2', _stateful_kernel, _infer, None, num_outputs=3,
    stateful=True, inputs=('image_size: T', 'bounding_boxes: float', 'min_object_covered: float'),
    attrs=(_SIZE_TYPES,))


def _arguments(image_size, bounding_boxes, min_object_covered, aspect_ratio_range, area_range,
               max_attempts, use_image_if_no_bounding_boxes, op):
    attrs = {'aspect_ratio_range': [float(v) for v in (aspect_ratio_range or (0.75, 1.33))],
             'area_range': [float(v) for v in (area_range or (0.05, 1.0))],
             'max_attempts': int(100 if max_attempts is None else max_attempts),
             'use_image_if_no_bounding_boxes': bool(use_image_if_no_bounding_boxes)}
    _check_attrs(attrs['aspect_ratio_range'], attrs['area_range'], attrs['max_attempts'])
    inputs = (to_tensor(image_size, name='image_size', op=op),
              to_tensor(bounding_boxes, dtype=dtypes.float32, name='bounding_boxes', op=op),
              to_tensor(min_object_covered, dtype=dtypes.float32, name='min_object_covered',
                        op=op))
    return inputs, attrs


def stateless_sample_distorted_bounding_box(image_size, bounding_boxes, seed,
                                            min_object_covered=0.1, aspect_ratio_range=None,
                                            area_range=None, max_attempts=None,
                                            use_image_if_no_bounding_boxes=None, name=None):
    """(begin, size, bboxes): a random crop of an image of `image_size` [height, width,
    channels] covering enough of one of `bounding_boxes`, drawn from the stateless `seed`;
    begin and size go to tf.slice, bboxes to draw_bounding_boxes."""
    inputs, attrs = _arguments(image_size, bounding_boxes, min_object_covered,
                               aspect_ratio_range, area_range, max_attempts,
                               use_image_if_no_bounding_boxes,
                               'stateless_sample_distorted_bounding_box')
    key, counter = key_counter(seed)
    return tuple(apply_op(STATELESS_SAMPLE, inputs + (key, counter), attrs, name))


def sample_distorted_bounding_box(image_size, bounding_boxes, seed=0, min_object_covered=0.1,
                                  aspect_ratio_range=None, area_range=None, max_attempts=None,
                                  use_image_if_no_bounding_boxes=None, name=None):
    """stateless_sample_distorted_bounding_box drawn from the op's seeded (or unseeded) stream."""
    inputs, attrs = _arguments(image_size, bounding_boxes, min_object_covered,
                               aspect_ratio_range, area_range, max_attempts,
                               use_image_if_no_bounding_boxes, 'sample_distorted_bounding_box')
    if seed:
        attrs.update(random_attrs('SampleDistortedBoundingBoxV2', dtypes.float32, seed))
    else:   # TF ignores the global seed here: seeds (0, 0) make its kernel draw fresh ones
        if context.config_value('op_determinism'):
            raise ValueError(f'tf.image.sample_distorted_bounding_box requires a non-zero seed '
                             f'to be passed in when determinism is enabled, but got '
                             f'seed={seed}. Please pass in a non-zero seed, e.g. by passing '
                             f'"seed=1".')
        words = context.random_generator().integers(1, 2 ** 63, size=2)
        attrs.update(seed=0, seed2=0, stream=Stream(int(words[0]), int(words[1])))
    return tuple(apply_op(SAMPLE, inputs, attrs, name))
