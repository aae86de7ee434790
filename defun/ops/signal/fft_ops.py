"""The complex Fourier transforms of tf.signal: fft / ifft, fft2d / ifft2d, fft3d / ifft3d (TF's
FFT, IFFT, FFT2D, IFFT2D, FFT3D, IFFT3D ops), each over the innermost 1, 2 or 3 dimensions of a
complex64 or complex128 tensor, unnormalized forward and 1/n backward as numpy's; and fftshift /
ifftshift, rolls that move the zero frequency to the middle and back.

The transforms are computed in double precision and rounded to the input's dtype, so complex64
results are the correctly rounded values (TF's float32 FFT differs from them by its own rounding).
The gradients are TF's: the adjoint of the forward transform is n times the inverse one.
"""
import numpy as np

from defun.core import dtypes
from defun.core.dispatch import apply_op
from defun.core.registry import define_op
from defun.ops.array.gathering import gather
from defun.ops.array.joining import size
from defun.ops.array.repeat_unique import roll
from defun.ops.framework.base_ops import cast, shape
from defun.ops.math.logic import less, where
from defun.ops.math.reductions import reduce_prod
from defun.ops.support import validation
from defun.ops.support.helpers import dims, to_tensor

__all__ = ['fft', 'ifft', 'fft2d', 'ifft2d', 'fft3d', 'ifft3d', 'fftshift', 'ifftshift',
           'check_fft_rank', 'fft_size', 'transform']

_WIDE = {np.dtype(np.complex64): np.complex128, np.dtype(np.float32): np.float64}


def check_fft_rank(shape_, rank, op):
    """TF's refusal of an input with fewer dimensions than the transform (kernel and shape
    function alike): InvalidArgumentError eagerly, ValueError while a graph is built."""
    if shape_ is not None and len(shape_) < rank:
        raise validation.invalid_argument(
            f'{op}: Input must have rank of at least {rank} but got: '
            f'[{",".join(str(d) for d in shape_)}]')


def transform(fn, x, rank, out_dtype, **sizes):
    """`fn` (a numpy fft function) over the innermost `rank` axes of `x`, in double precision,
    rounded to `out_dtype`; an empty input gives an empty output (numpy refuses length 0)."""
    axes = tuple(range(-rank, 0))
    wide = x.astype(_WIDE.get(x.dtype, x.dtype), copy=False)
    return fn(wide, axes=axes, **sizes).astype(out_dtype, copy=False)


def _complex_kernel(fn, rank, op):
    def kernel(x):
        check_fft_rank(x.shape, rank, op)
        if x.size == 0:
            return np.zeros(x.shape, x.dtype)
        return transform(fn, x, rank, x.dtype)
    return kernel


def _complex_infer(rank, op):
    def infer(x):
        check_fft_rank(dims(x), rank, op)
        return x.dtype, dims(x)
    return infer


def fft_size(t, rank, dtype):
    """The number of elements of the innermost `rank` dimensions of `t`, as a tensor of `dtype`."""
    return cast(reduce_prod(shape(t)[-rank:]), dtype)


def _forward_grad(rank):
    # y = F x: the adjoint F^H g is n times the inverse transform of g.
    def grad(op, g):
        return _INVERSE[rank](g) * fft_size(g, rank, g.dtype)
    return grad


def _inverse_grad(rank):
    # x = F^H y / n: the adjoint is the forward transform of g over n.
    def grad(op, g):
        return _FORWARD[rank](g) * cast(1.0 / fft_size(g, rank, g.dtype.real_dtype), g.dtype)
    return grad


def _define(op_type, fn, rank, grad):
    return define_op(op_type, _complex_kernel(fn, rank, op_type), _complex_infer(rank, op_type),
                     grad(rank))


FFT = _define('FFT', np.fft.fftn, 1, _forward_grad)
IFFT = _define('IFFT', np.fft.ifftn, 1, _inverse_grad)
FFT2D = _define('FFT2D', np.fft.fftn, 2, _forward_grad)
IFFT2D = _define('IFFT2D', np.fft.ifftn, 2, _inverse_grad)
FFT3D = _define('FFT3D', np.fft.fftn, 3, _forward_grad)
IFFT3D = _define('IFFT3D', np.fft.ifftn, 3, _inverse_grad)


def _input(input, name, what):
    validation.op_name(name)
    # TF's generated wrapper converts a Python or numpy value to the op's default, complex64.
    return (to_tensor(input, name='input', op=what, hint=dtypes.complex64),)


def fft(input, name=None):
    """The discrete Fourier transform over the innermost dimension of a complex tensor."""
    return apply_op(FFT, _input(input, name, 'fft'), None, name)


def ifft(input, name=None):
    """The inverse discrete Fourier transform over the innermost dimension (scaled by 1/n)."""
    return apply_op(IFFT, _input(input, name, 'ifft'), None, name)


def fft2d(input, name=None):
    """The 2-D discrete Fourier transform over the innermost two dimensions."""
    return apply_op(FFT2D, _input(input, name, 'fft2d'), None, name)


def ifft2d(input, name=None):
    """The inverse 2-D discrete Fourier transform over the innermost two dimensions."""
    return apply_op(IFFT2D, _input(input, name, 'ifft2d'), None, name)


def fft3d(input, name=None):
    """The 3-D discrete Fourier transform over the innermost three dimensions."""
    return apply_op(FFT3D, _input(input, name, 'fft3d'), None, name)


def ifft3d(input, name=None):
    """The inverse 3-D discrete Fourier transform over the innermost three dimensions."""
    return apply_op(IFFT3D, _input(input, name, 'ifft3d'), None, name)


# The gradients' transforms, by rank (the forward's gradient is the inverse and back).
_FORWARD = {1: fft, 2: fft2d, 3: fft3d}
_INVERSE = {1: ifft, 2: ifft2d, 3: ifft3d}


def _half_shifts(x, axes):
    """The axes to roll and half their lengths, as TF's fftshift reads `axes` (None: all; an
    int; or a list, negative entries counted from the end)."""
    if axes is None:
        rank = x.shape.rank
        if rank is None:
            raise ValueError('fftshift: the input needs a known rank when axes is None')
        return tuple(range(rank)), shape(x) // 2
    if isinstance(axes, int):
        return axes, shape(x)[axes] // 2
    axes = to_tensor(axes, dtype=dtypes.int32, name='axes', op='fftshift')
    axes = where(less(axes, 0), axes + size(shape(x)), axes)
    return axes, gather(shape(x), axes) // 2


def fftshift(x, axes=None, name=None):
    """The zero-frequency term moved to the middle of `axes` (default all): each rolled by
    half its length, as numpy.fft.fftshift."""
    validation.op_name(name)
    x = to_tensor(x, name='x', op='fftshift')
    axes, shifts = _half_shifts(x, axes)
    return roll(x, shifts, axes, name)


def ifftshift(x, axes=None, name=None):
    """The inverse of fftshift (the same for even lengths, one sample apart for odd ones)."""
    validation.op_name(name)
    x = to_tensor(x, name='x', op='ifftshift')
    axes, shifts = _half_shifts(x, axes)
    return roll(x, -shifts, axes, name)
