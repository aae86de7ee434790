"""Timing helpers shared by the benchmarks: medians of repeated runs, and a table printer.

Run every benchmark with OPENBLAS_NUM_THREADS=1 (set here before numpy loads BLAS when run as a
script): on a 2-core machine two-thread BLAS collapses when the other core is busy.

Importing this module also puts this checkout's root on sys.path, right after the benchmarks folder,
so a script measures the defun beside it and never an installed copy.
"""
import os
import statistics
import sys
import time

os.environ.setdefault('OPENBLAS_NUM_THREADS', '1')
CHECKOUT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if CHECKOUT not in sys.path:
    sys.path.insert(1, CHECKOUT)


def calls_for(fn, min_time):
    """How many calls of fn() take at least min_time seconds (a power of two)."""
    number = 1
    while True:
        start = time.perf_counter()
        for _ in range(number):
            fn()
        if time.perf_counter() - start >= min_time:
            return number
        number *= 2


def timed(fn, number):
    """Seconds per call of fn() over `number` calls."""
    start = time.perf_counter()
    for _ in range(number):
        fn()
    return (time.perf_counter() - start) / number


def compare(baseline, ours, repeat=11, min_time=0.03):
    """(baseline seconds, ours seconds, ratio): medians over interleaved runs, so that load from
    other processes hits both sides alike; the ratio is the median of per-run ratios."""
    n_base, n_ours = calls_for(baseline, min_time), calls_for(ours, min_time)
    base_samples, our_samples = [], []
    for _ in range(repeat):
        base_samples.append(timed(baseline, n_base))
        our_samples.append(timed(ours, n_ours))
    ratios = [o / b for b, o in zip(base_samples, our_samples)]
    return (statistics.median(base_samples), statistics.median(our_samples),
            statistics.median(ratios))


def once(fn, repeat=5):
    """Median seconds of single calls of fn() (each repeat should do fresh work)."""
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def fmt_time(seconds):
    if seconds < 1e-3:
        return f'{seconds * 1e6:8.2f} us'
    if seconds < 1:
        return f'{seconds * 1e3:8.2f} ms'
    return f'{seconds:8.2f} s '


def report(rows):
    """rows: (workload, baseline name, baseline seconds, our seconds, target text[, ratio])."""
    print(f'{"workload":44s} {"baseline":>12s} {"measured":>12s} {"ratio":>7s}  target')
    for row in rows:
        name, base_name, base, ours, target = row[:5]
        ratio = row[5] if len(row) > 5 else (ours / base if base else float('nan'))
        print(f'{name:44s} {fmt_time(base)} {fmt_time(ours)} {ratio:6.2f}x  {target}'
              f'   (baseline: {base_name})')
