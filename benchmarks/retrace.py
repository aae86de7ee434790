"""R1: the cost of one retrace as the trace cache grows. One function is called with 1,000 new
Python values (and, separately, 1,000 new tensor shapes), each call a trace; the cost of a trace
around the 1,000th is reported against a trace around the 10th (goal: within 1.5x, so a lookup
never scans the cached traces).

    OPENBLAS_NUM_THREADS=1 python benchmarks/retrace.py
"""
import logging
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import fmt_time  # noqa: E402

import defun as tf  # noqa: E402

N = 1000
WINDOW = 9  # traces around each point, for a median


def trace_times(arguments):
    """Seconds of each call of a fresh function on each argument list (each call traces)."""
    f = tf.function(lambda x, n: x * n)
    times = []
    for args in arguments:
        start = time.perf_counter()
        f(*args)
        times.append(time.perf_counter() - start)
    assert f.experimental_get_tracing_count() == len(arguments)
    return times


def around(times, k):
    return statistics.median(times[k - 1 - WINDOW // 2:k + WINDOW // 2])


def row(name, arguments):
    times = trace_times(arguments)
    early, late = around(times, 10), around(times, N - WINDOW // 2)
    print(f'{name:44s} {fmt_time(early)} {fmt_time(late)} {late / early:6.2f}x  <= 1.5x')


def main():
    logging.getLogger('defun').setLevel(logging.ERROR)  # the retrace warning is expected here
    x = tf.constant(1.0)
    print(f'{"workload":44s} {"10th":>11s} {"1,000th":>11s}  ratio  goal')
    row('R1 retrace on a new Python value', [(x, i) for i in range(N)])
    row('R1 retrace on a new tensor shape', [(tf.zeros([i + 1]), 2.0) for i in range(N)])


if __name__ == '__main__':
    main()
