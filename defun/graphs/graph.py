"""Graphs: Graph, and the Const and Placeholder ops every graph uses, with TensorFlow's API.

While a graph is the current one (`Graph.as_default()`, or a FuncGraph being traced), the dispatch
point calls `Graph.create_op`, which infers each output's dtype and static shape with the op's own
rule and appends an Operation. Ops are kept in creation order, which is a topological order and the
program order that stateful ops must keep.

Its nodes, Operation and GraphTensor (symbolic tensors), are in operation.py; FuncGraph
(funcgraph.py) adds inputs, outputs and captures on top of this.
"""
from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any

import numpy as np

from defun.core import context, dtypes, error_helpers, errors, names
from defun.compiler import folding
from defun.graphs import graph_text
from defun.graphs.operation import GraphTensor, Operation, as_shape
from defun.core.user_frame import user_origin
from defun.core.registry import OpDef, define_op
from defun.core.shapes import TensorShape
from defun.core.tensor import EagerTensor, Tensor

__all__ = ['Graph', 'get_default_graph', 'placeholder']


def _const_infer(value, dtype):
    return dtype, np.shape(value)


CONST = define_op('Const', lambda value, dtype: value, _const_infer, None,
                  fold=lambda op: op.attrs['value'])


def _placeholder_kernel(dtype, shape):
    raise errors.InvalidArgumentError(
        f'You must feed a value for placeholder tensor with dtype {dtype.name} and shape {shape}')


PLACEHOLDER = define_op('Placeholder', _placeholder_kernel,
                        lambda dtype, shape: (dtype, shape.as_tuple()), None, is_placeholder=True)


