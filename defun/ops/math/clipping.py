"""Norm-based clipping and norms: clip_by_norm, clip_by_global_norm, global_norm and
reduce_euclidean_norm; plus sequence_mask and meshgrid, which build index grids.

The clipping functions are compositions, as in TF: clip_by_norm guards the zero norm with `where`
so that its gradient stays finite there, and clip_by_global_norm scales by
clip_norm * min(1 / norm, 1 / clip_norm), which becomes NaN (as in TF) when the global norm is
infinite. reduce_euclidean_norm is TF's EuclideanNorm op, which also takes integers.
"""
import numpy as np

from defun.core import dtypes, error_helpers
from defun.core.dispatch import apply_op
from defun.ops.math.arithmetic import conj, maximum, minimum
from defun.ops.array.joining import stack
from defun.ops.support.helpers import dims, reduce_dims, to_tensor
from defun.ops.framework.base_ops import broadcast_to, cast, ones_like, reduced_shape, reshape, shape
from defun.ops.array.creation import range as range_
from defun.ops.math.elementary import sqrt
from defun.ops.math.logic import less, where
from defun.ops.nn.activations import l2_loss
from defun.ops.math.reductions import reduce_max, reduce_sum, reduction_axes
from defun.ops.array.transform import expand_dims
from defun.ops.support import validation
from defun.core.registry import define_op
from defun.core.tensor import Tensor

__all__ = ['clip_by_norm', 'clip_by_global_norm', 'global_norm', 'reduce_euclidean_norm',
           'sequence_mask', 'meshgrid']


# ---------------------------------------------------------------- reduce_euclidean_norm

def _euclidean_kernel(x, axis, keepdims):
    if x.dtype.kind == 'c':
        squares = np.real(x * np.conj(x))
    elif x.dtype.kind in 'iu':   # TF sums integer squares and truncates the root
        squares = x.astype(np.float64) ** 2
    else:
        squares = x * x
    result = np.sqrt(np.sum(squares, axis=axis, keepdims=keepdims))
    return np.asarray(result).astype(x.dtype)


def _euclidean_infer(x, axis, keepdims):
    return x.dtype, reduce_dims(dims(x), axis, keepdims, 'reduce_euclidean_norm')


def _euclidean_grad(op, g):
    # d|x| / dx = x / |x|: TF's rule (NaN where the norm is zero).
    x, out = op.inputs[0], op.outputs[0]
    if not op.get_attr('keepdims'):
        kept = reduced_shape(x, op.get_attr('axis'))
        out, g = reshape(out, kept), reshape(g, kept)
    return x * (g / conj(out))


EUCLIDEAN_NORM = define_op('EuclideanNorm', _euclidean_kernel, _euclidean_infer, _euclidean_grad)


def reduce_euclidean_norm(input_tensor, axis=None, keepdims=False, name=None):
    """sqrt(sum(|x|**2)) over `axis` (None: all), in x's dtype (integers truncate)."""
    x = to_tensor(input_tensor, name='input_tensor', op='reduce_euclidean_norm')
    attrs = {'axis': reduction_axes(x, axis, 'reduce_euclidean_norm'), 'keepdims': bool(keepdims)}
    return apply_op(EUCLIDEAN_NORM, (x,), attrs, name)


# ---------------------------------------------------------------- clipping

def clip_by_norm(t, clip_norm, axes=None, name=None):
    """t scaled so that its L2 norm over `axes` is at most clip_norm."""
    validation.op_name(name)
    values = to_tensor(t, name='t', op='clip_by_norm')
    limit = to_tensor(clip_norm, dtype=values.dtype, name='clip_norm', op='clip_by_norm')
    squared = reduce_sum(values * conj(values), axes, keepdims=True)
    positive = squared > 0
    safe = where(positive, squared, ones_like(squared))
    norm = where(positive, sqrt(safe), squared)
    clipped = values * limit / maximum(norm, limit)
    if not values.shape.is_compatible_with(clipped.shape):
        raise validation.invalid_argument(
            f'clip_by_norm: clip_norm of shape {limit.shape} would broadcast t from shape '
            f'{values.shape} to {clipped.shape}')
    return clipped


