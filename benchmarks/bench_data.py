"""tf.data: the cost of a map pipeline per element, and prefetch overlapping a training step.

D1: `Dataset.from_tensor_slices(x).map(f)` over 100,000 rows of float32[4], iterated to the end
(f: `v * 2.0 + 1.0`), against a plain numpy loop doing the same work (`for row in x: row * 2.0 + 1.0`).
Target: at most 2x. Reported for eager iteration (tensors per element) and as_numpy_iterator.

D2: a training loop whose step releases the GIL (one float32 640x640 matmul: BLAS drops the
GIL) fed by a pipeline whose per-element work holds it (a Python-heavy generator and a map),
with and without `.prefetch(2)`. With prefetch the producer runs on its thread while the step
runs, so the loop takes about max(step, produce) instead of step + produce. The BLAS variant can
only overlap when a second core is free (check the load average); the waiting variant (a step
that sleeps with the GIL released, as for a device or a remote call) shows the overlap itself.

    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_data.py
"""
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import compare, fmt_time, once, report  # noqa: E402

import numpy as np  # noqa: E402

import defun as tf  # noqa: E402

N = 100_000
X = np.random.default_rng(0).random((N, 4), dtype=np.float32)


def numpy_loop():
    for row in X:
        row * np.float32(2.0) + np.float32(1.0)


def map_fn(v):
    return v * 2.0 + 1.0


MAPPED = tf.data.Dataset.from_tensor_slices(X).map(map_fn)


def dataset_loop():
    for _ in MAPPED:
        pass


def dataset_numpy_loop():
    for _ in MAPPED.as_numpy_iterator():
        pass


STEPS, SIDE, BIG = 30, 256, 640
A = np.random.default_rng(1).random((BIG, BIG), dtype=np.float32) / BIG


def produce():
    """Python-heavy per-element work (holds the GIL) yielding one batch."""
    for _ in range(STEPS):
        acc = 0.0
        for k in range(60_000):
            acc += k * 0.5
        yield np.full((SIDE, SIDE), acc, np.float32) / np.float32(acc + 1)


def pipeline(prefetch):
    ds = tf.data.Dataset.from_generator(
        produce, output_signature=tf.TensorSpec((SIDE, SIDE), tf.float32))
    ds = ds.map(lambda b: b * 0.5)
    return ds.prefetch(2) if prefetch else ds


def step(batch):
    """A training step whose time goes to one BLAS call, which releases the GIL."""
    return float(batch.numpy()[0, 0]) * (A @ A)


def wait_step(batch):
    """A step that waits with the GIL released (as for a device or a remote call)."""
    time.sleep(0.008)


def train(prefetch, step_fn=step):
    for batch in pipeline(prefetch):
        step_fn(batch)


def produce_only():
    for _ in pipeline(False):
        pass


def overlap(step_fn, label):
    batch = tf.constant(np.ones((SIDE, SIDE), np.float32))
    t_steps = once(lambda: [step_fn(batch) for _ in range(STEPS)])
    t_produce = once(produce_only)
    samples = [(once(lambda: train(False, step_fn), 1), once(lambda: train(True, step_fn), 1))
               for _ in range(5)]
    plain = statistics.median(p for p, _ in samples)
    fetched = statistics.median(f for _, f in samples)
    ratio = statistics.median(f / p for p, f in samples)
    print(f'D2 {label}, {STEPS} steps: steps alone {fmt_time(t_steps)}, pipeline alone '
          f'{fmt_time(t_produce)}; loop without prefetch {fmt_time(plain)}, with prefetch(2) '
          f'{fmt_time(fetched)}: {ratio:.2f}x (ideal '
          f'{max(t_steps, t_produce) / (t_steps + t_produce):.2f}x)')


def main():
    rows = []
    base, ours, ratio = compare(numpy_loop, dataset_loop, repeat=5, min_time=0.2)
    rows.append(('D1 map over 100k float32[4], eager tensors', 'numpy row loop', base, ours,
                 '<= 2x', ratio))
    base, ours, ratio = compare(numpy_loop, dataset_numpy_loop, repeat=5, min_time=0.2)
    rows.append(('D1 same, as_numpy_iterator', 'numpy row loop', base, ours, '<= 2x', ratio))
    report(rows)
    print()
    overlap(step, 'BLAS step (needs a free core)')
    overlap(wait_step, 'waiting step')


if __name__ == '__main__':
    main()
