"""The one builder of a sub-graph's gradient, shared by the backward of a compiled call
(concrete.py) and the gradients of cond's branches and of while_loop's body (control_flow/).

`GradientGraph(forward, targets, sources, name)` runs the backward pass (backprop.backward) over
the ops of the FuncGraph `forward` into a new FuncGraph: one placeholder (a *seed*) per target
receives the target's incoming gradient, and `grads` holds the gradient of each source, a tensor
of the new graph, or None where the source is unconnected. The new graph reads the forward tensors
it needs by capturing them; `forward_reads()` lists those (the caller decides how each is fed: a
forward input, an intermediate the forward op declares, a per-iteration stack), `outer_reads()`
the tensors of enclosing graphs it captured. Callers then set its inputs and outputs. A target may
be a tensor of another graph (a branch's stand-in for another branch's intermediate): its seed
then reaches nothing.
"""
from __future__ import annotations

from collections.abc import Sequence

from defun.autodiff import backprop
from defun.core import context
from defun.graphs.funcgraph import FuncGraph
from defun.graphs.graph import Graph
from defun.graphs.operation import GraphTensor
from defun.core.shapes import TensorShape
from defun.core.tensor import Tensor

__all__ = ['GradientGraph']


class GradientGraph:
    """The gradient of `forward` from seeds for `targets` to `sources` (see the module doc).

    seed_shapes: the static shape of each seed (default: its target's shape; a loop body's seed
    takes the loop variable's shape invariant). outer_graph: the graph the gradient graph is
    nested in, whose tensors it may capture (None: a standalone function)."""

    def __init__(self, forward: FuncGraph, targets: Sequence[Tensor], sources: Sequence[Tensor],
                 name: str, seed_shapes: Sequence[TensorShape] | None = None,
                 outer_graph: Graph | None = None) -> None:
        self.forward = forward
        self.graph = graph = FuncGraph(name, outer_graph=outer_graph, foreign_ok=True)
        shapes = seed_shapes if seed_shapes is not None else [t.shape for t in targets]
        with context.graph_mode(graph, fresh_tapes=True):
            self.seeds, target_grads = [], {}
            for t, shape in zip(targets, shapes):
                ph = graph.add_placeholder(t.dtype, shape.as_tuple(), 'grad')
                self.seeds.append(ph)
                target_grads.setdefault(id(t), []).append(ph)
            results = backprop.backward(forward.get_operations(), target_grads,
                                        {id(s) for s in sources})
            # A sub-graph's outputs are tensors: sparse gradients (of a gather) are densified.
            self.grads = [None if results.get(id(s)) is None else
                          graph.internalize(backprop.dense(results[id(s)])) for s in sources]

    def building(self):
        """A context in which new ops go to the gradient graph (with no tape recording them)."""
        return context.graph_mode(self.graph, fresh_tapes=True)

    def forward_reads(self) -> list[tuple[Tensor, Tensor]]:
        """(forward tensor, placeholder) for each tensor of `forward` the gradient reads."""
        return [(source, ph) for source, ph in self.graph.captures
                if isinstance(source, GraphTensor) and source.op.graph is self.forward]

    def outer_reads(self) -> list[tuple[Tensor, Tensor]]:
        """(tensor, placeholder) for each tensor of another graph the gradient reads."""
        return [(source, ph) for source, ph in self.graph.captures
                if not (isinstance(source, GraphTensor) and source.op.graph is self.forward)]
