"""The real Fourier transforms of tf.signal: rfft / irfft, rfft2d / irfft2d, rfft3d / irfft3d
(TF's RFFT, IRFFT, RFFT2D, IRFFT2D, RFFT3D, IRFFT3D ops) with their `fft_length` input.

As TF's kernels, RFFT reads the first fft_length[i] samples of each transformed dimension (a
longer input is cropped) and keeps the fft_length[-1] // 2 + 1 non-negative frequencies of the
innermost one; IRFFT reads fft_length[i] entries (fft_length[-1] // 2 + 1 innermost) and returns
fft_length real samples. The public wrappers first pad a shorter input with zeros, as TF's do.

Gradients are the adjoints of these maps (TF's for ranks 1 and 2, written more simply, and the
same formulas for rank 3, where TF registers none): the RFFT gradient is n times the real part
of the complex inverse transform of the gradient padded with zeros to fft_length; the IRFFT
gradient is the RFFT of the gradient scaled by 1/n, the frequencies that stand for two (all but
0 and n/2) doubled. Entries the kernel cropped get zero gradient.
"""
import numpy as np

from defun.core import dtypes
from defun.core.dispatch import apply_op
from defun.core.registry import define_op
from defun.ops.array.creation import range as range_
from defun.ops.array.joining import concat, stack
from defun.ops.array.transform import pad
from defun.ops.framework.base_ops import cast, shape, zeros_like
from defun.ops.math.complex_numbers import real
from defun.ops.math.logic import equal, logical_or, where
from defun.ops.signal.fft_ops import IFFT, IFFT2D, IFFT3D, check_fft_rank, fft_size, transform
from defun.ops.support import validation
from defun.ops.support.helpers import dims, shape_arg_dims

__all__ = ['RFFT', 'IRFFT', 'RFFT2D', 'IRFFT2D', 'RFFT3D', 'IRFFT3D', 'RFFTS', 'COMPLEX_OF']

COMPLEX_OF = {dtypes.float32: dtypes.complex64, dtypes.float64: dtypes.complex128}
_INVERSE_COMPLEX = {1: IFFT, 2: IFFT2D, 3: IFFT3D}


def _lengths(fft_length, rank, op):
    n = np.asarray(fft_length)
    if n.shape != (rank,):
        raise validation.invalid_argument(f'{op}: fft_length must have shape [{rank}]')
    for i, k in enumerate(n.tolist()):
        if k < 0:
            raise validation.invalid_argument(f'{op}: fft_length[{i}] must >= 0, but got: {k}')
    return tuple(int(k) for k in n)


def _inner(n):
    """The innermost length of a real transform's spectrum: the non-negative frequencies."""
    return n // 2 + 1 if n else 0


def _read_window(x, sizes, op):
    """x cropped to `sizes` in its innermost dims, after TF's check that it is long enough."""
    lead = x.ndim - len(sizes)
    for i, k in enumerate(sizes):
        if x.shape[lead + i] < k:
            raise validation.invalid_argument(
                f'{op}: Input dimension {lead + i} must have length of at least {k} but got: '
                f'{x.shape[lead + i]}')
    return x[(Ellipsis,) + tuple(slice(0, k) for k in sizes)]


def _rfft_kernel(rank, op):
    def kernel(x, fft_length, Tcomplex=None):
        n = _lengths(fft_length, rank, op)
        check_fft_rank(x.shape, rank, op)
        out_dtype = np.complex64 if x.dtype == np.float32 else np.complex128
        x = _read_window(x, n, op)
        if x.size == 0:
            return np.zeros(x.shape[:-1] + (_inner(n[-1]),), out_dtype)
        return transform(np.fft.rfftn, x, rank, out_dtype, s=n)
    return kernel


def _irfft_kernel(rank, op):
    def kernel(x, fft_length, Treal=None):
        n = _lengths(fft_length, rank, op)
        check_fft_rank(x.shape, rank, op)
        out_dtype = np.float32 if x.dtype == np.complex64 else np.float64
        x = _read_window(x, n[:-1] + (_inner(n[-1]),), op)
        if x.size == 0 or 0 in n:
            return np.zeros(x.shape[:-rank] + n, out_dtype)
        return transform(np.fft.irfftn, x, rank, out_dtype, s=n)
    return kernel


def _spectrum_dims(x, fft_length, rank, op, inverse):
    d = dims(x)
    check_fft_rank(d, rank, op)
    n = shape_arg_dims(fft_length)
    if n is not None and len(n) != rank:
        raise validation.invalid_argument(f'{op}: fft_length must have shape [{rank}]')
    if d is None:
        return None
    n = n or (None,) * rank
    if inverse:
        return d[:-rank] + n
    return d[:-rank] + n[:-1] + (None if n[-1] is None else _inner(n[-1]),)


def _rfft_infer(rank, op):
    def infer(x, fft_length, Tcomplex=None):
        return COMPLEX_OF[x.dtype], _spectrum_dims(x, fft_length, rank, op, inverse=False)
    return infer


def _irfft_infer(rank, op):
    def infer(x, fft_length, Treal=None):
        return x.dtype.real_dtype, _spectrum_dims(x, fft_length, rank, op, inverse=True)
    return infer


def _pad_to(t, target):
    """`t` padded at the end of every dimension with zeros to the shape `target` (a tensor)."""
    amounts = target - shape(t)
    return pad(t, stack([zeros_like(amounts), amounts], axis=1))


def _rfft_grad(rank):
    def grad(op, g):
        x, fft_length = op.inputs
        full = _pad_to(g, concat([shape(g)[:-1], fft_length[-1:]], 0))
        adjoint = real(apply_op(_INVERSE_COMPLEX[rank], (full,)))
        return _pad_to(adjoint * fft_size(full, rank, adjoint.dtype), shape(x)), None
    return grad


def _irfft_grad(rank):
    def grad(op, g):
        y, fft_length = op.inputs
        spectrum = apply_op(RFFTS[rank], (g, fft_length), {'Tcomplex': y.dtype})
        k = range_(shape(spectrum)[-1])
        # The frequencies 0 and n/2 stand for one entry of the full spectrum, the others for two.
        once = logical_or(equal(k, 0), equal(2 * k, fft_length[-1]))
        real_dtype = y.dtype.real_dtype
        weights = cast(where(once, 1, 2), real_dtype) / fft_size(g, rank, real_dtype)
        scaled = spectrum * cast(weights, y.dtype)
        return _pad_to(scaled, shape(y)), None
    return grad


def _define(rank, suffix):
    forward, inverse = f'RFFT{suffix}', f'IRFFT{suffix}'
    return (define_op(forward, _rfft_kernel(rank, forward), _rfft_infer(rank, forward),
                      _rfft_grad(rank)),
            define_op(inverse, _irfft_kernel(rank, inverse), _irfft_infer(rank, inverse),
                      _irfft_grad(rank)))


RFFT, IRFFT = _define(1, '')
RFFT2D, IRFFT2D = _define(2, '2D')
RFFT3D, IRFFT3D = _define(3, '3D')
RFFTS = {1: RFFT, 2: RFFT2D, 3: RFFT3D}
