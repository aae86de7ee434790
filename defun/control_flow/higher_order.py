"""map_fn, scan, foldl and foldr: loops over the first axis of tensors, built on while_loop and
TensorArray as TF builds them, so they run as Python loops eagerly, as one While op in a graph, and
are differentiable either way. map_fn also maps over the rows of RaggedTensors and SparseTensors,
and builds ragged results (a RaggedTensorSpec in fn_output_signature, or ragged elems without
one), as TF's does."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from defun.core import dtypes, error_helpers, nest
from defun.ops.framework import base_ops
from defun.control_flow.while_ops import while_loop
from defun.control_flow.tensor_array import TensorArray
from defun.core.shapes import TensorShape, TensorSpec
from defun.core.tensor import Tensor, convert_to_tensor
from defun.ops.array.creation import zeros
from defun.ops.array.joining import concat
from defun.ops.framework.base_ops import cast
from defun.ops.array.boolean_mask import boolean_mask
from defun.ops.math.exports import equal
from defun.ops.ragged.ragged_tensor import RaggedTensor, RaggedTensorSpec
from defun.ops.sparse.sparse_tensor import SparseTensor, SparseTensorSpec

__all__ = ['map_fn', 'scan', 'foldl', 'foldr']


_COMPOSITES = (RaggedTensor, SparseTensor)


def _leaf(e):
    return e if isinstance(e, (Tensor,) + _COMPOSITES) else convert_to_tensor(e)


def _sparse_row(st, i):
    """Row i of SparseTensor `st`: its entries there, without their first index."""
    keep = equal(st.indices[:, 0], cast(i, dtypes.int64))
    return SparseTensor(boolean_mask(st.indices, keep)[:, 1:], boolean_mask(st.values, keep),
                        st.dense_shape[1:])


def _rows(e):
    """The number of rows of a RaggedTensor or SparseTensor, as an int32 loop bound."""
    return cast(e.nrows() if isinstance(e, RaggedTensor) else e.dense_shape[0], dtypes.int32)


def _map_elements(elems):
    """The flat leaves of `elems` and, for each, a function reading its row i (RaggedTensors
    are read by indexing: a row of a RaggedTensor is a Tensor, or a RaggedTensor of one less
    ragged dimension; a row of a SparseTensor is a SparseTensor), and the number of rows."""
    flat = [_leaf(e) for e in nest.flatten(elems)]
    if not any(isinstance(e, _COMPOSITES) for e in flat):
        flat, arrays, n = _elements(flat, 'map_fn')
        return flat, [ta.read for ta in arrays], n
    if not flat[0].shape.rank:
        raise ValueError('map_fn: elements in elems must be 1+ dimensional tensors, not scalars')
    n = _rows(flat[0]) if isinstance(flat[0], _COMPOSITES) else base_ops.shape(flat[0])[0]
    readers = []
    for e in flat:
        if isinstance(e, RaggedTensor):
            readers.append(lambda i, e=e: e[i])
        elif isinstance(e, SparseTensor):
            readers.append(lambda i, e=e: _sparse_row(e, i))
        else:
            readers.append(_elements([e], 'map_fn')[1][0].read)
    return flat, readers, n


class _RaggedRows:
    """A ragged result of map_fn built row by row from fn's results, each a row of `spec` (TF's
    fn_output_signature is the spec of one row): the rows joined along axis 0 and their row
    splits, two loop variables whose length grows (TF stacks variant-encoded rows instead)."""

    def __init__(self, spec):
        if spec.ragged_rank != 0 or spec.shape.rank is None:
            raise NotImplementedError(
                f'map_fn: fn_output_signature {spec} (a row with ragged dimensions of its own) '
                f'is not part of defun; rows of known rank without ragged dimensions are')
        self.spec = spec
        inner = spec.shape.as_tuple()[1:]
        self.start = (zeros((0,) + tuple(d or 0 for d in inner), spec.dtype),
                      zeros((1,), spec.row_splits_dtype))
        self.invariants = (TensorShape((None,) + tuple(inner)), TensorShape([None]))

    def write(self, state, value):
        values, splits = state
        row = convert_to_tensor(value, dtype=self.spec.dtype)
        length = cast(base_ops.shape(row)[:1], self.spec.row_splits_dtype)
        return concat([values, row], 0), concat([splits, splits[-1:] + length], 0)

    def finish(self, state):
        return RaggedTensor.from_row_splits(state[0], state[1], validate=False)


def _row_spec(rt):
    """The spec of one row of RaggedTensor `rt` (fn's output spec when map_fn is given none)."""
    return RaggedTensorSpec(rt.shape[1:], rt.dtype, rt.ragged_rank - 1, rt.row_splits.dtype)


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


def _sparse_results():
    return NotImplementedError('map_fn: SparseTensor results are not part of defun; give a dense '
                               'fn_output_signature (SparseTensor elems are read row by row)')


def _signature(signature):
    """(dtype, element shape) for each leaf of fn_output_signature (a RaggedTensorSpec as it is)."""
    def spec(leaf):
        if isinstance(leaf, RaggedTensorSpec):
            return leaf
        if isinstance(leaf, SparseTensorSpec):
            raise _sparse_results()
        if isinstance(leaf, TensorSpec):
            return leaf.dtype, leaf.shape
        return dtypes.as_dtype(leaf), TensorShape(None)
    return [spec(leaf) for leaf in nest.flatten(signature)]


def map_fn(fn: Callable[[Any], Any], elems: Any, dtype: Any = None,
           parallel_iterations: int | None = None, back_prop: bool = True,
           swap_memory: bool = False, infer_shape: bool = True, name: str | None = None,
           fn_output_signature: Any = None) -> Any:
    """Stacks fn(x) for each x unstacked from elems along axis 0 (a nested structure of tensors
    and RaggedTensors)."""
    if not callable(fn):
        raise TypeError(f'map_fn: fn must be callable, got {fn!r}')
    signature = fn_output_signature if fn_output_signature is not None else dtype
    flat, readers, n = _map_elements(elems)
    if signature is None:
        if any(isinstance(e, SparseTensor) for e in flat):
            raise _sparse_results()
        structure = elems
        specs = [_row_spec(e) if isinstance(e, RaggedTensor) else (e.dtype, TensorShape(None))
                 for e in flat]
    else:
        structure, specs = signature, _signature(signature)
    outputs = [_RaggedRows(s) if isinstance(s, RaggedTensorSpec) else
               TensorArray(s[0], size=n, element_shape=s[1] if infer_shape else None)
               for s in specs]
    starts = [o.start if isinstance(o, _RaggedRows) else o for o in outputs]

    def body(i, *state):
        x = nest.pack_sequence_as(elems, [read(i) for read in readers])
        result = fn(x)
        # TF's check: fn's result must have the structure of fn_output_signature (or of elems),
        # sequence types included (ValueError for different nesting, TypeError for types).
        try:
            nest.assert_same_structure(structure, result)
        except (TypeError, ValueError) as exc:
            raise type(exc)(f'map_fn: {exc}\nPass fn_output_signature when fn returns a '
                            f'different structure than elems.') from None
        return (i + 1,) + tuple(o.write(st, v) if isinstance(o, _RaggedRows) else st.write(i, v)
                                for o, st, v in zip(outputs, state, nest.flatten(result)))

    invariants = [None] + [o.invariants if isinstance(o, _RaggedRows) else None for o in outputs]
    result = while_loop(lambda i, *_: i < n, body, (0,) + tuple(starts),
                        shape_invariants=invariants if any(invariants) else None,
                        name=name or 'map')
    return nest.pack_sequence_as(structure, [
        o.finish(st) if isinstance(o, _RaggedRows) else st.stack()
        for o, st in zip(outputs, result[1:])])


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
