"""tf.norm / tf.linalg.norm: vector p-norms, and the matrix norms 'fro', 1, inf and 2 (the largest
singular value, through svd), as TF computes them. Apart from linalg.py so that it can use the
decompositions built on it.
"""
import numpy as np

from defun.ops.math.arithmetic import conj
from defun.ops.math.elementary import abs, pow, sqrt
from defun.ops.linalg.decompositions import svd
from defun.ops.support.helpers import to_tensor
from defun.ops.math.reductions import reduce_max, reduce_sum
from defun.ops.array.transform import expand_dims, transpose
from defun.ops.support import validation

__all__ = ['norm']


def _norm_axes(axis, ord):
    if isinstance(axis, (list, tuple)) and len(axis) == 2:
        if not all(isinstance(a, (int, np.integer)) for a in axis) or axis[0] == axis[1]:
            raise ValueError(f"'axis' must be None, an integer, or a tuple of 2 unique integers, "
                             f"got {axis}")
        supported = ['euclidean', 'fro', 1, 2, np.inf]
        if ord not in supported:
            raise ValueError(f"'ord' must be a supported matrix norm in {supported}, got {ord}")
        return tuple(int(a) for a in axis), True
    given = axis
    if isinstance(axis, (list, tuple)) and len(axis) == 1:
        axis = axis[0]
    if not (given is None or isinstance(axis, (int, np.integer))):
        raise ValueError(f"'axis' must be None, an integer, or a tuple of 2 unique integers, got "
                         f"{axis}")
    if isinstance(ord, str):
        if ord not in ('euclidean', 'fro') or (ord == 'fro' and axis is not None):
            raise ValueError(f"'ord' must be a supported vector norm, got {ord}")
    elif not ord > 0:
        raise ValueError(f"'ord' must be a supported vector norm, got {ord}")
    return (None if axis is None else int(axis)), False


def norm(tensor, ord='euclidean', axis=None, keepdims=None, name=None):
    """Vector norms (axis None or an int: p-norms, p > 0 or inf) and matrix norms (axis a pair:
    'fro'/'euclidean', 1, inf), as TF computes them."""
    validation.op_name(name)
    axes, is_matrix = _norm_axes(axis, ord)
    x = to_tensor(tensor, name='tensor', op='norm')
    keepdims = bool(keepdims)
    if is_matrix and not isinstance(ord, str) and ord == 2:
        return _spectral_norm(x, axes, keepdims)
    if ord in ('fro', 'euclidean') or (not isinstance(ord, str) and ord == 2):
        return sqrt(reduce_sum(x * conj(x), axes, keepdims=keepdims))
    magnitude = abs(x)
    if ord == 1:
        if is_matrix:   # the largest column sum
            return reduce_max(reduce_sum(magnitude, axes[0], keepdims=True), axes, keepdims)
        return reduce_sum(magnitude, axes, keepdims=keepdims)
    if ord == np.inf:
        if is_matrix:   # the largest row sum
            return reduce_max(reduce_sum(magnitude, axes[1], keepdims=True), axes, keepdims)
        return reduce_max(magnitude, axes, keepdims=keepdims)
    return pow(reduce_sum(pow(magnitude, ord), axes, keepdims=keepdims), 1.0 / ord)


def _spectral_norm(x, axes, keepdims):
    """The largest singular value of the matrices in `axes` (moved last, as TF does)."""
    rank = x.shape.rank
    if rank is None:
        raise ValueError('norm: the matrix 2-norm needs the rank of the input known')
    rows, cols = (a % rank for a in axes)
    rest = [i for i in range(rank) if i not in (rows, cols)]
    s = svd(transpose(x, rest + [rows, cols]), compute_uv=False)
    result = reduce_max(s, axis=-1)
    if keepdims:
        for a in sorted((rows, cols)):
            result = expand_dims(result, a)
    return result
