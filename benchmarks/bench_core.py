"""Eager, graph and compiled-function overheads against hand-written numpy, in one run.

W7  eager `a + b` on float32[10]                      vs numpy `a + b`          (target <= 2.5x)
G1  compiled 3-op elementwise graph on float32[10]    vs the same numpy calls   (target <= 2x)
G2  build a 1,000-op graph, then generate and compile its code (compile() included, although a big
    graph's first call runs interpreted and compiles on its second call)
                                                      (target < 50 ms; baseline column: 50 ms)
W1  compiled `x * 2.0 + 1.0` on float32[10], per call vs a numpy function       (target <= 1.3x)
W2  first call (trace + compile + run) of a Python loop of 1,000 `x = x * 1.0001 + 0.001`
                                                      (target < 0.1 s; baseline column: 0.1 s)
W3  MLP 784-256-10 training step, batch 128, compiled vs hand-written numpy     (target <= 1.15x)
W6  compiled `exp(-x * x) * sin(x) + 0.5 * x` on float32[10,000,000] vs the numpy one-liner
                                                      (target <= 0.7x: blocked, no fresh temporaries)

    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_core.py
"""
import os
import sys

# This checkout's defun, not an installed copy (a script's sys.path starts at its own folder).
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.dirname(HERE)]
from common import compare, once, report  # noqa: E402

import numpy as np  # noqa: E402

import defun as tf  # noqa: E402
from defun.compiler import executor  # noqa: E402


def _row(name, base_name, baseline, ours, target):
    base, mine, ratio = compare(baseline, ours)
    return name, base_name, base, mine, target, ratio


def w7():
    a = np.arange(10, dtype=np.float32)
    b = a + 1
    ta, tb = tf.constant(a), tf.constant(b)
    return _row('W7 eager a + b, float32[10]', 'numpy a + b', lambda: a + b, lambda: ta + tb,
                '<= 2.5x')


def g1():
    a = np.arange(10, dtype=np.float32)
    graph = tf.Graph()
    with graph.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [10])
        y = tf.exp(tf.sin(x) * x)
    fn = executor.compile_graph(graph, [x], [y]).fn
    return _row('G1 compiled 3-op graph, float32[10]', '3 numpy calls',
                lambda: np.exp(np.sin(a) * a), lambda: fn(a), '<= 2x')


def g2():
    def build():
        graph = tf.Graph()
        with graph.as_default():
            x = tf.compat.v1.placeholder(tf.float32, [10])
            y = x
            for _ in range(500):
                y = y * 1.0001 + 0.001  # 2 ops per step (constants are shared)
        executor.compile_graph(graph, [x], [y]).compile()
    return ('G2 build + compile a 1,000-op graph', 'target time', 0.05, once(build), '< 1x')


def w1():
    a = np.arange(10, dtype=np.float32)
    two, one = np.float32(2.0), np.float32(1.0)

    def numpy_fn(x):
        return x * two + one

    @tf.function
    def f(x):
        return x * 2.0 + 1.0
    t = tf.constant(a)
    f(t)
    return _row('W1 compiled x * 2.0 + 1.0, per call', 'numpy function',
                lambda: numpy_fn(a), lambda: f(t), '<= 1.3x')


def w2():
    def first_call():
        @tf.function
        def f(x):
            for _ in range(1000):
                x = x * 1.0001 + 0.001
            return x
        f(tf.constant(1.0))
    return ('W2 first call, 1,000-step Python loop', 'target time', 0.1, once(first_call),
            '< 1x')


def w6():
    a = np.linspace(-5.0, 5.0, 10_000_000, dtype=np.float32)

    def numpy_fn(x):
        return np.exp(-x * x) * np.sin(x) + 0.5 * x

    @tf.function
    def f(x):
        return tf.exp(-x * x) * tf.sin(x) + 0.5 * x
    t = tf.constant(a)
    if f(t).numpy().tobytes() != numpy_fn(a).tobytes():
        raise AssertionError('W6: defun and numpy differ')
    return _row('W6 compiled elementwise chain, float32[1e7]', 'numpy one-liner',
                lambda: numpy_fn(a), lambda: f(t), '<= 0.7x')


def _mlp_data(rng):
    x = rng.normal(size=(128, 784)).astype(np.float32)
    labels = rng.integers(0, 10, size=128)
    w1 = (rng.normal(size=(784, 256)) * 0.05).astype(np.float32)
    w2 = (rng.normal(size=(256, 10)) * 0.05).astype(np.float32)
    return x, labels, w1, np.zeros(256, np.float32), w2, np.zeros(10, np.float32)


