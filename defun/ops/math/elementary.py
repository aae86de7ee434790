"""The elementary functions, elementwise: powers and roots, exp and log, the trigonometric and
hyperbolic functions, sigmoid, softplus, erf, abs/sign and rounding (complex numbers: see
complex_numbers.py).

One `define_op` entry per op (kernel, inference, gradient), then its public function. Gradients are
TensorFlow's formulas written with our ops, so they differentiate again (second order and beyond);
where TF's gradient reuses the op's output (exp, sqrt, tanh, sigmoid, ...) so does ours. round, floor
and ceil have no gradient (None), as in TF; sign's gradient is zero, as in TF.
"""
import math

import numpy as np

from defun.core import dtypes
from defun.core.dispatch import apply_op
from defun.ops.support import helpers as op_helpers
from defun.ops.math.arithmetic import conj, divide_no_nan, square
from defun.ops.support.helpers import binary_args, dims, to_tensor
from defun.ops.support.lowerings import vector_math
from defun.ops.support import eigen_float32
from defun.ops.framework.base_ops import ones_like, sum_to, zeros_like
from defun.ops.math.complex_numbers import complex
from defun.ops.support.dtype_checks import half_in_float32
from defun.ops.math.logic import greater, where
from defun.core.registry import define_op
from defun.ops.support.docs import documented

__all__ = ['pow', 'abs', 'sign', 'reciprocal', 'sqrt', 'rsqrt', 'exp', 'log', 'log1p', 'expm1',
           'sin', 'cos', 'tan', 'asin', 'acos', 'atan', 'atan2', 'sinh', 'cosh', 'tanh', 'sigmoid',
           'softplus', 'erf', 'erfc', 'round', 'floor', 'ceil']

def _same(x):
    return x.dtype, dims(x)


def _unary(op_type, kernel, grad, op, lowering=None, **facts):
    """An elementwise op of one input whose output has the input's dtype and shape (its TF
    signature, the input types it takes, is TF's, from the registry's table)."""
    return define_op(op_type, kernel, _same, grad, lowering=lowering, **facts)


def _arg(x, op):
    return to_tensor(x, name='x', op=op)


# Gradients of complex inputs are TF's: the output gradient times the conjugate derivative, so the
# formulas below read the op's input and output through conj (no op at all for real tensors).

def _in(op):
    return conj(op.inputs[0])


def _out(op):
    return conj(op.outputs[0])


# ---------------------------------------------------------------- powers and roots

def _pow_grad(op, g):
    x, y = conj(op.inputs[0]), conj(op.inputs[1])
    gx = g * y * pow(x, y - 1)
    if x.dtype.is_complex:
        log_x = where(x != 0, log(x), zeros_like(x))
    else:
        positive = greater(x, 0)
        log_x = where(positive, log(where(positive, x, ones_like(x))), zeros_like(x))
    return sum_to(gx, op.inputs[0]), sum_to(g * _out(op) * log_x, op.inputs[1])


def _pow_infer(x, y):
    return x.dtype, op_helpers.broadcast_dims(dims(x), dims(y), 'pow')


POW = define_op('Pow', np.power, _pow_infer, _pow_grad)


def pow(x, y, name=None):
    """x ** y elementwise; integer x to a negative integer power is an error, as in TF."""
    x, y = binary_args(x, y, 'pow')
    return apply_op(POW, (x, y), None, name)


# As in TF, the gradients of 1/x, sqrt and rsqrt are ops of their own taking (y, dy), the op's
# output and its gradient, and give 0 wherever dy is 0: a branch that `where` discards (say
# where(x > 0, sqrt(x), 0) at x < 0) feeds back 0, not 0 * inf = nan. Their gradients are TF's.

def _zero_where_no_grad(kernel):
    def grad_kernel(y, dy):
        return np.where(dy == 0, np.zeros((), dy.dtype), kernel(np.conj(y), dy)).astype(
            dy.dtype, copy=False)
    return grad_kernel


def _grad_op(op_type, kernel, grad):
    return define_op(op_type, _zero_where_no_grad(kernel), lambda y, dy: (dy.dtype, dims(dy)),
                     grad)


def _reciprocal_grad_grad(op, g):
    y, dy = conj(op.inputs[0]), op.inputs[1]
    return conj(g) * -2.0 * dy * y, apply_op(RECIPROCAL_GRAD, (y, g))


def _sqrt_grad_grad(op, g):
    ga = g / op.inputs[0]
    return -conj(ga) * op.outputs[0], 0.5 * conj(ga)


def _rsqrt_grad_grad(op, g):
    y, dy = conj(op.inputs[0]), op.inputs[1]
    return -1.5 * conj(g) * dy * square(y), apply_op(RSQRT_GRAD, (y, g))


