"""Tracing: runs a Python function on placeholders inside a fresh FuncGraph and packages the result
as a ConcreteFunction.

The trace key says what each argument becomes (placeholders for tensors and numpy arrays, stand-ins
reading the handle placeholder for Variables, Python values passed through as constants of this
trace). Outputs may be nested;
None stays None, Python numbers become constants (returned as tensors, as TF does), variables are
read, and anything else is TF's TypeError. Variables created while tracing go through a hook that
enforces TF's rule (only on the first trace) and lifts their initial value out of the graph.
Everything the trace changes (graph stack, tapes) is restored in `finally` by the context managers.
"""
import numpy as np

from defun.core import context, error_helpers, nest
from defun.functions.concrete import ConcreteFunction
from defun.graphs.funcgraph import FuncGraph
from defun.functions.function_type import function_type
from defun.graphs.operation import GraphTensor
from defun.ops.framework import base_ops
from defun.core.tensor import Tensor, convert_to_tensor
from defun.core.shapes import TensorShape
from defun.core.variable_base import is_variable, read_variable

__all__ = ['trace_function', 'VariablePolicy']


def _bind_call(binder, key, args, kwargs):
    """A concrete function's call bound to the Python signature it was traced with."""
    if binder.signature is None:
        return key.names, list(args)
    bound = binder.signature.bind(*args, **kwargs)
    bound.apply_defaults()
    return key.names, [bound.arguments[n] for n in key.names]


def _call_binder(binder, key, fn_name, inputs, function_type):
    """What a ConcreteFunction called directly does with its arguments: binds them to the Python
    signature (refusing Python values other than those it was traced with) or, failing that, to
    its flat signature (the tensor inputs by placeholder name); TF's TypeError naming both
    failures otherwise. Returns the tensors to feed."""
    def bind(args, kwargs):
        try:
            names, values = _bind_call(binder, key, args, kwargs)
            values = [_as_traced_tensor(key, n, v) for n, v in zip(names, values)]
            wrong = key.mismatch(values)
            if wrong is None:
                return key.feeds(values)
            expected = (repr(wrong[2].trace_type(wrong[1])) if wrong[2] is not None
                        else 'the traced structure')
            reason = f'Can not cast {wrong[1]!r} to {expected}'
        except TypeError as exc:
            reason = str(exc)
        try:
            return _flat_bind(fn_name, [ph.op.name for ph in inputs], args, kwargs)
        except TypeError as exc:
            raise TypeError(
                f'Binding inputs to tf.function failed due to `{reason}`. Received args: {args} '
                f'and kwargs: {kwargs} for signature: {function_type}.\nFallback to flat '
                f'signature also failed due to: {exc}.') from None
    return bind


_CONVERTIBLE = (list, tuple, int, float, complex, np.ndarray, np.generic)


def _as_traced_tensor(key, name, value):
    """A Python or numpy value where the trace has one tensor, converted to its dtype as TF's
    binding does (`cf([1.0, 2.0])`); anything else, or a failed conversion, unchanged."""
    leaf = key.tensor_leaf(name)
    if leaf is None or not isinstance(value, _CONVERTIBLE):
        return value
    try:
        return convert_to_tensor(value, dtype=leaf.dtype)
    except (TypeError, ValueError):
        return value


def _flat_bind(fn_name, names, args, kwargs):
    """The arguments bound to the flat signature `fn_name(names...)`, or TF's TypeError."""
    shown = f'{fn_name}({", ".join(names)})'
    if len(args) > len(names):
        raise TypeError(f'{shown} takes {len(names)} positional arguments, got {len(args)}')
    missing = [n for n in names[len(args):] if n not in kwargs]
    if missing:
        raise TypeError(f'{shown} missing required arguments: {", ".join(missing)}')
    unexpected = [k for k in kwargs if k not in names[len(args):]]
    if unexpected:
        raise TypeError(f'{shown} got unexpected keyword arguments: {", ".join(unexpected)}')
    flat = list(args) + [kwargs[n] for n in names[len(args):]]
    for i, value in enumerate(flat):
        if not isinstance(value, Tensor):
            raise TypeError(f'{shown}: expected argument #{i}(zero-based) to be a Tensor; got '
                            f'{type(value).__name__} ({value!r})')
    return flat


def _snapshot(values):
    """What check_mutation compares: the lists and dicts among the arguments and their contents."""
    return [(v, list(v) if isinstance(v, list) else dict(v))
            for v in nest.substructures(values) if not isinstance(v, tuple)]


