"""The numpy kernels of connectionist temporal classification (CTC): the loss and its gradient by
the forward-backward algorithm in log space, and greedy (best path) decoding.

The loss runs over TF's CTC automaton (ctc_ops.ctc_loss_dense): for labels l_1..l_L, label states
0..L (0 is the start, which emits nothing), one blank state after each of them, self-loops, start
-> label 1, blank k -> label k + 1, label k -> its blank, and label k -> label k + 1 unless the two
labels are equal. The blank is class 0. The forward pass starts in state 0, every other state
weighted `log_zero`; a sequence ends in label state `label_length` or its blank, every other state
weighted `log_zero`. With TF's dense path log_zero is log(1e-307) in float32, so a label sequence
too long for its frames gets a large finite loss as in TF; TF's CTCLoss op uses -inf (and refuses
such sequences first). Frames past a sequence's length do not count and get a zero gradient.
The gradient with respect to the logits is softmax(logits) minus the posterior of each class.
"""
import numpy as np

from defun.core import errors

__all__ = ['LOG_ZERO_DENSE', 'ctc_loss_and_grad', 'greedy_decode', 'required_frames',
           'beam_search_decode']

# TF's log_0: log(0 + 1e-307) computed in float64 and cast to float32.
LOG_ZERO_DENSE = float(np.float32(np.log(1e-307)))


def _lse(a, axis):
    """logsumexp that keeps -inf where every term is -inf."""
    top = np.max(a, axis=axis, keepdims=True)
    safe = np.where(np.isfinite(top), top, 0.0)
    with np.errstate(divide='ignore'):
        out = np.log(np.sum(np.exp(a - safe), axis=axis, keepdims=True)) + safe
    return np.squeeze(out, axis=axis)


def _transitions(labels):
    """[B, S, S] log transition weights (to, from) of TF's automaton, S = 2 (L + 1)."""
    b, n = labels.shape
    k = n + 1
    trans = np.zeros((b, 2 * k, 2 * k))
    idx = np.arange(2 * k)
    trans[:, idx, idx] = 1.0                              # self-loops
    trans[:, 1, 0] = 1.0                                  # start -> first label
    trans[:, np.arange(1, k), np.arange(k, 2 * k - 1)] = 1.0   # blank k-1 -> label k
    trans[:, np.arange(k, 2 * k), np.arange(k)] = 1.0     # label k -> its blank
    if n > 1:
        differ = (labels[:, :-1] != labels[:, 1:]).astype(np.float64)
        trans[:, np.arange(2, k), np.arange(1, k - 1)] = differ
    with np.errstate(divide='ignore'):
        return np.log(trans)


def _observations(log_probs, labels):
    """[T, B, S] log emission of each state: nothing for the start, the label's class for label
    states, the blank for blank states."""
    t, b, classes = log_probs.shape
    valid = (labels >= 0) & (labels < classes)
    index = np.broadcast_to(np.where(valid, labels, 0)[None], (t,) + labels.shape)
    # A label outside the classes emits with log probability 0, as TF's one_hot product gives.
    label_part = np.where(valid[None], np.take_along_axis(log_probs, index, axis=2), 0.0)
    start = np.full((t, b, 1), -np.inf)
    blanks = np.repeat(log_probs[:, :, :1], labels.shape[1] + 1, axis=2)
    return np.concatenate([start, label_part, blanks], axis=2)


def _ends(label_length, n, log_zero):
    k = n + 1
    final = np.full((len(label_length), 2 * k), log_zero)
    rows = np.arange(len(label_length))
    final[rows, label_length] = 0.0
    final[rows, k + label_length] = 0.0
    return final


