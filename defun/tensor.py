"""Tensor, the one type shared by eager and graph tensors, and conversion of Python values to tensors.

`Tensor` holds what both kinds share (dtype, shape, the Python protocol). `EagerTensor` holds an ndarray
and is what every eager op returns; graph tensors live in graph.py and extend `Tensor`. Arithmetic
operators and indexing are ops, so the op tables install them here (`install_operator`) rather than
this module importing the op tables (see DESIGN.md's layering).

Conversion follows TensorFlow 2: Python floats become float32, ints int32 (int64 when too large),
numpy arrays keep their dtype, and a requested dtype never silently truncates a float to an integer.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from defun import context, dtypes
from defun.shapes import TensorShape

__all__ = ['Tensor', 'EagerTensor', 'convert_to_tensor', 'is_tensor', 'install_operator',
           'register_tensor_conversion_function', 'conversion_error', 'numpy_text',
           'string_array', 'box_string']


class Tensor:
    """A multi-dimensional array of one dtype: eager (holding a value) or symbolic (in a graph)."""

    __slots__ = ('__weakref__',)
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
    """Installs a Python operator (e.g. '__add__') on every Tensor; used by the op tables only."""
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
    """True for eager and graph tensors (and anything registered as tensor-like, e.g. Variables)."""
    return isinstance(x, Tensor) or type(x) in _CONVERSION_FUNCTIONS


# Classes (such as Variable) that convert to a tensor on use: class -> fn(value, dtype) -> Tensor.
_CONVERSION_FUNCTIONS = {}


def register_tensor_conversion_function(cls, fn):
    _CONVERSION_FUNCTIONS[cls] = fn


def convert_to_tensor(value: Any, dtype: Any = None, name: str | None = None, dtype_hint: Any = None,
                      preferred_dtype: Any = None) -> Tensor:
    """Converts a Tensor, Variable, numpy array or Python value to a Tensor, following TF's rules."""
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
    if isinstance(value, TensorShape):
        value = _shape_as_list(value)
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


def _shape_as_list(shape):
    """A fully known TensorShape converts to its dims (int32 unless told otherwise), as in TF."""
    dims = shape.as_tuple()
    if dims is None or None in dims:
        raise ValueError(f'Cannot convert a partially known TensorShape {shape} to a Tensor.')
    return list(dims)


def constant_from_array(array, name=None):
    """An eager tensor in eager mode; a Const node of the current graph while building one."""
    graph = context.current_graph()
    if graph is None:
        if array.ndim == 0 and array.dtype.kind != 'O':
            array = array[()]  # rank 0 as a numpy scalar: scalar math is several times cheaper
        return EagerTensor(array)
    return graph.add_constant(array, name=name)


def to_array(value, dtype):
    """Converts a Python or numpy value to an ndarray of `dtype` (inferred by TF's rules when None).

    Failures raise TF's classes, which differ between eager conversion and conversion while a
    graph is built (see `conversion_error`); a float or complex value that a requested integer or
    bool dtype would truncate is a TypeError in both.
    """
    is_numpy = isinstance(value, (np.ndarray, np.generic))
    if not is_numpy:
        # Python ints beyond int64 convert only to a float or complex dtype (as TF's converter).
        _check_python_value(value, _int_range(dtype))
    try:
        array = np.asarray(value)
    except (ValueError, TypeError):
        raise conversion_error('ragged', value) from None
    if array.dtype.kind == 'O' or array.dtype.kind in 'US':
        return _object_array(value, array, dtype, is_numpy)
    if dtype is None:
        return _default_array(array, is_numpy)
    target = dtype.np_dtype
    if array.dtype == target:
        return array
    if array.size and not _safe_kind_change(array, dtype, is_numpy):
        raise TypeError(f'Cannot convert {_short(value)} to EagerTensor of dtype {dtype.name}')
    # Python ints within int64 wrap around to a narrower integer dtype, as TF's converter does
    # (`tf.constant(300, tf.uint8)` is 44, `uint8_tensor + 300` adds 44).
    return array.astype(target)


_PYTHON_LEAVES = (int, float, complex, str, bytes, np.generic, np.ndarray)


def _int_range(dtype):
    """The Python ints TF's converter accepts for `dtype` (None: any, for float and complex):
    int64's range, or uint64's for uint64."""
    if dtype is not None and (dtype.is_floating or dtype.is_complex):
        return None
    if dtype is not None and dtype.name == 'uint64':
        return range(0, 2 ** 64)
    return range(-2 ** 63, 2 ** 63)


