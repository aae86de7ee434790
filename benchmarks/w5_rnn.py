"""W5: forward + backward (dW) of a 100-step recurrence h = tanh(W @ h + x_t), W 64x64,
loss = sum(h) of the last state, in a compiled function (while_loop, tape inside the function),
against hand-written numpy backpropagation through time (target: at most 2x; TF: 2.45x).

    OPENBLAS_NUM_THREADS=1 python benchmarks/w5_rnn.py
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import compare, report  # noqa: E402

import numpy as np  # noqa: E402

import defun as tf  # noqa: E402

T, H = 100, 64


def numpy_bptt(W, xs, h0):
    hs = [h0]
    h = h0
    for t in range(T):
        h = np.tanh(W @ h + xs[t])
        hs.append(h)
    loss = h.sum()
    dh = np.ones_like(h)
    dW = np.zeros_like(W)
    for t in range(T - 1, -1, -1):
        dz = dh * (1 - hs[t + 1] * hs[t + 1])
        dW += dz @ hs[t].T
        dh = W.T @ dz
    return loss, dW


@tf.function
def defun_bptt(W, xs, h0):
    with tf.GradientTape() as tape:
        tape.watch(W)

        def body(t, h):
            return t + 1, tf.tanh(tf.matmul(W, h) + tf.gather(xs, t))
        _, h = tf.while_loop(lambda t, h: t < T, body, (tf.constant(0), h0))
        loss = tf.reduce_sum(h)
    return loss, tape.gradient(loss, W)


def main():
    rng = np.random.default_rng(0)
    W = (rng.standard_normal((H, H)) / np.sqrt(H)).astype(np.float32)
    xs = rng.standard_normal((T, H, 1)).astype(np.float32)
    h0 = np.zeros((H, 1), np.float32)
    tW, txs, th0 = tf.constant(W), tf.constant(xs), tf.constant(h0)
    loss, dW = defun_bptt(tW, txs, th0)
    ref_loss, ref_dW = numpy_bptt(W, xs, h0)
    assert np.allclose(loss.numpy(), ref_loss, rtol=1e-4, atol=1e-4)
    assert np.allclose(dW.numpy(), ref_dW, rtol=1e-3, atol=1e-4)
    base, ours, ratio = compare(lambda: numpy_bptt(W, xs, h0), lambda: defun_bptt(tW, txs, th0))
    report([('W5 RNN 100 steps fwd+bwd dW, while_loop', 'numpy BPTT', base, ours,
             '<= 2x (TF: 2.45x)', ratio)])


if __name__ == '__main__':
    main()