def ctc_loss_and_grad(logits, labels, label_length, logit_length, log_zero):
    """(loss [B], gradient [T, B, C]) for time-major float logits (blank = class 0) and dense
    labels [B, L] (values past a sequence's label_length are ignored)."""
    dtype = logits.dtype
    x = logits.astype(np.float64)
    t_max, batch, classes = x.shape
    log_probs = x - _lse(x, 2)[..., None]
    labels = labels.astype(np.int64)
    n = labels.shape[1]
    label_length = label_length.astype(np.int64)
    logit_length = logit_length.astype(np.int64)
    trans = _transitions(labels)
    obs = _observations(log_probs, labels)
    final = _ends(label_length, n, log_zero)
    alpha = np.full((batch, 2 * (n + 1)), log_zero)
    alpha[:, 0] = 0.0
    alphas = []
    for t in range(t_max):
        alpha = _lse(alpha[:, None, :] + trans, 2) + obs[t]
        alphas.append(alpha)
    beta = final.copy()
    betas = [None] * t_max
    for t in reversed(range(t_max)):
        betas[t] = beta      # the weight of what follows frame t
        stepped = _lse((beta + obs[t])[:, :, None] + trans, 1)
        beta = np.where((t < logit_length)[:, None], stepped, final)
    loss = -beta[:, 0]
    grad = np.zeros_like(x)
    for t in range(t_max):
        joint = alphas[t] + betas[t]
        post = joint - _lse(joint, 1)[:, None]
        grad[t] = np.exp(log_probs[t]) - _class_posteriors(post, labels, classes)
    grad *= (np.arange(t_max)[:, None] < logit_length[None, :])[..., None]
    return loss.astype(dtype), grad.astype(dtype)


def _class_posteriors(post, labels, classes):
    """[B, C] probability of each class at one frame, summed over the states that emit it."""
    n = labels.shape[1]
    out = np.zeros((post.shape[0], classes))
    out[:, 0] = np.exp(_lse(post[:, n + 1:], 1))
    states = np.exp(post[:, 1:n + 1])
    rows = np.repeat(np.arange(post.shape[0]), n)
    flat = labels.ravel()
    keep = (flat > 0) & (flat < classes)    # the blank and labels outside the classes: no class
    np.add.at(out, (rows[keep], flat[keep]), states.ravel()[keep])
    return out


def required_frames(labels, length):
    """The frames a label sequence needs: one per label, plus one blank between equal neighbours."""
    seq = labels[:length]
    return int(length + np.sum(seq[1:] == seq[:-1]))


def greedy_decode(inputs, sequence_length, merge_repeated, blank):
    """TF's CTCGreedyDecoder: per sequence the best class of each frame (the first maximum),
    blanks dropped and, if merge_repeated, repeats of the previous frame's class merged; the
    log probability is minus the sum of each frame's maximum. -> (indices, values, shape, logp)"""
    t_max, batch, _ = inputs.shape
    best = np.argmax(inputs, axis=2)
    top = np.max(inputs, axis=2)
    rows, values, log_prob = [], [], np.zeros((batch, 1), inputs.dtype)
    for b in range(batch):
        length = int(sequence_length[b])
        decoded, previous = [], -1
        for t in range(length):
            c = int(best[t, b])
            if c != blank and not (merge_repeated and c == previous):
                decoded.append(c)
            previous = c
        log_prob[b, 0] = -np.sum(top[:length, b], dtype=inputs.dtype)
        rows.append(decoded)
    indices = np.array([[b, i] for b, row in enumerate(rows) for i in range(len(row))],
                       dtype=np.int64).reshape(-1, 2)
    values = np.array([c for row in rows for c in row], dtype=np.int64)
    shape = np.array([batch, max([len(r) for r in rows], default=0)], dtype=np.int64)
    return indices, values, shape, log_prob


