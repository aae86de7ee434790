"""Trial tracing: running Python code into a throwaway graph to learn what it would build.

A code generator sometimes has to know the dtypes and shapes a piece of user code produces before it
can build the real op around it; AutoGraph, for one, stages one iteration of a loop body to find
the type of a variable first assigned inside the loop (TF does this in a temporary FuncGraph).
`trial_trace` gives it a FuncGraph nested in the current graph, so the code can read every tensor
of the enclosing graphs (they are captured into the throwaway graph only), and the enclosing tapes
see none of its ops. The graph is dropped afterwards: nothing in it ever runs.
"""
from defun.core import context
from defun.graphs.funcgraph import FuncGraph

__all__ = ['trial_trace']


def trial_trace(fn, *args, name='trial'):
    """Calls fn(*args) with a throwaway graph as the current graph and returns its result.

    Tensors in the result belong to the throwaway graph: inspect them (dtype, shape), never feed
    them to ops of another graph."""
    graph = FuncGraph(name, outer_graph=context.current_graph())
    with context.graph_mode(graph, fresh_tapes=True):
        return fn(*args)
