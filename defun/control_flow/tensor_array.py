"""TensorArray: a list of same-dtype tensors that loops write and read one element at a time.

Eagerly it is a Python list of tensors; writes change it and return it, as TF's eager TensorArray
does, and tapes differentiate through the ops that build and stack it. In a graph it is one dense
buffer tensor (tensor_array_ops.py) and every method returns a new TensorArray (functional style):
the buffer is what crosses a cond or while_loop boundary, so a TensorArray can be a loop variable
or a branch output, and its gradient is the buffer's.
"""
import numpy as np

from defun.core import context, dtypes
from defun.core.dispatch import apply_op
from defun.ops.array import joining as array_ops
from defun.ops.array import tensor_array_ops as ta_ops
from defun.control_flow.subgraph import CompositeValue
from defun.core.shapes import TensorShape
from defun.core.tensor import EagerTensor, Tensor, convert_to_tensor
from defun.ops.support import validation
from defun.core.variable_base import is_variable, read_variable

__all__ = ['TensorArray']


class TensorArray(CompositeValue):
    """A list of tensors of one dtype, as `tf.TensorArray`."""

    def __init__(self, dtype, size=None, dynamic_size=None, clear_after_read=None,
                 tensor_array_name=None, handle=None, flow=None, infer_shape=True,
                 element_shape=None, colocate_with_first_write_call=True, name=None):
        self._dtype = dtypes.as_dtype(dtype)
        self._dynamic_size = bool(dynamic_size)
        self._clear_after_read = clear_after_read
        self._infer_shape = infer_shape
        self._element_shape = TensorShape(element_shape)
        self._elements = None   # eager: list of tensors, None where unwritten
        self._buffer = None     # graph: the dense buffer tensor
        self._static_size = -1  # a fixed size known when traced (TF: constant_value(size))
        if flow is not None:
            self._buffer = flow
            return
        if size is None:
            if not self._dynamic_size:
                raise ValueError('TensorArray: size must be provided unless dynamic_size=True')
            size = 0
        if context.executing_eagerly():
            self._elements = [None] * int(size)
        else:
            size = size if isinstance(size, Tensor) else convert_to_tensor(size, dtypes.int32)
            # TF keeps the size it can read off a constant (not one computed from shapes).
            if getattr(size, 'op', None) is not None and size.op.type == 'Const' and \
                    not self._dynamic_size:
                self._static_size = int(size.static_value())
            self._buffer = apply_op(ta_ops.NEW, (size,), {
                'dtype': self._dtype, 'element_shape': self._element_shape.as_tuple()})

    def _with_buffer(self, buffer, element_shape=None):
        ta = TensorArray.__new__(TensorArray)
        ta._dtype, ta._dynamic_size = self._dtype, self._dynamic_size
        ta._clear_after_read, ta._infer_shape = self._clear_after_read, self._infer_shape
        ta._element_shape = self._element_shape if element_shape is None else element_shape
        ta._elements, ta._buffer = None, buffer
        ta._static_size = self._static_size
        return ta

    # -- properties
    @property
    def dtype(self):
        return self._dtype

    @property
    def element_shape(self):
        return self._element_shape

    @property
    def dynamic_size(self):
        return self._dynamic_size

    @property
    def flow(self):
        """The buffer tensor in a graph (None eagerly, where there is no single tensor)."""
        return self._buffer

    handle = flow

    def __repr__(self):
        return f'<TensorArray dtype={self._dtype.name} element_shape={self._element_shape}>'

    # -- composite protocol: the buffer crosses cond and while_loop boundaries
    def component_tensors(self):
        return [self._graph_buffer()]

    def from_components(self, tensors):
        (buffer,) = tensors
        return self._with_buffer(buffer)

    def component_invariants(self):
        elem = self._element_shape.as_tuple()
        if elem is None or None in elem:
            return [TensorShape(None)]
        return [TensorShape((None,) + elem)]

    def _graph_buffer(self):
        if self._buffer is None:  # an eager TensorArray used by a graph: its current elements
            return EagerTensor(self._stacked_array())
        return self._buffer

    def _eager(self):
        """True when working on the list (eager execution); converts a buffer to a list."""
        if not context.executing_eagerly():
            return False
        if self._elements is None:
            buffer = self._buffer
            array = buffer.array if isinstance(buffer, EagerTensor) else np.asarray(buffer)
            self._elements = [EagerTensor(row) for row in array]
            self._buffer = None
        return True

    # -- reading
    def read(self, index, name=None):
        if self._eager():
            i = int(index)
            if not 0 <= i < len(self._elements):
                raise validation.invalid_argument(
                    f'TensorArray: tried to read from index {i} but array size is: '
                    f'{len(self._elements)}')
            return self._element_or_zeros(i)
        return apply_op(ta_ops.READ, (self._graph_buffer(), ta_ops.int_tensor(index)),
                        {'element_shape': self._element_shape.as_tuple()}, name)

    def _element_or_zeros(self, i):
        value = self._elements[i]
        if value is not None:
            return value
        if not self._element_shape.is_fully_defined():
            raise validation.invalid_argument(
                f'TensorArray: could not read from index {i}: it was never written, and the '
                f'element shape ({self._element_shape}) is not fully defined, so no zeros can '
                f'stand in for it. Write it first, or give the TensorArray an element_shape.')
        return EagerTensor(np.zeros(self._element_shape.as_tuple(), self._dtype.np_dtype))

    def stack(self, name=None):
        if self._eager():
            if not self._elements:
                return EagerTensor(self._stacked_array())
            return array_ops.stack([self._element_or_zeros(i)
                                    for i in range(len(self._elements))])
        return apply_op(ta_ops.STACK, (self._graph_buffer(),),
                        {'element_shape': self._element_shape.as_tuple(),
                         'num_elements': self._static_size}, name)

    def _stacked_array(self):
        elem = self._element_shape.as_tuple()
        if not self._elements:
            return np.zeros((0,) + (elem if elem is not None and None not in elem else ()),
                            self._dtype.np_dtype)
        return np.stack([np.asarray(self._element_or_zeros(i))
                         for i in range(len(self._elements))])

    def gather(self, indices, name=None):
        if self._eager():
            idx = np.asarray(indices).reshape(-1)
            if idx.size == 0:
                return EagerTensor(self._stacked_array()[:0])
            return array_ops.stack([self.read(i) for i in idx])
        return apply_op(ta_ops.GATHER, (self._graph_buffer(), ta_ops.int_tensor(indices)),
                        {'element_shape': self._element_shape.as_tuple()}, name)

    def concat(self, name=None):
        if self._eager():
            if not self._elements:
                return EagerTensor(self._stacked_array())
            return array_ops.concat([self._element_or_zeros(i)
                                     for i in range(len(self._elements))], 0)
        return apply_op(ta_ops.CONCAT, (self._graph_buffer(),),
                        {'element_shape': self._element_shape.as_tuple()}, name)

    def size(self, name=None):
        if self._eager():
            return EagerTensor(np.int32(len(self._elements)))
        return ta_ops.size_of(self._graph_buffer())

    # -- writing
    def _value(self, value, what):
        if isinstance(value, Tensor):
            tensor = value
        elif is_variable(value):
            tensor = read_variable(value)
        else:
            tensor = convert_to_tensor(value, dtype_hint=self._dtype)
        if tensor.dtype is not self._dtype:
            raise validation.invalid_argument(
                f'TensorArray dtype is {self._dtype.name} but Op is trying to {what} dtype '
                f'{tensor.dtype.name}')
        return tensor

    def _merged_shape(self, shape):
        if not self._infer_shape:
            return self._element_shape
        if not self._element_shape.is_compatible_with(shape):
            raise ValueError(f'Incompatible shape for value ({shape}), expected '
                             f'({self._element_shape})')
        return self._element_shape.merge_with(shape)

    def write(self, index, value, name=None):
        value = self._value(value, 'write')
        element_shape = self._merged_shape(value.shape)
        if self._eager():
            i = int(index)
            self._grow(i + 1)
            self._elements[i] = value
            self._element_shape = element_shape
            return self
        buffer, _ = apply_op(ta_ops.WRITE, (self._graph_buffer(), ta_ops.int_tensor(index), value),
                             {'dynamic_size': self._dynamic_size,
                              'element_shape': element_shape.as_tuple()}, name)
        return self._with_buffer(buffer, element_shape)

    def _grow(self, length):
        if length <= 0:
            raise validation.invalid_argument(f'TensorArray: cannot write to index {length - 1}')
        if length > len(self._elements):
            if not self._dynamic_size:
                raise validation.invalid_argument(
                    f'TensorArray: tried to write to index {length - 1} but array is not '
                    f'resizeable and size is: {len(self._elements)}')
            self._elements.extend([None] * (length - len(self._elements)))

    def unstack(self, value, name=None):
        value = self._value(value, 'unstack')
        rows = value.shape.as_tuple()
        element_shape = self._merged_shape(TensorShape(None if rows is None else rows[1:]))
        if self._eager():
            n = int(value.shape[0]) if value.shape.rank else 0
            if n > len(self._elements) and not self._dynamic_size and self._elements:
                raise validation.invalid_argument(
                    f'TensorArray: cannot unstack {n} elements into an array of size '
                    f'{len(self._elements)}')
            self._elements = list(array_ops.unstack(value)) if n else []
            self._element_shape = element_shape
            return self
        return self._with_buffer(value, element_shape)

    def scatter(self, indices, value, name=None):
        value = self._value(value, 'scatter')
        rows = value.shape.as_tuple()
        element_shape = self._merged_shape(TensorShape(None if rows is None else rows[1:]))
        if self._eager():
            idx = np.asarray(indices).reshape(-1)
            parts = array_ops.unstack(value) if idx.size else []
            for i, part in zip(idx, parts):
                self._grow(int(i) + 1)
                self._elements[int(i)] = part
            self._element_shape = element_shape
            return self
        indices = ta_ops.int_tensor(indices)
        buffer, _ = apply_op(ta_ops.WRITE, (self._graph_buffer(), indices, value),
                             {'dynamic_size': self._dynamic_size,
                              'element_shape': element_shape.as_tuple()}, name)
        return self._with_buffer(buffer, element_shape)

    def identity(self):
        return self

    def split(self, value, lengths, name=None):
        raise NotImplementedError(
            'TensorArray.split is not implemented in defun; unstack equal-sized pieces, or '
            'tf.split the value and write the pieces one by one.')

    def close(self, name=None):
        return None

    def mark_used(self):
        return None
