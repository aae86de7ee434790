"""Symbolic gradients: `gradients(ys, xs, ...)` adds the gradient subgraph to the graph being built.

It walks the ops of the current graph with the same backward pass the eager tape uses (backprop.py),
so the gradient functions, the aggregation of several incoming gradients and the zeros fed for
missing output gradients are the tape's. `stop_gradients` are treated as constants; gradient
overrides (`Graph.gradient_override_map`) are honoured through each op's gradient type.
"""
from __future__ import annotations

import enum
from typing import Any

from defun.autodiff import backprop
from defun.core import context, nest
from defun.graphs.operation import GraphTensor
from defun.ops.framework import base_ops
from defun.core.tensor import Tensor, convert_to_tensor
from defun.core.variable_base import is_variable

__all__ = ['gradients', 'UnconnectedGradients', 'AggregationMethod']


class UnconnectedGradients(enum.Enum):
    """What to return for an x that no y depends on: None, or zeros of x's shape."""
    NONE = 'none'
    ZERO = 'zero'


class AggregationMethod:
    """Accepted for TF compatibility; incoming gradients are always summed with add_n."""
    ADD_N = 0
    DEFAULT = ADD_N
    EXPERIMENTAL_TREE = 1
    EXPERIMENTAL_ACCUMULATE_N = 2


def _as_graph_tensor(graph, value, role):
    if is_variable(value):
        return graph.internalize(value.handle), value.dtype
    if isinstance(value, GraphTensor):
        if value.op.graph is not graph:
            inner = getattr(graph, 'captured', lambda t: None)(value)
            if inner is None:
                raise ValueError(f'{role} {value.name} is not in the graph being built; '
                                 f'tf.gradients needs tensors of the current graph')
            return inner, value.dtype
        return value, value.dtype
    raise TypeError(f'tf.gradients: {role} must be tensors of the graph being built (or '
                    f'variables), got {value!r}')


def gradients(ys: Any, xs: Any, grad_ys: Any = None, name: str = 'gradients',
              gate_gradients: bool = False, aggregation_method: Any = None,
              stop_gradients: Any = None,
              unconnected_gradients: UnconnectedGradients | str = UnconnectedGradients.NONE,
              colocate_gradients_with_ops: bool = True) -> list[Tensor | None]:
    """d(sum of ys)/d(xs) as new tensors of the current graph; a list with one entry per x."""
    graph = context.current_graph()
    if graph is None:
        raise RuntimeError('tf.gradients is not supported when eager execution is enabled. '
                           'Use tf.GradientTape instead.')
    unconnected = backprop.normalize_unconnected(unconnected_gradients)
    flat_ys = [convert_to_tensor(y) for y in nest.flatten(ys)]
    flat_ys = [_as_graph_tensor(graph, y, 'ys')[0] for y in flat_ys]
    keyed_xs = [_as_graph_tensor(graph, x, 'xs') for x in nest.flatten(xs)]
    stops = {id(_as_graph_tensor(graph, s, 'stop_gradients')[0])
             for s in nest.flatten(stop_gradients)} if stop_gradients is not None else set()
    flat_grad_ys = None if grad_ys is None else nest.flatten(grad_ys)
    if flat_grad_ys is not None and len(flat_grad_ys) != len(flat_ys):
        raise ValueError(f'Passed {len(flat_grad_ys)} grad_ys for {len(flat_ys)} ys')
    with context.name_scope(name):
        target_grads = backprop.initial_grads(flat_ys, flat_grad_ys)
        source_ids = {id(x) for x, _ in keyed_xs}
        results = backprop.backward(graph.get_operations(), target_grads, source_ids,
                                    stop_ids=frozenset(stops))
        out = []
        for x, dtype in keyed_xs:
            g = results.get(id(x)) if dtype.is_differentiable else None
            if g is None and unconnected == 'zero':
                g = base_ops.zeros_like(x) if x.dtype.name != 'resource' else None
            out.append(g)
    return out
