"""The public surface of the math op tables (top-level `tf.*` and `tf.math.*`), gathered from the
modules that define them, lowest first:

  logic.py        comparisons, logical ops, where, is_finite/is_nan/is_inf
  arithmetic.py   + - * / // %, maximum/minimum, add_n, clip_by_value, stop_gradient
  elementary.py   pow, exp/log, trigonometric and hyperbolic functions, sigmoid, erf, abs, rounding
  complex_numbers.py  complex, real, imag
  reductions.py   reduce_*, argmax/argmin, cumsum/cumprod
  ../linalg/products.py  matmul, einsum, tensordot (and tf.linalg's inv, det, solve)
  ../linalg/norms.py     norm

Other tables and the gradient machinery import from here (`from defun.ops.math import exports`).
"""
from defun.ops.math import arithmetic, complex_numbers, elementary, logic, reductions
from defun.ops.linalg import products, norms
from defun.ops.math.arithmetic import *  # noqa: F401,F403
from defun.ops.math.complex_numbers import *  # noqa: F401,F403
from defun.ops.math.elementary import *  # noqa: F401,F403
from defun.ops.linalg.products import *  # noqa: F401,F403
from defun.ops.linalg.norms import *  # noqa: F401,F403
from defun.ops.math.logic import *  # noqa: F401,F403
from defun.ops.math.reductions import *  # noqa: F401,F403

__all__ = (logic.__all__ + arithmetic.__all__ + elementary.__all__ + complex_numbers.__all__
           + reductions.__all__ + products.__all__ + norms.__all__)
