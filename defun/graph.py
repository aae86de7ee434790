"""Graphs: Graph, Operation and GraphTensor (symbolic tensors), with TensorFlow's API.

While a graph is the current one (`Graph.as_default()`, or a FuncGraph being traced), the dispatch
point calls `Graph.create_op`, which infers each output's dtype and static shape with the op's own
rule and appends an Operation. Ops are kept in creation order, which is a topological order and the
program order that stateful ops must keep.

FuncGraph (funcgraph.py) adds inputs, outputs and captures on top of this.
"""
from __future__ import annotations

import contextlib
import linecache
from collections.abc import Sequence
from typing import Any

import numpy as np

from defun import context, dtypes, errors, folding, graph_text, names
from defun.user_frame import user_origin
from defun.registry import OpDef, define_op
from defun.shapes import TensorShape
from defun.tensor import EagerTensor, Tensor

__all__ = ['Graph', 'Operation', 'GraphTensor', 'get_default_graph', 'placeholder']


class GraphTensor(Tensor):
    """A symbolic tensor: output `value_index` of operation `op`."""

    __slots__ = ('op', 'value_index', 'dtype', '_shape')

    def __init__(self, op, value_index, dtype, shape):
        self.op = op
        self.value_index = value_index
        self.dtype = dtype
        self._shape = shape

    @property
    def shape(self):
        return self._shape

    def set_shape(self, shape):
        self._shape = self._shape.merge_with(shape)

    @property
    def graph(self):
        return self.op.graph

    @property
    def device(self):
        return self.op.device

    @property
    def name(self):
        return f'{self.op.name}:{self.value_index}'

    def consumers(self):
        return [op for op in self.op.graph.get_operations() if any(t is self for t in op.inputs)]

    def static_value(self):
        """The value if it can be computed at build time (constant folding), else None."""
        return self.op.graph.fold(self)

    def partial_value(self):
        """The elements of this integer scalar or vector known at build time (see
        folding.partial_fold): an int, a list with None for unknown elements, or None."""
        return folding.partial_fold(self)

    def _where(self):
        graph = self.op.graph
        origin = user_origin()
        place = f' in {getattr(graph, "name", "a graph")}'
        if origin is not None:
            filename, lineno, _ = origin
            line = linecache.getline(filename, lineno).strip()
            place += f', at {filename}:{lineno}: {line}'
        return place

    @property
    def numpy(self):
        # As TF's symbolic tensors: no `numpy` attribute at all (hasattr(t, 'numpy') is False).
        raise AttributeError(
            f"'SymbolicTensor' object has no attribute 'numpy': {self.name} is a symbolic "
            f"tensor of a graph being built{self._where()}; numpy() is only available when eager "
            f"execution is enabled. Use tensor ops, or tf.py_function / tf.numpy_function to run "
            f"numpy code on its value.")

    def __bool__(self):
        raise errors.OperatorNotAllowedInGraphError(
            _not_allowed('Using a symbolic `tf.Tensor` as a Python `bool`'))

    def __iter__(self):
        # As TF, whatever the static shape: a Python loop over a graph tensor would unroll it
        # silently; AutoGraph turns `for v in x` into a loop op instead.
        raise errors.OperatorNotAllowedInGraphError(_not_allowed('Iterating over a symbolic `tf.Tensor`'))

    def __len__(self):
        raise TypeError(f'len is not well defined for a symbolic Tensor ({self.name}). Please call '
                        f'`x.shape` rather than `len(x)` for shape information.')

    def __index__(self):
        raise TypeError(f'A symbolic tensor ({self.name}) cannot be used as a Python index; '
                        f'its value is unknown until the function runs.')

    def __float__(self):
        raise TypeError(f'A symbolic tensor ({self.name}) cannot be converted to a Python float '
                        f'while tracing.')

    __int__ = __float__

    def __array__(self, dtype=None, copy=None):
        raise NotImplementedError(
            f'Cannot convert a symbolic tf.Tensor ({self.name}) to a numpy array. This error may '
            f'indicate that you are trying to pass a Tensor to a NumPy call, which is not supported.')

    def __repr__(self):
        return f"<tf.Tensor '{self.name}' shape={self._shape} dtype={self.dtype.name}>"

    def __str__(self):
        # What Python's print shows of a symbolic tensor (print runs at trace time), as TF (which
        # leaves the shape out when even the rank is unknown).
        shape = f', shape={self._shape}' if self._shape.rank is not None else ''
        return f'Tensor("{self.name}"{shape}, dtype={self.dtype.name})'


