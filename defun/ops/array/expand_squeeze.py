"""expand_dims and squeeze: ops that add or remove dimensions of length 1 (one `define_op` entry
each, then its public function; the gradient reshapes back to the input's shape). transform.py
re-exports them with the other rearranging ops.
"""
import numpy as np

from defun.core import error_helpers
from defun.core.dispatch import apply_op
from defun.ops.support import helpers as op_helpers, lowerings, validation
from defun.ops.framework.base_ops import reshape, shape
from defun.ops.support.helpers import dims, to_tensor
from defun.core.registry import define_op
from defun.core.tensor import Tensor

__all__ = ['expand_dims', 'squeeze']


def _expand_dims_infer(x, axis):
    d = dims(x)
    if d is None:
        return x.dtype, None
    a = axis % (len(d) + 1)
    return x.dtype, d[:a] + (1,) + d[a:]


EXPAND_DIMS = define_op('ExpandDims', lambda x, axis: np.expand_dims(x, axis), _expand_dims_infer,
                        lambda op, g: reshape(g, shape(op.inputs[0])),
                        lowering=lowerings.reshape)   # a view of the static output shape


def _expand_at_runtime_axis(x, axis):
    a, rank = int(np.asarray(axis).reshape(-1)[0]), np.ndim(x)
    if not -rank - 1 <= a <= rank:
        raise validation.invalid_argument(f'Tried to expand dim index {a} for tensor with {rank} '
                                          f'dimensions.')
    return np.expand_dims(x, a)


# ExpandDims whose dim is an input known only when the graph runs (TF's `dim` is one): while the
# graph is built the result's rank is unknown, as TF's inference says.
EXPAND_DIMS_AXIS = define_op('ExpandDimsRuntimeAxis', _expand_at_runtime_axis,
                             lambda x, axis: (x.dtype, None),
                             lambda op, g: (reshape(g, shape(op.inputs[0])), None), inputs=(),
                             doc='ExpandDims at a dim known only when the graph runs.')


def expand_dims(input, axis, name=None):
    """Inserts a dimension of length 1 at index `axis`.

    Args:
      input: A `Tensor`.
      axis: Where to insert, in [-rank-1, rank].
      name: A name for the operation (optional).
    """
    x = to_tensor(input, op='expand_dims')
    if axis is None:
        raise ValueError('expand_dims: `axis` must be set (an int), got None')
    if isinstance(axis, (list, tuple)):  # TF's kernel wants one axis: a 0-D or 1-element tensor
        flat = np.ravel(np.asarray(axis, dtype=object))
        if len(flat) != 1:
            raise validation.invalid_argument(f'expand_dims: `axis` must be a single int, got '
                                              f'{axis!r}')
        axis = flat[0]
    elif isinstance(axis, Tensor) and axis.shape.num_elements() == 1 and axis.shape.rank:
        known = op_helpers.static_value(axis)
        if known is not None:
            axis = reshape(axis, []) if not axis.dtype.is_integer else int(np.ravel(known)[0])
    if isinstance(axis, Tensor) and axis.dtype.is_integer and axis.shape.num_elements() == 1:
        known = op_helpers.static_value(axis)  # a value folded now, or known at run time
        if known is None:
            return apply_op(EXPAND_DIMS_AXIS, (x, axis), {}, name)
        axis = int(np.ravel(known)[0])
    axis = validation.axis(axis, None, 'expand_dims')
    r = x.shape.rank
    if r is not None and not -r - 1 <= axis <= r:
        raise validation.invalid_argument(
            f'expand_dims: axis {axis} is out of range for {error_helpers.describe(x)} (expected in '
            f'[{-r - 1}, {r}])')
    if r is not None:
        axis %= r + 1
    return apply_op(EXPAND_DIMS, (x,), {'axis': axis}, name)


def _squeeze_axes(d, axis):
    if axis:
        for a in axis:
            if d[a] is not None and d[a] != 1:
                raise validation.invalid_argument(
                    f'Can not squeeze dim[{a}], expected a dimension of 1, got {d[a]} for '
                    f'\'Squeeze\' with input shape {list(d)}')
        return axis
    if None in d:
        return None
    return tuple(i for i, n in enumerate(d) if n == 1)


def _squeeze_kernel(x, axis):
    axes = _squeeze_axes(np.shape(x), axis)
    return np.squeeze(x, axis=axes) if axes else x


def _squeeze_infer(x, axis):
    d = dims(x)
    if d is None:
        return x.dtype, None
    axes = _squeeze_axes(d, axis)
    if axes is None:
        return x.dtype, None
    return x.dtype, tuple(n for i, n in enumerate(d) if i not in axes)


SQUEEZE = define_op('Squeeze', _squeeze_kernel, _squeeze_infer,
                    lambda op, g: reshape(g, shape(op.inputs[0])))


def squeeze(input, axis=None, name=None):
    """Removes dimensions of length 1 (all, or those listed in `axis`).

    Args:
      input: A `Tensor`.
      axis: Dimensions to remove (each must have length 1).
      name: A name for the operation (optional).
    """
    x = to_tensor(input, op='squeeze')
    if axis is not None:
        if isinstance(axis, (int, np.integer, bool, np.bool_)):
            axis = [int(axis)]
        # Squeeze's axis is an attribute, a list of ints: anything else is TF's TypeError.
        if isinstance(axis, Tensor) and (axis.shape.rank or 0) > 1 or isinstance(
                axis, (list, tuple)) and not all(validation.is_int(a) for a in axis):
            raise TypeError(f'squeeze: Expected int for argument `axis`, not '
                            f'{error_helpers.describe(axis)}')
        r = x.shape.rank
        if r is None and any(a < 0 for a in axis):
            raise ValueError('squeeze: negative axes need a tensor of known rank')
        axis = op_helpers.normalize_axis(axis, r, 'squeeze') if r is not None else tuple(axis)
    return apply_op(SQUEEZE, (x,), {'axis': tuple(axis) if axis else None}, name)
