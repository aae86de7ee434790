"""`tf.bitwise`: and, or, xor and invert on integer tensors (the op table entries Python's `&`,
`|`, `^` and `~` share, in logic.py) and the two shifts. As TF's kernels, a shift amount is
clamped to [0, bits - 1] and a right shift of a signed integer is arithmetic. None of these is
differentiable."""
import numpy as np

from defun.core.dispatch import apply_op
from defun.core.registry import define_op
from defun.ops.math.logic import BITWISE_AND, BITWISE_OR, BITWISE_XOR, INVERT
from defun.ops.support import helpers as op_helpers
from defun.ops.support.helpers import binary_args, dims, to_tensor

__all__ = ['bitwise_and', 'bitwise_or', 'bitwise_xor', 'invert', 'left_shift', 'right_shift']


def _shift_kernel(shift):
    def kernel(x, y):
        x, y = np.asarray(x), np.asarray(y)
        bits = x.dtype.itemsize * 8
        amount = np.clip(y, 0, bits - 1).astype(x.dtype)
        if shift is np.left_shift and x.dtype.kind == 'i':
            # Shift the unsigned bits, as TF does, so that overflow wraps instead of erring.
            unsigned = x.view(x.dtype.str.replace('i', 'u'))
            return np.left_shift(unsigned, amount.astype(unsigned.dtype)).view(x.dtype)
        return shift(x, amount)
    return kernel


def _shift_infer(op):
    def infer(x, y):
        return x.dtype, op_helpers.broadcast_dims(dims(x), dims(y), op)
    return infer


LEFT_SHIFT = define_op('LeftShift', _shift_kernel(np.left_shift), _shift_infer('left_shift'), None)
RIGHT_SHIFT = define_op('RightShift', _shift_kernel(np.right_shift), _shift_infer('right_shift'),
                        None)


def bitwise_and(x, y, name=None):
    return apply_op(BITWISE_AND, binary_args(x, y, 'bitwise_and'), None, name)


def bitwise_or(x, y, name=None):
    return apply_op(BITWISE_OR, binary_args(x, y, 'bitwise_or'), None, name)


def bitwise_xor(x, y, name=None):
    return apply_op(BITWISE_XOR, binary_args(x, y, 'bitwise_xor'), None, name)


def invert(x, name=None):
    return apply_op(INVERT, (to_tensor(x, op='invert'),), None, name)


def left_shift(x, y, name=None):
    return apply_op(LEFT_SHIFT, binary_args(x, y, 'left_shift'), None, name)


def right_shift(x, y, name=None):
    return apply_op(RIGHT_SHIFT, binary_args(x, y, 'right_shift'), None, name)