def _not_allowed(what):
    """TF's text for a Python use of a symbolic tensor that needs its value."""
    return (f'{what} is not allowed. You can attempt the following resolutions to the problem: If '
            f'you are running in Graph mode, use Eager execution mode or decorate this function '
            f'with @tf.function. If you are using AutoGraph, you can try decorating this function '
            f'with @tf.function. If that does not work, then you may be using an unsupported '
            f'feature or your source code may not be visible to AutoGraph. See '
            f'https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/autograph/'
            f'g3doc/reference/limitations.md#access-to-source-code for more information.')


class Operation:
    """A node of a graph: an op type applied to input tensors, with attrs and control inputs."""

    __slots__ = ('graph', 'opdef', 'type', 'name', 'inputs', 'outputs', 'attrs', 'control_inputs',
                 'gradient_type', 'origin', 'device', '__weakref__')

    def __init__(self, graph, opdef, name, inputs, attrs, control_inputs, origin):
        self.graph = graph
        self.opdef = opdef
        self.type = opdef.type
        self.name = name
        self.inputs = tuple(inputs)
        self.attrs = attrs or {}
        self.control_inputs = tuple(control_inputs)
        self.outputs = ()
        self.gradient_type = None
        self.origin = origin
        self.device = ''  # the device a tf.device scope requested (execution is on the CPU)

    @property
    def node_def(self):
        return self.graph.node_def(self)

    def add_output(self, dtype: dtypes.DType, shape: object) -> GraphTensor:
        """Appends an output and returns it: how an op holding sub-graphs grows when it is
        differentiated (its gradient reads intermediates of the sub-graphs, which become extra
        outputs, as TF's cond_v2 and while_v2 add them). Existing outputs never change."""
        tensor = GraphTensor(self, len(self.outputs), dtype, _as_shape(shape))
        self.outputs = self.outputs + (tensor,)
        return tensor

    def set_attr(self, name: str, value: Any) -> None:
        """Sets attr `name` (with add_output, how a control-flow op grows when differentiated)."""
        self.attrs[name] = value

    def get_attr(self, name: str) -> Any:
        try:
            return self.attrs[name]
        except KeyError:
            raise ValueError(f"Operation '{self.name}' has no attr named '{name}'.") from None

    def values(self):
        return self.outputs

    def __repr__(self):
        return f"<tf.Operation '{self.name}' type={self.type}>"


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
            op.outputs = (GraphTensor(op, 0, inferred[0], _as_shape(inferred[1])),)
        else:
            op.outputs = tuple([GraphTensor(op, i, dtype, _as_shape(shape))
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
            raise errors.InaccessibleTensorError(
                f'Tensor {tensor.name} must be from the same graph as the op using it; it belongs '
                f'to another graph.')
        if isinstance(tensor, EagerTensor) and tensor.dtype.name != 'resource':
            return self.add_constant(tensor.array)
        raise errors.InaccessibleTensorError(
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


def _as_shape(shape):
    # Inference rules return tuples of ints/None (trusted, the fast path) or anything TensorShape
    # accepts.
    if type(shape) is tuple:
        for d in shape:
            if d is not None and type(d) is not int:
                return TensorShape(shape)
        return TensorShape.from_tuple(shape)
    return shape if isinstance(shape, TensorShape) else TensorShape(shape)


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
