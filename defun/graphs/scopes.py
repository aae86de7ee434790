"""`name_scope` and `control_dependencies` as TF2 exposes them: they shape the ops of the graph being
built and are harmless no-ops in eager execution; and the questions a program asks about where it
runs: `get_current_name_scope`, `inside_function`, `is_symbolic_tensor`."""
import contextlib

from defun.core import context
from defun.graphs.funcgraph import FuncGraph
from defun.core.tensor import EagerTensor, Tensor

__all__ = ['name_scope', 'control_dependencies', 'get_current_name_scope', 'inside_function',
           'is_symbolic_tensor']


def get_current_name_scope():
    """The current name scope without its trailing slash ('' at the top, 'a/b' inside)."""
    return context.current_frame().scope.rstrip('/')


def inside_function():
    """True while a `function` is being traced (not in eager code nor a plain Graph)."""
    return isinstance(context.current_graph(), FuncGraph)


def is_symbolic_tensor(tensor):
    """True for a graph tensor (one being built), False for eager tensors and other values."""
    return isinstance(tensor, Tensor) and not isinstance(tensor, EagerTensor)


class name_scope:  # noqa: N801 - TensorFlow's name
    """Prefixes the names of ops created in the block with `name/` (a graph concern only)."""

    def __init__(self, name):
        # The name's characters are checked on entering, while a graph is built (as TF does).
        if not isinstance(name, str):
            raise ValueError('name for name_scope must be a string.')
        self._name = name
        self._managers = []  # one per active `with`, so the same object may be entered nested

    @property
    def name(self):
        return self._name

    def __enter__(self):
        manager = context.name_scope(self._name)
        scope = manager.__enter__()
        self._managers.append(manager)
        return scope

    def __exit__(self, *exc):
        return self._managers.pop().__exit__(*exc)


@contextlib.contextmanager
def control_dependencies(control_inputs):
    """Ops created in the block run after `control_inputs` (eager: they already ran)."""
    if context.executing_eagerly():
        yield
        return
    with context.control_dependencies(control_inputs):
        yield
