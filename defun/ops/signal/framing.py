"""`tf.signal.frame`: overlapping windows of a signal along one axis, as a gather (so its
gradient is gather's): frame i holds samples [i * frame_step, i * frame_step + frame_length).
Without `pad_end`, only frames that fit are made; with it, the end is padded with `pad_value` so
that every sample is in a frame: ceil(n / frame_step) frames in all, as TF.
"""
from defun.core import dtypes
from defun.ops.array.creation import range as range_
from defun.ops.array.gathering import gather
from defun.ops.array.creation import zeros
from defun.ops.array.joining import concat, one_hot
from defun.ops.array.transform import pad
from defun.ops.framework.base_ops import cast, reshape, shape
from defun.ops.math.arithmetic import maximum
from defun.ops.support import validation
from defun.ops.support.helpers import to_tensor

__all__ = ['frame']


def _scalar_int(value, name):
    t = to_tensor(value, name=name, op='frame')
    if not t.dtype.is_integer:
        raise TypeError(f'frame: `{name}` must be an integer, got {t.dtype.name}')
    if t.shape.rank not in (None, 0):
        raise ValueError(f'frame: `{name}` must be a scalar, got shape {t.shape}')
    return cast(t, dtypes.int32)


def frame(signal, frame_length, frame_step, pad_end=False, pad_value=0, axis=-1, name=None):
    """Frames of `frame_length` samples every `frame_step` samples along `axis`: the axis is
    replaced by [frames, frame_length]."""
    validation.op_name(name)
    x = to_tensor(signal, name='signal', op='frame')
    rank = x.shape.rank
    if rank is None or rank < 1:
        raise ValueError(f'frame: `signal` must have rank at least 1, got {x.shape}')
    ax = validation.axis(axis, rank, 'frame')
    length, step = _scalar_int(frame_length, 'frame_length'), _scalar_int(frame_step, 'frame_step')
    n = shape(x, out_type=dtypes.int32)[ax]
    if pad_end:
        frames = -((-n) // step)
        extra = maximum((frames - 1) * step + length - n, 0)
        after = reshape(one_hot(ax, rank, dtype=dtypes.int32) * extra, [rank, 1])
        paddings = concat([zeros([rank, 1], dtypes.int32), after], 1)   # pad the end of `ax`
        x = pad(x, paddings, constant_values=to_tensor(pad_value, dtype=x.dtype, op='frame'))
    else:
        frames = maximum(1 + (n - length) // step, 0)
    starts = range_(frames) * step
    indices = reshape(starts, [-1, 1]) + reshape(range_(length), [1, -1])
    return gather(x, indices, axis=ax)
