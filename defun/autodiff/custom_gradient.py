"""`custom_gradient`: a function that computes its own gradient, in eager code and in graphs alike.

The user's function runs with the enclosing tapes paused (its inner ops are not recorded) while a
private tape notes which trainable variables it reads. Its outputs then pass through the
CustomGradient op, whose inputs are also the arguments and those variables' handles, and whose
gradient calls the user's gradient function. Tapes record that op; `gradients()` and compiled
backward graphs call the same gradient function.
"""
import functools
import inspect

from defun.core import context, nest
from defun.graphs.funcgraph import FuncGraph
from defun.ops.framework.python_ops import custom_gradient_op
from defun.autodiff.tape import GradientTape, TapeRecords, variable_accessed
from defun.core.tensor import convert_to_tensor

__all__ = ['custom_gradient', 'UserGradient', 'recompute_grad']


def custom_gradient(f=None):
    """Decorator: f(*args) returns (outputs, grad_fn); grad_fn(*output_grads) returns the gradients
    of the arguments (and, when f reads variables, takes `variables=` and also returns theirs)."""
    if f is None:
        return custom_gradient

    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        tensors = [convert_to_tensor(a) for a in args]
        watcher = TapeRecords(watch_accessed=True)
        with context.tape_stack([watcher]):
            result, grad_fn = f(*tensors, **kwargs)
        variables = list(watcher.variables.values())
        if variables and not _accepts_variables(grad_fn):
            # TF checks the signature here, on the forward call, not when gradients are taken.
            raise TypeError(f"@tf.custom_gradient grad_fn must accept keyword argument "
                            f"'variables', since function uses variables: "
                            f"{[v.name for v in variables]}")
        # The enclosing tapes did not see these reads; tell them, so that they watch the
        # variables (as TF does) and record the op below even when no argument is watched.
        for variable in variables:
            variable_accessed(variable)
        flat = [convert_to_tensor(o) for o in nest.flatten(result)]

        gradient = UserGradient(f, grad_fn, len(tensors), variables)
        outputs = custom_gradient_op(flat, tensors, [v.handle for v in variables], gradient)
        return nest.pack_sequence_as(result, list(outputs))
    return wrapper


def recompute_grad(f):
    """`f` computed without keeping its intermediates for the gradient: the backward pass runs
    `f` again under a tape (memory for time, as tf.recompute_grad). Gradients reach the tensor
    arguments and the variables `f` reads."""
    @custom_gradient
    def recomputing(*args, **kwargs):
        result = f(*args, **kwargs)

        def grad(*result_grads, variables=None):
            variables = list(variables or [])
            with GradientTape(watch_accessed_variables=False) as tape:
                tape.watch(list(args) + variables)
                again = f(*args, **kwargs)
            grads = tape.gradient(again, list(args) + variables,
                                  output_gradients=list(result_grads))
            if variables:
                return grads[:len(args)], grads[len(args):]
            return grads
        return result, grad
    functools.update_wrapper(recomputing, f)
    return recomputing


class UserGradient:
    """What a CustomGradient op calls for its gradient: the user's grad_fn, checked. It can also
    be traced into a graph (how a SavedModel keeps a custom gradient as data)."""

    def __init__(self, f, grad_fn, n_args, variables):
        self._f, self._grad_fn, self._n_args, self._variables = f, grad_fn, n_args, variables

    def __call__(self, *output_grads):
        return _call_user_gradient(self._f, self._grad_fn, output_grads, self._n_args,
                                   self._variables)

    def trace(self, op):
        """(graph, mask): this gradient traced for `op`'s output gradients in a FuncGraph inside
        op's graph; `mask` marks which gradients (arguments, then variables) are not None, and
        only those are the graph's outputs."""
        n_out = op.get_attr('n_out')
        graph = FuncGraph(f'{op.name}_gradient', outer_graph=op.graph)
        with context.graph_mode(graph, fresh_tapes=True):
            seeds = [graph.add_placeholder(t.dtype, t.shape.as_tuple(), 'grad')
                     for t in op.outputs[:n_out]]
            arg_grads, var_grads = self(*seeds)
            grads = list(arg_grads) + list(var_grads)
            graph.outputs = [graph.internalize(convert_to_tensor(g)) for g in grads
                             if g is not None]
        graph.inputs = seeds + graph.internal_captures
        return graph, [g is not None for g in grads]


def _accepts_variables(grad_fn):
    spec = inspect.getfullargspec(grad_fn)
    return 'variables' in spec.args or 'variables' in spec.kwonlyargs or spec.varkw is not None


def _call_user_gradient(f, grad_fn, output_grads, n_args, variables):
    name = getattr(f, '__name__', 'function')
    if variables:
        arg_grads, var_grads = grad_fn(*output_grads, variables=variables)
        var_grads = list(var_grads)
    else:
        arg_grads, var_grads = grad_fn(*output_grads), []
    arg_grads = list(arg_grads) if isinstance(arg_grads, (list, tuple)) else [arg_grads]
    if len(arg_grads) != n_args:
        raise ValueError(f'The custom gradient function of {name} returned {len(arg_grads)} '
                         f'gradients, but {name} has {n_args} tensor arguments')
    if len(var_grads) != len(variables):
        raise ValueError(f'The custom gradient function of {name} returned {len(var_grads)} '
                         f'variable gradients for {len(variables)} variables')
    return arg_grads, var_grads
