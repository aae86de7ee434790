"""Specs for the CTC ops (defun/ops/nn/ctc.py), with references by brute force: every alignment
of the frames (C ** T paths) whose collapse (merge repeats, drop blanks) is the label sequence,
summed; greedy decoding by its definition; beam search (wide enough to be exact) as the most
probable label sequence. No second order: TF has no second derivative."""
import itertools

import numpy as np

import defun as tf
from tests.ops.spec import Spec, rand


def _collapse(path, blank):
    out, previous = [], None
    for c in path:
        if c != previous and c != blank:
            out.append(c)
        previous = c
    return out


def _np_ctc(logits, labels, blank):
    """-log sum over alignments, per batch element (all frames used)."""
    log_p = logits - np.log(np.sum(np.exp(logits), axis=2, keepdims=True))
    t, b, c = logits.shape
    losses = []
    for i in range(b):
        total = sum(np.exp(sum(log_p[k, i, p] for k, p in enumerate(path)))
                    for path in itertools.product(range(c), repeat=t)
                    if _collapse(path, blank) == labels[i])
        losses.append(-np.log(total))
    return np.array(losses)


_DENSE = [[1, 2], [2, 2]]          # a repeat needs a blank between
_LEN = np.array([4, 4], np.int32)


def _dense(x):
    return tf.nn.ctc_loss(tf.constant(_DENSE), x, [2, 2], _LEN, blank_index=0)


def _sparse(x):
    labels = tf.sparse.SparseTensor([[0, 0], [0, 1], [1, 0], [1, 1]],
                                    tf.constant([0, 1, 1, 1], tf.int32), [2, 2])
    return tf.nn.ctc_loss(labels, x, None, _LEN, blank_index=-1)


def _np_greedy(x):
    best = np.argmax(x, axis=2)
    rows = [_collapse(best[:, b], x.shape[2] - 1) for b in range(x.shape[1])]
    width = max(len(r) for r in rows)
    dense = np.array([r + [0] * (width - len(r)) for r in rows], np.int64)
    return dense, -np.sum(np.max(x, axis=2), axis=0)[:, None]


def _greedy(x):
    (decoded,), log_prob = tf.nn.ctc_greedy_decoder(x, [5, 5])
    return tf.sparse.to_dense(decoded), log_prob


def _beam(x):
    (decoded,), log_prob = tf.nn.ctc_beam_search_decoder(x, [4, 4], beam_width=50)
    return tf.sparse.to_dense(decoded, default_value=-1), log_prob


def _np_best(x):
    """The most probable label sequence of each batch element, over all alignments (a beam
    wider than the number of prefixes is exact)."""
    log_p = x - np.log(np.sum(np.exp(x), axis=2, keepdims=True))
    t, b, c = x.shape
    rows, scores = [], []
    for i in range(b):
        totals = {}
        for path in itertools.product(range(c), repeat=t):
            key = tuple(_collapse(path, c - 1))
            totals[key] = totals.get(key, 0.0) + np.exp(sum(log_p[k, i, p]
                                                            for k, p in enumerate(path)))
        best = max(totals, key=totals.get)
        rows.append(list(best))
        scores.append(np.log(totals[best]))
    width = max(len(r) for r in rows)
    dense = np.array([r + [-1] * (width - len(r)) for r in rows], np.int64)
    return dense, np.array(scores)[:, None]


SPECS = [
    Spec('CTCLossDense', _dense, [rand(4, 2, 3)], lambda x: _np_ctc(x, _DENSE, 0),
         second_order=False),
    Spec('CTCLossDense', lambda x: tf.nn.ctc_loss(tf.constant([[0, 2], [2, 2]]), x, [2, 2], _LEN,
                                                  logits_time_major=False, blank_index=1),
         [rand(2, 4, 3)],
         lambda x: _np_ctc(np.transpose(x, [1, 0, 2]), [[0, 2], [2, 2]], 1),
         second_order=False, id='blank-middle'),
    Spec('CTCLoss', _sparse, [rand(4, 2, 3)], lambda x: _np_ctc(x, [[0, 1], [1, 1]], 2),
         second_order=False),
    Spec('CTCGreedyDecoder', _greedy, [rand(5, 2, 4)], _np_greedy, grad=False),
    Spec('CTCBeamSearchDecoder', _beam, [rand(4, 2, 3)], _np_best, grad=False),
]
