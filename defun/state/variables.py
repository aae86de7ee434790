"""Variable: mutable state with a stable identity, read and written through ops on its handle.

A variable owns a storage object (holding the current ndarray) and a resource handle, an eager tensor
of dtype `resource` whose payload is that storage. Reads (`value()`, any use as a tensor) go through the
ReadVariableOp on the handle, so tapes record them and graphs capture the handle, by reference: a
compiled function sees later assignments without retracing. The handle refers to the storage, not to
the variable, so there is no reference cycle.
"""
import inspect
import weakref

import numpy as np

from defun.core import context, dtypes, errors, names
from defun.ops.framework.indexed_slices import IndexedSlices
from defun.ops.framework import base_ops, variable_ops
from defun.ops.array import gathering
from defun.ops.math import math_ops
from defun.core.shapes import TensorShape
from defun.core.variable_base import VariableBase
from defun.state import variable_policy
from defun.autodiff.tape import variable_accessed
from defun.core.tensor import (EagerTensor, Reference, Tensor, convert_to_tensor, numpy_text,
                          register_tensor_conversion_function)

__all__ = ['Variable', 'ResourceVariable', 'ResourceHandle', 'ArgumentVariable', 'UnreadVariable']

_state = context.state()


class _Storage:
    """What a handle refers to: the current value and the declared shape (None dims may vary)."""
    __slots__ = ('value', 'shape')

    def __init__(self, value, shape):
        self.value = value
        self.shape = shape


class ResourceHandle(EagerTensor):
    """The eager handle of one variable; `variable` is a weak reference back to its owner."""

    __slots__ = ('_variable_ref', 'var_dtype', 'var_shape')

    def __init__(self, storage, variable):
        super().__init__(storage)
        self._variable_ref = weakref.ref(variable)
        self.var_dtype = variable.dtype
        self.var_shape = variable.shape

    @property
    def variable(self):
        return self._variable_ref()

    @property
    def dtype(self):
        return dtypes.resource

    @property
    def shape(self):
        return TensorShape.from_tuple(())

    def numpy(self):
        raise TypeError('A variable handle has no value of its own; read the variable instead.')

    def __repr__(self):
        var = self.variable
        return f'<ResourceHandle of {var.name if var is not None else "a deleted variable"}>'

    __str__ = __repr__


