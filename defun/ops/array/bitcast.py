"""`tf.bitcast`: a tensor's bytes read as another dtype. Equal sizes keep the shape; a smaller
output dtype adds a last dimension of size (input size / output size); a larger one consumes a
last dimension of that size. Not differentiable (as in TF)."""
import numpy as np

from defun.core import dtypes
from defun.core.dispatch import apply_op
from defun.core.registry import define_op
from defun.ops.support.helpers import dims, to_tensor

__all__ = ['bitcast']

_BITCASTABLE = 'iufcb'


def _sizes(x_dtype, type_):
    return np.dtype(x_dtype.np_dtype).itemsize, np.dtype(type_.np_dtype).itemsize


def _kernel(x, type):  # noqa: A002 - TF's attribute name
    out = np.dtype(type.np_dtype)
    array = np.asarray(x)
    array = np.ascontiguousarray(array) if array.ndim else array  # ascontiguousarray makes 1-D
    if array.dtype.itemsize < out.itemsize:
        return array.view(out).reshape(array.shape[:-1])
    view = array.reshape(array.shape + (1,)).view(out) if array.ndim else \
        array.reshape(1).view(out)
    return view if array.dtype.itemsize > out.itemsize else view.reshape(array.shape)


def _infer(x, type):  # noqa: A002
    if x.dtype.np_dtype is None or x.dtype.kind not in _BITCASTABLE or \
            type.kind not in _BITCASTABLE:
        raise TypeError(f'bitcast: cannot bitcast from {x.dtype.name} to {type.name}')
    size_in, size_out = _sizes(x.dtype, type)
    shape = dims(x)
    if size_in > size_out:
        return type, None if shape is None else tuple(shape) + (size_in // size_out,)
    if size_in < size_out:
        if shape is not None and (not shape or shape[-1] not in (None, size_out // size_in)):
            raise ValueError(f'bitcast: cannot bitcast from {x.dtype.name} to {type.name}: the '
                             f'last dimension of shape {list(shape)} must be '
                             f'{size_out // size_in}')
        return type, None if shape is None else tuple(shape[:-1])
    return type, shape


BITCAST = define_op('Bitcast', _kernel, _infer, None,
                    low_precision_steps=True)  # the bits as they are: never widened


def bitcast(input, type, name=None):  # noqa: A002 - TF's argument names
    """The bytes of `input` as dtype `type`."""
    return apply_op(BITCAST, (to_tensor(input, op='bitcast'),), {'type': dtypes.as_dtype(type)},
                    name)