class Graph:
    """A dataflow graph of Operations, as `tf.Graph`."""

    # TF's flag: False for a plain Graph (where `==` on tensors compares identity, as in TF1
    # graph code), True for graphs traced from functions (where `==` is elementwise).
    building_function = False
    # Whether the executor compiles this graph with the native tier (tf.function(jit_compile=True),
    # see defun/compiler/jit/); FuncGraphs take it from the trace that creates them.
    jit_compile = False

    def __init__(self):
        self._ops = []
        self._by_name = {}
        self._used_names = {}
        self._finalized = False
        self._overrides = {}
        self._folded = {}
        self._constants = {}
        self.outer_graph = None
        self.seed = None
        # As TF's: a function graph made while executing eagerly numbers its unseeded random ops
        # 0, 1, 2... (FuncGraph sets this to 0); any other graph uses its op count so far.
        self.seed_offset = None

    def next_op_seed(self):
        """The op seed TF gives an unseeded random op added now (when a global seed is set)."""
        if self.seed_offset is None:
            return len(self._ops)
        offset = self.seed_offset
        self.seed_offset += 1
        return offset

    # -- building
    def as_default(self):
        return context.graph_mode(self)

    def create_op(self, opdef: OpDef, inputs: Sequence[Tensor], attrs: dict | None = None,
                  name: str | None = None) -> Operation:
        """Adds one op and returns it (its `outputs` are the new tensors). Called by the dispatch
        point."""
        if self._finalized:
            raise RuntimeError('Graph is finalized and cannot be modified.')
        inputs = [t if type(t) is GraphTensor and t.op.graph is self else self.internalize(t)
                  for t in inputs]
        try:
            inferred = opdef.infer(*inputs, **attrs) if attrs else opdef.infer(*inputs)
        except errors.InvalidArgumentError as exc:
            # TF's rule: a shape function's InvalidArgument status is a ValueError while building.
            raise ValueError(exc.message) from None
        frame = context.current_frame()
        control = _control_ops(frame.control_inputs) if frame.control_inputs else ()
        if name is not None:
            names.check_op_name(name)
        op = Operation(self, opdef, self.unique_name(frame.scope + (name or opdef.type)),
                       inputs, attrs, control, user_origin())
        if self._overrides:
            op.gradient_type = self._overrides.get(opdef.type)
        if frame.device:
            op.device = frame.device
        if opdef.num_outputs == 1:
            op.outputs = (GraphTensor(op, 0, inferred[0], as_shape(inferred[1])),)
        else:
            op.outputs = tuple([GraphTensor(op, i, dtype, as_shape(shape))
                                for i, (dtype, shape) in enumerate(inferred)])
        self._ops.append(op)
        self._by_name[op.name] = op
        return op

    def internalize(self, tensor):
        """Makes a tensor usable as an input here. A plain Graph embeds eager values as constants
        and refuses tensors of other graphs; FuncGraph captures instead."""
        if isinstance(tensor, GraphTensor):
            if tensor.op.graph is self:
                return tensor
            raise error_helpers.InaccessibleTensorError(
                f'Tensor {tensor.name} must be from the same graph as the op using it; it belongs '
                f'to another graph.')
        if isinstance(tensor, EagerTensor) and tensor.dtype.name != 'resource':
            return self.add_constant(tensor.array)
        raise error_helpers.InaccessibleTensorError(
            f'{tensor!r} cannot be used in a plain tf.Graph; use it inside a tf.function instead.')

    def add_constant(self, array, name=None):
        value = np.asarray(array) if not isinstance(array, np.ndarray) else array
        if value.ndim == 0 and value.dtype.kind != 'O':
            value = value[()]  # a numpy scalar: scalar arithmetic in compiled code is far cheaper
        # Small constants (the Python numbers of `x * 2.0`) are made once per graph.
        key = None
        if value.size <= 16 and value.dtype.kind != 'O' and name is None and not self._finalized:
            key = (value.dtype.str, value.shape, value.tobytes())
            cached = self._constants.get(key)
            if cached is not None:
                return cached
        with context.graph_mode(self) if context.current_graph() is not self else \
                contextlib.nullcontext():
            (out,) = self.create_op(CONST, (), {'value': value,
                                                'dtype': dtypes.from_numpy(value.dtype)},
                                    name or 'Const').outputs
        if key is not None:
            self._constants[key] = out
        return out

    def unique_name(self, name, mark_as_used=True):
        # As TF: names are unique ignoring case ('matmul' then 'MatMul' gives 'MatMul_1').
        key = name.lower()
        count = self._used_names.get(key, 0)
        unique = name if count == 0 else f'{name}_{count}'
        while unique.lower() in self._used_names and unique.lower() != key:
            count += 1
            unique = f'{name}_{count}'
        if mark_as_used:
            self._used_names[key] = count + 1
            self._used_names.setdefault(unique.lower(), 1)
        return unique

    # -- queries
    def get_operations(self) -> list[Operation]:
        return list(self._ops)

    @property
    def operations(self):
        return self._ops

    def get_operation_by_name(self, name: str) -> Operation:
        try:
            return self._by_name[name]
        except KeyError:
            raise KeyError(f"The name '{name}' refers to an Operation not in the graph.") from None

    def get_tensor_by_name(self, name: str) -> GraphTensor:
        op_name, _, index = name.partition(':')
        if not index:
            raise ValueError(f"The name '{name}' looks like an Operation name; tensor names look "
                             f"like '<op_name>:<output_index>'.")
        op = self.get_operation_by_name(op_name)
        try:
            return op.outputs[int(index)]
        except IndexError:
            raise KeyError(f"The name '{name}' refers to a Tensor which does not exist. The "
                           f"operation, '{op_name}', exists but only has {len(op.outputs)} "
                           f'outputs.') from None

    def finalize(self):
        self._finalized = True

    @property
    def finalized(self):
        return self._finalized

    # -- scopes
    def name_scope(self, name):
        return _graph_scope(self, context.name_scope, name)

    def control_dependencies(self, control_inputs):
        return _graph_scope(self, context.control_dependencies, control_inputs)

    @contextlib.contextmanager
    def gradient_override_map(self, op_type_map):
        """Ops of the given types created in the block use another op type's gradient."""
        saved = dict(self._overrides)
        self._overrides.update(op_type_map)
        try:
            yield
        finally:
            self._overrides = saved

    # -- constant folding
    def fold(self, tensor: Tensor) -> Any:
        """Computes `tensor` at build time when it depends only on constants and static shapes."""
        key = id(tensor)
        if key in self._folded:
            return self._folded[key][1]
        value = folding.fold(tensor)
        self._folded[key] = (tensor, value)
        return value

    def partial_fold(self, tensor: Tensor) -> Any:
        """What is known at build time of an integer scalar or vector (folding.partial_fold)."""
        return folding.partial_fold(tensor)

    def node_def(self, op):
        return graph_text.node_def(op)

    def as_graph_def(self):
        """A GraphDef-like object: `node` holds name, op, input and attr per op; JSON-serialisable."""
        return graph_text.graph_def(self)

    def as_text(self) -> str:
        """One line per op: outputs, op type, inputs, dtype and shape (nested graphs indented)."""
        return graph_text.as_text(self)

    def as_dot(self) -> str:
        """The graph in Graphviz DOT text (no Graphviz needed to produce it)."""
        return graph_text.as_dot(self)

    def __repr__(self):
        return f'<{type(self).__name__} with {len(self._ops)} ops>'


def _graph_scope(graph, manager, arg):
    @contextlib.contextmanager
    def scope():
        if context.current_graph() is graph:
            with manager(arg) as value:
                yield value
        else:
            with graph.as_default(), manager(arg) as value:
                yield value
    return scope()


def _control_ops(control_inputs):
    ops = []
    for c in control_inputs:
        if isinstance(c, GraphTensor):
            ops.append(c.op)
        elif isinstance(c, Operation):
            ops.append(c)
        elif c is None or isinstance(c, EagerTensor):
            continue  # eager values have already happened
        elif hasattr(c, 'op') and isinstance(getattr(c, 'op', None), Operation):
            ops.append(c.op)
    return ops


def get_default_graph() -> Graph:
    """The current graph; outside any graph, a per-thread default graph, as in TF."""
    graph = context.current_graph()
    if graph is not None:
        return graph
    return context.default_graph(Graph)


def placeholder(dtype: Any, shape: Any = None, name: str | None = None) -> GraphTensor:
    """compat.v1.placeholder: an input of the current graph (not usable eagerly)."""
    graph = context.current_graph()
    if graph is None:
        raise RuntimeError('tf.placeholder() is not compatible with eager execution.')
    (out,) = graph.create_op(PLACEHOLDER, (), {'dtype': dtypes.as_dtype(dtype),
                                               'shape': TensorShape(shape)},
                             name or 'Placeholder').outputs
    return out
