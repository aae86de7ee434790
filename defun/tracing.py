"""Tracing: runs a Python function on placeholders inside a fresh FuncGraph and packages the result
as a ConcreteFunction.

Tensor arguments (and numpy arrays) become placeholders with the dtype and shape of their trace key;
other arguments are passed through as Python values, constants of this trace. Outputs may be nested;
None stays None, Python numbers become constants (returned as tensors, as TF does), variables are
read, and anything else is TF's TypeError. Variables created while tracing go through a hook that
enforces TF's rule (only on the first trace) and lifts their initial value out of the graph.
Everything the trace changes (graph stack, tapes) is restored in `finally` by the context managers.
"""
import numpy as np

from defun import context, nest
from defun.concrete import ConcreteFunction
from defun.funcgraph import FuncGraph
from defun.graph import GraphTensor
from defun.tensor import EagerTensor, Tensor, convert_to_tensor
from defun.shapes import TensorSpec
from defun.trace_key import (COMPOSITE, DICT, LIST, NAMEDTUPLE, TENSOR, TUPLE, is_numpy_value,
                             matches_python_values, part_dtype, render)

__all__ = ['trace_function', 'flatten_tensors', 'VariablePolicy']


def flatten_tensors(value, out):
    """Appends the tensor leaves of an argument, in key order (converting numpy arrays)."""
    if isinstance(value, Tensor):
        out.append(value)
    elif hasattr(value, '__tf_composite__'):
        out.extend(value.__tf_composite__()[1])
    elif is_numpy_value(value):
        out.append(EagerTensor(np.asarray(value)))
    elif isinstance(value, (list, tuple)):
        for v in value:
            flatten_tensors(v, out)
    elif isinstance(value, dict):
        for k in sorted(value):
            flatten_tensors(value[k], out)
    return out


def _placeholders(value, part, graph, out, name):
    """Rebuilds an argument with placeholders where its key part says tensor."""
    kind = part[0]
    if kind == TENSOR:
        ph = graph.add_placeholder(part_dtype(part), part[2], name)
        graph.inputs.append(ph)
        out.append(ph)
        return ph
    if kind == COMPOSITE:
        components = []
        for i, spec in enumerate(part[1].component_specs()):
            ph = graph.add_placeholder(spec.dtype, spec.shape.as_tuple(), f'{name}_{i}')
            graph.inputs.append(ph)
            components.append(ph)
        out.extend(components)
        return part[1].from_components(components)
    if kind in (LIST, TUPLE, NAMEDTUPLE):
        children = part[2:] if kind == NAMEDTUPLE else part[1:]
        items = [_placeholders(v, p, graph, out, f'{name}_{i}')
                 for i, (v, p) in enumerate(zip(value, children))]
        if kind == LIST:
            return items
        return type(value)(*items) if kind == NAMEDTUPLE else tuple(items)
    if kind == DICT:
        rebuilt = {k: _placeholders(value[k], p, graph, out, f'{name}_{k}')
                   for k, p in zip(part[1], part[2:])}
        return {k: rebuilt[k] for k in value}
    return value


def _signature_value(value, part, name):
    """An argument as TF's structured_input_signature shows it: TensorSpecs named by their path
    where its key part says tensor, Python values as they are."""
    kind = part[0]
    if kind == TENSOR:
        return TensorSpec(part[2], part_dtype(part), _spec_name(name))
    if kind == COMPOSITE:
        return part[1]
    if kind in (LIST, TUPLE, NAMEDTUPLE):
        fields = getattr(value, '_fields', None) if kind == NAMEDTUPLE else None
        children = part[2:] if kind == NAMEDTUPLE else part[1:]
        items = [_signature_value(v, p, f'{name}_{fields[i] if fields else i}')
                 for i, (v, p) in enumerate(zip(value, children))]
        if kind == LIST:
            return items
        return type(value)(*items) if kind == NAMEDTUPLE else tuple(items)
    if kind == DICT:
        return {k: _signature_value(value[k], p, f'{name}_{k}') for k, p in zip(part[1], part[2:])}
    return value