class Variable(VariableBase):
    """A mutable tensor-valued state, as `tf.Variable`. As in TF, `Variable(...)` makes a
    `ResourceVariable` (the subclass TF's instances have); subclasses make their own class."""

    def __new__(cls, *args, **kwargs):
        return object.__new__(ResourceVariable if cls is Variable else cls)

    def __init__(self, initial_value=None, trainable=None, validate_shape=True, name=None,
                 dtype=None, shape=None, constraint=None, synchronization=None, aggregation=None,
                 **unused_tf_options):
        if initial_value is None:
            raise ValueError('The initial_value must be specified.')
        self._synchronization, self._aggregation, trainable = variable_policy.check_policy(
            synchronization, aggregation, trainable, constraint, name)
        self._constraint = constraint
        if name is not None and not context.executing_eagerly():
            names.check_op_name(name)  # TF names the variable's op in the graph being built
        with context.init_scope():
            if callable(initial_value):
                initial_value = initial_value()
            array = _initial_array(initial_value, dtype)
        self._dtype = dtypes.from_numpy(array.dtype)
        self._shape = TensorShape(np.shape(array)) if shape is None else TensorShape(shape)
        if not self._shape.is_compatible_with(np.shape(array)):
            raise ValueError(f'Variable initial value shape {list(np.shape(array))} is not '
                             f'compatible with the declared shape {self._shape}')
        self._trainable = bool(trainable)
        # As in TF's eager mode: the name scope's prefix, and no uniquifying (names may repeat).
        self._name = context.current_frame().scope + (name or 'Variable') + ':0'
        self._storage = _Storage(array, self._shape.as_tuple())
        self.handle = ResourceHandle(self._storage, self)
        self._unique_id = context.new_variable_id()
        context.variable_created(self)

    def __init_subclass__(cls, **kwargs):
        # Conversion functions are looked up by exact type: subclasses convert as variables too
        # (through a lambda, since subclasses in this module precede _convert_variable).
        super().__init_subclass__(**kwargs)
        register_tensor_conversion_function(cls, lambda v, dtype: _convert_variable(v, dtype))

    # -- properties
    dtype = property(lambda self: self._dtype)
    shape = property(lambda self: self._shape)
    name = property(lambda self: self._name)
    trainable = property(lambda self: self._trainable)
    constraint = property(lambda self: self._constraint)
    synchronization = property(lambda self: self._synchronization)
    aggregation = property(lambda self: self._aggregation)

    @property
    def unique_id(self):
        """An identity shared by this Variable and the stand-ins a trace makes for it when it is
        passed to a compiled function (an optimizer keys its slots by it)."""
        return self._unique_id

    @property
    def ndim(self):
        return self._shape.rank

    def get_shape(self):
        return self._shape

    @property
    def device(self):
        return '/job:localhost/replica:0/task:0/device:CPU:0'

    # -- reading
    def value(self):
        """The current value as a tensor; recorded on tapes and captured by reference in graphs."""
        if _state.tapes:
            variable_accessed(self)
        return variable_ops.read_variable(self.handle, self._dtype, self._shape.as_tuple())

    read_value = value

    def numpy(self):
        if context.current_graph() is not None:
            raise NotImplementedError(
                'Variable.numpy() is only available outside compiled functions; inside them use '
                'the variable as a tensor.')
        value = self._storage.value
        return value.copy() if isinstance(value, np.ndarray) else value

    def __array__(self, dtype=None, copy=None):
        return np.asarray(self.numpy(), dtype=dtype)

    # -- writing
    def _assign(self, value, mode, read_value):
        value = convert_to_tensor(value, dtype=self._dtype)
        if not self._shape.is_compatible_with(value.shape):
            self._refuse_shape(value.shape, mode)
        result = variable_ops.assign_variable(self.handle, value, mode)
        if not read_value:
            return None
        # TF hands back a view of the variable named 'UnreadVariable': its value is read where it
        # is used (in a graph, a new read at each use, and at the end when returned).
        return UnreadVariable(self, result)

    def _refuse_shape(self, shape, mode):
        # TF's classes: assign checks in Python (ValueError); eager assign_add/sub fail in the
        # kernel (InvalidArgumentError, itself a ValueError here).
        if mode == 'set' or context.current_graph() is not None:
            raise ValueError(f"Cannot assign value to variable ' {self._name}': Shape mismatch."
                             f'The variable shape {self._shape}, and the assigned value shape '
                             f'{shape} are incompatible.')
        op = 'AssignAddVariableOp' if mode == 'add' else 'AssignSubVariableOp'
        raise errors.InvalidArgumentError(
            f'Cannot update variable with shape {self._shape.as_list()} using a Tensor with shape '
            f'{shape.as_list()}, shapes must be equal. [Op:{op}]')

    def assign(self, value, use_locking=None, name=None, read_value=True):
        return self._assign(value, 'set', read_value)

    def assign_add(self, delta, use_locking=None, name=None, read_value=True):
        return self._assign(delta, 'add', read_value)

    def assign_sub(self, delta, use_locking=None, name=None, read_value=True):
        return self._assign(delta, 'sub', read_value)

    # -- scatter updates: the tensor_scatter_nd op of the current value, assigned back
    def scatter_nd_update(self, indices, updates, name=None):
        return self.assign(gathering.tensor_scatter_nd_update(self.value(), indices, updates))

    def scatter_nd_add(self, indices, updates, name=None):
        return self.assign(gathering.tensor_scatter_nd_add(self.value(), indices, updates))

    def scatter_nd_sub(self, indices, updates, name=None):
        return self.assign(gathering.tensor_scatter_nd_sub(self.value(), indices, updates))

    def scatter_nd_max(self, indices, updates, name=None):
        return self.assign(gathering.tensor_scatter_nd_max(self.value(), indices, updates))

    def scatter_nd_min(self, indices, updates, name=None):
        return self.assign(gathering.tensor_scatter_nd_min(self.value(), indices, updates))

    # -- sparse updates of rows: an IndexedSlices of rows at first-dimension indices
    def scatter_add(self, sparse_delta, use_locking=False, name=None):
        return self._scatter(sparse_delta, gathering.tensor_scatter_nd_add)

    def scatter_sub(self, sparse_delta, use_locking=False, name=None):
        return self._scatter(sparse_delta, gathering.tensor_scatter_nd_sub)

    def scatter_update(self, sparse_delta, use_locking=False, name=None):
        return self._scatter(sparse_delta, gathering.tensor_scatter_nd_update)

    def scatter_max(self, sparse_delta, use_locking=False, name=None):
        return self._scatter(sparse_delta, gathering.tensor_scatter_nd_max)

    def scatter_min(self, sparse_delta, use_locking=False, name=None):
        return self._scatter(sparse_delta, gathering.tensor_scatter_nd_min)

    def scatter_mul(self, sparse_delta, use_locking=False, name=None):
        return self._scatter_scale(sparse_delta, 'mul')

    def scatter_div(self, sparse_delta, use_locking=False, name=None):
        return self._scatter_scale(sparse_delta, 'div')

    def _sparse_rows(self, sparse_delta):
        if not isinstance(sparse_delta, IndexedSlices):
            raise TypeError(f'Argument `sparse_delta` must be a `tf.IndexedSlices`. Received '
                            f'arg: {sparse_delta}')
        indices, values = sparse_delta.flat()
        return indices, convert_to_tensor(values, dtype=self._dtype)

    def _scatter(self, sparse_delta, scatter_nd):
        indices, values = self._sparse_rows(sparse_delta)
        return self.assign(scatter_nd(self.value(), indices[:, None], values))

    def _scatter_scale(self, sparse_delta, mode):
        """Rows named more than once are scaled by each of their updates, as TF."""
        indices, values = self._sparse_rows(sparse_delta)
        current = self.value()
        rows = self._shape[0] if self._shape.rank and self._shape[0] is not None else (
            base_ops.shape(current)[0])
        factors = math_ops.unsorted_segment_prod(values, indices, rows)
        return self.assign(current * factors if mode == 'mul' else current / factors)

    # -- TF's Trackable protocol, through which wrappers of a Variable (Keras's) save it
    def _serialize_to_tensors(self):
        return {'VARIABLE_VALUE': self.value()}

    def _restore_from_tensors(self, restored_tensors):
        return self.assign(restored_tensors['VARIABLE_VALUE'])

    # -- Python protocol
    def __repr__(self):
        if context.current_graph() is not None:
            return f"<tf.Variable '{self._name}' shape={self._shape} dtype={self._dtype.name}>"
        return (f"<tf.Variable '{self._name}' shape={self._shape} dtype={self._dtype.name}, "
                f'numpy={_numpy_repr(self._storage.value)}>')

    def __hash__(self):
        if context.tensor_equality_enabled() and not context.in_tf1_graph():
            raise TypeError(f'Variable is unhashable. Instead, use variable.ref() as the key. '
                            f'(Variable: {self!r})')
        return id(self)

    def ref(self):
        return Reference(self)

    experimental_ref = ref

    def __bool__(self):
        return bool(self.value())

    def __float__(self):
        return float(self.value())

    def __int__(self):
        return int(self.value())

    def __index__(self):
        return self.value().__index__()

    def __len__(self):
        return len(self.value())

    def __iter__(self):
        return iter(self.value())


