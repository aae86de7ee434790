"""The numpy floor of the real-step workloads: the same training steps as steps_tf2.py written by
hand (forward, backward and update), batching over time what does not recur in the char-RNN.

`make(name, arrays)` -> step(), which trains a private copy of the initial weights one step on the
workload's batch and returns the loss (a float32 scalar).
"""
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from steps_data import LEARNING_RATE, weights_of


def _xent(logits, labels):
    """(mean sparse softmax cross-entropy, its gradient w.r.t. logits) over the last axis."""
    shifted = logits - logits.max(axis=-1, keepdims=True)
    exp = np.exp(shifted)
    total = exp.sum(axis=-1, keepdims=True)
    picked = np.take_along_axis(shifted, labels[..., None], axis=-1)
    loss = np.mean(np.log(total) - picked)
    dlogits = exp / total
    np.put_along_axis(dlogits, labels[..., None],
                      np.take_along_axis(dlogits, labels[..., None], axis=-1) - 1, axis=-1)
    return loss, dlogits / labels.size


class _Adam:
    """Keras's Adam (beta_1 0.9, beta_2 0.999, epsilon 1e-7) over a list of arrays, in place."""

    def __init__(self, weights, lr):
        self.lr, self.t = np.float32(lr), 0
        self.m = [np.zeros_like(w) for w in weights]
        self.v = [np.zeros_like(w) for w in weights]

    def apply(self, weights, grads):
        self.t += 1
        alpha = self.lr * np.sqrt(1 - np.float32(0.999) ** self.t) / (1 - np.float32(0.9) ** self.t)
        for w, g, m, v in zip(weights, grads, self.m, self.v):
            m += (g - m) * np.float32(0.1)
            v += (g * g - v) * np.float32(0.001)
            w -= (m * alpha) / (np.sqrt(v) + np.float32(1e-7))


def _mlp(arrays):
    weights = [w.copy() for w in weights_of(arrays, 'mlp')]
    x, y, lr = arrays['mlp/x'], arrays['mlp/y'], np.float32(LEARNING_RATE['mlp'])

    def step():
        w1, b1, w2, b2 = weights
        z = x @ w1 + b1
        h = np.maximum(z, 0)
        loss, dlogits = _xent(h @ w2 + b2, y)
        dz = (dlogits @ w2.T) * (z > 0)
        for w, g in zip(weights, (x.T @ dz, dz.sum(0), h.T @ dlogits, dlogits.sum(0))):
            w -= lr * g
        return loss
    return step


def _im2col(x, k):
    """[B, H, W, C] -> [B*H*W, k*k*C] windows of a SAME, stride-1 k x k convolution."""
    p = k // 2
    xp = np.pad(x, ((0, 0), (p, p), (p, p), (0, 0)))
    windows = sliding_window_view(xp, (k, k), axis=(1, 2))          # [B, H, W, C, k, k]
    return windows.transpose(0, 1, 2, 4, 5, 3).reshape(-1, k * k * x.shape[3])


def _col2im(cols, shape, k):
    """The adjoint of _im2col: sum each window's column back onto the input positions."""
    b, h, w, c = shape
    p = k // 2
    cols = cols.reshape(b, h, w, k, k, c)
    dxp = np.zeros((b, h + 2 * p, w + 2 * p, c), cols.dtype)
    for i in range(k):
        for j in range(k):
            dxp[:, i:i + h, j:j + w] += cols[:, :, :, i, j]
    return dxp[:, p:p + h, p:p + w]


def _conv(x, kernel):
    cols = _im2col(x, kernel.shape[0])
    out = cols @ kernel.reshape(-1, kernel.shape[3])
    return out.reshape(*x.shape[:3], kernel.shape[3]), cols


def _cnn(arrays):
    weights = [w.copy() for w in weights_of(arrays, 'cnn')]
    adam = _Adam(weights, LEARNING_RATE['cnn'])
    x, y = arrays['cnn/x'], arrays['cnn/y']
    b = x.shape[0]

    def step():
        k1, c1, k2, c2, w, bias = weights
        z1, cols1 = _conv(x, k1)
        h1 = np.maximum(z1 + c1, 0)                                    # [B, 8, 8, 16]
        win = h1.reshape(b, 4, 2, 4, 2, 16)
        p1 = win.max(axis=(2, 4))                                      # [B, 4, 4, 16]
        z2, cols2 = _conv(p1, k2)
        h2 = np.maximum(z2 + c2, 0)                                    # [B, 4, 4, 32]
        p2 = h2.reshape(b, 2, 2, 2, 2, 32).mean(axis=(2, 4))           # [B, 2, 2, 32]
        flat = p2.reshape(b, -1)
        loss, dlogits = _xent(flat @ w + bias, y)
        dp2 = (dlogits @ w.T).reshape(b, 2, 1, 2, 1, 32) * np.float32(0.25)
        dz2 = np.broadcast_to(dp2, (b, 2, 2, 2, 2, 32)).reshape(b, 4, 4, 32) * (h2 > 0)
        dk2 = (cols2.T @ dz2.reshape(-1, 32)).reshape(k2.shape)
        dp1 = _col2im(dz2.reshape(-1, 32) @ k2.reshape(-1, 32).T, p1.shape, 3)
        # Ties in a window only happen between relu zeros, whose gradient the relu mask drops.
        hit = win == p1[:, :, None, :, None, :]
        dz1 = (hit * dp1[:, :, None, :, None, :]).reshape(b, 8, 8, 16) * (h1 > 0)
        dk1 = (cols1.T @ dz1.reshape(-1, 16)).reshape(k1.shape)
        adam.apply(weights, [dk1, dz1.sum((0, 1, 2)), dk2, dz2.sum((0, 1, 2)), flat.T @ dlogits,
                             dlogits.sum(0)])
        return loss
    return step


def _rnn(arrays):
    weights = [w.copy() for w in weights_of(arrays, 'rnn')]
    adam = _Adam(weights, LEARNING_RATE['rnn'])
    inputs, targets = arrays['rnn/x'], arrays['rnn/y']
    steps, batch = inputs.shape

    def step():
        emb, wx, wh, bh, wy, by = weights
        xs = emb[inputs]                                               # [T, B, E]
        pre = xs @ wx + bh
        hs = np.zeros((steps + 1, batch, wh.shape[0]), np.float32)     # hs[0] is the initial state
        for t in range(steps):
            hs[t + 1] = np.tanh(pre[t] + hs[t] @ wh)
        loss, dlogits = _xent(hs[1:] @ wy + by, targets)
        dhs = dlogits @ wy.T
        das = np.empty_like(dhs)
        carry = np.zeros_like(dhs[0])
        for t in range(steps - 1, -1, -1):
            das[t] = (dhs[t] + carry) * (1 - hs[t + 1] * hs[t + 1])
            carry = das[t] @ wh.T
        flat = lambda a: a.reshape(-1, a.shape[-1])
        demb = np.zeros_like(emb)
        np.add.at(demb, inputs.reshape(-1), flat(das @ wx.T))
        adam.apply(weights, [demb, flat(xs).T @ flat(das), flat(hs[:-1]).T @ flat(das),
                             das.sum((0, 1)), flat(hs[1:]).T @ flat(dlogits), dlogits.sum((0, 1))])
        return loss
    return step


BUILDERS = {'mlp': _mlp, 'cnn': _cnn, 'rnn': _rnn}


def make(name, arrays):
    return BUILDERS[name](arrays)
