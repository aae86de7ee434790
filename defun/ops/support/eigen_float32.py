"""float32 `erf` and `log1p` as TensorFlow's CPU kernels compute them, bit for bit.

TF evaluates these with Eigen's vectorised float algorithms, whose results differ from the
correctly rounded value in the last bit for a good share of inputs (erf(1) is 0.8427007 in TF,
0.8427008 correctly rounded). This module evaluates the same algorithms in float32 numpy
arithmetic, step by step in Eigen's order (TF's default CPU build has no fused multiply-add):

- erf: an odd/even rational function, x * P(x^2) / Q(x^2) with x^2 capped at 16, clamped to
  [-1, 1];
- log: x = 2^e m with m in [sqrt(1/2), sqrt(2)), log(m) a (3,3) rational function of m - 1, plus
  e ln 2; log1p(x) = x * log(1 + x) / ((1 + x) - 1) (Kahan's formula), x itself where 1 + x
  rounds to 1. Eigen applies it to whole packets of 8 floats; the few elements left at the end
  take the scalar path, the C library's log1pf.

Subnormal inputs are flushed to zero first, as TF's CPU kernels run with denormals off. The
coefficients are the published constants of those algorithms. They agree with TF 2.21 on every
input they were checked on (tests/ops/test_eigen_float32.py). Half-precision inputs go through
float32 and round back, as Eigen does.
"""
import numpy as np

__all__ = ['erf', 'log', 'log1p']

_F = np.float32
_ERF_P = [_F(c) for c in (2.123732201653183437883853912353515625e-06,
                           2.861979592125862836837768554687500000e-04,
                           3.658048342913389205932617187500000000e-03,
                           5.243302136659622192382812500000000000e-02,
                           1.874160766601562500000000000000000000e-01,
                           1.128379106521606445312500000000000000e+00)]
_ERF_Q = [_F(c) for c in (3.89185734093189239501953125000e-05,
                           1.14329601638019084930419921875e-03,
                           1.47520881146192550659179687500e-02,
                           1.12945675849914550781250000000e-01,
                           4.99425798654556274414062500000e-01, 1.0)]
_LOG_P = [_F(c) for c in (0.18256296349849254, 1.0000000190281063, 1.0000000190281136)]
_LOG_Q = [_F(c) for c in (0.049616247954120038, 0.59923249590823520, 1.4999999999999927, 1.0)]
_SQRT_HALF = _F(0.707106781186547524)
_LN2 = _F(0.6931471805599453)
_TINY = np.finfo(np.float32).tiny
_PACKET = 8   # floats per AVX packet, TF's default CPU build


def _horner(x, coefficients):
    result = np.full_like(x, coefficients[0])
    for c in coefficients[1:]:
        result = result * x + c     # two roundings, as without FMA
    return result


def _flushed(x):
    x = np.asarray(x, _F)
    return np.where(np.abs(x) < _TINY, _F(0), x).astype(_F)


def _rounded_back(fn, x):
    x = np.asarray(x)
    return fn(x.astype(_F)).astype(x.dtype)


def erf(x):
    """Eigen's float erf of a float32 (or float16) array."""
    if np.asarray(x).dtype != _F:
        return _rounded_back(erf, x)
    x = _flushed(x)
    x2 = np.minimum(_F(16), x * x)
    with np.errstate(invalid='ignore'):
        ratio = (x * _horner(x2, _ERF_P)) / _horner(x2, _ERF_Q)
    return np.clip(ratio, _F(-1), _F(1)).astype(_F)


def log(x):
    """Eigen's float log of a float32 array (-inf at 0, NaN below, +inf at +inf)."""
    x_in = _flushed(x)
    mantissa, exponent = np.frexp(x_in)
    mantissa, exponent = mantissa.astype(_F), exponent.astype(_F)
    low = mantissa < _SQRT_HALF
    m = (mantissa - _F(1)) + np.where(low, mantissa, _F(0))
    exponent = exponent - np.where(low, _F(1), _F(0))
    with np.errstate(invalid='ignore', divide='ignore'):
        value = (m * _horner(m, _LOG_P)) / _horner(m, _LOG_Q)
        value = exponent * _LN2 + value
    value = np.where(x_in == np.inf, _F(np.inf), value)
    value = np.where((x_in < 0) | np.isnan(x_in), _F(np.nan), value)
    return np.where(x_in == 0, _F(-np.inf), value).astype(_F)


def _packet_log1p(x):
    plus_one = x + _F(1)
    logged = log(plus_one)
    with np.errstate(invalid='ignore', divide='ignore'):
        large = x * (logged / (plus_one - _F(1)))
    return np.where((plus_one == _F(1)) | (plus_one == logged), x, large).astype(_F)


def log1p(x):
    """TF's float log1p of a float32 (or float16) array: Eigen's packet algorithm on whole
    packets of 8 (in memory order), the C library's log1pf on the last n mod 8 elements (TF's
    scalar remainder), taken here as the correctly rounded value."""
    if np.asarray(x).dtype != _F:
        return _rounded_back(log1p, x)
    x = _flushed(x)
    flat = x.ravel()
    whole = flat.size - flat.size % _PACKET
    with np.errstate(invalid='ignore', divide='ignore'):
        tail = np.log1p(flat[whole:].astype(np.float64)).astype(_F)
    return np.concatenate([_packet_log1p(flat[:whole]), tail]).reshape(x.shape)
