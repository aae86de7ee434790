"""`tf.get_static_value` (TF's `constant_value`): the value of a tensor when a fixed set of op types
gives it without running anything, else None.

TF answers only for constants, shapes known in full (Shape, Size, Rank) and a short list of ops
over such values (Range, Cast, Concat, Pack, Unpack, Split, Fill, Equal, NotEqual and the identity
ops); any other op (arithmetic, `where`, slicing) is None inside a tf.function even when its inputs
are constants. Programs branch on that answer (Keras calls `int()` on what it gets), so the public
function follows TF's list exactly. defun's own shape inference folds much more: that is
`folding.fold` (the graph's `fold`), which this module uses to compute the values it may return.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from defun.core.tensor import EagerTensor, Tensor, is_tensor
from defun.core.variable_base import is_variable

__all__ = ['get_static_value']

# Ops whose value TF computes from its inputs' static values (all inputs must have one).
_FROM_INPUTS = frozenset({'Range', 'Cast', 'Concat', 'ConcatV2', 'Split', 'Equal', 'NotEqual'})
# Ops TF reads from the op alone (a constant, a fully known input shape).
_FROM_OP = frozenset({'Const', 'Shape', 'Size', 'Rank'})
# Ops that pass their one input through.
_IDENTITIES = frozenset({'Identity', 'StopGradient', 'CheckNumericsV2', 'DebugIdentityV2'})


def get_static_value(tensor: Any, partial: bool = False) -> Any:
    """The value of `tensor` as a numpy array if it is known without running the graph, else None.

    Eager tensors give their value; variables and composite tensors None; other Python values are
    returned as they are. With `partial`, a stacked vector whose elements are known in part is an
    object array with None for the unknown elements."""
    if isinstance(tensor, EagerTensor):
        return tensor.numpy()
    if isinstance(tensor, Tensor):
        return _graph_value(tensor, partial)
    if is_variable(tensor) or is_tensor(tensor):
        return None  # variables can change; composites have no single array value
    return tensor


def _graph_value(tensor: Tensor, partial: bool) -> Any:
    kind = tensor.op.type
    if kind in _FROM_OP:
        return _folded(tensor)
    if kind in _IDENTITIES:
        return _graph_value(tensor.op.inputs[0], partial)
    if kind in _FROM_INPUTS:
        if any(_graph_value(t, False) is None for t in tensor.op.inputs):
            return None
        return _folded(tensor)
    if kind == 'Fill':
        value = _graph_value(tensor.op.inputs[1], False)
        if value is None or not tensor.shape.is_fully_defined():
            return None
        return np.full(tensor.shape.as_list(), value, dtype=np.asarray(value).dtype)
    if kind == 'Pack':
        return _pack_value(tensor, partial)
    if kind == 'Unpack':
        if tensor.op.attrs.get('axis', 0) != 0:
            return None  # as TF: only unstacking along the first axis
        value = _graph_value(tensor.op.inputs[0], partial)
        return None if value is None else value[tensor.value_index]
    return None


def _pack_value(tensor: Tensor, partial: bool) -> Any:
    inputs = tensor.op.inputs
    if not inputs or tensor.op.attrs.get('axis', 0) != 0:
        return None  # as TF: only stacking along the first axis
    values = []
    for t in inputs:
        value = _graph_value(t, partial)
        if value is None and not partial:
            return None
        values.append(value)
    try:
        return np.array(values)
    except ValueError:  # partial: some elements are None
        return np.array(values, dtype=object)


def _folded(tensor: Tensor) -> Any:
    value = tensor.op.graph.fold(tensor)
    return None if value is None else np.asarray(value)