def _check_python_value(value, int_range):
    """Raises TF's error for a value of a type no tensor holds (None, objects, dicts, sets...),
    at the top level or inside a nested list, and for ints outside `int_range` (unless None)."""
    if isinstance(value, _PYTHON_LEAVES):
        if int_range is not None and type(value) is int and value not in int_range:
            raise conversion_error('int_range', value)
        return
    if isinstance(value, (list, tuple)):
        for v in value:
            if isinstance(v, (list, tuple)) or not isinstance(v, _PYTHON_LEAVES):
                try:
                    _check_python_value(v, int_range)
                except (TypeError, ValueError):
                    if context.current_graph() is None:
                        raise  # eagerly TF names the element; in a graph, the whole list
                    raise conversion_error('mixed', value) from None
            elif int_range is not None and type(v) is int and v not in int_range:
                raise conversion_error('int_range', value)
        return
    if hasattr(value, '__array__') and not isinstance(value, type):
        return
    raise conversion_error('unsupported', value)


def _object_array(value, array, dtype, is_numpy):
    """An array numpy could only make of objects: strings become string tensors, the rest fail."""
    if _all_strings(array) and (is_numpy or _all_strings(np.array(value, dtype=object))):
        # Strings only become string tensors: a requested numeric dtype must not be ignored
        # (it was, and `int_tensor * 'text'` then repeated the string).
        if dtype is not None and dtype is not dtypes.string:
            raise TypeError(f'Cannot convert {_short(value)} to EagerTensor of dtype {dtype.name}')
        # numpy's own string arrays drop trailing NULs: a Python value is read as objects.
        return string_array(array if is_numpy else np.array(value, dtype=object))
    return _raise(conversion_error('numpy_object' if is_numpy else 'mixed', value))


def _raise(exc):
    raise exc


def conversion_error(kind, value):
    """TF's error for a value that does not convert. Eagerly TF's C converter raises ValueError;
    while a graph is built, make_tensor_proto raises TypeError (ValueError for None and ragged
    lists). kind: 'unsupported' type, 'mixed' element types, 'ragged' list, 'int_range' Python
    int, 'numpy_object' array."""
    eager = context.current_graph() is None
    if kind == 'ragged':
        return ValueError("Can't convert non-rectangular Python sequence to Tensor.")  # TF's text
    if not eager:
        if value is None:
            return ValueError('None values not supported.')
        return TypeError(f'Failed to convert elements of {_short(value)} to Tensor. Consider '
                         f'casting elements to a supported type.')
    if kind == 'unsupported':
        return ValueError(f'Attempt to convert a value ({_short(value)}) with an unsupported type '
                          f'({type(value)}) to a Tensor.')
    if kind == 'int_range':
        return ValueError(f"Can't convert Python sequence with out-of-range integer to Tensor: "
                          f'{_short(value)}')
    if kind == 'numpy_object':
        return ValueError(f'Failed to convert a NumPy array to a Tensor (Unsupported object type): '
                          f'{_short(value)}')
    return ValueError(f"Can't convert Python sequence with mixed types to Tensor: "
                      f'{_short(value)}')


def _default_array(array, is_numpy):
    if is_numpy:
        return array
    kind = array.dtype.kind
    if kind == 'f':
        return array.astype(np.float32)
    if kind == 'i':
        info = np.iinfo(np.int32)
        if array.size == 0 or (array.min() >= info.min and array.max() <= info.max):
            return array.astype(np.int32)
        return array.astype(np.int64)
    return array


def _safe_kind_change(array, dtype, is_numpy):
    src, dst = array.dtype.kind, dtype.np_dtype.kind
    if src == dst:
        return True
    if dst == 'c':
        return src in 'biuf'
    if dst == 'f':
        return src in 'biu'
    if dst in 'iu':
        if src in 'iub':
            return True
        # numpy arrays of a float dtype may be cast explicitly (tf.constant does); Python floats never.
        return is_numpy and src == 'f'
    if dst == 'b':
        return False
    return False


def box_string(value):
    """A bytes object as the rank-0 payload of a string tensor."""
    out = np.empty((), dtype=object)
    out[()] = value
    return out


def string_array(array):
    """The payload of a string tensor: an object array of bytes (str encoded as UTF-8), as TF."""
    flat = [v.encode('utf-8') if isinstance(v, str) else bytes(v) for v in array.flat]
    out = np.empty(len(flat), dtype=object)
    out[:] = flat
    return out.reshape(array.shape)


def _all_strings(array):
    return all(isinstance(v, (str, bytes)) for v in array.flat)


def _contains_tensor(seq):
    for v in seq:
        if isinstance(v, Tensor) or type(v) in _CONVERSION_FUNCTIONS:
            return True
        if isinstance(v, (list, tuple)) and _contains_tensor(v):
            return True
    return False


# A list holding tensors converts by stacking them; the array op table installs `stack` here.
_packer = []


def install_packer(fn):
    """fn(nested list holding tensors, dtype or None) -> Tensor; installed by the array op table."""
    _packer[:] = [fn]


def _short(value):
    text = repr(value)
    return text if len(text) < 80 else text[:77] + '...'
