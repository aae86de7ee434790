"""Special functions of tf.math: lgamma, digamma, polygamma, erfinv and ndtri, plus the small compositions
polyval, accumulate_n and cumulative_logsumexp, and tf.linalg.cross.

Without scipy, lgamma uses Python's math.lgamma elementwise, and digamma/polygamma
are computed by shifting x above 10 with their recurrence and summing the asymptotic series
(ψ⁽ⁿ⁾(x) = ψ⁽ⁿ⁾(x+1) + (-1)ⁿ⁺¹ n!/x^(n+1)), accurate to float64 rounding. The gradients chain:
lgamma' = digamma, digamma' = polygamma(1, ·), polygamma(n, ·)' = polygamma(n + 1, ·).
"""
import math

import numpy as np

from defun.core.dispatch import apply_op
from defun.ops.math.arithmetic import square
from defun.ops.array.joining import stack, unstack
from defun.ops.math.elementary import exp, log
from defun.ops.support.helpers import binary_args, broadcast_dims, dims, same_dtype_args, to_tensor
from defun.ops.math.reductions import cumsum, reduce_max
from defun.core.registry import define_op
from defun.ops.support import validation

__all__ = ['lgamma', 'digamma', 'polygamma', 'erfinv', 'ndtri', 'polyval', 'accumulate_n',
           'cumulative_logsumexp']
LINALG = ['cross']

_BERNOULLI = [1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510]


def _elementwise(pyfunc, x):
    def safe(v):
        try:
            return pyfunc(float(v))
        except (ValueError, OverflowError):   # poles: TF gives inf
            return math.inf
    return np.asarray(np.frompyfunc(safe, 1, 1)(x), dtype=np.float64).astype(x.dtype)


def _polygamma_array(n, x):
    """ψ⁽ⁿ⁾(x) for integer n >= 0 (n = 0: digamma), elementwise in float64; NaN at the poles."""
    x = np.asarray(x, np.float64)
    shifted = x.copy()
    acc = np.zeros_like(x)
    sign = (-1.0) ** (n + 1)
    factorial = math.factorial(n)
    with np.errstate(divide='ignore', invalid='ignore', over='ignore'):
        while np.any(shifted < 10):
            small = shifted < 10
            term = 1.0 / shifted if n == 0 else factorial / shifted ** (n + 1)
            acc = np.where(small, acc - term if n == 0 else acc + sign * term, acc)
            shifted = np.where(small, shifted + 1, shifted)
        if n == 0:
            series = np.log(shifted) - 0.5 / shifted
            for k, b in enumerate(_BERNOULLI, start=1):
                series = series - b / (2 * k * shifted ** (2 * k))
        else:
            series = math.factorial(n - 1) / shifted ** n + factorial / (2 * shifted ** (n + 1))
            for k, b in enumerate(_BERNOULLI, start=1):
                series = series + b * math.factorial(2 * k + n - 1) / (
                    math.factorial(2 * k) * shifted ** (2 * k + n))
            series = sign * series
        result = acc + series
    poles = (x <= 0) & (x == np.floor(x))
    return np.where(poles, np.nan if n == 0 else np.inf, result)


def _polygamma_kernel(a, x):
    orders = np.broadcast_to(a, np.broadcast_shapes(np.shape(a), np.shape(x)))
    xs = np.broadcast_to(x, orders.shape)
    out = np.full(orders.shape, np.nan)
    for n in np.unique(orders):
        if n >= 0 and n == np.floor(n):
            mask = orders == n
            out[mask] = _polygamma_array(int(n), xs[mask])
    return out.astype(np.result_type(a, x))


def _float_infer(op):
    def infer(x):
        return x.dtype, dims(x)
    return infer


LGAMMA = define_op('Lgamma', lambda x: _elementwise(math.lgamma, x),
                   _float_infer('lgamma'), lambda op, g: g * digamma(op.inputs[0]))
DIGAMMA = define_op('Digamma', lambda x: _polygamma_array(0, x).astype(x.dtype),
                    _float_infer('digamma'), lambda op, g: g * polygamma(1.0, op.inputs[0]))
POLYGAMMA = define_op(
    'Polygamma', _polygamma_kernel,
    lambda a, x: (x.dtype, broadcast_dims(dims(a), dims(x), 'polygamma')),
    lambda op, g: (None, g * polygamma(op.inputs[0] + 1, op.inputs[1])))

def lgamma(x, name=None):
    """log|Γ(x)|."""
    return apply_op(LGAMMA, (to_tensor(x, op='lgamma'),), None, name)


def digamma(x, name=None):
    """ψ(x) = d/dx log Γ(x)."""
    return apply_op(DIGAMMA, (to_tensor(x, op='digamma'),), None, name)


def polygamma(a, x, name=None):
    """ψ⁽ᵃ⁾(x) for a non-negative integer order a (NaN for other orders, as TF)."""
    a, x = binary_args(a, x, 'polygamma')
    return apply_op(POLYGAMMA, (a, x), None, name)


# ---------------------------------------------------------------- erfinv, ndtri
# Acklam's rational approximation of the normal quantile (relative error 1.15e-9), then one
# Newton step on erfc, which brings it to float64 rounding. The central branch takes q = p - 1/2
# directly, so erfinv(x) (q = x / 2) keeps its relative precision for tiny x.

