"""The window functions of tf.signal: hann_window, hamming_window, kaiser_window,
kaiser_bessel_derived_window and vorbis_window, composed of elementwise ops as TF's are (so each
is computed in the requested dtype, rounded as TF rounds it). A window of length 1 is [1];
`periodic` windows are one sample of the symmetric window one longer (for spectral analysis).
"""
import numpy as np

from defun.core import dtypes
from defun.ops.array.creation import ones, range as range_
from defun.ops.array.joining import concat
from defun.ops.array.transform import reverse
from defun.ops.framework.base_ops import cast
from defun.ops.math.arithmetic import floormod, square
from defun.ops.math.bessel import bessel_i0e
from defun.ops.math.elementary import cos, exp, pow, sin, sqrt
from defun.ops.math.logic import equal, where
from defun.ops.math.reductions import cumsum
from defun.ops.nn.activations import relu
from defun.ops.support import validation
from defun.ops.support.helpers import static_value, to_tensor

__all__ = ['hann_window', 'hamming_window', 'kaiser_window', 'kaiser_bessel_derived_window',
           'vorbis_window']


def _float_dtype(dtype):
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError(f'dtype must be a floating point type. Found {dtype}')
    return dtype


def _scalar(value, name, dtype, op):
    t = to_tensor(value, dtype=dtype, name=name, op=op)
    if t.shape.rank not in (None, 0):
        raise ValueError(f'Shape {t.shape} must have rank 0')
    return t


def _window_length(window_length, dtype, op):
    """TF's checks of every window's arguments: a float dtype and a scalar int32 length."""
    return _scalar(window_length, 'window_length', dtypes.int32, op), _float_dtype(dtype)


def _length_one(length):
    value = static_value(length)
    return value is not None and int(value) == 1


def _raised_cosine(window_length, periodic, dtype, a, b, op):
    """a - b cos(2 pi k / n): n is length - 1, or length for an even periodic window."""
    dtype = _float_dtype(dtype)
    length = _scalar(window_length, 'window_length', dtypes.int32, op)
    if _length_one(length):
        return ones([1], dtype=dtype)
    periodic = cast(_scalar(periodic, 'periodic', dtypes.bool, op), dtypes.int32)
    even = 1 - floormod(length, 2)
    n = cast(length + periodic * even - 1, dtype)
    count = cast(range_(length), dtype)
    window = a - b * cos(to_tensor(2 * np.pi, dtype=dtype) * count / n)
    if static_value(length) is not None:
        return window
    # A length known only at run time may be 1, where n is 0: the window is then [1].
    return where(equal(length, 1), ones([length], dtype=dtype), window)


def hann_window(window_length, periodic=True, dtype=dtypes.float32, name=None):
    """The Hann window: 0.5 - 0.5 cos(2 pi k / n)."""
    validation.op_name(name)
    return _raised_cosine(window_length, periodic, dtype, 0.5, 0.5, 'hann_window')


def hamming_window(window_length, periodic=True, dtype=dtypes.float32, name=None):
    """The Hamming window: 0.54 - 0.46 cos(2 pi k / n)."""
    validation.op_name(name)
    return _raised_cosine(window_length, periodic, dtype, 0.54, 0.46, 'hamming_window')


def kaiser_window(window_length, beta=12.0, dtype=dtypes.float32, name=None):
    """The Kaiser window: I0(beta sqrt(1 - (2k / (n - 1) - 1)^2)) / I0(beta)."""
    validation.op_name(name)
    length, dtype = _window_length(window_length, dtype, 'kaiser_window')
    if _length_one(length):
        return ones([1], dtype=dtype)
    half = (cast(length, dtypes.float32) - 1.0) / 2.0
    arg = cast(range_(-half, half + 0.1, dtype=dtypes.float32), dtype)
    beta = cast(beta, dtype)
    half = cast(half, dtype)
    num = beta * sqrt(relu(cast(1.0, dtype) - square(arg / half)))
    # I0(num) / I0(beta) from the scaled Bessel functions, which do not overflow.
    return exp(num - beta) * (bessel_i0e(num) / bessel_i0e(beta))


def kaiser_bessel_derived_window(window_length, beta=12.0, dtype=dtypes.float32, name=None):
    """The Kaiser-Bessel-derived window (for the MDCT): square roots of the running sums of a
    Kaiser window of half the length, mirrored."""
    validation.op_name(name)
    length, dtype = _window_length(window_length, dtype, 'kaiser_bessel_derived_window')
    kaiser = kaiser_window(length // 2 + 1, beta, dtype=dtype)
    sums = cumsum(kaiser)
    half = sqrt(sums[:-1] / sums[-1])
    return concat([half, reverse(half, [0])], axis=0)


def vorbis_window(window_length, dtype=dtypes.float32, name=None):
    """The Vorbis power-complementary window: sin(pi/2 sin^2(pi (k + 1/2) / n))."""
    validation.op_name(name)
    length, dtype = _window_length(window_length, dtype, 'vorbis_window')
    arg = cast(range_(length), dtype)
    inner = sin(np.pi / cast(length, dtype) * (arg + 0.5))
    return sin(np.pi / 2.0 * pow(inner, 2.0))
