"""DType objects with TensorFlow's names, and the rules for turning Python and numpy values into them.

A DType wraps one numpy dtype. There is exactly one DType object per type, so DTypes compare with `is`
as well as `==`. Conversion rules follow TensorFlow 2: Python floats become float32, Python ints int32
(int64 when they do not fit), numpy arrays keep their dtype.

The low-precision types (bfloat16, float8_e4m3fn, float8_e5m2, int4, uint4) are numpy dtypes of
the optional `ml_dtypes` package, as in TF and JAX. Their DTypes always exist, with TF's names,
enums and properties; holding values of them needs ml_dtypes (`np_dtype` says so otherwise).
`LOW_PRECISION` maps each of their numpy dtypes to the wider one kernels compute in.
"""
from __future__ import annotations

import builtins

import numpy as np

from defun.core.unsupported import NotInDefunError

try:  # the optional `ml_dtypes` extra (see pyproject.toml)
    import ml_dtypes
except ImportError:  # pragma: no cover - CI installs every extra
    ml_dtypes = None

# Python's own types, kept before `bool` below is rebound to TensorFlow's DType of that name.
_py_bool = bool
_py_str = str

__all__ = ['DType', 'as_dtype', 'ml_dtypes_missing']

ML_DTYPES_INSTALL = "pip install 'defun[ml_dtypes]' (or pip install ml_dtypes)"


def ml_dtypes_missing(name: str) -> NotInDefunError:
    """The error for values of a low-precision dtype while ml_dtypes is not installed."""
    return NotInDefunError(f'Tensors of dtype {name} need the ml_dtypes package, which provides '
                           f'its numpy dtype (as for TensorFlow): {ML_DTYPES_INSTALL}.')


class DType:
    """A tensor element type, named as TensorFlow names it."""

    __slots__ = ('name', '_np_type', '_np', 'kind', 'enum')

    def __init__(self, name: str, np_type: type | None, kind: str | None = None,
                 enum: int = 0) -> None:
        self.name = name
        self._np_type = np_type
        self._np = None if np_type is None else np.dtype(np_type)
        # numpy's kind letter, or the one the type would have ('f' for bfloat16, where numpy
        # says 'V'): what the is_* properties read.
        self.kind = kind or self._np.kind
        self.enum = enum

    @property
    def as_numpy_dtype(self) -> type:
        if self._np_type is None:
            raise ml_dtypes_missing(self.name)
        return self._np_type

    @property
    def as_datatype_enum(self) -> int:
        return self.enum

    @property
    def is_floating(self) -> builtins.bool:
        return self.kind == 'f'

    @property
    def is_integer(self) -> builtins.bool:
        return self.kind in 'iu'

    @property
    def is_unsigned(self) -> builtins.bool:
        return self.kind == 'u'

    @property
    def is_complex(self) -> builtins.bool:
        return self.kind == 'c'

    @property
    def is_bool(self) -> builtins.bool:
        return self.kind == 'b'

    @property
    def is_numeric(self) -> builtins.bool:
        return self.kind in 'iufc'

    @property
    def is_quantized(self) -> builtins.bool:
        return False

    @property
    def is_differentiable(self) -> builtins.bool:
        """Float and complex tensors carry gradients; TF returns None for all others."""
        return self.kind in 'fc'

    @property
    def real_dtype(self) -> DType:
        if self is complex64:
            return float32
        if self is complex128:
            return float64
        return self

    @property
    def np_dtype(self) -> np.dtype:
        if self._np is None:
            raise ml_dtypes_missing(self.name)
        return self._np

    @property
    def has_numpy_dtype(self) -> builtins.bool:
        """False for a low-precision type while ml_dtypes is not installed."""
        return self._np is not None

    @property
    def min(self):
        if self.is_floating or self.is_integer:
            return self.as_numpy_dtype(_info(self).min)
        if self.is_bool:
            return False
        raise TypeError(f'Cannot find minimum value of {self.name}.')

    @property
    def max(self):
        if self.is_floating or self.is_integer:
            return self.as_numpy_dtype(_info(self).max)
        if self.is_bool:
            return True
        raise TypeError(f'Cannot find maximum value of {self.name}.')

    @property
    def size(self) -> int:
        return self.np_dtype.itemsize

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


