"""map_fn, scan, foldl and foldr: loops over the first axis of tensors, built on while_loop and
TensorArray as TF builds them, so they run as Python loops eagerly, as one While op in a graph, and
are differentiable either way."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from defun.core import dtypes, error_helpers, nest
from defun.ops.framework import base_ops
from defun.control_flow.while_ops import while_loop
from defun.control_flow.tensor_array import TensorArray
from defun.core.shapes import TensorShape, TensorSpec
from defun.core.tensor import Tensor, convert_to_tensor

__all__ = ['map_fn', 'scan', 'foldl', 'foldr']


def _elements(elems, what):
    """The flat tensors of `elems`, their TensorArrays and the number of elements."""
    flat = [e if isinstance(e, Tensor) else convert_to_tensor(e) for e in nest.flatten(elems)]
    if not flat:
        raise ValueError(f'{what}: elems must contain at least one tensor')
    for e in flat:
        if e.shape.rank == 0:
            raise ValueError(f'{what}: elements in elems must be 1+ dimensional tensors, not '
                             f'scalars (got {error_helpers.describe(e)})')
    first = flat[0].shape.as_tuple()
    n = first[0] if first is not None and first[0] is not None else base_ops.shape(flat[0])[0]
    arrays = [TensorArray(e.dtype, size=n, element_shape=_row_shape(e)).unstack(e) for e in flat]
    return flat, arrays, n


def _row_shape(t):
    d = t.shape.as_tuple()
    return None if d is None else d[1:]


def _signature(signature):
    """(dtype, element shape) for each leaf of fn_output_signature."""
    def spec(leaf):
        if isinstance(leaf, TensorSpec):
            return leaf.dtype, leaf.shape
        return dtypes.as_dtype(leaf), TensorShape(None)
    return [spec(leaf) for leaf in nest.flatten(signature)]


def map_fn(fn: Callable[[Any], Any], elems: Any, dtype: Any = None,
           parallel_iterations: int | None = None, back_prop: bool = True,
           swap_memory: bool = False, infer_shape: bool = True, name: str | None = None,
           fn_output_signature: Any = None) -> Any:
    """Stacks fn(x) for each x unstacked from elems along axis 0 (a nested structure of tensors)."""
    if not callable(fn):
        raise TypeError(f'map_fn: fn must be callable, got {fn!r}')
    signature = fn_output_signature if fn_output_signature is not None else dtype
    flat, inputs, n = _elements(elems, 'map_fn')
    if signature is None:
        structure, specs = elems, [(e.dtype, TensorShape(None)) for e in flat]
    else:
        structure, specs = signature, _signature(signature)
    outputs = [TensorArray(d, size=n, element_shape=s if infer_shape else None) for d, s in specs]

    def body(i, *arrays):
        x = nest.pack_sequence_as(elems, [ta.read(i) for ta in inputs])
        result = fn(x)
        # TF's check: fn's result must have the structure of fn_output_signature (or of elems),
        # sequence types included (ValueError for different nesting, TypeError for types).
        try:
            nest.assert_same_structure(structure, result)
        except (TypeError, ValueError) as exc:
            raise type(exc)(f'map_fn: {exc}\nPass fn_output_signature when fn returns a '
                            f'different structure than elems.') from None
        y = nest.flatten(result)
        return (i + 1,) + tuple(ta.write(i, v) for ta, v in zip(arrays, y))

    result = while_loop(lambda i, *_: i < n, body, (0,) + tuple(outputs), name=name or 'map')
    return nest.pack_sequence_as(structure, [ta.stack() for ta in result[1:]])


def _fold_loop(fn, elems, initializer, reverse, keep_all, what, name):
    flat, inputs, n = _elements(elems, what)

    def element(i):
        return nest.pack_sequence_as(elems, [ta.read(i) for ta in inputs])

    if initializer is None:
        start = element(n - 1 if reverse else 0)
        first = 1
    else:
        start = initializer
        first = 0
    acc = nest.map_structure(lambda v: v if isinstance(v, Tensor) else convert_to_tensor(v), start)
    acc_flat = nest.flatten(acc)
    stacks = [TensorArray(a.dtype, size=n, element_shape=a.shape) for a in acc_flat] \
        if keep_all else []
    if keep_all and initializer is None:
        stacks = [ta.write(n - 1 if reverse else 0, a) for ta, a in zip(stacks, acc_flat)]

    def body(i, *state):
        current = nest.pack_sequence_as(acc, list(state[:len(acc_flat)]))
        index = n - 1 - i if reverse else i
        new = nest.flatten(fn(current, element(index)))
        if len(new) != len(acc_flat):
            raise ValueError(f'{what}: fn must return the structure of the accumulator '
                             f'({len(acc_flat)} tensors), got {len(new)}')
        written = [ta.write(index, v) for ta, v in zip(state[len(acc_flat):], new)]
        return (i + 1,) + tuple(new) + tuple(written)

    result = while_loop(lambda i, *_: i < n, body,
                        (convert_to_tensor(first),) + tuple(acc_flat) + tuple(stacks),
                        name=name or what)
    final = list(result[1:1 + len(acc_flat)])
    if keep_all:
        return nest.pack_sequence_as(acc, [ta.stack() for ta in result[1 + len(acc_flat):]])
    return nest.pack_sequence_as(acc, final)


def scan(fn: Callable[[Any, Any], Any], elems: Any, initializer: Any = None,
         parallel_iterations: int = 10, back_prop: bool = True, swap_memory: bool = False,
         infer_shape: bool = True, reverse: bool = False, name: str | None = None) -> Any:
    """The stacked accumulators of a = fn(a, x) over elems (the first element starts a without an
    initializer)."""
    return _fold_loop(fn, elems, initializer, reverse, True, 'scan', name)


def foldl(fn: Callable[[Any, Any], Any], elems: Any, initializer: Any = None,
          parallel_iterations: int = 10, back_prop: bool = True, swap_memory: bool = False,
          name: str | None = None) -> Any:
    """The final accumulator of a = fn(a, x) over elems from the first element."""
    return _fold_loop(fn, elems, initializer, False, False, 'foldl', name)


def foldr(fn: Callable[[Any, Any], Any], elems: Any, initializer: Any = None,
          parallel_iterations: int = 10, back_prop: bool = True, swap_memory: bool = False,
          name: str | None = None) -> Any:
    """The final accumulator of a = fn(a, x) over elems from the last element."""
    return _fold_loop(fn, elems, initializer, True, False, 'foldr', name)