def _spec_name(path):
    """TF's sanitize_spec_name: lower case, anything but letters and digits becomes '_'."""
    name = ''.join(c if c.isalnum() else '_' for c in path.lower())
    return name if name[:1].isalpha() else 'tensor_' + name


def _call_binder(binder, parts, fn_name):
    """What a ConcreteFunction called directly does with its arguments: binds them, refuses
    Python values other than those it was traced with (TF's TypeError), returns the tensors."""
    def bind(args, kwargs):
        names, values, _ = binder.bind(args, kwargs)
        for name, value, part in zip(names, values, parts):
            if not matches_python_values(part, value):
                raise TypeError(f'{fn_name}: argument `{name}` is {value!r}, but this concrete '
                                f'function was traced with {render(part)}. Call the tf.function '
                                f'itself to trace a new signature.')
        return flatten_tensors(values, [])
    return bind


def _snapshot(values):
    """What check_mutation compares: the lists and dicts among the arguments and their contents."""
    found = []

    def walk(v):
        if isinstance(v, list):
            found.append((v, list(v)))
            for x in v:
                walk(x)
        elif isinstance(v, dict):
            found.append((v, dict(v)))
            for x in v.values():
                walk(x)
        elif isinstance(v, tuple):
            for x in v:
                walk(x)
    walk(values)
    return found


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

    def __init__(self, allowed, fn_name):
        self.allowed = allowed
        self.fn_name = fn_name
        self.created = []

    def __call__(self, variable):
        if not self.allowed:
            raise ValueError(
                f'tf.function only supports singleton tf.Variables created on the first call. Make '
                f'sure the tf.Variable is only created once or created outside tf.function. See '
                f'https://www.tensorflow.org/guide/function#creating_tfvariables for more '
                f'information.')
        self.created.append(variable)


def _output_tensor(value, graph, fn_name):
    if value is None or isinstance(value, GraphTensor) and value.op.graph is graph:
        return value
    if isinstance(value, Tensor):
        return graph.internalize(value)
    if hasattr(value, 'read_value') and hasattr(value, 'handle'):
        return value.read_value()
    if isinstance(value, (bool, int, float, complex, str, bytes, np.ndarray, np.generic)):
        return convert_to_tensor(value)
    raise TypeError(
        f'To be compatible with tf.function, Python functions must return zero or more Tensors or '
        f'ExtensionTypes or None values; in compilation of {fn_name}, found return value of type '
        f'{type(value).__name__}, which is not a Tensor or ExtensionType.')


def trace_function(fn, fn_name, binder, names, values, parts, variable_policy):
    """Traces fn on placeholders for `parts`; returns a ConcreteFunction."""
    # Traced inside another trace, the function may close over that graph's tensors (TF allows it).
    graph = FuncGraph(fn_name, outer_graph=context.current_graph())
    arg_placeholders = []
    with context.graph_mode(graph, fresh_tapes=True), \
            context.variable_creation_hook(variable_policy):
        graph.trace_argument_arrays = [getattr(t, 'array', None)
                                       for t in flatten_tensors(values, [])]
        traced_values = [_placeholders(v, p, graph, arg_placeholders, n)
                         for v, p, n in zip(values, parts, names)]
        args, kwargs = binder.call_arguments(traced_values)
        snapshot = _snapshot(traced_values)
        result = fn(*args, **kwargs)
        _check_mutation(snapshot, fn_name)
        flat = [_output_tensor(v, graph, fn_name) for v in nest.flatten(result)]
        graph.trace_argument_arrays = None
    graph.structured_outputs = nest.pack_sequence_as(result, flat)
    graph.outputs = [t for t in flat if t is not None]
    signature = binder.call_arguments(
        [_signature_value(v, p, n) for v, p, n in zip(values, parts, names)])
    signature = (tuple(signature[0]), signature[1])
    graph.structured_input_signature = signature
    template = nest.pack_sequence_as(result, flat)
    return ConcreteFunction(graph, arg_placeholders, template, name=fn_name,
                            structured_input_signature=signature,
                            arg_binder=_call_binder(binder, parts, fn_name))
