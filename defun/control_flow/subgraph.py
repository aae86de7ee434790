"""What the control-flow ops share: tracing a Python function into a sub-FuncGraph, composite values
(TensorArray, and composite tensors such as SparseTensor and RaggedTensor, which cross a boundary
as their components) inside branch outputs and loop variables, ordering the captures of several sub-graphs
into one input list, a cache of compiled sub-graphs, and copying a graph into the current one.

The ops themselves live in cond_ops.py (If, Case: cond, case, switch_case) and while_ops.py
(While: while_loop, run by while_runner.py); TensorArray in tensor_array.py; map_fn, scan, foldl
and foldr in higher_order.py.

A sub-graph's `inputs` are its placeholders in the order the op feeds them; its `outputs` what it
returns. Ops that hold sub-graphs are *extended* when they are differentiated (their gradient needs
intermediates of the sub-graphs, which become extra outputs, as TF's cond_v2 and while_v2 do), so
everything here compiles sub-graphs for the outputs an op asks for, never for a fixed list.
"""
import weakref

import numpy as np

from defun.core import context, dtypes, error_helpers, nest
from defun.core.composite import CompositeTensor, TypeSpec, spec_of
from defun.core.variable_base import is_variable, read_variable
from defun.core.dispatch import apply_op
from defun.compiler.executor import compile_graph
from defun.graphs.funcgraph import FuncGraph
from defun.graphs.operation import GraphTensor
from defun.ops.framework import base_ops
from defun.core.shapes import TensorShape, TensorSpec
from defun.autodiff.tape import variable_accessed
from defun.core.tensor import Tensor, convert_to_tensor

__all__ = []


class CompositeValue:
    """A Python value made of tensors that can cross a branch or loop boundary (TensorArray).

    Subclasses say which tensors they are made of, how to rebuild themselves from new tensors, and
    which shapes those tensors may take across loop iterations."""

    def component_tensors(self):
        raise NotImplementedError

    def from_components(self, tensors):
        raise NotImplementedError

    def component_invariants(self):
        """The most general shapes the components may take across loop iterations."""
        return [t.shape for t in self.component_tensors()]


def is_composite(value):
    """A TensorArray-like CompositeValue or a composite tensor (SparseTensor, RaggedTensor)."""
    return isinstance(value, (CompositeValue, CompositeTensor))


def components(leaf):
    """The tensors a composite leaf is made of."""
    if isinstance(leaf, CompositeValue):
        return leaf.component_tensors()
    return nest.flatten(leaf, expand_composites=True)


def rebuild(leaf, tensors):
    """A composite leaf like `leaf` made of other tensors."""
    if isinstance(leaf, CompositeValue):
        return leaf.from_components(tensors)
    return nest.pack_sequence_as(leaf, list(tensors), expand_composites=True)


def component_invariants(leaf, spec=None):
    """The most general shapes a composite leaf's components may take across loop iterations:
    for a composite tensor, those of its TypeSpec's components (or of `spec`, its invariant: a
    TypeSpec, or a shape, which as in TF stands for the leaf's spec with that shape)."""
    if isinstance(leaf, CompositeValue):
        return leaf.component_invariants()
    if spec is None:
        spec = spec_of(leaf)
    elif not isinstance(spec, TypeSpec):
        spec = spec_of(leaf)._with_shape(spec if isinstance(spec, TensorShape) else
                                         TensorShape(getattr(spec, 'shape', spec)))
    return [s.shape for s in nest.flatten(spec, expand_composites=True)]


def flatten(structure):
    """The tensors (and None leaves) of a nested structure, composites expanded."""
    out = []
    for leaf in nest.flatten(structure):
        if is_composite(leaf):
            out.extend(components(leaf))
        else:
            out.append(leaf)
    return out


def pack(structure, flat):
    """Inverse of `flatten`: rebuilds `structure` (its composites too) around the tensors `flat`."""
    flat = list(flat)
    position = 0
    leaves = []
    for leaf in nest.flatten(structure):
        if isinstance(leaf, TypeSpec) and not isinstance(leaf, TensorSpec):
            n = len(nest.flatten(leaf, expand_composites=True))   # a composite's invariant spec
            leaves.append(nest.pack_sequence_as(leaf, flat[position:position + n],
                                                expand_composites=True))
            position += n
        elif is_composite(leaf):
            n = len(components(leaf))
            leaves.append(rebuild(leaf, flat[position:position + n]))
            position += n
        else:
            leaves.append(flat[position])
            position += 1
    return nest.pack_sequence_as(structure, leaves)


def leaf_paths(structure):
    """A readable path for each flattened tensor ('[1]', "['v']"), for error messages."""
    paths = []
    for path, leaf in nest.flatten_with_tuple_paths(structure):
        count = len(components(leaf)) if is_composite(leaf) else 1
        paths.extend([''.join(f'[{k!r}]' for k in path)] * count)
    return paths


def to_graph_value(value):
    """A value a branch or loop body returns, as a tensor (or composite) of the current graph:
    variables are read, Python numbers converted, outer tensors captured."""
    if value is None:
        return value
    if is_composite(value):
        return rebuild(value, [to_graph_value(t) for t in components(value)])
    if is_variable(value):
        value = read_variable(value)
    if not isinstance(value, Tensor):
        value = convert_to_tensor(value)
    graph = context.current_graph()
    if graph is not None and not (isinstance(value, GraphTensor) and value.op.graph is graph):
        value = graph.internalize(value)
    return value


