"""Special functions of tf.math: lgamma, digamma and polygamma, plus the small compositions
polyval, accumulate_n and cumulative_logsumexp, and tf.linalg.cross.

Without scipy, lgamma uses Python's math.lgamma elementwise, and digamma/polygamma
are computed by shifting x above 10 with their recurrence and summing the asymptotic series
(ψ⁽ⁿ⁾(x) = ψ⁽ⁿ⁾(x+1) + (-1)ⁿ⁺¹ n!/x^(n+1)), accurate to float64 rounding. The gradients chain:
lgamma' = digamma, digamma' = polygamma(1, ·), polygamma(n, ·)' = polygamma(n + 1, ·).
"""
import math

import numpy as np

from defun.dispatch import apply_op
from defun.ops.array import stack, unstack
from defun.ops.dtype_checks import FLOAT, checked_kernel, check_inputs
from defun.ops.elementary import exp, log
from defun.ops.op_helpers import binary_args, broadcast_dims, dims, same_dtype_args, to_tensor
from defun.ops.reductions import cumsum, reduce_max
from defun.registry import define_op
from defun.ops import validation

__all__ = ['lgamma', 'digamma', 'polygamma', 'polyval', 'accumulate_n',
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
        check_inputs(op, FLOAT, x)
        return x.dtype, dims(x)
    return infer


LGAMMA = define_op('Lgamma', checked_kernel(lambda x: _elementwise(math.lgamma, x), FLOAT,
                                            'lgamma'),
                   _float_infer('lgamma'), lambda op, g: g * digamma(op.inputs[0]))
DIGAMMA = define_op('Digamma', checked_kernel(
    lambda x: _polygamma_array(0, x).astype(x.dtype), FLOAT, 'digamma'),
    _float_infer('digamma'), lambda op, g: g * polygamma(1.0, op.inputs[0]))
POLYGAMMA = define_op(
    'Polygamma', checked_kernel(_polygamma_kernel, FLOAT, 'polygamma'),
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
