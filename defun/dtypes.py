"""The `tf.dtypes` namespace: re-exports only (the DTypes, `as_dtype`, and the casts TF lists
here as well as at the top level)."""
from defun.core import unsupported
from defun.core.dtypes import (DType, as_dtype, bool, complex64, complex128, double,  # noqa: F401
                               float16, float32, float64, half, int8, int16, int32, int64,
                               resource, string, uint8, uint16, uint32, uint64, variant)
from defun.ops.framework.base_ops import cast  # noqa: F401
from defun.ops.math.exports import complex  # noqa: F401
from defun.ops.array.repeat_unique import saturate_cast  # noqa: F401

__getattr__ = unsupported.missing_names(__name__, 'tf.dtypes')
