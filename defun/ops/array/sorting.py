"""Sorting: sort, argsort and math.top_k. Orders are stable (equal values keep their index order,
as TF's), `top_k` is TopKV2 with TF's gradient (the values' gradient scattered back to the chosen
indices), and `sort` gathers the input at its argsort, so its gradient is gather's.
"""
import collections

import numpy as np

from defun.core import dtypes, error_helpers
from defun.core.dispatch import apply_op
from defun.ops.support import helpers as op_helpers
from defun.ops.support.helpers import dims, to_tensor
from defun.ops.framework.base_ops import reshape, shape
from defun.ops.array.gathering import GATHER_GRAD, gather, gather_nd
from defun.ops.array.transform import transpose
from defun.core.registry import define_op
from defun.core.tensor import Tensor
from defun.ops.support import validation

__all__ = ['sort', 'argsort']  # top_k lives under tf.math and tf.nn only, as in TF

TopKResult = collections.namedtuple('TopKV2', ['values', 'indices'])

_DIRECTIONS = ('ASCENDING', 'DESCENDING')


def _stable_argsort(x, axis, descending):
    if not descending:
        return np.argsort(x, axis=axis, kind='stable')
    # Sort the reversed array ascending, then reverse: ties keep their original order.
    n = np.shape(x)[axis]
    order = np.argsort(np.flip(x, axis), axis=axis, kind='stable')
    return n - 1 - np.flip(order, axis)


ARGSORT = define_op(
    'ArgSort',
    lambda x, axis, descending: _stable_argsort(x, axis, descending).astype(np.int32),
    lambda x, axis, descending: (dtypes.int32, dims(x)), None,
    doc='Stable argsort along `axis` (TF builds it from TopKV2; one kernel is simpler here).',
    inputs=('input: T',), attrs=('T: realnumbertype',))  # TopKV2's signature


def _direction(direction, op):
    if direction not in _DIRECTIONS:
        raise ValueError(f'{op}: `direction` should be one of {", ".join(_DIRECTIONS)}, got '
                         f'{direction!r}')
    return direction == 'DESCENDING'


def _constant_axis(axis, op):
    """TF's sort and argsort take any axis whose value is a known scalar, as int(value) (so 1.5
    is axis 1); anything else is a ValueError naming the argument."""
    value = op_helpers.static_value(axis) if isinstance(axis, Tensor) else np.asarray(
        axis, dtype=object if isinstance(axis, (str, bytes)) else None)
    if value is None or np.ndim(value) != 0:
        raise ValueError(f'{op}: Argument `axis` must be a constant scalar. Received: '
                         f'axis={error_helpers.describe(axis)}.')
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ValueError(f'{op}: Argument `axis` must be an integer, got {axis!r}') from None


def _axis(x, axis, op):
    axis = _constant_axis(axis, op)
    r = x.shape.rank
    if r is None:
        if axis != -1:
            raise ValueError(f'{op}: the input needs a known rank to sort along axis {axis}')
        return -1
    if r == 0:
        raise validation.invalid_argument(f'{op}: input must have rank >= 1, got a scalar')
    if not -r <= axis < r:
        raise validation.invalid_argument(f'{op}: axis {axis} is out of range for '
                                          f'{error_helpers.describe(x)}')
    return axis % r


def argsort(values, axis=-1, direction='ASCENDING', stable=False, name=None):
    """The indices (int32) that sort `values` along `axis`."""
    x = to_tensor(values, op='argsort')
    descending = _direction(direction, 'argsort')
    return apply_op(ARGSORT, (x,), {'axis': _axis(x, axis, 'argsort'), 'descending': descending},
                    name)


def sort(values, axis=-1, direction='ASCENDING', name=None):
    """`values` sorted along `axis`; differentiable through the gather at its argsort."""
    validation.op_name(name)
    x = to_tensor(values, op='sort')
    descending = _direction(direction, 'sort')
    axis = _axis(x, axis, 'sort')
    r = x.shape.rank
    last = axis == -1 or axis == r - 1
    if not last:
        perm = list(range(r))
        perm[axis], perm[-1] = perm[-1], perm[axis]
        x = transpose(x, perm)
    order = apply_op(ARGSORT, (x,), {'axis': -1, 'descending': descending})
    batch = x.shape.rank - 1 if x.shape.rank is not None else None
    if batch is None:
        raise ValueError('sort: the input needs a known rank')
    # A 1-D sort gathers through gather_nd: its gradient is dense, as TF's sort (top_k) gives,
    # where gather's along axis 0 would be an IndexedSlices.
    result = gather(x, order, axis=batch, batch_dims=batch) if batch else \
        gather_nd(x, reshape(order, [-1, 1]))
    return result if last else transpose(result, perm)


def _top_k_kernel(x, k, sorted, index_type=dtypes.int32):
    if k > np.shape(x)[-1]:
        raise validation.invalid_argument(f'input must have at least k columns. Had '
                                          f'{np.shape(x)[-1]}, needed {k} [Op:TopKV2]')
    order = _stable_argsort(x, -1, True)[..., :k]
    return np.take_along_axis(x, order, axis=-1), order.astype(index_type.np_dtype)


def _top_k_infer(x, k, sorted, index_type=dtypes.int32):
    d = dims(x)
    out = None if d is None else d[:-1] + (k,)
    return [(x.dtype, out), (index_type, out)]


def _top_k_grad(op, g_values, g_indices):
    x, indices = op.inputs[0], op.outputs[1]
    if g_values is None:
        return None
    batch = x.shape.rank - 1
    return apply_op(GATHER_GRAD, (shape(x), indices, g_values),
                    {'axis': batch, 'batch_dims': batch})


TOP_K = define_op('TopKV2', _top_k_kernel, _top_k_infer, _top_k_grad, num_outputs=2,
                  inputs=('input: T',), attrs=('T: realnumbertype', 'k: int >= 0', 'sorted: bool',
                                               'index_type: {int16, int32, int64}'))


def top_k(input, k=1, sorted=True, index_type=dtypes.int32, name=None):
    """The k largest entries of the last axis and their indices (ties: the lower index first)."""
    x = to_tensor(input, op='top_k')
    if x.shape.rank == 0:
        raise validation.invalid_argument('top_k: input must be at least rank 1, got a scalar')
    if x.shape.rank is None:
        raise ValueError('top_k: the input needs a known rank')
    # k is TopKV2's input of type Tk (int32 by default)
    validation.int_input(k, 'top_k', 'k', 'Tk', 'int16, int32, int64', default='int32')
    if getattr(getattr(k, 'shape', None), 'rank', None):  # TF's shape function and kernel
        raise validation.invalid_argument(f'top_k: k must be scalar, got shape '
                                          f'{k.shape.as_list()}')
    k = validation.python_int(k, 'top_k', 'k')
    if k < 0:
        raise validation.invalid_argument(f'top_k: Need k >= 0, got {k}')
    n = x.shape.as_tuple()[-1]
    if n is not None and k > n:
        raise validation.invalid_argument(f'input must have at least k columns. Had {n}, needed '
                                          f'{k} (top_k of {error_helpers.describe(x)})')
    attrs = {'k': k, 'sorted': bool(sorted)}
    if index_type is not dtypes.int32:
        attrs['index_type'] = dtypes.as_dtype(index_type)
    return TopKResult(*apply_op(TOP_K, (x,), attrs, name))
