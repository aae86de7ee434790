"""Short-time Fourier transforms of tf.signal: stft, inverse_stft, inverse_stft_window_fn and
overlap_and_add, composed as TF composes them: frames of the signal, windowed, each through
rfft; back, each frame through irfft, windowed and overlapped-added. fft_length defaults to the
smallest power of two at least frame_length.
"""
import numpy as np

from defun.core import dtypes
from defun.ops.array.creation import range as range_, zeros
from defun.ops.array.joining import concat, size
from defun.ops.array.transform import pad, tile, transpose
from defun.ops.framework.base_ops import cast, reshape, shape, zeros_like
from defun.ops.math.arithmetic import maximum, square
from defun.ops.math.elementary import ceil, log, pow
from defun.ops.math.logic import equal, where
from defun.ops.math.reductions import reduce_sum
from defun.ops.signal.framing import frame
from defun.ops.signal.real_transforms import irfft, rfft
from defun.ops.signal.windows import hann_window
from defun.ops.support import validation
from defun.ops.support.helpers import dims, static_value, to_tensor

__all__ = ['stft', 'inverse_stft', 'inverse_stft_window_fn', 'overlap_and_add']


def _at_least(t, rank):
    if t.shape.rank is not None and t.shape.rank < rank:
        raise ValueError(f'Shape {t.shape} must have rank at least {rank}')
    return t


def _scalar(value, name, op):
    t = to_tensor(value, name=name, op=op)
    if t.shape.rank not in (None, 0):
        raise ValueError(f'Shape {t.shape} must have rank 0')
    return t


def _enclosing_power_of_two(value):
    known = static_value(value)
    if known is not None:
        return to_tensor(int(2 ** np.ceil(np.log(known) / np.log(2.0))), dtype=value.dtype)
    exponent = ceil(log(cast(value, dtypes.float32)) / np.log(2.0))
    return cast(pow(2.0, exponent), value.dtype)


def stft(signals, frame_length, frame_step, fft_length=None, window_fn=hann_window,
         pad_end=False, name=None):
    """The short-time Fourier transform: [..., frames, fft_length // 2 + 1] complex spectra of
    windowed frames of `signals` (float32 gives complex64, float64 complex128)."""
    validation.op_name(name)
    signals = _at_least(to_tensor(signals, name='signals', op='stft'), 1)
    frame_length = _scalar(frame_length, 'frame_length', 'stft')
    frame_step = _scalar(frame_step, 'frame_step', 'stft')
    if fft_length is None:
        fft_length = _enclosing_power_of_two(frame_length)
    else:
        fft_length = to_tensor(fft_length, name='fft_length', op='stft')
    framed = frame(signals, frame_length, frame_step, pad_end=pad_end)
    if window_fn is not None:
        framed = framed * window_fn(frame_length, dtype=framed.dtype)
    return rfft(framed, [fft_length])


def inverse_stft_window_fn(frame_step, forward_window_fn=hann_window, name=None):
    """The window function for inverse_stft that undoes `forward_window_fn` at `frame_step`:
    the forward window divided by the overlapped sum of its squares."""
    validation.op_name(name)

    def inverse_window(frame_length, dtype):
        step = _scalar(frame_step, 'frame_step', 'inverse_stft_window_fn')
        length = _scalar(frame_length, 'frame_length', 'inverse_stft_window_fn')
        forward = forward_window_fn(length, dtype=dtype)
        overlaps = -(-length // step)
        denom = pad(square(forward), [(0, overlaps * step - length)])
        denom = reduce_sum(reshape(denom, [overlaps, step]), 0, keepdims=True)
        denom = reshape(tile(denom, [overlaps, 1]), [overlaps * step])[:length]
        return where(equal(denom, 0.0), zeros_like(forward), forward / denom)
    return inverse_window


def _frames_of_length(frames, frame_length):
    """The irfft frames cut or zero-padded to frame_length samples."""
    n = static_value(frame_length)
    d = dims(frames)
    if n is None or d is None or d[-1] is None:
        frames = frames[..., :frame_length]
        inner = maximum(0, frame_length - shape(frames)[-1])
        paddings = concat([zeros([size(shape(frames)) - 1, 2], dtype=frame_length.dtype),
                           [[0, inner]]], 0)
        frames = pad(frames, paddings)
    elif d[-1] > n:
        frames = frames[..., :int(n)]
    elif d[-1] < n:
        frames = pad(frames, [[0, 0]] * (len(d) - 1) + [[0, int(n) - d[-1]]])
    if n is not None and frames.shape.rank is not None:
        frames.set_shape([None] * (frames.shape.rank - 1) + [int(n)])
    return frames


def inverse_stft(stfts, frame_length, frame_step, fft_length=None, window_fn=hann_window,
                 name=None):
    """The signal whose stft is `stfts` (with `window_fn` an inverse_stft_window_fn of the
    forward window): each frame's irfft, windowed, overlapped and added."""
    validation.op_name(name)
    stfts = _at_least(to_tensor(stfts, name='stfts', op='inverse_stft'), 2)
    frame_length = _scalar(frame_length, 'frame_length', 'inverse_stft')
    frame_step = _scalar(frame_step, 'frame_step', 'inverse_stft')
    if fft_length is None:
        fft_length = _enclosing_power_of_two(frame_length)
    else:
        fft_length = _scalar(fft_length, 'fft_length', 'inverse_stft')
    frames = _frames_of_length(irfft(stfts, [fft_length]), frame_length)
    if window_fn is not None:
        frames = frames * window_fn(frame_length, dtype=stfts.dtype.real_dtype)
    return overlap_and_add(frames, frame_step)


def overlap_and_add(signal, frame_step, name=None):
    """[..., frames, frame_length] frames added at offsets of `frame_step` samples into a
    [..., (frames - 1) * frame_step + frame_length] signal."""
    validation.op_name(name)
    signal = _at_least(to_tensor(signal, name='signal', op='overlap_and_add'), 2)
    step = _scalar(frame_step, 'frame_step', 'overlap_and_add')
    if not step.dtype.is_integer:
        raise ValueError(f'frame_step must be an integer. Got {step.dtype}')
    known_step = static_value(step)
    step = int(known_step) if known_step is not None else step
    outer = shape(signal)[:-2]
    frames, length = shape(signal)[-2], shape(signal)[-1]
    output_length = length + step * (frames - 1)
    if known_step is not None and dims(signal) is not None and dims(signal)[-1] == step:
        return reshape(signal, concat([outer, [output_length]], 0))   # frames side by side
    # Each frame cut into `segments` pieces of `step` samples; piece j of frame i lands at
    # output block i + j: a skewed reshape lines the blocks up so one sum adds them.
    segments = -(-length // step)
    outer_rank = size(outer)
    paddings = concat([zeros([outer_rank, 2], dtypes.int32),
                       [[0, segments], [0, segments * step - length]]], 0)
    signal = reshape(pad(signal, paddings), concat([outer, [frames + segments, segments, step]], 0))
    perm = concat([range_(outer_rank), outer_rank + [1, 0, 2]], 0)
    signal = reshape(transpose(signal, perm), concat([outer, [(frames + segments) * segments,
                                                              step]], 0))
    signal = signal[..., :(frames + segments - 1) * segments, :]
    signal = reshape(signal, concat([outer, [segments, frames + segments - 1, step]], 0))
    signal = reduce_sum(signal, -3)
    signal = reshape(signal, concat([outer, [(frames + segments - 1) * step]], 0))
    return signal[..., :output_length]
