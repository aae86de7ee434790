"""Ops on sequences laid out along an axis: reverse_sequence, histogram_fixed_width_bins, and
edit_distance (the Levenshtein distance between sequences held in two SparseTensors).

ReverseSequence reverses the first seq_lengths[i] entries of each batch row i along seq_axis (its
gradient is the same reversal of the gradient). EditDistance groups each SparseTensor's values by
their index without the last coordinate (ordered by it), and compares hypothesis and truth at
every position of the larger of their dense shapes, as TF's kernel does.
"""
import numpy as np

from defun.core import dtypes
from defun.core.dispatch import apply_op
from defun.core.registry import define_op
from defun.ops.framework.base_ops import cast, reshape, shape
from defun.ops.math.arithmetic import clip_by_value
from defun.ops.math.elementary import floor
from defun.ops.support import validation
from defun.ops.support.helpers import dims, static_value, to_tensor

__all__ = ['reverse_sequence', 'histogram_fixed_width_bins', 'edit_distance']


def _check_lengths(x, lengths, seq_dim, batch_dim):
    if seq_dim == batch_dim:
        raise validation.invalid_argument(f'batch_dim == seq_dim == {seq_dim}')
    if len(lengths) != x.shape[batch_dim]:
        raise validation.invalid_argument(
            f'Length of seq_lengths != input.dims({batch_dim}), ({len(lengths)} vs. '
            f'{x.shape[batch_dim]})')
    for i, n in enumerate(lengths):
        if n < 0:
            raise validation.invalid_argument(f'seq_lens({i}) < 0')
        if n > x.shape[seq_dim]:
            raise validation.invalid_argument(f'seq_lens({i}) > input.dims({seq_dim})')


def _reverse_sequence_kernel(x, seq_lengths, seq_dim, batch_dim):
    lengths = np.asarray(seq_lengths).ravel()
    _check_lengths(x, lengths, seq_dim, batch_dim)
    out = np.array(x, copy=True)
    moved = np.moveaxis(out, (batch_dim, seq_dim), (0, 1))   # a view: writes land in `out`
    for i, n in enumerate(lengths):
        moved[i, :n] = moved[i, :n][::-1]
    return out


def _reverse_sequence_infer(x, seq_lengths, seq_dim, batch_dim):
    return x.dtype, dims(x)


REVERSE_SEQUENCE = define_op(
    'ReverseSequence', _reverse_sequence_kernel, _reverse_sequence_infer,
    lambda op, g: (reverse_sequence(g, op.inputs[1], op.get_attr('seq_dim'),
                                    op.get_attr('batch_dim')), None),
    inputs=('input: T', 'seq_lengths: Tlen'),
    attrs=('seq_dim: int', 'batch_dim: int', 'T: type', 'Tlen: {int32, int64}'))


def reverse_sequence(input, seq_lengths, seq_axis=None, batch_axis=None, name=None):
    """Reverses the first `seq_lengths[i]` entries along `seq_axis` of each slice i along
    `batch_axis`; the rest of each slice is unchanged."""
    x = to_tensor(input, name='input', op='reverse_sequence')
    lengths = to_tensor(seq_lengths, name='seq_lengths', op='reverse_sequence',
                        hint=dtypes.int64)
    rank = x.shape.rank
    seq = validation.axis(seq_axis if seq_axis is not None else 0, rank, 'reverse_sequence',
                          'seq_axis')
    batch = validation.axis(batch_axis if batch_axis is not None else 0, rank,
                            'reverse_sequence', 'batch_axis')
    if lengths.shape.rank not in (None, 1):
        raise validation.invalid_argument(f'seq_lengths must be 1-dim, not '
                                          f'{lengths.shape.rank}')
    return apply_op(REVERSE_SEQUENCE, (x, lengths), {'seq_dim': seq, 'batch_dim': batch}, name)