def _numpy_mlp_step():
    """A hand-written numpy forward + backward + SGD update of the W3 model."""
    rng = np.random.default_rng(0)
    x, labels, w1, b1, w2, b2 = _mlp_data(rng)
    onehot = np.eye(10, dtype=np.float32)[labels]
    lr = np.float32(0.01)
    params = [w1.copy(), b1.copy(), w2.copy(), b2.copy()]

    def numpy_step():
        w1_, b1_, w2_, b2_ = params
        h_pre = x @ w1_ + b1_
        h = np.maximum(h_pre, 0)
        logits = h @ w2_ + b2_
        shifted = logits - logits.max(axis=1, keepdims=True)
        exp = np.exp(shifted)
        probs = exp / exp.sum(axis=1, keepdims=True)
        loss = -np.mean(np.sum(onehot * (shifted - np.log(exp.sum(axis=1, keepdims=True))), 1))
        d_logits = (probs - onehot) / np.float32(128)
        d_w2 = h.T @ d_logits
        d_b2 = d_logits.sum(axis=0)
        d_h = d_logits @ w2_.T
        d_h_pre = d_h * (h_pre > 0)
        d_w1 = x.T @ d_h_pre
        d_b1 = d_h_pre.sum(axis=0)
        params[0] = w1_ - lr * d_w1
        params[1] = b1_ - lr * d_b1
        params[2] = w2_ - lr * d_w2
        params[3] = b2_ - lr * d_b2
        return loss
    return numpy_step


def w3():
    rng = np.random.default_rng(0)
    x, labels, w1, b1, w2, b2 = _mlp_data(rng)
    onehot = np.eye(10, dtype=np.float32)[labels]
    numpy_step = _numpy_mlp_step()
    variables = [tf.Variable(p) for p in (w1, b1, w2, b2)]
    tx, tlabels = tf.constant(x), tf.constant(onehot)

    @tf.function
    def step(inputs, targets):
        v_w1, v_b1, v_w2, v_b2 = variables
        with tf.GradientTape() as tape:
            h = tf.nn.relu(tf.matmul(inputs, v_w1) + v_b1)
            logits = tf.matmul(h, v_w2) + v_b2
            loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(targets, logits))
        grads = tape.gradient(loss, variables)
        for v, g in zip(variables, grads):
            v.assign_sub(0.01 * g)
        return loss
    step(tx, tlabels)
    return _row('W3 MLP 784-256-10 train step, batch 128', 'numpy fwd+bwd+update',
                numpy_step, lambda: step(tx, tlabels), '<= 1.15x')


def torch_rows():
    """The same workloads in PyTorch, when it is installed (never a dependency of defun)."""
    try:
        import torch
    except ImportError:
        return []
    torch.set_num_threads(1)
    a = np.arange(10, dtype=np.float32)
    ta, tb = torch.from_numpy(a), torch.from_numpy(a + 1)
    two, one = np.float32(2.0), np.float32(1.0)
    b = a + 1
    rows = [_row('W7 (PyTorch) eager a + b', 'numpy a + b', lambda: a + b, lambda: ta + tb,
                 'peer'),
            _row('W1 (PyTorch) x * 2.0 + 1.0, eager', 'numpy function',
                 lambda: a * two + one, lambda: ta * 2.0 + 1.0, 'peer')]
    rng = np.random.default_rng(0)
    x, labels, w1, b1, w2, b2 = _mlp_data(rng)
    params = [torch.tensor(p, requires_grad=True) for p in (w1, b1, w2, b2)]
    tx, tl = torch.from_numpy(x), torch.from_numpy(labels)

    def torch_step():
        h = torch.relu(tx @ params[0] + params[1])
        loss = torch.nn.functional.cross_entropy(h @ params[2] + params[3], tl)
        grads = torch.autograd.grad(loss, params)
        with torch.no_grad():
            for p, g in zip(params, grads):
                p -= 0.01 * g
        return loss
    numpy_step = _numpy_mlp_step()
    rows.append(_row('W3 (PyTorch) MLP train step, eager', 'numpy fwd+bwd+update',
                     numpy_step, torch_step, 'peer'))
    return rows


def main():
    rows = []
    for bench in (w7, g1, g2, w1, w2, w3, w6, torch_rows):
        try:
            result = bench()
            rows.extend(result if isinstance(result, list) else [result])
        except Exception as exc:  # report what could not run rather than hide the table
            print(f'{bench.__name__}: failed: {type(exc).__name__}: {exc}')
    report(rows)


if __name__ == '__main__':
    main()