RECIPROCAL_GRAD = _grad_op('ReciprocalGrad', lambda y, dy: -dy * y * y, _reciprocal_grad_grad)
SQRT_GRAD = _grad_op('SqrtGrad', lambda y, dy: 0.5 * dy / y, _sqrt_grad_grad)
# TF's RsqrtGrad order, -0.5 * (dy * y) * (y * y), so float results agree bit for bit.
RSQRT_GRAD = _grad_op('RsqrtGrad', lambda y, dy: -0.5 * (dy * y) * (y * y), _rsqrt_grad_grad)
# Reciprocal's signature takes ints, but TF has CPU kernels for float and complex only (the
# registry's table of TF's kernels says so: NotFoundError eagerly, as TF).
RECIPROCAL = define_op('Reciprocal', np.reciprocal, _same,
                       lambda op, g: apply_op(RECIPROCAL_GRAD, (op.outputs[0], g)))
SQRT = _unary('Sqrt', np.sqrt, lambda op, g: apply_op(SQRT_GRAD, (op.outputs[0], g)), 'sqrt',
              lowering=('np.sqrt({0})', 'f'))
# TF computes a half rsqrt in float32 and rounds once (1 / sqrt(x) rounded twice differs).
RSQRT = _unary('Rsqrt', half_in_float32(lambda x: np.reciprocal(np.sqrt(x))),
               lambda op, g: apply_op(RSQRT_GRAD, (op.outputs[0], g)), 'rsqrt')


@documented('unary', 'Computes 1 / x element-wise.')
def reciprocal(x, name=None):
    return apply_op(RECIPROCAL, (_arg(x, 'reciprocal'),), None, name)


@documented('unary', 'Computes the square root of `x` element-wise.')
def sqrt(x, name=None):
    return apply_op(SQRT, (_arg(x, 'sqrt'),), None, name)


@documented('unary', 'Computes 1 / sqrt(x) element-wise.')
def rsqrt(x, name=None):
    return apply_op(RSQRT, (_arg(x, 'rsqrt'),), None, name)


# ---------------------------------------------------------------- exp and log

EXP = _unary('Exp', np.exp, lambda op, g: g * _out(op), 'exp', lowering=vector_math('np.exp'))
LOG = _unary('Log', np.log, lambda op, g: g * reciprocal(_in(op)), 'log',
              lowering=vector_math('np.log'))
# float32 and float16 erf/log1p are computed as TF's CPU kernels compute them (Eigen's algorithms)
_EIGEN_FLOATS = (np.dtype(np.float32), np.dtype(np.float16))


def _log1p_kernel(x):
    if x.dtype in _EIGEN_FLOATS:
        return eigen_float32.log1p(x)
    return np.log1p(x)


LOG1P = _unary('Log1p', _log1p_kernel, lambda op, g: g * reciprocal(1 + _in(op)), 'log1p')
EXPM1 = _unary('Expm1', np.expm1, lambda op, g: g * exp(_in(op)), 'expm1')


@documented('unary', 'Computes e**x element-wise.')
def exp(x, name=None):
    return apply_op(EXP, (_arg(x, 'exp'),), None, name)


@documented('unary', 'Computes the natural logarithm of `x` element-wise.')
def log(x, name=None):
    return apply_op(LOG, (_arg(x, 'log'),), None, name)


@documented('unary', 'Computes log(1 + x) element-wise, accurately for small `x`.')
def log1p(x, name=None):
    return apply_op(LOG1P, (_arg(x, 'log1p'),), None, name)


@documented('unary', 'Computes e**x - 1 element-wise, accurately for small `x`.')
def expm1(x, name=None):
    return apply_op(EXPM1, (_arg(x, 'expm1'),), None, name)


# ---------------------------------------------------------------- trigonometric

def _tan_grad(op, g):
    return g * square(reciprocal(cos(_in(op))))


def _asin_grad(op, g):
    return g * reciprocal(sqrt(1 - square(_in(op))))


def _acos_grad(op, g):
    return -g * reciprocal(sqrt(1 - square(_in(op))))


SIN = _unary('Sin', np.sin, lambda op, g: g * cos(_in(op)), 'sin', lowering=vector_math('np.sin'))
COS = _unary('Cos', np.cos, lambda op, g: -g * sin(_in(op)), 'cos', lowering=vector_math('np.cos'))
TAN = _unary('Tan', np.tan, _tan_grad, 'tan')
ASIN = _unary('Asin', np.arcsin, _asin_grad, 'asin')
ACOS = _unary('Acos', np.arccos, _acos_grad, 'acos')
ATAN = _unary('Atan', np.arctan, lambda op, g: g * reciprocal(1 + square(_in(op))),
              'atan')