# TF's DataType enum numbers (types.proto) are the last argument: tf.as_dtype(2) is float64.
float16 = DType('float16', np.float16, enum=19)
half = float16
float32 = DType('float32', np.float32, enum=1)
float64 = DType('float64', np.float64, enum=2)
double = float64
int8 = DType('int8', np.int8, enum=6)
int16 = DType('int16', np.int16, enum=5)
int32 = DType('int32', np.int32, enum=3)
int64 = DType('int64', np.int64, enum=9)
uint8 = DType('uint8', np.uint8, enum=4)
uint16 = DType('uint16', np.uint16, enum=17)
uint32 = DType('uint32', np.uint32, enum=22)
uint64 = DType('uint64', np.uint64, enum=23)
bool = DType('bool', np.bool_, enum=10)  # noqa: A001 - TensorFlow's name
complex64 = DType('complex64', np.complex64, enum=8)
complex128 = DType('complex128', np.complex128, enum=18)
string = DType('string', object, enum=7)
# The dtype of a variable's handle: a reference, never a number.
resource = DType('resource', object, enum=20)
variant = DType('variant', object, enum=21)


def _ml(name):
    return None if ml_dtypes is None else getattr(ml_dtypes, name)


bfloat16 = DType('bfloat16', _ml('bfloat16'), 'f', enum=14)
float8_e5m2 = DType('float8_e5m2', _ml('float8_e5m2'), 'f', enum=24)
float8_e4m3fn = DType('float8_e4m3fn', _ml('float8_e4m3fn'), 'f', enum=25)
int4 = DType('int4', _ml('int4'), 'i', enum=29)
uint4 = DType('uint4', _ml('uint4'), 'u', enum=30)

LOW_PRECISION_TYPES = (bfloat16, float8_e5m2, float8_e4m3fn, int4, uint4)
ALL = (float16, float32, float64, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
       bool, complex64, complex128, string, resource, variant) + LOW_PRECISION_TYPES
_BY_NAME = {d.name: d for d in ALL}
_BY_NAME.update(half=float16, float=float32, double=float64)  # TF's non-canonical aliases
_BY_NP = {d.np_dtype: d for d in ALL if d.has_numpy_dtype and d.np_dtype.kind != "O"}
_BY_ENUM = {d.enum: d for d in ALL}

# The low-precision numpy dtypes (with ml_dtypes) -> the numpy dtype kernels compute them in:
# float32 for the floats, as TF's CPU kernels (Eigen) compute bfloat16; int8/uint8 for int4/uint4.
LOW_PRECISION = {d.np_dtype: np.dtype(np.float32 if d.kind == 'f' else f'{d.kind}1')
                 for d in LOW_PRECISION_TYPES if d.has_numpy_dtype}

# The floats TF's elementwise kernels compute one step at a time, each step rounded to the type
# (half and bfloat16: Eigen's expressions on them), where a kernel's formula shows in its value.
STEPWISE_FLOATS = frozenset([np.dtype(np.float16)] + [d.np_dtype for d in (bfloat16,)
                                                       if d.has_numpy_dtype])


def np_kind(npdtype: np.dtype) -> str:
    """numpy's kind letter of `npdtype`, 'f'/'i'/'u' for the low-precision types."""
    if npdtype in LOW_PRECISION:
        return _BY_NP[npdtype].kind
    return npdtype.kind


def _info(dtype):
    """finfo/iinfo of a numeric DType (ml_dtypes' for its own types)."""
    if dtype in LOW_PRECISION_TYPES:
        info = ml_dtypes.finfo if dtype.kind == 'f' else ml_dtypes.iinfo
        return info(dtype.np_dtype)
    return np.finfo(dtype.np_dtype) if dtype.kind == 'f' else np.iinfo(dtype.np_dtype)


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
