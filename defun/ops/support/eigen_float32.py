"""float32 `erf`, `log1p` and `sigmoid` (and the `exp`, `log` and Bessel pieces they and
tf.math.special need) as TensorFlow's CPU kernels compute them, bit for bit.

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

__all__ = ['erf', 'log', 'log1p', 'exp', 'sigmoid', 'bessel_i0e', 'bessel_i1e', 'bessel_k0e',
           'BESSEL_I_LIMIT', 'BESSEL_K_LIMIT']

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



# exp: x = m ln2 + r (ln2 split in two), exp(r) a degree-6 polynomial, times 2^m.
_EXP_P = [_F(c) for c in (1.37449637986719608306884765625e-3, 4.166965186595916748046875e-2,
                          8.36894474923610687255859375e-3, 0.16666518151760101318359375,
                          0.49999988079071044921875)]


def exp(x):
    """Eigen's float exp of a float32 array."""
    x_in = np.asarray(x, _F)
    clamped = np.minimum(x_in, _F(88.723))
    m = np.floor(clamped * _F(1.44269504088896341) + _F(0.5))
    r = m * _F(-0.693359375) + clamped
    r = m * _F(2.12194440e-4) + r
    r2 = r * r
    p6, p4, p5, p3, p2 = _EXP_P
    even = r2 * (r2 * p6 + p4) + p2
    odd = r2 * p5 + p3
    y = r2 * (r * odd + even) + (r + _F(1))
    with np.errstate(over='ignore', invalid='ignore'):
        out = np.maximum(np.ldexp(y, m.astype(np.int32)).astype(_F), x_in)
    return np.where(x_in < _F(-104), _F(0), out).astype(_F)


# The Bessel functions I0, I1 (e^-|x| scaled) on |x| <= 8 and e^x K0 on 0 < x <= 2: Cephes'
# float Chebyshev expansions (i0ef, i1ef, k0ef) as Eigen evaluates them. Beyond those ranges TF's
# kernels use the processor's approximate reciprocal square root, whose bits vary by processor.
_I0E_A = (-1.30002500998624804212E-8, 6.04699502254191894932E-8, -2.67079385394061173391E-7,
          1.11738753912010371815E-6, -4.41673835845875056359E-6, 1.64484480707288970893E-5,
          -5.75419501008210370398E-5, 1.88502885095841655729E-4, -5.76375574538582365885E-4,
          1.63947561694133579842E-3, -4.32430999505057594430E-3, 1.05464603945949983183E-2,
          -2.37374148058994688156E-2, 4.93052842396707084878E-2, -9.49010970480476444210E-2,
          1.71620901522208775349E-1, -3.04682672343198398683E-1, 6.76795274409476084995E-1)
_I1E_A = (9.38153738649577178388E-9, -4.44505912879632808065E-8, 2.00329475355213526229E-7,
          -8.56872026469545474066E-7, 3.47025130813767847674E-6, -1.32731636560394358279E-5,
          4.78156510755005422638E-5, -1.61760815825896745588E-4, 5.12285956168575772895E-4,
          -1.51357245063125314899E-3, 4.15642294431288815669E-3, -1.05640848946261981558E-2,
          2.47264490306265168283E-2, -5.29459812080949914269E-2, 1.02643658689847095384E-1,
          -1.76416518357834055153E-1, 2.52587186443633654823E-1)
_K0E_A = (1.90451637722020886025E-9, 2.53479107902614945675E-7, 2.28621210311945178607E-5,
          1.26461541144692592338E-3, 3.59799365153615016266E-2, 3.44289899924628486886E-1,
          -5.35327393233902768720E-1)
BESSEL_I_LIMIT, BESSEL_K_LIMIT = 8.0, 2.0   # where these float algorithms apply


def _chebyshev(x, coefficients):
    """Clenshaw's recurrence for Σ c_k T_k(x/2), Cephes' chbevl."""
    b0, b1, b2 = np.full_like(x, _F(coefficients[0])), np.zeros_like(x), np.zeros_like(x)
    for c in coefficients[1:]:
        b2, b1 = b1, b0
        b0 = (x * b1 + _F(c)) - b2
    return _F(0.5) * (b0 - b2)


def bessel_i0e(x):
    """e^-|x| I0(x) for float32 |x| <= 8."""
    y = np.abs(np.asarray(x, _F))
    return _chebyshev(_F(0.5) * y + _F(-2.0), _I0E_A)


def bessel_i1e(x):
    """e^-|x| I1(x) for float32 |x| <= 8."""
    x = np.asarray(x, _F)
    y = np.abs(x)
    value = y * _chebyshev(_F(0.5) * y + _F(-2.0), _I1E_A)
    return np.where(x < 0, -value, value)


def bessel_k0e(x):
    """e^x K0(x) for float32 0 < x <= 2."""
    x = np.asarray(x, _F)
    with np.errstate(all='ignore'):
        value = _chebyshev(x * x + _F(-2.0), _K0E_A)
        i0 = exp(np.abs(x)) * bessel_i0e(x)
        return exp(x) * (i0 * -log(_F(0.5) * x) + value)


# sigmoid: exp(x) / (1 + exp(x)) with exp(x) = exp(x/2)^2, exp(x/2) = 2^m p(r) (a degree-5
# polynomial), so no step makes a subnormal before the last ones, which TF flushes to zero.
_SIGMOID_P = [_F(c) for c in (4.1898667812347412109375e-2, 0.49999141693115234375,
                              8.33471305668354034423828125e-3, 0.16666877269744873046875)]
_SIGMOID_HIGH = _F(16.6355324)   # from here on the value is exactly 1


def _packet_sigmoid(x):
    x = np.minimum(x, _SIGMOID_HIGH) * _F(0.5)
    m = np.floor(x * _F(1.44269504088896341) + _F(0.5))
    r = m * _F(-0.693359375) + x
    r = m * _F(2.12194440e-4) + r
    r2 = r * r
    p4, p2, p5, p3 = _SIGMOID_P
    p = r2 * (r * (r2 * p5 + p3) + (r2 * p4 + p2)) + (r + _F(1))
    e = _flushed(np.ldexp(p, m.astype(np.int32)).astype(_F))
    e = _flushed(e * e)
    return _flushed(e / (_F(1) + e))


def sigmoid(x):
    """TF's float sigmoid of a float32 array: Eigen's packet algorithm on whole packets of 8,
    exp(x) / (1 + exp(x)) with the C library's expf on the last n mod 8 elements, subnormal
    results flushed to zero; 0 below -104."""
    x = _flushed(x)
    flat = x.ravel()
    whole = flat.size - flat.size % _PACKET
    tail = flat[whole:]
    with np.errstate(over='ignore', under='ignore'):
        e = _flushed(np.exp(np.minimum(tail, _SIGMOID_HIGH).astype(np.float64)).astype(_F))
        packets = _packet_sigmoid(flat[:whole])
    out = np.concatenate([packets, _flushed(e / (_F(1) + e))])
    return np.where(flat < _F(-104), _F(0), out).astype(_F).reshape(x.shape)
