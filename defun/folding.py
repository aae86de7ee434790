"""Constant folding at graph-build time: what `get_static_value` returns and what inference rules
use to read shapes and small constants (`shape()` of a fully known shape, arithmetic on constants).

Folding runs an op's kernel on its inputs' folded values; it stops at placeholders, stateful ops and
large arrays (folding is for shapes and small constants, not for moving compute to build time).
"""
import numpy as np

from defun.tensor import EagerTensor, Tensor

__all__ = ['fold', 'get_static_value']


_SHAPE_FOLDS = {
    'Shape': lambda op: (np.asarray(op.inputs[0].shape.as_list(),
                                    dtype=op.get_attr('out_type').np_dtype)
                         if op.inputs[0].shape.is_fully_defined() else None),
    'Size': lambda op: (np.asarray(op.inputs[0].shape.num_elements(),
                                   dtype=op.get_attr('out_type').np_dtype)
                        if op.inputs[0].shape.is_fully_defined() else None),
    'Rank': lambda op: (np.int32(op.inputs[0].shape.rank)
                        if op.inputs[0].shape.rank is not None else None),
}
_FOLD_LIMIT = 1 << 16  # elements: folding is for shapes and small constants, not for big compute


def fold(tensor):
    """The value of graph tensor `tensor` computed at build time, or None."""
    op = tensor.op
    if op.type == 'Const':
        return op.attrs['value']
    shape_rule = _SHAPE_FOLDS.get(op.type)
    if shape_rule is not None:
        return shape_rule(op)
    if op.opdef.stateful or op.type == 'Placeholder' or op.opdef.num_outputs == 0:
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
