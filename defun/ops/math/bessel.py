"""tf.math.special's Bessel functions: I0, I1 (and e^-|x| scaled), K0, K1 (and e^x scaled),
J0, J1, Y0, Y1, evaluated in float64 and rounded to the input's float dtype.

Methods, each accurate to a few float64 ulps (checked against TF's float64 kernels):
I: the power series (positive terms) times e^-|x| for |x| <= 40, Hankel's asymptotic series
above. K: e^x K_n(x) = the integral over t >= 0 of exp(-x (cosh t - 1)) cosh(n t), by the
trapezoid rule, which converges exponentially for this integrand. J, Y: the power series (with
the harmonic numbers of Y) for |x| <= 12, Hankel's asymptotic forms above. TF's values outside
the domain are kept: K(x <= 0) = inf, Y(x <= 0) = -inf.
Gradients are TF's (in these ops): I0' = I1, I1' = I0 - I1/x (1/2 at 0), K0' = -K1,
K1' = -K0 - K1/x, J0' = -J1, J1' = J0 - J1/x (1/2 at 0), Y0' = -Y1, Y1' = Y0 - Y1/x, and the
scaled forms' own.
"""
import math

import numpy as np

from defun.core.registry import define_op
from defun.ops.math.logic import equal, where
from defun.ops.math.elementary import sign
from defun.ops.support import eigen_float32
from defun.ops.support.eigen_float32 import BESSEL_I_LIMIT, BESSEL_K_LIMIT
from defun.ops.support.helpers import same_as_first, unary_function

__all__ = ['bessel_i0', 'bessel_i0e', 'bessel_i1', 'bessel_i1e', 'bessel_k0', 'bessel_k0e',
           'bessel_k1', 'bessel_k1e', 'bessel_j0', 'bessel_j1', 'bessel_y0', 'bessel_y1']

_EULER = 0.5772156649015329
_I_SERIES_LIMIT = 40.0
_JY_SERIES_LIMIT = 12.0
_K_STEP = 0.02
_TF_FLOATS = (np.dtype(np.float32), np.dtype(np.float16))


def _float64(kernel):
    """An elementwise kernel computed in float64, its result in the input's dtype."""
    def run(x):
        with np.errstate(all='ignore'):
            return np.asarray(kernel(np.asarray(x, np.float64))).astype(x.dtype)
    return run


def _scaled_i_series(n, a):
    q = (a / 2) ** 2
    term = np.full_like(a, 1.0 / math.factorial(n))
    total = term.copy()
    for k in range(1, 400):
        term = term * q / (k * (k + n))
        total = total + term
        if np.all(term <= 1e-17 * total):
            break
    power = (a / 2) ** n if n else 1.0
    return total * power * np.exp(-a)


def _scaled_i_asymptotic(n, a):
    mu, term = 4.0 * n * n, np.ones_like(a)
    total = term.copy()
    for k in range(1, 40):
        term = -term * (mu - (2 * k - 1) ** 2) / (k * 8 * a)
        total = total + term
    return total / np.sqrt(2 * np.pi * a)


def _ive(n, x):
    """e^-|x| I_n(x)."""
    a = np.abs(x)
    small = a <= _I_SERIES_LIMIT
    out = np.where(small, _scaled_i_series(n, np.where(small, a, 1.0)),
                   _scaled_i_asymptotic(n, np.where(small, 2 * _I_SERIES_LIMIT, a)))
    return np.where(x < 0, -out, out) if n else out


def _iv(n, x):
    return _ive(n, x) * np.exp(np.abs(x))


def _kve(n, x):
    """e^x K_n(x) for x > 0 (inf for x <= 0, as TF)."""
    pos = np.where(x > 0, x, 1.0)
    if pos.size == 0:
        return pos
    steps = int(np.ceil(np.max(np.arccosh(1 + 750.0 / pos)) / _K_STEP)) + 1
    t = np.arange(steps) * _K_STEP
    weights = np.full(steps, _K_STEP)
    weights[0] = _K_STEP / 2
    values = np.exp(-pos[..., None] * (np.cosh(t) - 1)) * np.cosh(n * t)
    return np.where(x > 0, values @ weights, np.inf)


