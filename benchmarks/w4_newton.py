"""W4: 10,000 Newton iterations for sqrt(a) of a float32 scalar in a `while_loop` whose condition
compares a tensor counter, inside a compiled function; cost per iteration against a plain Python
loop over numpy float32 scalars doing the same arithmetic (target: at most 2x; TF 2.21: 53x).

    OPENBLAS_NUM_THREADS=1 python benchmarks/w4_newton.py
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import once, report  # noqa: E402

import numpy as np  # noqa: E402

import defun as tf  # noqa: E402

N = 10_000


def numpy_newton(a, n):
    x = np.float32(1.0)
    i = np.int32(0)
    half = np.float32(0.5)
    while i < n:
        x = half * (x + a / x)
        i = i + np.int32(1)
    return x


@tf.function
def defun_newton(a, n):
    def body(i, x):
        return i + 1, 0.5 * (x + a / x)
    return tf.while_loop(lambda i, x: i < n, body, (tf.constant(0), tf.constant(1.0)))[1]


# The same loop compiled natively (jit_compile=True: numba, the defun[jit] extra; without it,
# the numpy tier again, after a warning).
jit_newton = tf.function(defun_newton.python_function, jit_compile=True)


def main():
    a, n = np.float32(2.0), np.int32(N)
    ta, tn = tf.constant(a), tf.constant(n)
    assert abs(float(defun_newton(ta, tn)) - float(numpy_newton(a, n))) < 1e-6
    assert float(jit_newton(ta, tn)) == float(defun_newton(ta, tn))
    base = once(lambda: numpy_newton(a, n), repeat=7) / N
    ours = once(lambda: defun_newton(ta, tn), repeat=7) / N
    jit = once(lambda: jit_newton(ta, tn), repeat=7) / N
    report([('W4 Newton sqrt, while_loop, per iteration', 'Python loop, np.float32',
             base, ours, '<= 2x (TF 2.21: 53x)'),
            ('W4 the same, jit_compile=True', 'Python loop, np.float32',
             base, jit, '<= 0.05x (JAX: ~0.06x)')])


if __name__ == '__main__':
    main()