def _tensor_list(t_list, op):
    if isinstance(t_list, (str, bytes, Tensor)) or not hasattr(t_list, '__iter__'):
        raise TypeError(f'`t_list` should be a sequence of tensors. Received {type(t_list)}.')
    return [None if t is None else to_tensor(t, name='t_list', op=op) for t in t_list]


def global_norm(t_list, name=None):
    """sqrt(sum of squares of every element of every tensor in t_list); None entries are skipped."""
    validation.op_name(name)
    tensors = [t for t in _tensor_list(t_list, 'global_norm') if t is not None]
    if not tensors:
        return to_tensor(0.0, dtype=dtypes.float32)
    half_squares = [l2_loss(t) for t in tensors]
    dtype = half_squares[0].dtype
    total = reduce_sum(stack([cast(h, dtype) for h in half_squares]))
    return sqrt(total * 2)


def clip_by_global_norm(t_list, clip_norm, use_norm=None, name=None):
    """(the tensors scaled by clip_norm / max(global_norm, clip_norm), the global norm); None
    entries stay None. Returns NaNs if the global norm is infinite or NaN, as TF."""
    tensors = _tensor_list(t_list, 'clip_by_global_norm')
    if use_norm is None:
        norm = global_norm(tensors)
    else:
        norm = to_tensor(use_norm, op='clip_by_global_norm')
    limit = to_tensor(clip_norm, dtype=norm.dtype, name='clip_norm', op='clip_by_global_norm')
    # use_norm - use_norm turns an infinite norm into NaN, poisoning the scale as TF intends.
    scale = limit * minimum(1.0 / norm, 1.0 / limit) + (norm - norm)
    clipped = [None if t is None else t * cast(scale, t.dtype) for t in tensors]
    return clipped, norm


# ---------------------------------------------------------------- index grids

def sequence_mask(lengths, maxlen=None, dtype=dtypes.bool, name=None):
    """mask[..., j] = j < lengths[...]; maxlen defaults to max(lengths)."""
    validation.op_name(name)
    lengths = to_tensor(lengths, name='lengths', op='sequence_mask')
    if maxlen is None:
        maxlen = reduce_max(lengths)
    else:
        maxlen = to_tensor(maxlen, name='maxlen', op='sequence_mask')
        if maxlen.shape.rank not in (None, 0):
            raise ValueError(f'sequence_mask: maxlen must be scalar, got {error_helpers.describe(maxlen)}')
    # As TF: positions count in maxlen's dtype, and lengths are cast to it.
    positions = range_(to_tensor(0, dtype=maxlen.dtype), maxlen, to_tensor(1, dtype=maxlen.dtype))
    mask = less(positions, cast(expand_dims(lengths, -1), maxlen.dtype))
    dtype = dtypes.as_dtype(dtype)
    return mask if dtype is dtypes.bool else cast(mask, dtype)


def meshgrid(*args, **kwargs):
    """N-D coordinate grids from N 1-D tensors; indexing 'xy' (the default: the first two output
    dimensions swapped, as for Cartesian x, y) or 'ij' (matrix indexing)."""
    indexing = kwargs.pop('indexing', 'xy')
    kwargs.pop('name', None)
    if kwargs:
        raise TypeError(f"meshgrid: unexpected keyword arguments {sorted(kwargs)}; only 'indexing' "
                        f"and 'name' are accepted")
    if indexing not in ('xy', 'ij'):
        raise ValueError(f"Argument `indexing` parameter must be either 'xy' or 'ij', got "
                         f'{indexing!r}')
    tensors = [reshape(to_tensor(a, name=f'args[{i}]', op='meshgrid'), [-1])
               for i, a in enumerate(args)]
    n = len(tensors)
    if n == 0:
        return []
    axes = list(range(n))
    if indexing == 'xy' and n > 1:
        axes[0], axes[1] = 1, 0
    sizes = [dims(t)[0] for t in tensors]
    full = sizes if None not in sizes else [shape(t)[0] for t in tensors]
    full = [full[axes.index(i)] for i in range(n)]
    target = full if None not in sizes else stack(full)
    grids = []
    for t, axis in zip(tensors, axes):
        along = [1] * n
        along[axis] = -1
        grids.append(broadcast_to(reshape(t, along), target))
    return grids
