"""tf.image's random augmentations: random_flip_left_right / up_down, random_crop,
random_brightness / contrast / saturation / hue, and their stateless_random_* forms, drawing
exactly what TF draws (the same random op, shape and range), so a seeded call gives TF's result."""
from defun.core import dtypes
from defun.ops.array.transform import reverse, slice as slice_
from defun.ops.framework.base_ops import cast, reshape, shape
from defun.ops.image import color
from defun.ops.image.transforms import image_input
from defun.ops.math.arithmetic import floormod
from defun.ops.math.elementary import round as round_
from defun.ops.math.logic import less, where
from defun.ops.random.stateful import uniform as random_uniform
from defun.ops.random.stateless import stateless_uniform as stateless_random_uniform
from defun.ops.support.helpers import to_tensor

__all__ = ['random_flip_left_right', 'random_flip_up_down', 'random_crop', 'random_brightness',
           'random_contrast', 'random_saturation', 'random_hue',
           'stateless_random_flip_left_right', 'stateless_random_flip_up_down',
           'stateless_random_crop', 'stateless_random_brightness', 'stateless_random_contrast',
           'stateless_random_saturation', 'stateless_random_hue']


def _flip(image, axis, draw, op):
    x, d = image_input(image, op)
    if len(d) == 3:
        return where(less(draw([], minval=0, maxval=1.0), 0.5), reverse(x, [axis]), x)
    n = shape(x)[0]
    flips = cast(round_(reshape(draw([n], minval=0, maxval=1.0), [n, 1, 1, 1])), x.dtype)
    return flips * reverse(x, [axis + 1]) + (1 - flips) * x


def _stateful(seed):
    return lambda shape_, **kw: random_uniform(shape_, seed=seed, **kw)


def _stateless(seed):
    return lambda shape_, **kw: stateless_random_uniform(shape_, seed=seed, **kw)


def random_flip_left_right(image, seed=None):
    """Each image mirrored horizontally with probability 1/2."""
    return _flip(image, 1, _stateful(seed), 'random_flip_left_right')


def random_flip_up_down(image, seed=None):
    """Each image mirrored vertically with probability 1/2."""
    return _flip(image, 0, _stateful(seed), 'random_flip_up_down')


def stateless_random_flip_left_right(image, seed):
    """random_flip_left_right drawn from the stateless `seed` (shape [2])."""
    return _flip(image, 1, _stateless(seed), 'stateless_random_flip_left_right')


def stateless_random_flip_up_down(image, seed):
    """random_flip_up_down drawn from the stateless `seed`."""
    return _flip(image, 0, _stateless(seed), 'stateless_random_flip_up_down')


def _crop(value, size, draw, op):
    x = to_tensor(value, name='value', op=op)
    size = to_tensor(size, dtype=dtypes.int32, name='size', op=op)
    full = shape(x)
    d, s = x.shape.as_tuple(), size.numpy().tolist() if hasattr(size, 'numpy') else None
    if d is not None and s is not None and any(a is not None and a < b for a, b in zip(d, s)):
        raise ValueError(f'{op}: Need value.shape >= size, got {list(d)} and {s}')
    offset = floormod(draw(shape(full), dtype=size.dtype, maxval=size.dtype.max), full - size + 1)
    return slice_(x, offset, size)


def random_crop(value, size, seed=None, name=None):
    """A randomly placed crop of `value` of shape `size`."""
    return _crop(value, size, _stateful(seed), 'random_crop')


def stateless_random_crop(value, size, seed, name=None):
    """random_crop drawn from the stateless `seed`."""
    return _crop(value, size, _stateless(seed), 'stateless_random_crop')


def _range(lower, upper, op):
    if upper <= lower:
        raise ValueError(f'{op}: upper must be > lower.')
    if lower < 0:
        raise ValueError(f'{op}: lower must be non-negative.')


def random_brightness(image, max_delta, seed=None):
    """adjust_brightness by a delta drawn from [-max_delta, max_delta)."""
    if max_delta < 0:
        raise ValueError('max_delta must be non-negative.')
    return color.adjust_brightness(image, random_uniform([], -max_delta, max_delta, seed=seed))


def stateless_random_brightness(image, max_delta, seed):
    """random_brightness drawn from the stateless `seed`."""
    if max_delta < 0:
        raise ValueError('max_delta must be non-negative.')
    return color.adjust_brightness(image, stateless_random_uniform(
        [], seed=seed, minval=-max_delta, maxval=max_delta))


def random_contrast(image, lower, upper, seed=None):
    """adjust_contrast by a factor drawn from [lower, upper)."""
    _range(lower, upper, 'random_contrast')
    return color.adjust_contrast(image, random_uniform([], lower, upper, seed=seed))


def stateless_random_contrast(image, lower, upper, seed):
    """random_contrast drawn from the stateless `seed`."""
    _range(lower, upper, 'stateless_random_contrast')
    return color.adjust_contrast(image, stateless_random_uniform([], seed=seed, minval=lower,
                                                                 maxval=upper))


def random_saturation(image, lower, upper, seed=None):
    """adjust_saturation by a factor drawn from [lower, upper)."""
    _range(lower, upper, 'random_saturation')
    return color.adjust_saturation(image, random_uniform([], lower, upper, seed=seed))


def stateless_random_saturation(image, lower, upper, seed=None):
    """random_saturation drawn from the stateless `seed`."""
    _range(lower, upper, 'stateless_random_saturation')
    return color.adjust_saturation(image, stateless_random_uniform([], seed=seed, minval=lower,
                                                                   maxval=upper))


def _hue_delta(max_delta):
    if max_delta > 0.5:
        raise ValueError('max_delta must be <= 0.5.')
    if max_delta < 0:
        raise ValueError('max_delta must be non-negative.')


def random_hue(image, max_delta, seed=None):
    """adjust_hue by a delta drawn from [-max_delta, max_delta)."""
    _hue_delta(max_delta)
    return color.adjust_hue(image, random_uniform([], -max_delta, max_delta, seed=seed))


def stateless_random_hue(image, max_delta, seed):
    """random_hue drawn from the stateless `seed`."""
    _hue_delta(max_delta)
    return color.adjust_hue(image, stateless_random_uniform([], seed=seed, minval=-max_delta,
                                                            maxval=max_delta))