def histogram_fixed_width_bins(values, value_range, nbins=100, dtype=dtypes.int32, name=None):
    """The bin of each value among `nbins` equal bins over value_range (values outside fall in
    the edge bins), shaped as `values` (TF composes it from the same ops)."""
    v = to_tensor(values, name='values', op='histogram_fixed_width_bins')
    r = to_tensor(value_range, name='value_range', op='histogram_fixed_width_bins')
    n = to_tensor(nbins, dtype=dtypes.int32, name='nbins', op='histogram_fixed_width_bins')
    flat = reshape(v, [-1])
    n_float = cast(n, flat.dtype)
    scaled = (flat - r[0]) / (r[1] - r[0])
    indices = floor(n_float * scaled)
    indices = cast(clip_by_value(indices, 0, n_float - 1), dtypes.as_dtype(dtype))
    return reshape(indices, shape(v), name=name)


def _sequences(indices, values):
    """{position (the index without its last coordinate): values in order of the last one}."""
    groups = {}
    for index, value in sorted(zip(map(tuple, np.asarray(indices).tolist()), values),
                               key=lambda p: p[0]):
        groups.setdefault(index[:-1], []).append(value)
    return groups


def _levenshtein(a, b):
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i]
        for j, y in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1,
                               previous[j - 1] + (x != y)))
        previous = current
    return previous[-1]


def _edit_distance_kernel(h_indices, h_values, h_shape, t_indices, t_values, t_shape,
                          normalize):
    if len(h_shape) != len(t_shape):
        raise validation.invalid_argument(
            f'hypothesis and truth have different ranks: {len(h_shape)} vs. {len(t_shape)}')
    out_shape = np.maximum(h_shape[:-1], t_shape[:-1]).astype(np.int64)
    out = np.zeros(out_shape, np.float32)
    hyp, truth = _sequences(h_indices, h_values.tolist()), _sequences(t_indices,
                                                                      t_values.tolist())
    for position in set(hyp) | set(truth):
        h, t = hyp.get(position, []), truth.get(position, [])
        distance = float(_levenshtein(h, t))
        if normalize:
            distance = distance / len(t) if t else np.inf
        out[position] = distance
    return out


def _edit_distance_infer(h_indices, h_values, h_shape, t_indices, t_values, t_shape, normalize):
    h, t = static_value(h_shape), static_value(t_shape)
    if h is None or t is None:
        rank = h_shape.shape.as_tuple()
        return dtypes.float32, (None,) * (rank[0] - 1) if rank and rank[0] else None
    return dtypes.float32, tuple(int(d) for d in np.maximum(h[:-1], t[:-1]))


EDIT_DISTANCE = define_op(
    'EditDistance', _edit_distance_kernel, _edit_distance_infer, None,
    inputs=('hypothesis_indices: int64', 'hypothesis_values: T', 'hypothesis_shape: int64',
            'truth_indices: int64', 'truth_values: T', 'truth_shape: int64'),
    attrs=('normalize: bool', 'T: type'))


def edit_distance(hypothesis, truth, normalize=True, name='edit_distance'):
    """The Levenshtein distance between the sequences of two SparseTensors at each position (the
    index without its last coordinate), divided by the truth's length with `normalize`."""
    for value, what in ((hypothesis, 'Hypothesis'), (truth, 'Truth')):
        if not all(hasattr(value, a) for a in ('indices', 'values', 'dense_shape')):
            raise TypeError(f'{what} must be a SparseTensor.')
    if hypothesis.values.dtype != truth.values.dtype:
        raise TypeError(f'edit_distance: hypothesis and truth values must have the same dtype, '
                        f'got {hypothesis.values.dtype.name} and {truth.values.dtype.name}')
    return apply_op(EDIT_DISTANCE, (hypothesis.indices, hypothesis.values,
                                    hypothesis.dense_shape, truth.indices, truth.values,
                                    truth.dense_shape), {'normalize': bool(normalize)}, name)