@documented('unary', 'Computes sine of `x` element-wise.')
def sin(x, name=None):
    return apply_op(SIN, (_arg(x, 'sin'),), None, name)


@documented('unary', 'Computes cosine of `x` element-wise.')
def cos(x, name=None):
    return apply_op(COS, (_arg(x, 'cos'),), None, name)


@documented('unary', 'Computes tangent of `x` element-wise.')
def tan(x, name=None):
    return apply_op(TAN, (_arg(x, 'tan'),), None, name)


@documented('unary', 'Computes the inverse sine of `x` element-wise (radians, in [-pi/2, pi/2]).')
def asin(x, name=None):
    return apply_op(ASIN, (_arg(x, 'asin'),), None, name)


@documented('unary', 'Computes the inverse cosine of `x` element-wise (radians, in [0, pi]).')
def acos(x, name=None):
    return apply_op(ACOS, (_arg(x, 'acos'),), None, name)


@documented('unary', 'Computes the inverse tangent of `x` element-wise.')
def atan(x, name=None):
    return apply_op(ATAN, (_arg(x, 'atan'),), None, name)


def _atan2_grad(op, g):
    y, x = op.inputs
    scale = g / (x * x + y * y)
    return sum_to(x * scale, y), sum_to(-y * scale, x)


def _atan2_infer(y, x):
    return y.dtype, op_helpers.broadcast_dims(dims(y), dims(x), 'atan2')


ATAN2 = define_op('Atan2', np.arctan2, _atan2_infer, _atan2_grad)


def atan2(y, x, name=None):
    """The angle of the point (x, y), in (-pi, pi]; note the argument order (y first), as in TF."""
    y, x = binary_args(y, x, 'atan2')
    return apply_op(ATAN2, (y, x), None, name)


# -------------------------------------------------------------- hyperbolic, sigmoid, softplus, erf

_HALF = np.dtype(np.float16)


def _sigmoid_kernel(x):
    if x.dtype.kind == 'c':
        return 1 / (1 + np.exp(-x))
    if x.dtype in dtypes.STEPWISE_FLOATS:
        # TF's half and bfloat16 sigmoid is e / (1 + e), e = exp(x), each step rounded (checked
        # against TF 2.21 over [-8, 8]); beyond 11 exp(x) overflows half and the value rounds to 1.
        e = np.exp(np.minimum(x, x.dtype.type(11)))
        return e / (x.dtype.type(1) + e)
    if x.dtype == np.float32:   # TF's float algorithm, bit for bit (tiny results flushed)
        return eigen_float32.sigmoid(x)
    # Never exponentiates a large positive number, so no overflow for very negative x.
    e = np.exp(-np.abs(x))
    return np.where(x >= 0, 1 / (1 + e), e / (1 + e)).astype(x.dtype, copy=False)


_erf_scalar = np.frompyfunc(math.erf, 1, 1)


def _erf_kernel(x):
    if x.dtype in _EIGEN_FLOATS:   # TF's float algorithm, bit for bit
        return eigen_float32.erf(x)
    # numpy has no erf; math.erf is exact to double precision.
    return np.asarray(_erf_scalar(x), dtype=x.dtype)



_TWO_OVER_ROOT_PI = 2 / math.sqrt(math.pi)

SINH = _unary('Sinh', np.sinh, lambda op, g: g * cosh(_in(op)), 'sinh')
COSH = _unary('Cosh', np.cosh, lambda op, g: g * sinh(_in(op)), 'cosh')
TANH = _unary('Tanh', np.tanh, lambda op, g: g * (1 - _out(op) * _out(op)), 'tanh',
               lowering=vector_math('np.tanh', float32='tanh_f32'))
SIGMOID = _unary('Sigmoid', _sigmoid_kernel,
                 # (g * y) * (1 - y): TF's SigmoidGrad order, so float results agree bit for bit
                 lambda op, g: g * _out(op) * (1 - _out(op)), 'sigmoid',
                 low_precision_steps=True)  # bfloat16: TF's formula, each step rounded
def _softplus_kernel(x):
    if x.dtype is _HALF:
        # TF's half softplus: log1p(exp(x)) rounded to float16 at each step (past 11, exp(x)
        # overflows float16 and softplus(x) is x to float16 precision).
        return np.where(x > 11, x, np.log1p(np.exp(np.minimum(x, np.float16(11)))))
    if x.dtype in dtypes.STEPWISE_FLOATS:
        # bfloat16: TF's formula, x above -t, exp(x) below t, else log1p(exp(x)), t = log(eps) + 2
        # (eps = 2^-7), each step rounded
        t = np.log(2.0 ** -7) + 2
        e = np.exp(x)
        return np.where(x > -t, x, np.where(x < t, e, np.log1p(e)))
    return np.logaddexp(0, x)