def _jy_series(x):
    """(J0, J1, Y0, Y1) of x > 0 by their power series."""
    q = (x / 2) ** 2
    term0, term1 = np.ones_like(x), np.ones_like(x)    # (-q)^k/k!^2, (-q)^k/(k!(k+1)!)
    j0, j1, s0, s1 = term0.copy(), term1.copy(), np.zeros_like(x), term1.copy()
    harmonic = 0.0
    for k in range(1, 80):
        term0 = term0 * (-q) / (k * k)
        term1 = term1 * (-q) / (k * (k + 1))
        harmonic += 1.0 / k
        j0, j1 = j0 + term0, j1 + term1
        s0 = s0 - term0 * harmonic
        s1 = s1 + term1 * (2 * harmonic + 1.0 / (k + 1))
    j1 = j1 * (x / 2)
    log_term = np.log(x / 2) + _EULER
    y0 = (2 / np.pi) * (log_term * j0 + s0)
    y1 = (2 / np.pi) * log_term * j1 - 2 / (np.pi * x) - (x / 2) / np.pi * s1
    return j0, j1, y0, y1


def _jy_asymptotic(n, x):
    """(J_n, Y_n) of large x by Hankel's expansions."""
    mu, a = 4.0 * n * n, 1.0
    p, q = np.ones_like(x), np.zeros_like(x)
    for k in range(1, 30):
        a = a * (mu - (2 * k - 1) ** 2) / (k * 8)
        term = (-1) ** ((k - 1) // 2 if k % 2 else k // 2) * a / x ** k
        if k % 2:
            q = q + term
        else:
            p = p + term
    chi = x - (n / 2 + 0.25) * np.pi
    scale = np.sqrt(2 / (np.pi * x))
    return scale * (p * np.cos(chi) - q * np.sin(chi)), scale * (p * np.sin(chi) + q * np.cos(chi))


def _jy(index):
    """Kernel of J0 (0), J1 (1), Y0 (2) or Y1 (3)."""
    n = index % 2

    def kernel(x):
        a = np.abs(x)
        near = a <= _JY_SERIES_LIMIT
        series = _jy_series(np.where(near & (a > 0), a, 1.0))[index]
        far = _jy_asymptotic(n, np.where(near, 2 * _JY_SERIES_LIMIT, a))[index // 2]
        value = np.where(near, series, far)
        if index == 0:
            return np.where(a == 0, 1.0, value)
        if index == 1:
            return np.where(a == 0, 0.0, np.where(x < 0, -value, value))
        return np.where(x > 0, value, -np.inf)
    return kernel


def _op(op_type, kernel, grad, tf_float=None):
    """`kernel` in float64; for float32/float16 inputs, `tf_float` = (TF's float algorithm,
    the inputs where it applies) gives TF's own bits there."""
    run = _float64(kernel)
    if tf_float is not None:
        run = _with_tf_float(run, *tf_float)
    return define_op(op_type, run, same_as_first, grad)  # TF's signature: core/tf_signatures.py


def _with_tf_float(run, algorithm, inside):
    def kernel(x):
        out = run(x)
        if x.dtype in _TF_FLOATS:
            x32 = x.astype(np.float32)
            where_tf = inside(x32)
            out = np.where(where_tf, algorithm(np.where(where_tf, x32, 1)).astype(x.dtype), out)
        return out
    return kernel


def _i_range(x):
    return np.abs(x) <= BESSEL_I_LIMIT


def _k_range(x):
    return (x > 0) & (x <= BESSEL_K_LIMIT)


def _scaled_back(scaled):
    """I0 or I1 from its float algorithm: e^|x| times the scaled value, in float as TF."""
    return lambda x: eigen_float32.exp(np.abs(x)) * scaled(x)


def _x(op):
    return op.inputs[0]


def _y(op):
    return op.outputs[0]


def _at_zero_half(op, value):
    """TF's gradient of the odd functions: 1/2 at x = 0."""
    return where(equal(_x(op), 0), 0.5 * value / value, value)


I0 = _op('BesselI0', lambda x: _iv(0, x), lambda op, g: g * bessel_i1(_x(op)),
         (_scaled_back(eigen_float32.bessel_i0e), _i_range))
I0E = _op('BesselI0e', lambda x: _ive(0, x),
          lambda op, g: g * (bessel_i1e(_x(op)) - sign(_x(op)) * _y(op)),
          (eigen_float32.bessel_i0e, _i_range))
I1 = _op('BesselI1', lambda x: _iv(1, x),
         lambda op, g: g * _at_zero_half(op, bessel_i0(_x(op)) - _y(op) / _x(op)),
         (_scaled_back(eigen_float32.bessel_i1e), _i_range))
I1E = _op('BesselI1e', lambda x: _ive(1, x),
          lambda op, g: g * _at_zero_half(
              op, bessel_i0e(_x(op)) - _y(op) * (sign(_x(op)) + 1 / _x(op))),
          (eigen_float32.bessel_i1e, _i_range))
K0 = _op('BesselK0', lambda x: _kve(0, x) * np.exp(-x), lambda op, g: -g * bessel_k1(_x(op)))
K0E = _op('BesselK0e', lambda x: _kve(0, x),
          lambda op, g: g * (_y(op) - bessel_k1e(_x(op))),
          (eigen_float32.bessel_k0e, _k_range))
K1 = _op('BesselK1', lambda x: _kve(1, x) * np.exp(-x),
         lambda op, g: g * (-bessel_k0(_x(op)) - _y(op) / _x(op)))
K1E = _op('BesselK1e', lambda x: _kve(1, x),
          lambda op, g: g * (_y(op) - bessel_k0e(_x(op)) - _y(op) / _x(op)))
J0 = _op('BesselJ0', _jy(0), lambda op, g: -g * bessel_j1(_x(op)))
J1 = _op('BesselJ1', _jy(1),
         lambda op, g: g * _at_zero_half(op, bessel_j0(_x(op)) - _y(op) / _x(op)))
Y0 = _op('BesselY0', _jy(2), lambda op, g: -g * bessel_y1(_x(op)))
Y1 = _op('BesselY1', _jy(3), lambda op, g: g * (bessel_y0(_x(op)) - _y(op) / _x(op)))


bessel_i0 = unary_function(I0, 'bessel_i0', 'The modified Bessel function of the first kind, order 0.')
bessel_i0e = unary_function(I0E, 'bessel_i0e', 'e^-|x| I0(x): I0 scaled so that it does not overflow.')
bessel_i1 = unary_function(I1, 'bessel_i1', 'The modified Bessel function of the first kind, order 1.')
bessel_i1e = unary_function(I1E, 'bessel_i1e', 'e^-|x| I1(x).')
bessel_k0 = unary_function(K0, 'bessel_k0', 'The modified Bessel function of the second kind, order 0.')
bessel_k0e = unary_function(K0E, 'bessel_k0e', 'e^x K0(x).')
bessel_k1 = unary_function(K1, 'bessel_k1', 'The modified Bessel function of the second kind, order 1.')
bessel_k1e = unary_function(K1E, 'bessel_k1e', 'e^x K1(x).')
bessel_j0 = unary_function(J0, 'bessel_j0', 'The Bessel function of the first kind, order 0.')
bessel_j1 = unary_function(J1, 'bessel_j1', 'The Bessel function of the first kind, order 1.')
bessel_y0 = unary_function(Y0, 'bessel_y0', 'The Bessel function of the second kind, order 0.')
bessel_y1 = unary_function(Y1, 'bessel_y1', 'The Bessel function of the second kind, order 1.')