def new_subgraph(name):
    """A FuncGraph nested in the current graph (captures go through the current graph)."""
    graph = FuncGraph(name, outer_graph=context.current_graph())
    graph.jit_compile = False   # the native tier lowers it as part of its op, never alone
    return graph


def trace_into(graph, fn, *args):
    """Calls fn(*args) with `graph` as the current graph; ops inside are not seen by the enclosing
    tapes (the op holding the graph is recorded as a whole)."""
    with context.graph_mode(graph, fresh_tapes=True):
        result = fn(*args)
        return nest.map_structure(to_graph_value, result) if result is not None else None


def order_captures(graphs, leading_inputs):
    """Gives every graph the same captured outer tensors, in one order; sets each graph's
    `inputs` to its leading placeholders followed by its placeholders for those tensors.

    Returns the outer tensors, which the op holding the graphs takes as inputs after the leading
    ones."""
    union, seen = [], set()
    for g in graphs:
        for outer, _ in g.captures:
            if id(outer) not in seen:
                seen.add(id(outer))
                union.append(outer)
    for g, leading in zip(graphs, leading_inputs):
        by_source = {id(outer): inner for outer, inner in g.captures}
        placeholders = []
        for outer in union:
            inner = by_source.get(id(outer))
            if inner is None:
                inner = g.capture(outer)
            placeholders.append(inner)
        g.inputs = list(leading) + placeholders
    return union


def is_stateful(graphs):
    return any(op.opdef.stateful for g in graphs for op in g.get_operations())


def notify_variable_reads(graphs):
    """Tapes watching accessed variables must see the variables a sub-graph reads (they were read
    while the enclosing tapes were set aside)."""
    if context.tapes():
        for g in graphs:
            for v in g.variables:
                variable_accessed(v)


_COMPILED = weakref.WeakKeyDictionary()


def compiled(graph, outputs, name=None):
    """The callable computing `outputs` (tensors of `graph`) from `graph.inputs`, built once."""
    per_graph = _COMPILED.setdefault(graph, {})
    key = (tuple(id(t) for t in graph.inputs), tuple(id(t) for t in outputs))
    fn = per_graph.get(key)
    if fn is None:
        fn = per_graph[key] = compile_graph(graph, list(graph.inputs), list(outputs),
                                            name or graph.name)
    return fn


def import_graph(graph, feeds, outputs):
    """Copies the ops of `graph` into the current graph, with its placeholders replaced by
    `feeds` (id(placeholder) -> tensor); returns the copies of `outputs`.

    How a gradient body built once, standalone, becomes the body of a loop that feeds it the
    values of one iteration."""
    mapping = dict(feeds)
    for op in graph.get_operations():
        if op.opdef.is_placeholder:
            continue  # fed, or unused (an op reading an unfed one fails below, naming it)
        try:
            inputs = [mapping[id(t)] for t in op.inputs]
        except KeyError:
            missing = next(t for t in op.inputs if id(t) not in mapping)
            raise ValueError(f'import_graph: {missing.name} of {graph.name} is not fed') from None
        attrs = dict(op.attrs) if op.attrs else None
        result = apply_op(op.opdef, inputs, attrs, op.name.rsplit('/', 1)[-1])
        results = (result,) if op.opdef.num_outputs == 1 else tuple(result)
        for original, copy in zip(op.outputs, results):
            mapping[id(original)] = copy
    return [mapping[id(t)] for t in outputs]


def graph_tensor_in_current(t):
    """A tensor of another graph made usable in the current one (captured if need be)."""
    graph = context.current_graph()
    if isinstance(t, GraphTensor) and graph is not None and t.op.graph is not graph:
        return graph.internalize(t)
    return t


def forward_operation(op):
    """The graph Operation behind `op` (an Operation, or a tape's record of one)."""
    if hasattr(op, 'graph'):
        return op
    return op.outputs[0].op


def known_zeros(grads):
    """The gradients with those known to be zeros (the backward pass's stand-ins for missing
    gradients) replaced by None, so the gradient of a control-flow op skips their work."""
    return [None if isinstance(g, GraphTensor) and g.op.opdef is base_ops.ZEROS_LIKE else g
            for g in grads]


def most_specific_shape(shapes):
    shape = TensorShape(shapes[0])
    for other in shapes[1:]:
        shape = shape.most_specific_compatible_shape(other)
    return shape


def as_bool_scalar(value, what):
    """Checks a predicate: a bool tensor of rank 0 (TypeError / ValueError otherwise)."""
    if isinstance(value, (bool, np.bool_)):
        return convert_to_tensor(bool(value))
    tensor = convert_to_tensor(value) if not isinstance(value, Tensor) else value
    if tensor.dtype is not dtypes.bool:
        raise TypeError(f'{what} must be a boolean tensor, got {tensor.dtype.name} tensor '
                        f'{_describe(tensor)}; compare it with a value (e.g. x > 0) or tf.cast it '
                        f'to tf.bool')
    rank = tensor.shape.rank
    if rank is not None and rank != 0:
        raise ValueError(f'{what} must be a scalar (rank 0), got shape {tensor.shape}')
    return tensor


def _describe(t):
    try:
        return t.name
    except AttributeError:  # an eager tensor: its dtype and shape, not its values
        return error_helpers.describe(t)
