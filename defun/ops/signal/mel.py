"""The mel-scale helpers of tf.signal: linear_to_mel_weight_matrix (triangular filters mapping a
linear spectrogram's bins to mel bands, HTK's mel scale) and mfccs_from_log_mel_spectrograms (the
orthonormal DCT-II of log-mel spectrograms), composed as TF composes them.
"""
from defun.core import dtypes
from defun.core.tensor import Tensor
from defun.ops.array.creation import linspace
from defun.ops.array.joining import split
from defun.ops.array.transform import expand_dims, pad
from defun.ops.framework.base_ops import cast, reshape, shape
from defun.ops.math.arithmetic import maximum, minimum
from defun.ops.math.elementary import log, rsqrt
from defun.ops.signal.cosine_transforms import dct
from defun.ops.signal.framing import frame
from defun.ops.support import validation
from defun.ops.support.helpers import dims, static_value, to_tensor

__all__ = ['linear_to_mel_weight_matrix', 'mfccs_from_log_mel_spectrograms']

_BREAK_HERTZ = 700.0   # HTK's mel scale: mel = 1127 ln(1 + f / 700)
_HIGH_FREQUENCY_Q = 1127.0


def _hertz_to_mel(hertz):
    return _HIGH_FREQUENCY_Q * log(1.0 + hertz / _BREAK_HERTZ)


def _check(num_mel_bins, sample_rate, lower_edge_hertz, upper_edge_hertz, dtype):
    """TF's checks (ValueError each), of the sample rate only when it is known."""
    if num_mel_bins <= 0:
        raise ValueError(f'num_mel_bins must be positive. Got: {num_mel_bins}')
    if lower_edge_hertz < 0.0:
        raise ValueError(f'lower_edge_hertz must be non-negative. Got: {lower_edge_hertz}')
    if lower_edge_hertz >= upper_edge_hertz:
        raise ValueError(f'lower_edge_hertz {lower_edge_hertz:.1f} >= upper_edge_hertz '
                         f'{upper_edge_hertz:.1f}')
    if not isinstance(sample_rate, Tensor):
        if sample_rate <= 0.0:
            raise ValueError(f'sample_rate must be positive. Got: {sample_rate}')
        if upper_edge_hertz > sample_rate / 2:
            raise ValueError(f'upper_edge_hertz must not be larger than the Nyquist frequency '
                             f'(sample_rate / 2). Got {upper_edge_hertz} for sample_rate: '
                             f'{sample_rate}')
    if not dtype.is_floating:
        raise ValueError(f'dtype must be a floating point type. Got: {dtype}')


def linear_to_mel_weight_matrix(num_mel_bins=20, num_spectrogram_bins=129, sample_rate=8000,
                                lower_edge_hertz=125.0, upper_edge_hertz=3800.0,
                                dtype=dtypes.float32, name=None):
    """A [num_spectrogram_bins, num_mel_bins] matrix of triangular mel filters: a linear
    spectrogram (magnitudes of rfft bins up to sample_rate / 2) times it is a mel spectrogram.
    The DC bin gets no weight."""
    validation.op_name(name)
    dtype = dtypes.as_dtype(dtype)
    if isinstance(sample_rate, Tensor) and static_value(sample_rate) is not None:
        sample_rate = static_value(sample_rate).item()
    _check(num_mel_bins, sample_rate, lower_edge_hertz, upper_edge_hertz, dtype)
    sample_rate = cast(sample_rate, dtype)
    lower = to_tensor(lower_edge_hertz, dtype=dtype, name='lower_edge_hertz', op='mel')
    upper = to_tensor(upper_edge_hertz, dtype=dtype, name='upper_edge_hertz', op='mel')
    zero = to_tensor(0.0, dtype=dtype)
    # the DC bin (index 0) is left out, and padded back with zeros at the end
    frequencies = linspace(zero, sample_rate / 2.0, num_spectrogram_bins)[1:]
    bins_mel = expand_dims(_hertz_to_mel(frequencies), 1)
    edges = frame(linspace(_hertz_to_mel(lower), _hertz_to_mel(upper), num_mel_bins + 2),
                  frame_length=3, frame_step=1)
    low, center, high = (reshape(t, [1, num_mel_bins]) for t in split(edges, 3, axis=1))
    rising = (bins_mel - low) / (center - low)
    falling = (high - bins_mel) / (high - center)
    weights = maximum(zero, minimum(rising, falling))
    return pad(weights, [[1, 0], [0, 0]])


def mfccs_from_log_mel_spectrograms(log_mel_spectrograms, name=None):
    """Mel-frequency cepstral coefficients: the DCT-II of each log-mel spectrogram (innermost
    axis), scaled to be orthonormal (as HTK's)."""
    validation.op_name(name)
    x = to_tensor(log_mel_spectrograms, name='log_mel_spectrograms', op='mfccs')
    d = dims(x)
    if d and d[-1] is not None:
        bins = d[-1]
        if bins == 0:
            raise ValueError(f'num_mel_bins must be positive. Got: {x}')
    else:
        bins = shape(x)[-1]
    coefficients = dct(x, type=2)
    return coefficients * rsqrt(cast(bins, coefficients.dtype) * 2.0)