SOFTPLUS = _unary('Softplus', _softplus_kernel, lambda op, g: g * sigmoid(op.inputs[0]),
                  'softplus', low_precision_steps=True)
ERF = _unary('Erf', _erf_kernel,
             lambda op, g: g * _TWO_OVER_ROOT_PI * exp(-square(op.inputs[0])), 'erf')
_erfc_scalar = np.frompyfunc(math.erfc, 1, 1)
ERFC = _unary('Erfc', lambda x: np.asarray(_erfc_scalar(x), dtype=x.dtype),
              lambda op, g: -g * _TWO_OVER_ROOT_PI * exp(-square(op.inputs[0])), 'erfc')


@documented('unary', 'Computes hyperbolic sine of `x` element-wise.')
def sinh(x, name=None):
    return apply_op(SINH, (_arg(x, 'sinh'),), None, name)


@documented('unary', 'Computes hyperbolic cosine of `x` element-wise.')
def cosh(x, name=None):
    return apply_op(COSH, (_arg(x, 'cosh'),), None, name)


@documented('unary', 'Computes hyperbolic tangent of `x` element-wise.')
def tanh(x, name=None):
    return apply_op(TANH, (_arg(x, 'tanh'),), None, name)


@documented('unary', 'Computes the logistic sigmoid 1 / (1 + exp(-x)) element-wise.')
def sigmoid(x, name=None):
    return apply_op(SIGMOID, (_arg(x, 'sigmoid'),), None, name)


def softplus(features, name=None):
    """log(exp(x) + 1), computed without overflow."""
    return apply_op(SOFTPLUS, (to_tensor(features, name='features', op='softplus'),), None, name)


@documented('unary', 'Computes the Gauss error function of `x` element-wise.')
def erf(x, name=None):
    return apply_op(ERF, (_arg(x, 'erf'),), None, name)


def erfc(x, name=None):
    """1 - erf(x), without the cancellation for large x."""
    return apply_op(ERFC, (_arg(x, 'erfc'),), None, name)


# ---------------------------------------------------------------- abs, sign, rounding

# TF's Abs and Sign take signed ints only (no unsigned), as Neg and Pow.
ABS = _unary('Abs', np.abs, lambda op, g: g * sign(op.inputs[0]), 'abs', lowering='np.abs({0})')
SIGN = _unary('Sign', np.sign, lambda op, g: zeros_like(op.inputs[0]), 'sign')


def _complex_abs_infer(x):
    return x.dtype.real_dtype, dims(x)


def _complex_abs_grad(op, g):
    return divide_no_nan(complex(g, zeros_like(g)) * op.inputs[0],
                         complex(op.outputs[0], zeros_like(op.outputs[0])))


COMPLEX_ABS = define_op('ComplexAbs', np.abs, _complex_abs_infer, _complex_abs_grad)


def abs(x, name=None):
    """|x|; for complex x the (real) modulus, as TF's ComplexAbs."""
    x = _arg(x, 'abs')
    return apply_op(COMPLEX_ABS if x.dtype.is_complex else ABS, (x,), None, name)


def sign(x, name=None):
    """-1, 0 or 1 by the sign of x (x / |x| for complex x, 0 at 0)."""
    return apply_op(SIGN, (_arg(x, 'sign'),), None, name)


# Round's signature takes complex tensors, but TF has no kernel for them (NotFoundError eagerly).
ROUND = define_op('Round', np.round, _same, None)
FLOOR = _unary('Floor', np.floor, None, 'floor', lowering=('np.floor({0})', 'f'))
CEIL = _unary('Ceil', np.ceil, None, 'ceil', lowering=('np.ceil({0})', 'f'))


def round(x, name=None):
    """Rounds half to even ("banker's rounding"), as TF; integer tensors are returned unchanged."""
    x = _arg(x, 'round')
    if x.dtype.is_integer:
        return x
    return apply_op(ROUND, (x,), None, name)


@documented('unary', 'Returns the largest integer not greater than `x`, element-wise.')
def floor(x, name=None):
    return apply_op(FLOOR, (_arg(x, 'floor'),), None, name)


@documented('unary', 'Returns the smallest integer not less than `x`, element-wise.')
def ceil(x, name=None):
    return apply_op(CEIL, (_arg(x, 'ceil'),), None, name)


# Named as TF names operator ops (see arithmetic.py).
def _pow_operator(x, y):
    return pow(x, y, 'pow')


# This table's Python operators on Tensor (installed by defun/ops/tensor_methods.py).
OPERATORS = {'__pow__': op_helpers.operator_method(_pow_operator),
             '__rpow__': op_helpers.operator_method(_pow_operator, reflected=True),
             '__abs__': abs}
