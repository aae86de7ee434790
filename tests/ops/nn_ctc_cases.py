"""The CTC cases recorded from TensorFlow 2.21 into data/nn_ctc_ref.npz: tf.nn.ctc_loss with dense
and sparse labels, every placement of the blank, batch-major logits, sequences shorter than the
batch's longest, a label sequence too long for its frames (TF's dense path gives a large finite
loss), a label outside the classes; its gradients; and tf.nn.ctc_greedy_decoder. Run by
test_nn_ctc_tf.py on defun with the same inputs (stored in the file).

Recorded with `/path/to/tf-venv/bin/python -m tests.ops.nn_ctc_cases` from the repository root."""
import pathlib

import numpy as np

DATA = pathlib.Path(__file__).parent / 'data' / 'nn_ctc_ref.npz'


def inputs():
    rng = np.random.default_rng(25)
    return {'logits': rng.standard_normal((6, 3, 5)).astype(np.float32),
            'short': rng.standard_normal((3, 1, 4)).astype(np.float32),
            'labels': np.array([[1, 2, 2, 0], [3, 1, 0, 0], [4, 4, 4, 2]], np.int32)}


def cases(tf, a):
    """Case name -> (function of the float input, True if its gradient is recorded)."""
    nn, c = tf.nn, tf.constant
    labels, ll, tl = c(a['labels']), c([3, 2, 4]), c([6, 4, 6])

    def sparse(values):
        return tf.sparse.from_dense(c(values))

    def greedy(x, **kw):
        (decoded,), log_prob = nn.ctc_greedy_decoder(x, tl, **kw)
        return tf.cast(tf.sparse.to_dense(decoded, default_value=-1), tf.float32), log_prob
    def beam(x, **kw):
        decoded, log_prob = nn.ctc_beam_search_decoder(x, tl, **kw)
        return tuple(tf.cast(tf.sparse.to_dense(d, default_value=-1), tf.float32)
                     for d in decoded) + (log_prob,)
    return {
        'dense_blank0': (lambda x: nn.ctc_loss(labels, x, ll, tl), True),
        'dense_blank_last': (lambda x: nn.ctc_loss(labels - 1 + tf.cast(labels == 0, tf.int32),
                                                   x, ll, tl, blank_index=-1), True),
        'dense_blank_mid': (lambda x: nn.ctc_loss(c([[1, 3, 3, 0], [4, 1, 0, 0], [0, 0, 0, 3]]),
                                                  x, ll, tl, blank_index=2), True),
        'dense_batch_major': (lambda x: nn.ctc_loss(labels, tf.transpose(x, [1, 0, 2]), ll, tl,
                                                    logits_time_major=False), True),
        'dense_unique': (lambda x: nn.ctc_loss(labels, x, ll, tl, unique=(
            c([[1, 2, 0, 0], [3, 1, 0, 0], [4, 2, 0, 0]]),      # ctc_unique_labels(labels)
            c([[0, 1, 1, 2], [0, 1, 2, 2], [0, 0, 0, 1]]))), True),
        'sparse_blank_last': (lambda x: nn.ctc_loss(sparse([[1, 2, 2], [3, 1, 0], [0, 0, 2]]), x,
                                                    None, tl, blank_index=-1), True),
        'sparse_blank0': (lambda x: nn.ctc_loss(sparse([[1, 2, 2], [3, 1, 0], [4, 4, 2]]), x,
                                                None, tl, blank_index=0), True),
        'sparse_blank_mid': (lambda x: nn.ctc_loss(sparse([[1, 3, 3], [4, 1, 0], [0, 0, 3]]), x,
                                                   None, tl, blank_index=2), True),
        'beam_default': (lambda x: beam(x), False),
        'beam_3_2': (lambda x: beam(x, beam_width=3, top_paths=2), False),
        'greedy': (lambda x: greedy(x), False),
        'greedy_no_merge': (lambda x: greedy(x, merge_repeated=False), False),
        'greedy_blank0': (lambda x: greedy(x, blank_index=0), False),
    }


def short_cases(tf):
    nn, c = tf.nn, tf.constant
    return {
        'infeasible': (lambda x: nn.ctc_loss(c([[1, 1, 1, 1]]), x, [4], [3]), True),
        'outside_classes': (lambda x: nn.ctc_loss(c([[5, 1]]), x, [2], [3]), True),
    }


def _weights(n, seed):
    return np.random.default_rng(seed).uniform(0.5, 1.5, n).astype(np.float32)


def run(tf, fn, x, with_grad, name):
    """(outputs, gradient of the weighted loss or None) of one case."""
    t = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(t)
        out = fn(t)
        total = None if not with_grad else tf.reduce_sum(out * _weights(out.shape[0], len(name)))
    outs = out if isinstance(out, tuple) else (out,)
    grad = None if not with_grad else np.asarray(tape.gradient(total, t))
    return [np.asarray(o) for o in outs], grad


def all_cases(tf, a):
    found = {name: (fn, grad, a['logits']) for name, (fn, grad) in cases(tf, a).items()}
    found.update({name: (fn, grad, a['short']) for name, (fn, grad) in short_cases(tf).items()})
    return found


def record():
    # The recording venv's TF, never defun's dependency: imported only when recording.
    import tensorflow as tf
    a = inputs()
    out = {f'in_{k}': v for k, v in a.items()}
    for name, (fn, with_grad, x) in all_cases(tf, a).items():
        outs, grad = run(tf, fn, x, with_grad, name)
        for i, o in enumerate(outs):
            out[f'val_{name}_{i}'] = o
        if grad is not None:
            out[f'grad_{name}'] = grad
    np.savez_compressed(DATA, **out)


if __name__ == '__main__':
    record()
