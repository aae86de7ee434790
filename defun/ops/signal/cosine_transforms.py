"""The discrete cosine transforms of tf.signal: dct and idct (types I to IV, unnormalized or
'ortho', over the innermost axis), computed through rfft / irfft as TF computes them, and the
modified DCT mdct / inverse_mdct (windowed frames of half overlap, through the type-IV DCT).
"""
import math

import numpy as np

from defun.ops.array.creation import range as range_
from defun.ops.array.joining import concat, split
from defun.ops.array.transform import pad, reverse
from defun.ops.framework.base_ops import cast, shape
from defun.ops.math.arithmetic import maximum
from defun.ops.math.complex_numbers import complex as complex_, real
from defun.ops.math.elementary import exp, rsqrt, sqrt
from defun.ops.signal.framing import frame
from defun.ops.signal.real_transforms import irfft, rfft
from defun.ops.signal.spectral import overlap_and_add
from defun.ops.signal.windows import vorbis_window
from defun.ops.support import validation
from defun.ops.support.helpers import dims, static_value, to_tensor

__all__ = ['dct', 'idct', 'mdct', 'inverse_mdct']


def _check(x, dct_type, n, axis, norm):
    """TF's argument checks, all ValueErrors (an axis other than -1 is NotImplementedError)."""
    if axis != -1:
        raise NotImplementedError(f'axis must be -1. Got: {axis}')
    if n is not None and n < 1:
        raise ValueError('n should be a positive integer or None')
    if dct_type not in (1, 2, 3, 4):
        raise ValueError('Types I, II, III and IV (I)DCT are supported.')
    if dct_type == 1:
        if norm == 'ortho':
            raise ValueError('Normalization is not supported for the Type-I DCT.')
        d = dims(x)
        if d and d[-1] is not None and d[-1] < 2:
            raise ValueError('Type-I DCT requires the dimension to be greater than one.')
    if norm not in (None, 'ortho'):
        raise ValueError(f"Unknown normalization. Expected None or 'ortho', got: {norm}")


def _length(x):
    d = dims(x)
    return d[-1] if d and d[-1] is not None else shape(x)[-1]


def _resized(x, n):
    """x cut or zero-padded to n samples along its innermost axis."""
    d = dims(x)
    if d is None:
        raise ValueError('dct: the input needs a known rank when n is given')
    if d[-1] is not None and n <= d[-1]:
        return x[..., 0:n]
    if d[-1] is not None:
        return pad(x, [[0, 0]] * (len(d) - 1) + [[0, n - d[-1]]])
    # a length known only when run: pad by what is missing (maybe nothing), then cut
    missing = maximum(0, n - shape(x)[-1])
    return pad(x, [[0, 0]] * (len(d) - 1) + [[0, missing]])[..., 0:n]


def _ortho_weights(first, rest, length):
    """[first, rest, rest, ...] of `length` entries."""
    return pad(first[None], [[0, length - 1]], constant_values=rest)


def _dct(x, dct_type, n, norm):
    if n is not None:
        x = _resized(x, n)
    length = _length(x)
    length_float = cast(length, x.dtype)
    zero = to_tensor(0.0, dtype=x.dtype)
    if dct_type == 1:
        return real(rfft(concat([x, x[..., -2:0:-1]], axis=-1)))
    if dct_type == 2:
        angles = -range_(length_float) * math.pi * 0.5 / length_float
        scale = 2.0 * exp(complex_(zero, angles))
        result = real(rfft(x, fft_length=[2 * length])[..., :length] * scale)
        if norm == 'ortho':
            first = 0.5 * rsqrt(length_float)
            result = result * _ortho_weights(first, first * math.sqrt(2.0), length)
        return result
    if dct_type == 3:
        if norm == 'ortho':
            first = sqrt(length_float)
            x = x * _ortho_weights(first, first * math.sqrt(0.5), length)
        else:
            x = x * length_float
        angles = range_(length_float) * math.pi * 0.5 / length_float
        scale = 2.0 * exp(complex_(zero, angles))
        return real(irfft(scale * complex_(x, zero), fft_length=[2 * length]))[..., :length]
    result = _dct(x, 2, 2 * length, None)[..., 1::2]
    if norm == 'ortho':
        result = result * (math.sqrt(0.5) * rsqrt(length_float))
    return result


def dct(input, type=2, n=None, axis=-1, norm=None, name=None):  # noqa: A002 - TF's names
    """The discrete cosine transform of `type` (1 to 4) over the innermost axis, of its first
    `n` samples (zero-padded to n) when given; `norm='ortho'` scales it to be orthonormal."""
    validation.op_name(name)
    x = to_tensor(input, name='input', op='dct')
    _check(x, type, n, axis, norm)
    return _dct(x, type, n, norm)


def idct(input, type=2, n=None, axis=-1, norm=None, name=None):  # noqa: A002 - TF's names
    """The inverse of dct of `type`: the DCT of the inverse type (scaled by 1/(2N) unless
    'ortho', as TF's is)."""
    validation.op_name(name)
    x = to_tensor(input, name='input', op='idct')
    _check(x, type, n, axis, norm)
    return _dct(x, {1: 1, 2: 3, 3: 2, 4: 4}[type], n, norm)


def mdct(signals, frame_length, window_fn=vorbis_window, pad_end=False, norm=None, name=None):
    """The modified DCT of frames of `frame_length` (a multiple of 4) samples every
    frame_length / 2: [..., frames, frame_length / 2] coefficients."""
    validation.op_name(name)
    signals = to_tensor(signals, name='signals', op='mdct')
    length = to_tensor(frame_length, name='frame_length', op='mdct')
    known = static_value(length)
    if known is not None and int(known) % 4 != 0:
        raise ValueError('The frame length must be a multiple of 4.')
    step = length // 2
    frames = frame(signals, length, step, pad_end=pad_end)
    if window_fn is not None:
        frames = frames * window_fn(length, dtype=frames.dtype)
    else:
        frames = frames * (1.0 / np.sqrt(2))
    a, b, c, d = split(frames, 4, axis=-1)
    rearranged = concat([-reverse(c, [-1]) - d, a - reverse(b, [-1])], axis=-1)
    return _dct(rearranged, 4, None, norm)


def inverse_mdct(mdcts, window_fn=vorbis_window, norm=None, name=None):
    """The signal whose mdct is `mdcts` (windowed with a power-complementary window)."""
    validation.op_name(name)
    mdcts = to_tensor(mdcts, name='mdcts', op='inverse_mdct')
    half = dims(mdcts)[-1]
    if norm is None:
        coefficients = 0.5 / cast(half, mdcts.dtype) * _dct(mdcts, 4, None, None)
    else:
        coefficients = _dct(mdcts, 4, None, 'ortho')
    first, second = split(coefficients, 2, axis=-1)
    frames = concat([second, -reverse(second, [-1]), -reverse(first, [-1]), -first], axis=-1)
    if window_fn is not None:
        frames = frames * window_fn(2 * half, dtype=mdcts.dtype)
    else:
        frames = frames * (1.0 / np.sqrt(2))
    return overlap_and_add(frames, half)

