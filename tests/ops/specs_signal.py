"""Specs of tf.signal's Fourier transform ops (fft_ops.py, real_fft.py): float64 references from
numpy's FFT; gradients by finite differences through the real and imaginary parts (complex
outputs squared, so that the second-order check has something to differentiate). Values recorded
from TF in float32 are checked in tests/ops/test_signal_tf.py."""
import numpy as np

import defun as tf
from tests.ops.spec import Spec, rand


def _parts(c):
    return tf.math.real(c), tf.math.imag(c)


def _squared_parts(c):
    return tf.math.real(c * c), tf.math.imag(c)


def _np_parts(c):
    return np.real(c), np.imag(c)


def _np_squared_parts(c):
    return np.real(c * c), np.imag(c)


def _complex_spec(op_type, fn, np_fn, rank, shape):
    axes = tuple(range(-rank, 0))
    return Spec(op_type, lambda re, im: _squared_parts(fn(tf.complex(re, im))),
                [rand(*shape), rand(*shape, seed=1)],
                lambda re, im: _np_squared_parts(np_fn(re + 1j * im, axes=axes)))


def _rfft_spec(op_type, fn, rank, shape, n=None, id=''):
    s = n if n is not None else shape[-rank:]
    axes = tuple(range(-rank, 0))
    return Spec(op_type, lambda x: _squared_parts(fn(x, n)), [rand(*shape)],
                lambda x: _np_squared_parts(np.fft.rfftn(x, s=s, axes=axes)), id=id)


def _irfft_spec(op_type, fn, rank, shape, n, id=''):
    axes = tuple(range(-rank, 0))
    return Spec(op_type, lambda re, im: fn(tf.complex(re, im), n) ** 2,
                [rand(*shape), rand(*shape, seed=1)],
                lambda re, im: np.fft.irfftn(re + 1j * im, s=n, axes=axes) ** 2, id=id)


SPECS = [
    _complex_spec('FFT', tf.signal.fft, np.fft.fftn, 1, (2, 5)),
    _complex_spec('IFFT', tf.signal.ifft, np.fft.ifftn, 1, (2, 4)),
    _complex_spec('FFT2D', tf.signal.fft2d, np.fft.fftn, 2, (2, 3, 4)),
    _complex_spec('IFFT2D', tf.signal.ifft2d, np.fft.ifftn, 2, (3, 3)),
    _complex_spec('FFT3D', tf.signal.fft3d, np.fft.fftn, 3, (2, 2, 3)),
    _complex_spec('IFFT3D', tf.signal.ifft3d, np.fft.ifftn, 3, (2, 3, 2)),
    Spec('FFT', lambda re, im: _parts(tf.signal.fft(tf.complex(re, im))),
         [rand(3, dtype=np.float32), rand(3, dtype=np.float32, seed=1)],
         lambda re, im: _np_parts(np.fft.fft(re + 1j * im).astype(np.complex64)), rtol=1e-6,
         grad=False, id='c64'),
    _rfft_spec('RFFT', tf.signal.rfft, 1, (2, 6)),
    _rfft_spec('RFFT', tf.signal.rfft, 1, (2, 5), [8], id='padded'),
    _rfft_spec('RFFT', tf.signal.rfft, 1, (7,), [4], id='cropped'),
    _rfft_spec('RFFT2D', tf.signal.rfft2d, 2, (3, 5)),
    _rfft_spec('RFFT2D', tf.signal.rfft2d, 2, (3, 5), [2, 6], id='cropped_padded'),
    _rfft_spec('RFFT3D', tf.signal.rfft3d, 3, (2, 3, 4)),
    _irfft_spec('IRFFT', tf.signal.irfft, 1, (2, 4), [6]),
    _irfft_spec('IRFFT', tf.signal.irfft, 1, (4,), [7], id='odd'),
    _irfft_spec('IRFFT', tf.signal.irfft, 1, (5,), [4], id='cropped'),
    _irfft_spec('IRFFT2D', tf.signal.irfft2d, 2, (3, 3), [3, 4]),
    _irfft_spec('IRFFT2D', tf.signal.irfft2d, 2, (3, 3), [2, 5], id='odd'),
    _irfft_spec('IRFFT3D', tf.signal.irfft3d, 3, (2, 2, 3), [2, 2, 4]),
]
