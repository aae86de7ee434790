"""Variable ops: reading and assigning a variable through its resource handle.

A handle is a tensor of dtype `resource` whose payload is the variable's storage (an object with a
`value` attribute holding the current ndarray). Reads and assignments are stateful, so graphs keep them
in program order. The gradient of a read flows to the handle, which is how tapes and compiled calls
give gradients for variables.
"""
import numpy as np


from defun.core.dispatch import apply_op
from defun.core.registry import define_op

__all__ = ['read_variable', 'assign_variable', 'READ_VARIABLE']


def _read_kernel(storage, dtype, shape):
    return storage.value


def _read_infer(handle, dtype, shape):
    return dtype, shape


READ_VARIABLE = define_op('ReadVariableOp', _read_kernel, _read_infer,
                          lambda op, g: g, stateful=True, reads_only=True,
                          takes_indexed_slices=True)


def read_variable(handle, dtype, shape):
    """Reads the current value; `dtype` and `shape` are the variable's (for graph inference)."""
    return apply_op(READ_VARIABLE, (handle,), {'dtype': dtype, 'shape': shape})


def _assign_kernel(mode):
    def kernel(storage, value):
        current = storage.value
        if mode == 'add':
            value = current + value
        elif mode == 'sub':
            value = current - value
        declared = storage.shape  # the variable's declared shape: None dims may change
        new_shape = np.shape(value)
        if declared is not None and (len(declared) != len(new_shape) or any(
                d is not None and d != n for d, n in zip(declared, new_shape))):
            raise ValueError(f'Cannot assign a value of shape {list(new_shape)} to a variable '
                             f'of shape {list(declared)}')
        storage.value = np.asarray(value, dtype=current.dtype) if np.ndim(value) else \
            current.dtype.type(value)
        return storage.value
    return kernel


def _assign_infer(handle, value):
    return value.dtype, value.shape.as_tuple()


ASSIGN_OPS = {
    mode: define_op(op_type, _assign_kernel(mode), _assign_infer, None, stateful=True)
    for mode, op_type in (('set', 'AssignVariableOp'), ('add', 'AssignAddVariableOp'),
                          ('sub', 'AssignSubVariableOp'))}


def assign_variable(handle, value, mode='set'):
    """Assigns (mode 'set'), adds to ('add') or subtracts from ('sub') the variable; returns the new
    value as a tensor."""
    return apply_op(ASSIGN_OPS[mode], (handle, value))


