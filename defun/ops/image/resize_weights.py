"""The one-dimensional sampling weights of TF's resize kernels, as (out_size, in_size) matrices.

Every resize TF offers except nearest neighbour is separable and linear in the image: the output
is W_rows @ image @ W_cols^T per channel. These functions rebuild W exactly as TF's kernels
compute their taps (float32 sample positions, TF's bounds and renormalisation, the 1024-entry
cubic coefficient table of ResizeBicubic), so results agree with TF's to float rounding, and the
gradient is the transposed map. `nearest_indices` gives nearest neighbour's source indices.
"""
import functools
import math

import numpy as np

__all__ = ['bilinear', 'bicubic', 'area', 'scale_and_translate', 'nearest_indices', 'KERNELS']

_F32 = np.float32


def _scale(in_size, out_size):
    return _F32(in_size) / _F32(out_size)


def _matrix(out_size, in_size):
    return np.zeros((out_size, in_size), np.float64)


@functools.lru_cache(maxsize=128)
def bilinear(in_size, out_size):
    """ResizeBilinear with half-pixel centers."""
    scale, w = _scale(in_size, out_size), _matrix(out_size, in_size)
    for y in range(out_size):
        pos = (_F32(y) + _F32(0.5)) * scale - _F32(0.5)
        low = math.floor(pos)
        lerp = float(pos - _F32(low))
        w[y, max(low, 0)] += 1.0 - lerp
        w[y, min(math.ceil(pos), in_size - 1)] += lerp
    return w


def _cubic_table(a, size=1024):
    table = np.zeros((size + 1, 2), np.float32)
    for i in range(size + 1):
        x = i * 1.0 / size
        table[i, 0] = ((a + 2) * x - (a + 3)) * x * x + 1
        x += 1.0
        table[i, 1] = ((a * x - 5 * a) * x + 8 * a) * x - 4 * a
    return table


_KEYS_TABLE = _cubic_table(-0.5)


@functools.lru_cache(maxsize=128)
def bicubic(in_size, out_size):
    """ResizeBicubic with half-pixel centers: Keys' cubic (a = -0.5) from TF's coefficient
    table, taps outside the image dropped and the rest renormalised."""
    scale, w, size = _scale(in_size, out_size), _matrix(out_size, in_size), 1024
    for y in range(out_size):
        pos = (_F32(y) + _F32(0.5)) * scale - _F32(0.5)
        loc = math.floor(pos)
        offset = int(np.rint(_F32(pos - _F32(loc)) * _F32(size)))
        taps = [_KEYS_TABLE[offset, 1], _KEYS_TABLE[offset, 0], _KEYS_TABLE[size - offset, 0],
                _KEYS_TABLE[size - offset, 1]]
        kept = [(loc - 1 + k, _F32(t)) for k, t in enumerate(taps) if 0 <= loc - 1 + k < in_size]
        total = sum((t for _, t in kept), _F32(0))
        norm = _F32(1) / total if abs(total) >= 1000 * np.finfo(np.float32).tiny else _F32(1)
        for index, t in kept:
            w[y, index] += float(t * norm)
    return w


@functools.lru_cache(maxsize=128)
def area(in_size, out_size):
    """ResizeArea: each output pixel the mean of the input area it covers."""
    scale, w = _scale(in_size, out_size), _matrix(out_size, in_size)
    for y in range(out_size):
        start, end = _F32(y) * scale, _F32(y + 1) * scale
        for i in range(math.floor(start), math.ceil(end)):
            overlap = min(_F32(i + 1), end) - max(_F32(i), start)
            w[y, min(max(i, 0), in_size - 1)] += float(overlap)
    return w / float(scale)


def _lanczos(radius):
    def kernel(x):
        if x > radius:
            return 0.0
        if x <= 1e-3:
            return 1.0
        return radius * math.sin(math.pi * x) * math.sin(math.pi * x / radius) / (
            math.pi * math.pi * x * x)
    return kernel, float(radius)


def _gaussian(x, radius=1.5, sigma=0.5):
    return 0.0 if x >= radius else math.exp(-x * x / (2.0 * sigma * sigma))


def _keys_cubic(x):
    if x >= 2.0:
        return 0.0
    if x >= 1.0:
        return ((-0.5 * x + 2.5) * x - 4.0) * x + 2.0
    return ((1.5 * x - 2.5) * x) * x + 1.0


def _mitchell_cubic(x):
    if x >= 2.0:
        return 0.0
    if x >= 1.0:
        return (((-7.0 / 18.0) * x + 2.0) * x - 10.0 / 3.0) * x + 16.0 / 9.0
    return (((7.0 / 6.0) * x - 2.0) * x) * x + 8.0 / 9.0


# ScaleAndTranslate's kernels: name -> (function of |x|, radius).
KERNELS = {
    'lanczos1': _lanczos(1), 'lanczos3': _lanczos(3), 'lanczos5': _lanczos(5),
    'gaussian': (_gaussian, 1.5), 'box': (lambda x: 1.0 if x < 0.5 else 0.5 if x == 0.5 else 0.0, 1.0),
    'triangle': (lambda x: 1.0 - x if x < 1.0 else 0.0, 1.0), 'keyscubic': (_keys_cubic, 2.0),
    'mitchellcubic': (_mitchell_cubic, 2.0),
}


@functools.lru_cache(maxsize=128)
def scale_and_translate(in_size, out_size, kernel_type, antialias):
    """ScaleAndTranslate with scale out/in and no translation (what tf.image.resize uses)."""
    kernel, radius = KERNELS[kernel_type]
    inv_scale = _F32(1.0 / (_F32(out_size) / _F32(in_size)))
    kernel_scale = max(inv_scale, _F32(1)) if antialias else _F32(1)
    w = _matrix(out_size, in_size)
    for x in range(out_size):
        sample = (_F32(x) + _F32(0.5)) * inv_scale
        if sample < 0 or sample > in_size:
            continue
        start = math.ceil(sample - _F32(radius) * kernel_scale - _F32(0.5))
        end = math.floor(sample + _F32(radius) * kernel_scale - _F32(0.5))
        start, end = min(max(start, 0), in_size - 1), min(max(end, 0), in_size - 1) + 1
        taps = [_F32(kernel(abs(float((_F32(s) + _F32(0.5) - sample) * (_F32(1) / kernel_scale)))))
                for s in range(start, end)]
        total = sum(taps, _F32(0))
        if abs(total) >= 1000 * np.finfo(np.float32).tiny:
            w[x, start:end] = [float(t * (_F32(1) / total)) for t in taps]
    return w


@functools.lru_cache(maxsize=128)
def nearest_indices(in_size, out_size):
    """ResizeNearestNeighbor with half-pixel centers: the source index of each output."""
    scale = _scale(in_size, out_size)
    return np.array([min(max(math.floor((_F32(y) + _F32(0.5)) * scale), 0), in_size - 1)
                     for y in range(out_size)], np.int64)