class UnreadVariable(Variable):
    """What an eager `assign` returns, as TF's _UnreadVariable: the same variable (one handle,
    one storage, so it shows the current value and assigning through it assigns the variable),
    named 'UnreadVariable'."""

    def __init__(self, variable, assigned=None):  # pylint: disable=super-init-not-called
        self.__dict__.update(vars(variable))
        self._name = 'UnreadVariable'
        self._assigned = assigned

    @property
    def op(self):
        """The assign op (in a graph: what a control dependency on this waits for), as TF's."""
        return getattr(self._assigned, 'op', None)


class ArgumentVariable(Variable):
    """What a traced function sees for a Variable passed as an argument: a Variable of the same
    dtype, shape, name and trainability whose handle is the trace's handle placeholder, so the
    compiled function reads and writes whichever Variable each call passes."""

    def __init__(self, handle, variable, shape=None):
        self._dtype = variable.dtype
        self._shape = variable.shape if shape is None else shape  # relaxed by reduce_retracing
        self._trainable = variable.trainable
        self._constraint = variable.constraint
        self._synchronization, self._aggregation = variable.synchronization, variable.aggregation
        self._name = variable.name
        self._storage = None
        self.handle = handle
        self._unique_id = variable.unique_id  # the same identity as the Variable it stands for

    def numpy(self):
        raise NotImplementedError(
            'Variable.numpy() is only available outside compiled functions; inside them use '
            'the variable as a tensor.')

    def __repr__(self):
        return f"<tf.Variable '{self._name}' shape={self._shape} dtype={self._dtype.name}>"