class _Beam:
    """A node of the beam search's prefix tree: its label, parent, children, and the log
    probabilities [total, ending in a blank, ending in its label] before (old) and after (new)
    the current frame."""
    __slots__ = ('parent', 'label', 'children', 'old', 'new')

    def __init__(self, parent, label):
        self.parent, self.label, self.children = parent, label, {}
        self.old, self.new = [-np.inf] * 3, [-np.inf] * 3

    def active(self):
        return self.new[0] != -np.inf

    def child(self, label):
        if label not in self.children:
            self.children[label] = _Beam(self, label)
        return self.children[label]

    def labels(self, merge_repeated):
        out, previous, node = [], -1, self
        while node.parent is not None:
            if not merge_repeated or node.label != previous:
                out.append(node.label)
            previous, node = node.label, node.parent
        return out[::-1]


def _lse2(a, b):
    return b if a == -np.inf else a if b == -np.inf else max(a, b) + np.log1p(np.exp(-abs(a - b)))


def _beam_step(leaves, row, width):
    """One frame of TF's CTC beam search (ctc_beam_search.h): scores are the frame's log
    softmax (computed in float32, as TF), the blank is the last class."""
    peak = np.float32(np.max(row))
    top = float(peak + np.float32(np.log(np.sum(np.exp(row - peak, dtype=np.float32)))))
    blank = len(row) - 1
    branches = sorted(leaves, key=lambda e: -e.new[0])
    leaves = []
    for b in branches:
        b.old = list(b.new)
    for b in branches:
        if b.parent is not None:
            if b.parent.active():
                previous = b.parent.old[1] if b.label == b.parent.label else b.parent.old[0]
                b.new[2] = _lse2(b.new[2], previous)
            b.new[2] += row[b.label] - top
        b.new[1] = b.old[0] + row[blank] - top
        b.new[0] = _lse2(b.new[1], b.new[2])
        leaves.append(b)

    def bottom():
        return min(leaves, key=lambda e: e.new[0])

    def candidate(p):
        return p[0] > -np.inf and (len(leaves) < width or p[0] > bottom().new[0])
    for b in branches:
        if not candidate(b.old):
            continue
        for label in range(len(row) - 1):
            c = b.child(label)
            if c.active():
                continue
            previous = b.old[1] if label == b.label else b.old[0]
            c.new = [row[label] - top + previous, -np.inf, row[label] - top + previous]
            if candidate(c.new):
                if len(leaves) == width:   # the bottom leaves the beam, marked inactive
                    dropped = bottom()
                    dropped.new = [-np.inf] * 3
                    leaves.remove(dropped)
                leaves.append(c)
            else:
                c.old, c.new = [-np.inf] * 3, [-np.inf] * 3
    return leaves


def beam_search_decode(inputs, sequence_length, width, top_paths, merge_repeated):
    """TF's CTCBeamSearchDecoder: per sequence the top_paths most probable label sequences and
    their scores. -> [(indices, values, shape)] * top_paths, log_probability [B, top_paths]"""
    t_max, batch, _ = inputs.shape
    paths = [[] for _ in range(top_paths)]
    log_prob = np.zeros((batch, top_paths), inputs.dtype)
    for b in range(batch):
        root = _Beam(None, -1)
        root.new = [0.0, 0.0, -np.inf]
        leaves = [root]
        for t in range(int(sequence_length[b])):
            leaves = _beam_step(leaves, inputs[t, b].astype(np.float32), width)
        if top_paths > len(leaves):
            raise errors.InvalidArgumentError('Less leaves in the beam search than requested.')
        best = sorted(leaves, key=lambda e: -e.new[0])[:top_paths]
        for i, entry in enumerate(best):
            paths[i].append(entry.labels(merge_repeated))
            log_prob[b, i] = entry.new[0]
    out = []
    for rows in paths:
        indices = np.array([[b, j] for b, row in enumerate(rows) for j in range(len(row))],
                           dtype=np.int64).reshape(-1, 2)
        values = np.array([c for row in rows for c in row], dtype=np.int64)
        shape = np.array([batch, max([len(r) for r in rows], default=0)], dtype=np.int64)
        out.append((indices, values, shape))
    return out, log_prob
