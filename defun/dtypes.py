"""The `tf.dtypes` namespace: re-exports only (the DTypes, `as_dtype`, and the casts TF lists
here as well as at the top level; TF's float8 and 4-bit types under `tf.dtypes.experimental`)."""
import types

from defun.core import unsupported
from defun.core.dtypes import (DType, as_dtype, bfloat16, bool, complex64, complex128,  # noqa: F401
                               double, float8_e4m3fn, float8_e5m2, float16, float32, float64,
                               half, int4, int8, int16, int32, int64, resource, string, uint4, uint8,
                               uint16, uint32, uint64, variant)
from defun.ops.framework.base_ops import cast  # noqa: F401
from defun.ops.math.exports import complex  # noqa: F401
from defun.ops.array.repeat_unique import saturate_cast  # noqa: F401

# TF 2.21 lists these under tf.dtypes.experimental only (their values need ml_dtypes).
experimental = types.SimpleNamespace(float8_e4m3fn=float8_e4m3fn, float8_e5m2=float8_e5m2,
                                     int4=int4, uint4=uint4)

__getattr__ = unsupported.missing_names(__name__, 'tf.dtypes')
