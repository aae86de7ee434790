"""Constant folding at graph-build time: what `get_static_value` returns and what inference rules
use to read shapes and small constants (`shape()` of a fully known shape, arithmetic on constants).

An op's OpDef says how: its `fold` rule reads the value from the op alone (a constant, the shape of
a tensor of known shape); otherwise folding runs the kernel of a `foldable` op on its inputs' folded
values. It stops at placeholders, stateful ops and large arrays (folding is for shapes and small
constants, not for moving compute to build time).
"""
import numpy as np

from defun.tensor import EagerTensor, Tensor

__all__ = ['fold', 'get_static_value']


_FOLD_LIMIT = 1 << 16  # elements: folding is for shapes and small constants, not for big compute


def fold(tensor):
    """The value of graph tensor `tensor` computed at build time, or None."""
    op = tensor.op
    opdef = op.opdef
    if opdef.fold is not None:  # read from the op alone (a constant, a known shape)
        return opdef.fold(op)
    if not opdef.foldable:
        return None
    arrays = []
    for t in op.inputs:
        if getattr(t, 'op', None) is None:
            return None
        value = t.op.graph.fold(t)
        if value is None or np.size(value) > _FOLD_LIMIT:
            return None
        arrays.append(value)
    try:
        result = op.opdef.kernel(*arrays, **op.attrs)
    except Exception:
        return None  # the op will report the problem when it runs
    if op.opdef.num_outputs != 1:
        result = result[tensor.value_index]
    return result


def get_static_value(tensor, partial=False):
    """The value of `tensor` if it is known without running the graph, else None."""
    if isinstance(tensor, EagerTensor):
        return tensor.numpy()
    if isinstance(tensor, Tensor):
        value = tensor.op.graph.fold(tensor)
        return None if value is None else np.asarray(value)
    if hasattr(tensor, 'numpy') and hasattr(tensor, 'assign'):
        return None  # variables can change
    return np.asarray(tensor)
