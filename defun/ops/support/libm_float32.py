"""float32 `log`, `sin` and `cos` with the C library's results, bit for bit.

TF's random kernels turn uniform bits into normals with the C library's float functions (`logf`,
`sincosf`), whose results are not those of numpy's float32 loops (vectorised approximations that
differ in the last bit for about one value in five) nor always those of rounding a float64 result.
This module evaluates, in vectorised float64 arithmetic, the algorithms of glibc >= 2.28 (Arm's
optimized-routines): a 16-entry table and a degree-4 polynomial for log, one multiply-subtract
range reduction and even/odd polynomials for sin and cos. They agree with glibc on every input
they were checked on (tests/test_libm_float32.py). The tables and coefficients are the published
constants of those algorithms.

Covered are the inputs Box-Muller needs: `log` of positive normal floats and `sincos` of
|x| < 120; other inputs take float64 numpy results rounded to float32 (close, not guaranteed
exact).
"""
import numpy as np

__all__ = ['log', 'sincos']

_F64 = np.float64


def _hex(text):
    return np.array([float.fromhex(h) for h in text.split()])


# log: x = 2^k z with z in [_LOG_OFF, 2 _LOG_OFF); z is split into 16 intervals, each with a
# centre c near which log1p(z/c - 1) is a short polynomial: (1/c, log c) per interval.
_LOG_OFF = 0x3F330000
_LOG_INVC = _hex('''0x1.661ec79f8f3bep+0 0x1.571ed4aaf883dp+0 0x1.49539f0f010bp+0
    0x1.3c995b0b80385p+0 0x1.30d190c8864a5p+0 0x1.25e227b0b8eap+0 0x1.1bb4a4a1a343fp+0
    0x1.12358f08ae5bap+0 0x1.0953f419900a7p+0 0x1p+0 0x1.e608cfd9a47acp-1 0x1.ca4b31f026aap-1
    0x1.b2036576afce6p-1 0x1.9c2d163a1aa2dp-1 0x1.886e6037841edp-1 0x1.767dcf5534862p-1''')
_LOG_LOGC = _hex('''-0x1.57bf7808caadep-2 -0x1.2bef0a7c06ddbp-2 -0x1.01eae7f513a67p-2
    -0x1.b31d8a68224e9p-3 -0x1.6574f0ac07758p-3 -0x1.1aa2bc79c81p-3 -0x1.a4e76ce8c0e5ep-4
    -0x1.1973c5a611cccp-4 -0x1.252f438e10c1ep-5 0x0p+0 0x1.aa5aa5df25984p-5 0x1.c5e53aa362eb4p-4
    0x1.526e57720db08p-3 0x1.bc2860d22477p-3 0x1.1058bc8a07ee1p-2 0x1.4043057b6ee09p-2''')
_LN2 = float.fromhex('0x1.62e42fefa39efp-1')
_LOG_A0, _LOG_A1, _LOG_A2 = _hex('-0x1.00ea348b88334p-2 0x1.5575b0be00b6ap-2 -0x1.ffffef20a4123p-2')

# sincos: x - n pi/2 with n from a scaled 2/pi (quadrant in bits 24..31), then polynomials.
_HPI_INV = float.fromhex('0x1.45F306DC9C883p+23')   # 2/pi * 2^24
_HPI = float.fromhex('0x1.921FB54442D18p0')          # pi/2
_COS = _hex('0x1p0 -0x1.ffffffd0c621cp-2 0x1.55553e1068f19p-5 -0x1.6c087e89a359dp-10 '
            '0x1.99343027bf8c3p-16')
_SIN = _hex('-0x1.555545995a603p-3 0x1.1107605230bc4p-7 -0x1.994eb3774cf24p-13')
_QUADRANT_SIGN = np.array([1.0, -1.0, -1.0, 1.0])


def _top12(bits):
    return (bits >> np.uint32(20)) & np.uint32(0x7FF)


def _top12_of(value):
    return _top12(np.array(value, np.float32).view(np.uint32))


def log(x):
    """The natural log of a float32 array, as the C library's `logf` computes it."""
    x = np.asarray(x, np.float32)
    ix = x.view(np.uint32).astype(np.int64)
    tmp = ix - _LOG_OFF
    i = (tmp >> 19) & 15
    k = ((tmp & 0xFFFFFFFF).astype(np.uint32).view(np.int32) >> 23).astype(_F64)
    z = (ix - (tmp & (0x1FF << 23))).astype(np.uint32).view(np.float32).astype(_F64)
    r = z * _LOG_INVC[i] - 1.0
    y0 = _LOG_LOGC[i] + k * _LN2
    r2 = r * r
    y = _LOG_A1 * r + _LOG_A2
    y = _LOG_A0 * r2 + y
    y = (y * r2 + (y0 + r)).astype(np.float32)
    normal = (ix >= 0x00800000) & (ix < 0x7F800000)
    if normal.all():
        return y
    with np.errstate(divide='ignore', invalid='ignore'):
        return np.where(normal, y, np.log(x.astype(_F64)).astype(np.float32))


def sincos(x):
    """(sin x, cos x) of a float32 array, as the C library's `sincosf` computes them."""
    x = np.asarray(x, np.float32)
    top = _top12(x.view(np.uint32))
    xd = x.astype(_F64)
    small = top < _top12_of(np.pi / 4)       # |x| < pi/4: no reduction
    covered = top < _top12_of(120.0)
    # Outside the covered range the quadrant is meaningless (replaced below): no warnings.
    scaled = np.where(covered, xd * _HPI_INV, 0.0)
    n = np.where(small, 0, (scaled.astype(np.int32) + 0x800000) >> 24)
    r = np.where(small, xd, xd - n * _HPI)
    r_signed = r * _QUADRANT_SIGN[n & 3]
    # Quadrants 2 and 3 negate the cosine polynomial.
    c_sign = np.where((n & 2) != 0, -1.0, 1.0)
    x2 = r * r
    x3, x4 = x2 * r_signed, x2 * x2
    s = r_signed + x3 * _SIN[0] + (x3 * x2) * (_SIN[1] + x2 * _SIN[2])
    c = (c_sign * _COS[0] + x2 * (c_sign * _COS[1])) + x4 * (c_sign * _COS[2]) + \
        (x4 * x2) * (c_sign * _COS[3] + x2 * (c_sign * _COS[4]))
    odd = (n & 1) != 0
    with np.errstate(over='ignore', invalid='ignore'):  # only where `covered` is False
        sin_x = np.where(odd, c, s).astype(np.float32)
        cos_x = np.where(odd, s, c).astype(np.float32)
    tiny = top < _top12_of(2.0 ** -12)       # sin x = x, cos x = 1 in float32
    sin_x = np.where(tiny, x, sin_x)
    cos_x = np.where(tiny, np.float32(1.0), cos_x)
    if covered.all():
        return sin_x, cos_x
    with np.errstate(invalid='ignore'):
        return (np.where(covered, sin_x, np.sin(xd).astype(np.float32)),
                np.where(covered, cos_x, np.cos(xd).astype(np.float32)))