def _numpy_repr(value):
    # TF prints numpy's repr of the value (`array([1., 2.], dtype=float32)`, the Python scalar for
    # rank 0, bytes for strings), on its own line when it spans several.
    return numpy_text(value, repr)


def _initial_array(value, dtype):
    if isinstance(value, Tensor):
        array = getattr(value, 'array', None)
        if array is None:
            graph = value.graph
            lift = getattr(graph, 'lift_value', None)
            array = lift(value) if lift is not None else graph.fold(value)
        if array is None:
            raise ValueError(
                'A Variable created inside a compiled function needs an initial value that does '
                'not depend on the function\'s inputs (pass a Python/numpy value, a constant '
                'expression, or a callable), or create the variable outside the function.')
        tensor = EagerTensor(array)
        return convert_to_tensor(tensor, dtype=dtype).array if dtype is not None and \
            tensor.dtype != dtype else np.asarray(array)
    if isinstance(value, Variable):
        value = value.numpy()
    return np.asarray(convert_to_tensor(value, dtype=dtype).array)


def _delegate(op_name):
    def method(self, *args):
        return getattr(self.value(), op_name)(*args)
    method.__name__ = op_name
    return method


def _equality(op_name, identical):
    elementwise = _delegate(op_name)

    def method(self, other):
        if not context.tensor_equality_enabled():  # tf.compat.v1.disable_tensor_equality
            return (self is other) == identical
        return elementwise(self, other)
    method.__name__ = op_name
    return method


for _op in ['__add__', '__radd__', '__sub__', '__rsub__', '__mul__', '__rmul__', '__truediv__',
            '__rtruediv__', '__floordiv__', '__rfloordiv__', '__mod__', '__rmod__', '__pow__',
            '__rpow__', '__matmul__', '__rmatmul__', '__neg__', '__pos__', '__abs__', '__invert__',
            '__and__', '__rand__', '__or__', '__ror__', '__xor__', '__rxor__', '__lt__', '__le__',
            '__gt__', '__ge__', '__getitem__']:
    setattr(Variable, _op, _delegate(_op))
Variable.__eq__, Variable.__ne__ = _equality('__eq__', True), _equality('__ne__', False)


# The signature users see for Variable(...) is __init__'s (inspect would show __new__'s).
Variable.__new__.__signature__ = inspect.signature(Variable.__init__)


class ResourceVariable(Variable):
    """The class of the Variables `Variable(...)` makes, named as TF's (`type(v).__name__`)."""


def _convert_variable(variable, dtype):
    if dtype is not None and dtypes.as_dtype(dtype) is not variable.dtype:
        raise ValueError(f'Incompatible type conversion requested to type {dtype.name} for '
                         f'variable of type {variable.dtype.name}')
    return variable.value()


register_tensor_conversion_function(Variable, _convert_variable)
register_tensor_conversion_function(UnreadVariable, _convert_variable)
register_tensor_conversion_function(ArgumentVariable, _convert_variable)
