"""cond, case and switch_case: the user-facing builders of the If and Case ops (cond_ops.py).

Eagerly the chosen branch is simply called. In a graph (where, as in TF, a Python bool predicate
is refused and a constant one still builds the op) every branch is traced once into its own
FuncGraph, the branches' outputs are checked to agree (TF's TypeError otherwise), and one op
selects at run time.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from defun.core import context, dtypes, nest
from defun.control_flow import subgraph as cf
from defun.control_flow.cond_ops import create
from defun.graphs.operation import GraphTensor
from defun.ops.framework import base_ops
from defun.ops.framework.indexed_slices import IndexedSlices
from defun.core.tensor import Tensor

__all__ = ['cond', 'case', 'switch_case']


def cond(pred: Any, true_fn: Callable[[], Any] | None = None,
         false_fn: Callable[[], Any] | None = None, name: str | None = None) -> Any:
    """Returns true_fn() if pred else false_fn(); in a graph, one op choosing at run time."""
    if not callable(true_fn):
        raise TypeError('true_fn must be callable.')
    if not callable(false_fn):
        raise TypeError('false_fn must be callable.')
    if isinstance(pred, (bool, np.bool_)):
        if not context.executing_eagerly():
            raise TypeError(f'pred must not be a Python bool ({pred}) while a graph is built: '
                            f'use a Python `if`, or a bool tensor')
        return true_fn() if pred else false_fn()
    pred = cf.as_bool_scalar(pred, 'tf.cond: pred')
    known = _known_value(pred)
    if known is not None:
        return true_fn() if known else false_fn()
    return _build('If', pred, [true_fn, false_fn], ['true_fn', 'false_fn'], name or 'cond')


def _known_value(tensor):
    """The predicate's value when it is an eager tensor. While tracing, even a constant predicate
    builds the op, as in TF: every branch is traced (its Python side effects run, its outputs are
    checked against the others)."""
    array = getattr(tensor, 'array', None) if not isinstance(tensor, GraphTensor) else None
    return None if array is None else np.asarray(array)[()]


def switch_case(branch_index: Any, branch_fns: Any, default: Callable[[], Any] | None = None,
                name: str = 'switch_case') -> Any:
    """Calls branch_fns[branch_index] (the default, or the last branch, when out of range)."""
    fns = _branch_fn_list(branch_fns)
    if default is not None:
        if not callable(default):
            raise TypeError('default must be callable.')
        fns.append(default)
    if not isinstance(branch_index, Tensor):  # as TF's switch_case: no Python ints
        raise TypeError(f"'branch_index' must be a Tensor, got {type(branch_index)}")
    index = branch_index
    if not index.dtype.is_integer:
        raise TypeError(f'branch_index must be an int32 or int64 tensor, got {index.dtype.name}')
    if index.shape.rank not in (None, 0):
        raise ValueError(f'branch_index must be a scalar, got shape {index.shape}')
    if index.dtype is not dtypes.int32:
        index = base_ops.cast(index, dtypes.int32)
    known = _known_value(index)
    if known is not None:
        known = int(known)
        return fns[known if 0 <= known < len(fns) else -1]()
    labels = [f'branch{i}' for i in range(len(fns))]
    return _build('Case', index, fns, labels, name or 'switch_case')


def _branch_fn_list(branch_fns):
    if isinstance(branch_fns, dict):
        pairs = sorted(branch_fns.items())
    elif isinstance(branch_fns, (list, tuple)) and branch_fns and all(
            isinstance(p, (list, tuple)) and len(p) == 2 for p in branch_fns):
        pairs = sorted(branch_fns)
    elif isinstance(branch_fns, (list, tuple)):
        pairs = list(enumerate(branch_fns))
    else:
        raise TypeError(f'branch_fns must be a list, tuple or dict, got {type(branch_fns)}')
    if not pairs:
        raise ValueError('branch_fns must not be empty')
    keys = [k for k, _ in pairs]
    if keys != list(range(len(pairs))):
        raise ValueError(f'branch indices (keys) must be 0..{len(pairs) - 1}, got {keys}')
    for k, fn in pairs:
        if not callable(fn):
            raise TypeError(f'branch_fns[{k}] must be callable')
    return [fn for _, fn in pairs]


def case(pred_fn_pairs: Any, default: Callable[[], Any] | None = None, exclusive: bool = False,
         strict: bool = False, name: str = 'case') -> Any:
    """Runs the fn of the first pair whose predicate is true, else default (TF's tf.case).

    Built as nested conds, as TF does; `exclusive` is accepted (the first true predicate wins)."""
    if isinstance(pred_fn_pairs, dict):
        pred_fn_pairs = list(pred_fn_pairs.items())
    pairs = list(pred_fn_pairs)
    for i, pair in enumerate(pairs):
        if not (isinstance(pair, (list, tuple)) and len(pair) == 2 and callable(pair[1])):
            raise TypeError(f'pred_fn_pairs[{i}] must be a (predicate, callable) pair')
        if not isinstance(pair[0], Tensor):  # TF's tf.case does not allow Python predicates
            raise TypeError(f'pred must be a Tensor, got: {pair[0]!r}')
    if default is None:
        if not pairs:
            raise ValueError('tf.case needs at least one pair or a default')
        pairs, default = pairs[:-1], pairs[-1][1]
    elif not callable(default):
        raise TypeError('default must be callable.')

    def chain(rest):
        if not rest:
            return default()
        pred, fn = rest[0]
        return cond(pred, fn, lambda: chain(rest[1:]), name=name)
    return chain(pairs)


def _build(kind, selector, fns, labels, name):
    graphs, results = [], []
    for fn, label in zip(fns, labels):
        g = cf.new_subgraph(f'{name}_{label}')
        results.append(cf.trace_into(g, fn))
        graphs.append(g)
    results = _match_slices_indices(graphs, results)
    flat = _check_outputs(results, labels, name)
    for g, outputs in zip(graphs, flat):
        g.outputs = [t for t in outputs if t is not None]
    inputs = cf.order_captures(graphs, [[] for _ in graphs])
    cf.notify_variable_reads(graphs)
    outputs = create(kind, selector, graphs, inputs)
    it = iter(outputs)
    full = [None if t is None else next(it) for t in flat[0]]
    return cf.pack(results[0], full) if results[0] is not None else None


def _match_slices_indices(graphs, results):
    """Branches returning IndexedSlices whose indices differ in dtype get int64 indices, as TF's
    cond makes them match (one branch's rows from tf.where, another's from a gather's int32)."""
    try:
        leaves = [nest.flatten(r) for r in results]
        positions = list(zip(*leaves))
    except (TypeError, ValueError):
        return results   # a structure mismatch: _check_outputs says so
    if len({len(f) for f in leaves}) != 1:
        return results
    for i, outs in enumerate(positions):
        if not all(isinstance(o, IndexedSlices) for o in outs) or \
                len({o.indices.dtype for o in outs}) == 1:
            continue
        for g, branch in zip(graphs, leaves):
            if branch[i].indices.dtype is dtypes.int32:
                branch[i] = cf.trace_into(g, _int64_indices, branch[i])
    return [r if r is None else nest.pack_sequence_as(r, f) for r, f in zip(results, leaves)]


def _int64_indices(slices):
    return IndexedSlices(slices.values, base_ops.cast(slices.indices, dtypes.int64),
                         slices.dense_shape)


def _check_outputs(results, labels, name):
    """Branch outputs must agree in structure and dtype (TF raises TypeError); returns each
    branch's flat outputs."""
    op = 'tf.cond' if len(results) == 2 and labels[0] == 'true_fn' else f'tf.{name}'
    for label, result in zip(labels[1:], results[1:]):
        try:
            nest.assert_same_structure(results[0], result)
            for a, b in zip(nest.flatten(results[0]), nest.flatten(result)):
                if cf.is_composite(a) != cf.is_composite(b) or \
                        (a is None) != (b is None):
                    raise ValueError(f'{a!r} and {b!r} are different kinds of value')
        except (ValueError, TypeError) as exc:
            raise TypeError(
                f'{labels[0]} and {label} arguments to {op} must have the same number, type, and '
                f'overall structure of return values.\n\n{labels[0]} output: {results[0]!r}\n'
                f'{label} output: {result!r}\n\nError details:\n{exc}') from None
    flat = [cf.flatten(r) for r in results]
    paths = cf.leaf_paths(results[0])
    for label, outputs in zip(labels[1:], flat[1:]):
        for path, a, b in zip(paths, flat[0], outputs):
            if a is not None and a.dtype is not b.dtype:
                where = f'output{path}' if path else 'the output'
                raise TypeError(
                    f'{op}: {where} of {labels[0]} has dtype {a.dtype.name}, but of {label} '
                    f'dtype {b.dtype.name}; every branch must return the same dtypes (use '
                    f'tf.cast in one of them).')
    return flat
