"""The nodes of a graph: Operation (an op type applied to input tensors, with attrs) and
GraphTensor (a symbolic tensor, output `value_index` of an Operation), with TensorFlow's API.

Graph.create_op (graph.py) builds both; a GraphTensor's Python protocol refuses what needs a value
(bool, iteration, numpy) with TF's exceptions and messages.
"""
from __future__ import annotations

import linecache
from typing import Any

from defun.core import errors
from defun.core.shapes import TensorShape
from defun.core.tensor import Tensor
from defun.core.user_frame import user_origin

__all__ = ['GraphTensor', 'Operation', 'as_shape']


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
        return self.op.graph.partial_fold(self)

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

    def get_attr(self, name: str) -> Any:
        try:
            return self.attrs[name]
        except KeyError:
            raise ValueError(f"Operation '{self.name}' has no attr named '{name}'.") from None

    def values(self):
        return self.outputs

    def __repr__(self):
        return f"<tf.Operation '{self.name}' type={self.type}>"


def as_shape(shape):
    # Inference rules return tuples of ints/None (trusted, the fast path) or anything TensorShape
    # accepts.
    if type(shape) is tuple:
        for d in shape:
            if d is not None and type(d) is not int:
                return TensorShape(shape)
        return TensorShape.from_tuple(shape)
    return shape if isinstance(shape, TensorShape) else TensorShape(shape)
