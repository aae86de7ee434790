"""tf.math.special's integrals: Dawson's integral, the exponential integral Ei, the Fresnel
integrals and Spence's function, evaluated in float64 and rounded to the input's float dtype.

Methods (each a few float64 ulps from TF's float64 kernels away from their zeros):
dawsn: e^-x² Σ x^(2k+1) / (k! (2k+1)) (positive terms) for |x| <= 10, the asymptotic series
1/(2x) Σ (2k-1)!! / (2x²)^k above. expint: γ + ln x + Σ x^k / (k k!) for 0 < x <= 40, the
asymptotic e^x / x Σ k! / x^k above; NaN below 0, -inf at 0, as TF. fresnel: Gauss-Legendre
quadrature for |x| <= 8, the auxiliary functions f, g by their asymptotic series above.
spence(x) = Li2(1 - x), by the dilogarithm's series after the usual reflections; NaN below 0.
Gradients: dawsn' = 1 - 2x dawsn(x), Ei' = e^x / x, C' = cos(πx²/2), S' = sin(πx²/2),
spence' = ln(x) / (1 - x) (-1 at x = 1).
"""
import math

import numpy as np

from defun.core.registry import define_op
from defun.ops.math.elementary import cos, exp, log, sin
from defun.ops.math.logic import equal, where
from defun.ops.support.helpers import same_as_first, unary_function

__all__ = ['dawsn', 'expint', 'fresnel_cos', 'fresnel_sin', 'spence']

_EULER = 0.5772156649015329
_FRESNEL_QUADRATURE_LIMIT = 8.0
_NODES, _WEIGHTS = np.polynomial.legendre.leggauss(200)


def _float64(kernel):
    def run(x):
        with np.errstate(all='ignore'):
            return np.asarray(kernel(np.asarray(x, np.float64))).astype(x.dtype)
    return run


def _dawsn(x):
    a = np.abs(x)
    near = a <= 10
    s = np.where(near, a, 0.0)
    term, total = s.copy(), s.copy()
    for k in range(1, 400):
        term = term * s * s / k
        add = term / (2 * k + 1)
        total = total + add
        if np.all(add <= 1e-17 * total):
            break
    series = total * np.exp(-s * s)
    b = np.where(near, 20.0, a)
    inv, term, far = 1 / (2 * b * b), np.ones_like(b), np.ones_like(b)
    for k in range(1, 30):
        term = term * (2 * k - 1) * inv
        far = far + term
    value = np.where(near, series, far / (2 * b))
    return np.where(x < 0, -value, value)


def _expint(x):
    near = (x > 0) & (x <= 40)
    s = np.where(near, x, 1.0)
    term, total = np.ones_like(s), np.zeros_like(s)
    for k in range(1, 200):
        term = term * s / k
        add = term / k
        total = total + add
        if np.all(add <= 1e-17 * np.abs(total)):
            break
    series = _EULER + np.log(s) + total
    b = np.where(x > 40, x, 80.0)
    term, far = np.ones_like(b), np.ones_like(b)
    for k in range(1, 40):
        term = term * k / b
        far = far + term
    value = np.where(near, series, np.exp(b) / b * far)
    return np.where(x < 0, np.nan, np.where(x == 0, -np.inf, value))


def _fresnel(x):
    """(S(x), C(x)): Gauss-Legendre quadrature of sin, cos(πt²/2) over [0, |x|] for |x| <= 8
    (200 nodes resolve its few oscillations to float64 rounding), the auxiliary functions
    above."""
    a = np.abs(x)
    near = a <= _FRESNEL_QUADRATURE_LIMIT
    s = np.where(near, a, 0.0)
    t = (s[..., None] / 2) * (_NODES + 1)          # the nodes mapped onto [0, s]
    phase = (np.pi / 2) * t * t
    s_near = (np.sin(phase) @ _WEIGHTS) * s / 2
    c_near = (np.cos(phase) @ _WEIGHTS) * s / 2
    b = np.where(near, 2 * _FRESNEL_QUADRATURE_LIMIT, a)
    f, g = _fresnel_auxiliary(b)
    t = (np.pi / 2) * b * b
    c_far = 0.5 + f * np.sin(t) - g * np.cos(t)
    s_far = 0.5 - f * np.cos(t) - g * np.sin(t)
    sign = np.where(x < 0, -1.0, 1.0)
    return sign * np.where(near, s_near, s_far), sign * np.where(near, c_near, c_far)