_A = [-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
      1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00]
_B = [-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
      6.680131188771972e+01, -1.328068155288572e+01, 1.0]
_C = [-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
      -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00]
_D = [7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
      3.754408661907416e+00, 1.0]
_ERFC = np.frompyfunc(math.erfc, 1, 1)


def _normal_quantile(p, q):
    """The standard normal quantile of p, given q = p - 1/2 too (each computed where it is
    exact: the central branch reads q, the lower tail p), in float64."""
    p, q = np.asarray(p, np.float64), np.asarray(q, np.float64)
    with np.errstate(divide='ignore', invalid='ignore'):
        r = q * q
        central = q * np.polyval(_A, r) / np.polyval(_B, r)
        tail_p = np.where(q < 0, p, 0.5 - q)   # the smaller tail's probability
        t = np.sqrt(-2 * np.log(tail_p))
        tail = np.polyval(_C, t) / np.polyval(_D, t)
        x = np.where(np.abs(q) <= 0.5 - 0.02425, central, np.where(q < 0, tail, -tail))
        x = np.where(tail_p == 0, np.where(q < 0, -np.inf, np.inf), x)
        # Newton on the smaller tail's probability, Phi(-|x|) = erfc(|x| / sqrt 2) / 2, with the
        # step exp(x^2 / 2) taken in log space so that far tails neither overflow nor give NaN.
        finite = np.isfinite(x)
        magnitude = np.where(finite, np.abs(x), 0.0)
        residual = np.asarray(_ERFC(magnitude / math.sqrt(2)), np.float64) / 2 - tail_p
        step = np.sign(residual) * np.exp(np.log(np.abs(residual)) + magnitude ** 2 / 2
                                          + 0.5 * math.log(2 * math.pi))
        step = np.where(finite & (residual != 0), step, 0.0)
        x = x + np.where(q < 0, -step, step)
    return np.where(np.abs(q) > 0.5, np.nan, x)


def _erfinv_array(x):
    x = np.asarray(x, np.float64)
    return _normal_quantile((x + 1) / 2, x / 2)


ERFINV = define_op(
    'Erfinv', lambda x: (_erfinv_array(x) / math.sqrt(2)).astype(x.dtype),
    _float_infer('erfinv'),
    lambda op, g: g * (math.sqrt(math.pi) / 2) * exp(square(op.outputs[0])))
NDTRI = define_op(
    'Ndtri', lambda p: _normal_quantile(p, np.asarray(p, np.float64) - 0.5).astype(p.dtype),
    _float_infer('ndtri'),
    lambda op, g: g * math.sqrt(2 * math.pi) * exp(square(op.outputs[0]) / 2))


def erfinv(x, name=None):
    """The inverse of erf on (-1, 1) (±inf at ±1, NaN outside)."""
    return apply_op(ERFINV, (to_tensor(x, op='erfinv'),), None, name)


def ndtri(x, name=None):
    """The standard normal quantile (inverse CDF) of probabilities x."""
    return apply_op(NDTRI, (to_tensor(x, op='ndtri'),), None, name)


# ---------------------------------------------------------------- compositions

def polyval(coeffs, x, name=None):
    """coeffs[0] * x**(n-1) + ... + coeffs[n-1], by Horner's rule."""
    x = to_tensor(x, name='x', op='polyval')
    if not isinstance(coeffs, (list, tuple)):
        raise ValueError(f'Argument coeffs must be list type. Received type {type(coeffs)}.')
    result = x * 0
    for c in coeffs:
        result = result * x + to_tensor(c, dtype=x.dtype, name='coeffs', op='polyval')
    return result


def accumulate_n(inputs, shape=None, tensor_dtype=None, name=None):
    """The elementwise sum of a list of tensors (TF deprecates it for add_n)."""
    validation.op_name(name)
    tensors = same_dtype_args(validation.tensor_list(inputs, 'accumulate_n', 'inputs'),
                              'accumulate_n', tensor_dtype)
    if not tensors:
        raise ValueError('accumulate_n: `inputs` must be a non-empty list of tensors')
    total = tensors[0]
    for t in tensors[1:]:
        total = total + t
    return total


def cumulative_logsumexp(x, axis=0, exclusive=False, reverse=False, name=None):
    """log(cumsum(exp(x))) along axis, shifted by the maximum so that it never overflows."""
    validation.op_name(name)
    x = to_tensor(x, name='x', op='cumulative_logsumexp')
    shift = reduce_max(x, axis=axis, keepdims=True)
    from_shift = cumsum(exp(x - shift), axis=axis, exclusive=exclusive, reverse=reverse)
    return log(from_shift) + shift


def cross(a, b, name=None):
    """The cross product of 3-vectors in the last dimension (batched, broadcasting)."""
    a, b = binary_args(a, b, 'cross')
    for t in (a, b):
        d = dims(t)
        if d is not None and (not d or d[-1] not in (None, 3)):
            raise ValueError(f'cross: the last dimension must be 3, got {t.shape}')
    ax, ay, az = unstack(a, 3, axis=-1)
    bx, by, bz = unstack(b, 3, axis=-1)
    return stack([ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx], axis=-1)
