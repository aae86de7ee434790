"""boolean_mask and its gradient op (BooleanMaskGrad: the incoming gradient put back at the
masked positions of zeros, whose own gradient is the mask again).
"""
import numpy as np

from defun.core import dtypes, error_helpers
from defun.core.dispatch import apply_op
from defun.ops.support import validation
from defun.ops.framework.base_ops import cast, shape
from defun.ops.array.indexing import known_shape as _known_shape
from defun.ops.support.helpers import dims, to_tensor
from defun.core.registry import define_op

__all__ = ['boolean_mask']


def _mask_index(mask, axis):
    return (slice(None),) * axis + (np.asarray(mask, dtype=bool),)


def _boolean_mask_kernel(x, mask, axis):
    if np.shape(x)[axis:axis + np.ndim(mask)] != np.shape(mask):
        raise validation.invalid_argument(
            f'boolean_mask: mask shape {list(np.shape(mask))} does not match the dims of the '
            f'tensor shape {list(np.shape(x))} starting at axis {axis}')
    return x[_mask_index(mask, axis)]


def _boolean_mask_infer(x, mask, axis):
    d, m = dims(x), dims(mask)
    if d is None:
        return x.dtype, None
    part = d[axis:axis + len(m)]
    if len(part) != len(m) or any(a is not None and b is not None and a != b
                                  for a, b in zip(part, m)):
        raise ValueError(f'boolean_mask: Shapes {tuple(part)} and {tuple(m)} are incompatible '
                         f'(tensor shape {list(d)}, mask shape {list(m)}, axis {axis})')
    return x.dtype, d[:axis] + (None,) + d[axis + len(m):]


def _boolean_mask_grad_kernel(shape_, mask, g, axis):
    result = np.zeros(tuple(int(n) for n in shape_), dtype=np.asarray(g).dtype)
    result[_mask_index(mask, axis)] = g
    return result


BOOLEAN_MASK = define_op(
    'BooleanMask', _boolean_mask_kernel, _boolean_mask_infer,
    lambda op, g: (apply_op(BOOLEAN_MASK_GRAD, (shape(op.inputs[0]), op.inputs[1], g),
                            {'axis': op.get_attr('axis')}), None))
BOOLEAN_MASK_GRAD = define_op(
    'BooleanMaskGrad', _boolean_mask_grad_kernel,
    lambda s, m, g, axis: (g.dtype, _known_shape(s)),
    lambda op, grad: (None, None, apply_op(BOOLEAN_MASK, (grad, op.inputs[1]),
                                           {'axis': op.get_attr('axis')})),
    doc='Puts the gradient of BooleanMask back at the masked positions of zeros.')


def boolean_mask(tensor, mask, axis=None, name='boolean_mask'):
    """The entries of `tensor` where `mask` (covering dims axis..axis+k-1) is True."""
    x = to_tensor(tensor, op='boolean_mask')
    m = to_tensor(mask, op='boolean_mask')
    if m.dtype.name == 'string':
        raise TypeError(f'boolean_mask: mask must be a bool tensor, got {error_helpers.describe(m)}')
    if not m.dtype.is_bool:  # TF selects where a numeric mask is non-zero (it takes where(mask))
        m = cast(m, dtypes.bool)
    if m.shape.rank is None:
        raise ValueError('Number of mask dimensions must be specified, even if some dimensions '
                         'are None.  E.g. shape=[None] is ok, but shape=None is not.')
    if m.shape.rank == 0:
        raise ValueError('mask cannot be scalar.')
    axis = 0 if axis is None else int(axis)
    r = x.shape.rank
    if r is not None:
        if not -r <= axis < r:
            raise validation.invalid_argument(f'boolean_mask: axis {axis} is out of range for '
                                              f'{error_helpers.describe(x)}')
        axis %= r
        # TF's wrapper checks the static shapes (a ValueError in both modes).
        if not x.shape[axis:axis + m.shape.rank].is_compatible_with(m.shape):
            raise ValueError(f'boolean_mask: Shapes {x.shape[axis:axis + m.shape.rank]} and '
                             f'{m.shape} are incompatible (tensor {error_helpers.describe(x)}, mask '
                             f'{error_helpers.describe(m)}, axis {axis})')
    return apply_op(BOOLEAN_MASK, (x, m), {'axis': axis}, None if name == 'boolean_mask' else name)
