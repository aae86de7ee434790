"""W5 memory: bytes kept per loop step by the gradient through a recurrence h = tanh(W @ h + x_t)
(W a 64x64 Variable read in the loop, as in shared/bench/peers.py's W5), for defun's compiled
function against hand-written numpy backpropagation through time (target: within 2x).

Per step = (peak(T2) - peak(T1)) / (T2 - T1), tracemalloc peaks of one call at two lengths, so
fixed costs (W, dW, the trace) cancel; numpy registers its buffers with tracemalloc. Measured
twice: the trip count known when tracing (peers.py's W5: stacks are buffers filled in place) and
known at run time only (stacks are one buffer grown in place, by 1.5x, and trimmed after the loop).

    OPENBLAS_NUM_THREADS=1 python benchmarks/w5_memory.py
"""
import math
import os
import statistics
import sys
import tracemalloc

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.dirname(HERE)]   # this checkout's defun, not an installed one
import common  # noqa: E402,F401  (sets OPENBLAS_NUM_THREADS)

import numpy as np  # noqa: E402

import defun as tf  # noqa: E402

H = 64
LENGTHS = (100, 300)


def numpy_bptt(W, xs, h0):
    hs = [h0]
    h = h0
    for t in range(xs.shape[0]):
        h = np.tanh(W @ h + xs[t])
        hs.append(h)
    loss = h.sum()
    dW = np.zeros_like(W)
    dh = np.ones_like(h)
    for t in range(xs.shape[0] - 1, -1, -1):
        da = dh * (1 - hs[t + 1] * hs[t + 1])
        dW += np.outer(da, hs[t])
        dh = W.T @ da
    return loss, dW


def defun_bptt(w, steps):
    """The compiled BPTT; `steps` None: the trip count is the length of xs, known at run time
    only (the stacks are then buffers grown as the loop runs instead of allocated up front)."""
    signature = None if steps is not None else [tf.TensorSpec([None, H, 1], tf.float32),
                                                 tf.TensorSpec([H, 1], tf.float32)]

    @tf.function(input_signature=signature)
    def rnn_grad(xs, h0):
        with tf.GradientTape() as tape:
            h = h0
            for t in tf.range(steps if steps is not None else tf.shape(xs)[0]):
                h = tf.tanh(tf.matmul(w, h) + xs[t])
            loss = tf.reduce_sum(h)
        return loss, tape.gradient(loss, w)
    return rnn_grad


def peak_bytes(fn):
    fn()  # warm: traces, fills numpy's caches; a big graph compiles on its second call
    fn()
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        fn()
        return tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()


def per_step(make):
    """Median over repeats of the peak growth per added step."""
    samples = []
    for _ in range(3):
        (t1, f1), (t2, f2) = [(t, make(t)) for t in LENGTHS]
        samples.append((peak_bytes(f2) - peak_bytes(f1)) / (t2 - t1))
    return statistics.median(samples)


def main():
    rng = np.random.default_rng(1)
    W = (rng.standard_normal((H, H)) * (0.9 / math.sqrt(H))).astype(np.float32)
    xs_all = (rng.standard_normal((max(LENGTHS), H)) * 0.5).astype(np.float32)
    w = tf.Variable(W)

    def make_numpy(t):
        xs, h0 = xs_all[:t], np.zeros(H, np.float32)
        return lambda: numpy_bptt(W, xs, h0)

    def make_defun(t, known=True):
        fn = defun_bptt(w, t if known else None)
        xs, h0 = tf.constant(xs_all[:t, :, None]), tf.constant(np.zeros((H, 1), np.float32))
        return lambda: fn(xs, h0)

    ours, base = per_step(make_defun), per_step(make_numpy)
    run_time = per_step(lambda t: make_defun(t, known=False))
    print(f'W5 memory per loop step: numpy {base:.0f} B, defun {ours:.0f} B, '
          f'ratio x{ours / base:.2f} (target <= 2x); trip count known at run time only: '
          f'{run_time:.0f} B, x{run_time / base:.2f}')


if __name__ == '__main__':
    main()
