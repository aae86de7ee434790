"""DType objects with TensorFlow's names, and the rules for turning Python and numpy values into them.

A DType wraps one numpy dtype. There is exactly one DType object per type, so DTypes compare with `is`
as well as `==`. Conversion rules follow TensorFlow 2: Python floats become float32, Python ints int32
(int64 when they do not fit), numpy arrays keep their dtype.
"""
from __future__ import annotations

import builtins

import numpy as np

# Python's own types, kept before `bool` below is rebound to TensorFlow's DType of that name.
_py_bool = bool
_py_str = str

__all__ = ['DType', 'as_dtype']


class DType:
    """A tensor element type, named as TensorFlow names it."""

    __slots__ = ('name', 'as_numpy_dtype', '_np')

    def __init__(self, name: str, np_type: type) -> None:
        self.name = name
        self.as_numpy_dtype = np_type
        self._np = np.dtype(np_type) if np_type is not object else np.dtype(object)

    @property
    def is_floating(self) -> builtins.bool:
        return self._np.kind == 'f'

    @property
    def is_integer(self) -> builtins.bool:
        return self._np.kind in 'iu'

    @property
    def is_unsigned(self) -> builtins.bool:
        return self._np.kind == 'u'

    @property
    def is_complex(self) -> builtins.bool:
        return self._np.kind == 'c'

    @property
    def is_bool(self) -> builtins.bool:
        return self._np.kind == 'b'

    @property
    def is_numeric(self) -> builtins.bool:
        return self._np.kind in 'iufc'

    @property
    def is_differentiable(self) -> builtins.bool:
        """Float and complex tensors carry gradients; TF returns None for all others."""
        return self._np.kind in 'fc'

    @property
    def real_dtype(self) -> DType:
        if self is complex64:
            return float32
        if self is complex128:
            return float64
        return self

    @property
    def np_dtype(self) -> np.dtype:
        return self._np

    @property
    def min(self):
        if self.is_floating:
            return self.as_numpy_dtype(np.finfo(self._np).min)
        if self.is_integer:
            return self.as_numpy_dtype(np.iinfo(self._np).min)
        if self.is_bool:
            return False
        raise TypeError(f'Cannot find minimum value of {self.name}.')

    @property
    def max(self):
        if self.is_floating:
            return self.as_numpy_dtype(np.finfo(self._np).max)
        if self.is_integer:
            return self.as_numpy_dtype(np.iinfo(self._np).max)
        if self.is_bool:
            return True
        raise TypeError(f'Cannot find maximum value of {self.name}.')

    @property
    def size(self) -> int:
        return self._np.itemsize

    def is_compatible_with(self, other: object) -> builtins.bool:
        return self is as_dtype(other)

    def __repr__(self):
        return f'tf.{self.name}'

    def __str__(self):
        return f"<dtype: '{self.name}'>"

    def __eq__(self, other):
        if other is None:
            return False
        try:
            return self is as_dtype(other)
        except TypeError:
            return False

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(self.name)

    def __reduce__(self):
        return as_dtype, (self.name,)


float16 = DType('float16', np.float16)
half = float16
float32 = DType('float32', np.float32)
float64 = DType('float64', np.float64)
double = float64
int8 = DType('int8', np.int8)
int16 = DType('int16', np.int16)
int32 = DType('int32', np.int32)
int64 = DType('int64', np.int64)
uint8 = DType('uint8', np.uint8)
uint16 = DType('uint16', np.uint16)
uint32 = DType('uint32', np.uint32)
uint64 = DType('uint64', np.uint64)
bool = DType('bool', np.bool_)  # noqa: A001 - TensorFlow's name
complex64 = DType('complex64', np.complex64)
complex128 = DType('complex128', np.complex128)
string = DType('string', object)
# The dtype of a variable's handle: a reference, never a number.
resource = DType('resource', object)
variant = DType('variant', object)

ALL = (float16, float32, float64, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
       bool, complex64, complex128, string, resource, variant)
_BY_NAME = {d.name: d for d in ALL}
_BY_NAME.update(half=float16, float=float32, double=float64)  # TF's non-canonical aliases
_BY_NP = {d.np_dtype: d for d in ALL if d.np_dtype.kind != "O"}


# TF's DataType enum numbers (types.proto): tf.as_dtype(2) is float64, tf.ones(2, 3) is int32.
_BY_ENUM = {1: float32, 2: float64, 3: int32, 4: uint8, 5: int16, 6: int8, 7: string, 8: complex64,
            9: int64, 10: bool, 17: uint16, 18: complex128, 19: float16, 20: resource, 21: variant,
            22: uint32, 23: uint64}


def as_dtype(value: object) -> DType:
    """Returns the DType for a DType, a name, a numpy dtype, a Python type or TF's enum number."""
    if isinstance(value, DType):
        return value
    if isinstance(value, int) and not isinstance(value, _py_bool):
        try:
            return _BY_ENUM[value]
        except KeyError:
            raise TypeError(f'Cannot convert the argument `type_value`: {value!r} to a TensorFlow '
                            f'DType.') from None
    if isinstance(value, str):
        try:
            return _BY_NAME[value]
        except KeyError:
            raise TypeError(f'Cannot convert {value!r} to a DType.') from None
    if value is float:
        return float32
    if value is int:
        return int32
    if value is _py_bool:
        return bool
    if value is complex:
        return complex128
    if value is _py_str or value is bytes:
        return string
    try:
        npd = np.dtype(value)
    except TypeError:
        raise TypeError(f'Cannot convert {value!r} to a DType.') from None
    if npd.kind in 'USO':
        return string
    try:
        return _BY_NP[npd]
    except KeyError:
        raise TypeError(f'Cannot convert {value!r} to a DType.') from None


def from_numpy(npdtype: object) -> DType:
    """Fast path from an ndarray's dtype to its DType."""
    try:
        return _BY_NP[npdtype]
    except KeyError:
        return as_dtype(npdtype)