def _fresnel_auxiliary(x):
    """The auxiliary functions f(x), g(x) of the Fresnel integrals, by their asymptotic series
    in 1/(π x²)² (terms (4k-1)!! / (πx²)^(2k))."""
    u = 1 / (np.pi * x * x)
    f_term, g_term = np.ones_like(x), np.ones_like(x)
    f_sum, g_sum = f_term.copy(), g_term.copy()
    for k in range(1, 12):
        f_term = -f_term * (4 * k - 3) * (4 * k - 1) * u * u
        g_term = -g_term * (4 * k - 1) * (4 * k + 1) * u * u
        f_sum, g_sum = f_sum + f_term, g_sum + g_term
    return f_sum / (np.pi * x), g_sum / (np.pi * np.pi * x ** 3)


def _li2_series(z):
    term, total = z.copy(), z.copy()
    for k in range(2, 200):
        term = term * z
        total = total + term / (k * k)
    return total


def _spence(x):
    """Li2(1 - x) for x >= 0, reducing 1 - x into |z| <= 1/2 with the usual reflections."""
    z = 1 - x
    pi2 = np.pi * np.pi / 6
    safe = lambda v: np.where(np.isfinite(v), v, 0.0)  # noqa: E731
    small = np.abs(z) <= 0.5
    out = np.where(small, _li2_series(safe(np.where(small, z, 0.0))), 0.0)
    upper = (z > 0.5) & (z <= 1)         # Li2(z) = π²/6 - ln z ln(1-z) - Li2(1-z)
    w = np.where(upper, 1 - z, 0.0)
    with np.errstate(all='ignore'):
        out = np.where(upper, pi2 - safe(np.log(np.where(upper, z, 1.0)) *
                                         np.log(np.where(upper & (w > 0), w, 1.0)))
                       - _li2_series(w), out)
        mid = (z < -0.5) & (z >= -1)     # Li2(z) = -Li2(z/(z-1)) - ln²(1-z)/2
        v = np.where(mid, z / (z - 1), 0.0)
        out = np.where(mid, -_li2_series(v) - np.log(np.where(mid, 1 - z, 1.0)) ** 2 / 2, out)
        low = z < -1                     # Li2(z) = -π²/6 - ln²(-z)/2 - Li2(1/z), 1/z in (-1, 0)
        inv = np.where(low, 1 / np.where(low, z, -2.0), 0.0)
        inner = np.where(inv >= -0.5, _li2_series(inv),
                         -_li2_series(inv / (inv - 1)) - np.log(1 - inv) ** 2 / 2)
        out = np.where(low, -pi2 - np.log(np.where(low, -z, 1.0)) ** 2 / 2 - inner, out)
    return np.where(x < 0, np.nan, np.where(x == 1, 0.0, out))


def _op(op_type, kernel, grad):
    return define_op(op_type, _float64(kernel), same_as_first, grad)  # TF's signature: core/tf_signatures.py


def _half_pi_square(x):
    return (math.pi / 2) * x * x


DAWSN = _op('Dawsn', _dawsn, lambda op, g: g * (1 - 2 * op.inputs[0] * op.outputs[0]))
EXPINT = _op('Expint', _expint, lambda op, g: g * exp(op.inputs[0]) / op.inputs[0])
FRESNEL_COS = _op('FresnelCos', lambda x: _fresnel(x)[1],
                  lambda op, g: g * cos(_half_pi_square(op.inputs[0])))
FRESNEL_SIN = _op('FresnelSin', lambda x: _fresnel(x)[0],
                  lambda op, g: g * sin(_half_pi_square(op.inputs[0])))
SPENCE = _op('Spence', _spence, lambda op, g: g * where(
    equal(op.inputs[0], 1), -1 + 0 * op.inputs[0], log(op.inputs[0]) / (1 - op.inputs[0])))


dawsn = unary_function(DAWSN, 'dawsn', "Dawson's integral, e^-x² ∫₀ˣ e^t² dt.")
expint = unary_function(EXPINT, 'expint', 'The exponential integral Ei(x), for x > 0.')
fresnel_cos = unary_function(FRESNEL_COS, 'fresnel_cos', 'The Fresnel cosine integral C(x).')
fresnel_sin = unary_function(FRESNEL_SIN, 'fresnel_sin', 'The Fresnel sine integral S(x).')
spence = unary_function(SPENCE, 'spence', "Spence's function, ∫₁ˣ ln t / (1 - t) dt, for x >= 0.")
