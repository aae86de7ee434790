"""The `tf.math` namespace: the math tables, plus the ops TF also lists here from other tables."""
from defun.ops.math.exports import *  # noqa: F401,F403
from defun.ops.nn.activations import log_softmax, softmax  # noqa: F401
from defun.ops.array.sorting import top_k  # noqa: F401
from defun.ops.nn.compositions import l2_normalize, softsign  # noqa: F401
from defun.ops.math.clipping import reduce_euclidean_norm  # noqa: F401
from defun.ops.math.math_ops import *  # noqa: F401,F403
from defun.ops.ragged.ragged_bincount import bincount  # noqa: F401,F811  (ragged arr too)
from defun.ops.math.special import *  # noqa: F401,F403
from defun.ops.math.truncating import *  # noqa: F401,F403
from defun.ops.nn.compositions import zero_fraction  # noqa: F401  (shared with tf.nn)
from defun.ops.math.bessel import bessel_i0, bessel_i0e, bessel_i1, bessel_i1e  # noqa: F401
from defun import math_special as special  # noqa: F401  (tf.math.special)
# the elementwise APIs, which take RaggedTensors too (as TF dispatches them)
from defun.ops.ragged.elementwise_api import (abs, acos, acosh, angle, asin, asinh, atan,  # noqa: F401,F811
    atanh, ceil, conj, cos, cosh, digamma, erf, erfc, erfinv, exp, expm1, floor, imag,  # noqa: F401,F811
    is_finite, is_inf, is_nan, lgamma, log, log1p, log_sigmoid, logical_not, ndtri,  # noqa: F401,F811
    negative, real, reciprocal, reciprocal_no_nan, rint, round, rsqrt, sigmoid, sign, sin,  # noqa: F401,F811
    sinh, softplus, sqrt, square, tan, tanh, clip_by_value, log_softmax, softsign, add,  # noqa: F401,F811
    subtract, multiply, divide, truediv, divide_no_nan, floordiv, floormod, maximum,  # noqa: F401,F811
    minimum, pow, atan2, equal, not_equal, less, less_equal, greater, greater_equal,  # noqa: F401,F811
    logical_and, logical_or, logical_xor, multiply_no_nan, squared_difference, xdivy,  # noqa: F401,F811
    xlog1py, xlogy,  # noqa: F401,F811
    where)  # noqa: F401,F811
