"""Tensor, the one type shared by eager and graph tensors, and convert_to_tensor.

`Tensor` holds what both kinds share (dtype, shape, the Python protocol). `EagerTensor` holds an ndarray
and is what every eager op returns; graph tensors live in operation.py and extend `Tensor`. Arithmetic
operators and indexing are ops, so defun/ops/tensor_methods.py installs them here (`install_operator`)
rather than this module importing the op tables, which sit above it.

convert_to_tensor turns Tensors, registered tensor-likes (Variables), lists holding tensors and Python
or numpy values into tensors; the rules for the last (value_conversion.py) follow TensorFlow 2.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from defun.core import context, dtypes, names
from defun.core.shapes import TensorShape
from defun.core.value_conversion import box_string, to_array

__all__ = ['AbstractTensor', 'NativeObject', 'Tensor', 'EagerTensor', 'convert_to_tensor', 'is_tensor',
           'is_dense_tensor', 'install_operator', 'register_tensor_conversion_function',
           'numpy_text']


class AbstractTensor:
    """What TF calls `tf.__internal__.types.Tensor`: the base of every class that is a tensor to
    `is_tensor`, defun's own tensors and other libraries' tensor-like classes (Keras's variables),
    which convert to a Tensor through their `__tf_tensor__(dtype, name)` method."""

    __slots__ = ()


class NativeObject:
    """What TF calls `internal.NativeObject`: the base of the composite values TF's ops take as they
    are, without converting them (SparseTensor, RaggedTensor, IndexedSlices). `is_tensor` is true
    for them, though `convert_to_tensor` refuses the first two, as TF's does."""

    __slots__ = ()


class Tensor(AbstractTensor):
    """A multi-dimensional array of one dtype: eager (holding a value) or symbolic (in a graph)."""

    # A `__dict__` because, as TF's, tensors carry attributes that libraries set on them (Keras's
    # `_keras_mask`).
    __slots__ = ('__weakref__', '__dict__')
    # numpy must defer to our operators (so `ndarray + tensor` gives a Tensor).
    __array_priority__ = 100

    @property
    def ndim(self):
        return self.shape.rank

    def get_shape(self):
        return self.shape

    @property
    def device(self):
        return '/job:localhost/replica:0/task:0/device:CPU:0'

    def __hash__(self):
        # As TF2: `==` is elementwise, so tensors cannot be dict keys (use ref()); a TF1-style
        # graph, or tf.compat.v1.disable_tensor_equality, hashes by identity.
        if context.tensor_equality_enabled() and not context.in_tf1_graph():
            raise TypeError('Tensor is unhashable. Instead, use tensor.ref() as the key.')
        return id(self)

    def ref(self):
        """A hashable reference to this tensor (TF's `Tensor.ref()`); `deref()` returns it."""
        return Reference(self)

    experimental_ref = ref

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    # `__eq__`, arithmetic, comparison and indexing operators are installed by defun.ops.


class Reference:
    """What `Tensor.ref()` and `Variable.ref()` return: hashed and compared by the object's identity."""

    __slots__ = ('_obj',)

    def __init__(self, obj):
        self._obj = obj

    def deref(self):
        return self._obj

    def __hash__(self):
        return id(self._obj)

    def __eq__(self, other):
        return isinstance(other, Reference) and other._obj is self._obj

    def __repr__(self):
        return f'<Reference wrapping {self._obj!r}>'


_OPERATOR_NAMES = frozenset([
    '__add__', '__radd__', '__sub__', '__rsub__', '__mul__', '__rmul__', '__truediv__',
    '__rtruediv__', '__floordiv__', '__rfloordiv__', '__mod__', '__rmod__', '__pow__', '__rpow__',
    '__matmul__', '__rmatmul__', '__neg__', '__pos__', '__abs__', '__invert__', '__and__', '__rand__',
    '__or__', '__ror__', '__xor__', '__rxor__', '__lt__', '__le__', '__gt__', '__ge__', '__eq__',
    '__ne__', '__getitem__', '__iter__'])


def install_operator(name, fn):
    """Installs a Python operator (e.g. '__add__') on every Tensor (by defun/ops/tensor_methods.py)."""
    if name not in _OPERATOR_NAMES:
        raise ValueError(f'{name} is not an operator Tensor supports')
    setattr(Tensor, name, fn)


class EagerTensor(Tensor):
    """A tensor with a concrete value: an ndarray (or numpy scalar) that is never mutated."""

    __slots__ = ('array',)

    def __init__(self, array):
        # An ndarray or numpy scalar, never mutated once wrapped. Kernels on string tensors
        # (object arrays) return a bare bytes object for a scalar: it is boxed back to rank 0.
        self.array = array if array.__class__ is not bytes else box_string(array)

    @property
    def dtype(self):
        return dtypes.from_numpy(self.array.dtype)

    @property
    def shape(self):
        return TensorShape.from_tuple(self.array.shape)

    def set_shape(self, shape):
        """Checks `shape` against the known one (an eager tensor's shape is its value's)."""
        shape = TensorShape(shape)
        if not self.shape.is_compatible_with(shape):
            raise ValueError(f"Tensor's shape {self.shape} is not compatible with supplied shape "
                             f'{shape}.')

    @property
    def name(self):
        raise AttributeError('Tensor.name is undefined when eager execution is enabled.')

    @property
    def op(self):
        raise AttributeError('Tensor.op is undefined when eager execution is enabled.')

    @property
    def graph(self):
        raise AttributeError('Tensor.graph is undefined when eager execution is enabled.')

    def numpy(self) -> np.ndarray:
        v = self.array
        # TF hands out a copy for arrays (callers may mutate it) and a numpy scalar for rank 0.
        if type(v) is np.ndarray:
            return v[()] if v.ndim == 0 else v.copy()
        return v

    def __array__(self, dtype=None, copy=None):
        a = np.asarray(self.array)
        if dtype is not None:
            return a.astype(dtype, copy=bool(copy))
        # np.array(t) asks for a copy: handing out our own array would let the caller mutate an
        # immutable tensor (and every tensor sharing that array).
        return a.copy() if copy else a

    def __bool__(self):
        return bool(self.array)

    def __float__(self):
        return float(self.array)

    def __int__(self):
        return int(self.array)

    def __complex__(self):
        return complex(self.array)

    def __index__(self):
        if not self.dtype.is_integer:
            raise TypeError(f'Only integer tensors can be used as an index, got {self.dtype.name}')
        return int(self.array)

    def __len__(self):
        if not self.array.shape:
            raise TypeError('Scalar tensor has no `len()`')
        return self.array.shape[0]

    def __format__(self, spec):
        # As TF: the numpy value formats itself, so f'{t}' is '[1. 2.]' (not str(t)) and a
        # float32 scalar prints as numpy's shortest float32 text ('0.1').
        return format(self.numpy(), spec)

    def __repr__(self):
        return (f'<tf.Tensor: shape={self.shape}, dtype={self.dtype.name}, '
                f'numpy={numpy_text(self.array, repr)}>')

    def __str__(self):
        return (f'tf.Tensor({numpy_text(self.array, str)}, shape={self.shape}, '
                f'dtype={self.dtype.name})')

    def __reduce__(self):
        return convert_to_tensor, (self.numpy(),)


def numpy_text(value, fmt):
    """A value's text in a tensor's (fmt=repr) or a printout's (fmt=str) form, as TF writes it:
    numpy's text, but the Python scalar's repr for a rank-0 repr (`numpy=21.0`, not numpy 2's
    `np.float32(21.0)`), and string elements as bytes (`b'abc'`)."""
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    if isinstance(value, np.ndarray):
        text = str(value) if fmt is str else repr(value)
        # As TF does, a multi-line printout starts on its own line.
        return '\n' + text if '\n' in text else text
    if isinstance(value, (bytes, str)):
        return repr(value)
    if fmt is str:
        return str(value)
    return repr(value.item() if isinstance(value, np.generic) else value)


def is_tensor(x: object) -> bool:
    """True for eager and graph tensors, AbstractTensors, TF's native composites (SparseTensor,
    RaggedTensor, IndexedSlices) and anything registered as tensor-like (Variables)."""
    return isinstance(x, (AbstractTensor, NativeObject)) or type(x) in _CONVERSION_FUNCTIONS


def is_dense_tensor(x: object) -> bool:
    """True for what `convert_to_tensor` takes as a tensor: tensors, AbstractTensors and the
    registered tensor-like classes (Variables, IndexedSlices), not SparseTensor or RaggedTensor."""
    return isinstance(x, AbstractTensor) or type(x) in _CONVERSION_FUNCTIONS


# Classes (such as Variable) that convert to a tensor on use: class -> fn(value, dtype) -> Tensor.
_CONVERSION_FUNCTIONS = {}


def register_tensor_conversion_function(cls, fn):
    _CONVERSION_FUNCTIONS[cls] = fn


def convert_to_tensor(value: Any, dtype: Any = None, name: str | None = None, dtype_hint: Any = None,
                      preferred_dtype: Any = None) -> Tensor:
    """Converts a Tensor, Variable, numpy array or Python value to a Tensor, following TF's rules."""
    if name is not None and context.current_graph() is not None:
        names.check_op_name(name)  # TF checks it while a graph is built, even for a tensor
    if dtype is not None:
        dtype = dtypes.as_dtype(dtype)
    if isinstance(value, Tensor):
        if dtype is not None and value.dtype is not dtype:
            raise ValueError(
                f'Tensor conversion requested dtype {dtype.name} for Tensor with dtype '
                f'{value.dtype.name}: {value!r}')
        return value
    convert = _CONVERSION_FUNCTIONS.get(type(value))
    if convert is not None:
        return convert(value, dtype)
    protocol = getattr(type(value), '__tf_tensor__', None)
    if protocol is not None:
        return protocol(value, dtype, name)
    if isinstance(value, TensorShape):
        value, dtype = _shape_as_list(value, dtype)
    if isinstance(value, (list, tuple)) and _contains_tensor(value):
        # TF auto-packs lists of tensors with the (differentiable) stack op.
        return _packer[0](value, dtype)
    hint = dtype_hint if dtype_hint is not None else preferred_dtype
    if dtype is None and hint is not None:
        try:
            array = to_array(value, dtypes.as_dtype(hint))
        except (TypeError, ValueError):
            array = to_array(value, None)
    else:
        array = to_array(value, dtype)
    return constant_from_array(array, name)


def _shape_as_list(shape, dtype):
    """A fully known TensorShape converts to its dims and an integer dtype, as in TF: int32
    unless told int64 or a dim needs it (so the shape of a scalar is an empty int32 vector)."""
    dims = shape.as_tuple()
    if dims is None or None in dims:
        raise ValueError(f'Cannot convert a partially known TensorShape {shape} to a Tensor.')
    if dtype is None:
        return list(dims), dtypes.int64 if any(d >= 2 ** 31 for d in dims) else dtypes.int32
    if dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError(f'Cannot convert TensorShape {shape} to dtype {dtype}. Allowed dtypes are '
                        f'tf.int32 and tf.int64.')
    return list(dims), dtype


def constant_from_array(array, name=None):
    """An eager tensor in eager mode; a Const node of the current graph while building one."""
    graph = context.current_graph()
    if graph is None:
        if array.ndim == 0 and array.dtype.kind != 'O':
            array = array[()]  # rank 0 as a numpy scalar: scalar math is several times cheaper
        return EagerTensor(array)
    return graph.add_constant(array, name=name)


def _contains_tensor(seq):
    for v in seq:
        if isinstance(v, AbstractTensor) or type(v) in _CONVERSION_FUNCTIONS:
            return True
        if isinstance(v, (list, tuple)) and _contains_tensor(v):
            return True
    return False


# A list holding tensors converts by stacking them; defun/ops/tensor_methods.py installs `stack` here.
_packer = []


def install_packer(fn):
    """fn(nested list holding tensors, dtype or None) -> Tensor (installed by ops/tensor_methods.py)."""
    _packer[:] = [fn]
