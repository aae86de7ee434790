"""Constant folding at graph-build time: what inference rules and defun's own build-time reads use
to know shapes and small constants (`shape()` of a fully known shape, arithmetic on constants).
The public `tf.get_static_value` answers for fewer ops, as TF does (`constant_value.py`).

An op's OpDef says how: its `fold` rule reads the value from the op alone (a constant, the shape of
a tensor of known shape); otherwise folding runs the kernel of a `foldable` op on its inputs' folded
values. It stops at placeholders, stateful ops and large arrays other than splats (one value
repeated), as Grappler's constant folding does.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from defun.core import low_precision
from defun.core.tensor import EagerTensor, Tensor
from defun.core.variable_base import is_variable

__all__ = ['fold', 'fold_outputs', 'build_time_value', 'FOLD_LIMIT']


# Elements: folding is for shapes and small constants, not for moving big compute to build time.
FOLD_LIMIT = 1 << 16


def fold(tensor: Tensor) -> np.ndarray | None:
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
        if value is None and t.shape.rank == 0 and t.dtype.is_integer:
            # A scalar read from a partly known shape (`tf.shape(x)[1]` of a known dim).
            known = partial_fold(t)
            value = None if known is None else np.asarray(known, t.dtype.as_numpy_dtype)
        if value is None:
            return None
        arrays.append(value)
    results = fold_outputs(op, arrays)
    return None if results is None else results[tensor.value_index]


def partial_fold(tensor: Tensor) -> Any:
    """What is known at build time of an integer graph tensor of rank 0 or 1: its value as an
    int (rank 0) or a list with None for the unknown elements (rank 1); None when nothing is.
    The full fold first; else the op's own `partial_fold` rule (Shape, Pack, ConcatV2, ...)."""
    value = tensor.op.graph.fold(tensor)
    if value is not None:
        value = np.asarray(value)
        if value.dtype.kind not in 'iu' or value.ndim > 1:
            return None
        return int(value) if value.ndim == 0 else [int(v) for v in value]
    rule = tensor.op.opdef.partial_fold
    if rule is None or tensor.value_index != 0:
        return None
    return rule(tensor.op, _partial_of_input)


def _partial_of_input(t: Any) -> Any:
    if isinstance(t, EagerTensor):
        value = t.numpy()
        return int(value) if value.ndim == 0 else [int(v) for v in np.reshape(value, [-1])]
    return partial_fold(t) if getattr(t, 'op', None) is not None else None


def fold_outputs(op: Any, arrays: Sequence[np.ndarray], materialize: bool = False
                 ) -> tuple | None:
    """The values of all outputs of `op` run at build time on its inputs' values `arrays`, or
    None: the op is not foldable, an input is too large, or the kernel fails (the op reports the
    problem when it runs). The one constant folder: `fold` above and the executor use it.

    Build-time reads (`fold`) take large inputs only when they are one value repeated (a splat:
    `tf.ones([2000, 2000])`). The executor (`materialize`: results become constants of the
    generated code) takes any constant inputs, as Grappler does, and runs the op's own kernel:
    from large inputs a result is kept when it is a splat or no larger than the constants it
    replaces (a chain of matmuls of a constant is computed once, not on every call)."""
    sizes = [np.size(a) for a in arrays]
    if not op.opdef.foldable or not materialize and not all(
            n <= FOLD_LIMIT or is_splat(a) for n, a in zip(sizes, arrays)):
        return None
    try:
        kernel = low_precision.widened_kernel(op, op.opdef.kernel) or op.opdef.kernel
        result = kernel(*arrays, **op.attrs)
    except Exception:
        return None
    results = (result,) if op.opdef.num_outputs == 1 else tuple(result)
    if materialize and any(n > FOLD_LIMIT for n in sizes):
        budget = sum(sizes)
        if not all(np.size(r) <= budget or is_splat(r) for r in results):
            return None
    return results


def is_splat(array: Any) -> bool:
    """True when `array` holds one value repeated (NaNs never compare equal: not a splat)."""
    a = np.asarray(array)
    if a.size == 0 or a.dtype.kind == 'O':
        return a.size == 0
    flat = a.reshape(-1)
    return bool(np.all(flat == flat[0]))


def build_time_value(tensor: Any) -> np.ndarray | None:
    """The value of `tensor` if defun can compute it without running the graph (any foldable op),
    else None. Broader than `tf.get_static_value`: for defun's own reads, not for programs."""
    if isinstance(tensor, EagerTensor):
        return tensor.numpy()
    if isinstance(tensor, Tensor):
        value = tensor.op.graph.fold(tensor)
        return None if value is None else np.asarray(value)
    if is_variable(tensor):
        return None  # variables can change
    return np.asarray(tensor)