def _check_mutation(snapshot, fn_name):
    for container, before in snapshot:
        after = list(container) if isinstance(container, list) else dict(container)
        same = len(after) == len(before) and (
            all(a is b for a, b in zip(after, before)) if isinstance(container, list)
            else all(k in before and after[k] is before[k] for k in after))
        if not same:
            raise ValueError(f'{fn_name}() should not modify its Python input arguments. Check if '
                             f'it modifies any lists or dicts passed as arguments. Modifying a copy '
                             f'is allowed.')


class VariablePolicy:
    """Hook for variables created while tracing: refuses them unless allowed, and lifts their
    initial value (evaluating a graph-computed one with this call's argument values)."""

    def __init__(self, allowed, fn_name, later_call=False):
        self.allowed = allowed
        self.fn_name = fn_name
        self.later_call = later_call
        self.created = []

    def __call__(self, variable):
        # A variable created in a nested function's trace is that function's (TF's variable
        # creators do not pass it on): the enclosing traces neither refuse nor count it.
        policies = [h for h in context.variable_hooks() if isinstance(h, VariablePolicy)]
        if policies[-1] is not self:
            return
        if not self.allowed and self.later_call:
            raise ValueError('Creating variables on a non-first call to a function decorated '
                             'with tf.function.')
        if not self.allowed:
            raise ValueError(
                'tf.function only supports singleton tf.Variables created on the first call. Make '
                'sure the tf.Variable is only created once or created outside tf.function. See '
                'https://www.tensorflow.org/guide/function#creating_tfvariables for more '
                'information.')
        self.created.append(variable)


def _output_tensor(value, graph, fn_name):
    if value is None or isinstance(value, GraphTensor) and value.op.graph is graph:
        return value
    if isinstance(value, Tensor):
        return graph.internalize(value)
    if is_variable(value):
        return read_variable(value)
    if isinstance(value, (bool, int, float, complex, str, bytes, np.ndarray, np.generic)):
        return convert_to_tensor(value)
    if isinstance(value, TensorShape) and value.is_fully_defined():
        return convert_to_tensor(value)  # TF converts a fully known shape, refuses a partial one
    raise TypeError(
        f'To be compatible with tf.function, Python functions must return zero or more Tensors or '
        f'ExtensionTypes or None values; in compilation of {fn_name}, found return value of type '
        f'{type(value).__name__}, which is not a Tensor or ExtensionType.')


def trace_function(fn, fn_name, binder, key, values, feeds, variable_policy):
    """Traces fn on placeholders for `key` (the call's `values` fed `feeds`); returns a
    ConcreteFunction."""
    # Traced inside another trace, the function may close over that graph's tensors (TF allows it).
    graph = FuncGraph(fn_name, outer_graph=context.current_graph())
    with context.graph_mode(graph, fresh_tapes=True), \
            context.variable_creation_hook(variable_policy):
        graph.trace_argument_arrays = [getattr(t, 'array', None) for t in feeds]
        traced_values, arg_placeholders = key.placeholders(values, graph)
        args, kwargs = binder.call_arguments(traced_values)
        snapshot = _snapshot(traced_values)
        try:
            result = fn(*args, **kwargs)
        except RecursionError as exc:
            if graph.outer_graph is not None:
                raise  # reported once, by the outermost trace, where the stack is shallow again
            raise error_helpers.staging_error(exc) from None
        _check_mutation(snapshot, fn_name)
        flat = [_output_tensor(v, graph, fn_name)
                for v in nest.flatten(result, expand_composites=True)]
        # As TF, every output leaves the function through an Identity op of its own (the
        # executor removes them again; they name the outputs 'Identity:0', 'Identity_1:0'...).
        flat = [None if t is None else base_ops.identity(t) for t in flat]
        graph.trace_argument_arrays = None
    graph.structured_outputs = nest.pack_sequence_as(result, flat, expand_composites=True)
    graph.outputs = [t for t in flat if t is not None]
    signature = binder.call_arguments(key.signature(values))
    signature = (tuple(signature[0]), signature[1])
    graph.structured_input_signature = signature
    template = nest.pack_sequence_as(result, flat, expand_composites=True)
    ftype = function_type(binder.signature, key, values, template)
    return ConcreteFunction(graph, arg_placeholders, template, name=fn_name,
                            structured_input_signature=signature, function_type=ftype,
                            arg_binder=_call_binder(binder, key, fn_name, arg_placeholders, ftype))
