"""The public real transforms of tf.signal: rfft, irfft, rfft2d, irfft2d, rfft3d, irfft3d, as TF's
wrappers: the input converted (float32 preferred for rfft, complex64 for irfft) and checked,
fft_length inferred from the input's shape when not given (2 * (m - 1) innermost for irfft), and
an input shorter than fft_length padded with zeros (the ops themselves crop a longer one).
"""
from defun.core import dtypes
from defun.core.dispatch import apply_op
from defun.ops.array.joining import concat, stack
from defun.ops.array.transform import pad
from defun.ops.framework.base_ops import shape, zeros_like
from defun.ops.math.arithmetic import maximum
from defun.ops.signal.real_fft import COMPLEX_OF, IRFFT, IRFFT2D, IRFFT3D, RFFT, RFFT2D, RFFT3D
from defun.ops.support import validation
from defun.ops.support.helpers import dims, static_value, to_tensor

__all__ = ['rfft', 'irfft', 'rfft2d', 'irfft2d', 'rfft3d', 'irfft3d']


def _check_rank(x, rank):
    d = dims(x)
    if d is not None and len(d) < rank:
        raise ValueError(f'Shape {x.shape} must have rank at least {rank}')


def _given_length(fft_length, op):
    return to_tensor(fft_length, dtype=dtypes.int32, name='fft_length', op=op)


def _inferred_length(x, rank, inverse):
    """fft_length from the input's innermost dims: static when known, else from tf.shape."""
    d = dims(x)[-rank:]
    if None not in d:
        n = list(d)
        if inverse:
            n[-1] = max(0, 2 * (n[-1] - 1))
        return to_tensor(n, dtype=dtypes.int32)
    inner = shape(x)[-rank:]
    if not inverse:
        return inner
    return concat([inner[:-1], maximum(0, 2 * (inner[-1:] - 1))], 0)


def _padded(x, rank, fft_length, inverse):
    """`x` padded with zeros at the end of its innermost dims up to what the op reads."""
    d = dims(x)
    if d is not None and 0 in d:
        return x
    n = static_value(fft_length)
    if n is not None and d is not None and None not in d[-rank:]:
        want = [int(k) for k in n]
        if inverse and want:
            want[-1] = want[-1] // 2 + 1
        amounts = [max(k - have, 0) for k, have in zip(want, d[-rank:])]
        if not any(amounts):
            return x
        return pad(x, [[0, 0]] * (len(d) - rank) + [[0, a] for a in amounts])
    want = fft_length
    if inverse:
        want = concat([fft_length[:-1], fft_length[-1:] // 2 + 1], 0)
    inner = maximum(0, want - shape(x)[-rank:])
    amounts = concat([zeros_like(shape(x)[:-rank]), inner], 0)
    return pad(x, stack([zeros_like(amounts), amounts], axis=1))


def _rfft_args(rank, input_tensor, fft_length, name, op):
    validation.op_name(name)
    x = to_tensor(input_tensor, name='input_tensor', op=op, hint=dtypes.float32)
    if x.dtype not in COMPLEX_OF:
        raise ValueError(f'RFFT requires tf.float32 or tf.float64 inputs, got: {x}')
    _check_rank(x, rank)
    n = _inferred_length(x, rank, False) if fft_length is None else _given_length(fft_length, op)
    return (_padded(x, rank, n, inverse=False), n), {'Tcomplex': COMPLEX_OF[x.dtype]}


def _irfft_args(rank, input_tensor, fft_length, name, op):
    validation.op_name(name)
    x = to_tensor(input_tensor, name='input_tensor', op=op, hint=dtypes.complex64)
    _check_rank(x, rank)
    if x.dtype not in (dtypes.complex64, dtypes.complex128):
        raise ValueError(f'IRFFT requires tf.complex64 or tf.complex128 inputs, got: {x}')
    n = _inferred_length(x, rank, True) if fft_length is None else _given_length(fft_length, op)
    return (_padded(x, rank, n, inverse=True), n), {'Treal': x.dtype.real_dtype}


def rfft(input_tensor, fft_length=None, name=None):
    """The non-negative frequencies of the Fourier transform of a real signal (innermost dim)."""
    return apply_op(RFFT, *_rfft_args(1, input_tensor, fft_length, name, 'rfft'),
                    name)


def irfft(input_tensor, fft_length=None, name=None):
    """The real signal whose rfft is `input_tensor` (innermost dim)."""
    return apply_op(IRFFT, *_irfft_args(1, input_tensor, fft_length, name, 'irfft'),
                    name)


def rfft2d(input_tensor, fft_length=None, name=None):
    """The 2-D rfft: the innermost two dims, non-negative frequencies of the innermost."""
    return apply_op(RFFT2D, *_rfft_args(2, input_tensor, fft_length, name, 'rfft2d'),
                    name)


def irfft2d(input_tensor, fft_length=None, name=None):
    """The inverse of rfft2d."""
    return apply_op(IRFFT2D, *_irfft_args(2, input_tensor, fft_length, name, 'irfft2d'),
                    name)


def rfft3d(input_tensor, fft_length=None, name=None):
    """The 3-D rfft: the innermost three dims, non-negative frequencies of the innermost."""
    return apply_op(RFFT3D, *_rfft_args(3, input_tensor, fft_length, name, 'rfft3d'),
                    name)


def irfft3d(input_tensor, fft_length=None, name=None):
    """The inverse of rfft3d."""
    return apply_op(IRFFT3D, *_irfft_args(3, input_tensor, fft_length, name, 'irfft3d'),
                    name)
