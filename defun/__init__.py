"""defun: TensorFlow 2's tensors, tapes and compiled functions on numpy. This module only re-exports
the public surface of ../shared/API.md; nothing is defined here."""
from defun import dtypes
from defun.dtypes import (DType, as_dtype, float16, half, float32, float64, double, int8, int16,  # noqa
                          int32, int64, uint8, uint16, uint32, uint64, bool, complex64, complex128,
                          string, resource)
from defun.shapes import TensorShape, TensorSpec  # noqa
from defun.tensor import Tensor, convert_to_tensor, is_tensor  # noqa
from defun import nest, errors  # noqa
from defun.ops.core import identity, cast, shape, reshape, broadcast_to, zeros_like, ones_like, fill  # noqa
from defun.ops.math import (add, subtract, multiply, divide, truediv, negative, sin, cos, exp,  # noqa
                            square, reduce_sum, add_n, matmul)
from defun.ops.array import zeros, ones, stack, unstack, concat, split, one_hot, size  # noqa
from defun.variables import Variable  # noqa
from defun.tape import GradientTape  # noqa
from defun.context import executing_eagerly, init_scope  # noqa
