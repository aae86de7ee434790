"""tf.nn's connectionist temporal classification: ctc_loss, ctc_greedy_decoder,
ctc_beam_search_decoder, and their ops.

Two loss ops share one kernel (ctc_kernels.py): TF's CTCLoss (sparse labels, the blank as the
last class, a label sequence too long for its frames refused) and CTCLossDense, the computation
of TF's dense-label path (the blank as class 0, such sequences weighted by TF's log(1e-307)).
Each returns the loss and its gradient with respect to the logits, and its gradient function
scales that second output, as TF's; there is no second derivative (TF's LookupError).
tf.nn.ctc_loss moves the blank where each op expects it, as TF's wrapper does.
"""
import numpy as np

from defun.core import dtypes, errors
from defun.core.dispatch import apply_op
from defun.core.registry import define_op
from defun.ops.array.joining import concat
from defun.ops.array.transform import transpose
from defun.ops.framework.base_ops import cast, reshape, shape
from defun.ops.math.logic import where
from defun.ops.nn import ctc_kernels
from defun.ops.sparse.sparse_tensor import SparseTensor
from defun.ops.support.helpers import dims, to_tensor

__all__ = ['ctc_loss', 'ctc_greedy_decoder', 'ctc_beam_search_decoder']


def _loss_infer(logits, *rest, **attrs):
    d = dims(logits)
    return [(logits.dtype, (None,) if d is None else (d[1],)), (logits.dtype, d)]


def _loss_grad(op, grad_loss, grad_gradient):
    if grad_gradient is not None:
        raise LookupError('Currently there is no way to take the second  derivative of ctc_loss '
                          "due to the fused implementation's interaction  with tf.gradients()")
    if grad_loss is None:
        return (None,) * len(op.inputs)
    return (reshape(grad_loss, [1, -1, 1]) * op.outputs[1],) + (None,) * (len(op.inputs) - 1)


def _sparse_to_dense_labels(indices, values, batch, op):
    """Each sequence's labels: its values in order, as TF's kernel reads a SparseTensor (the
    column indices only order them)."""
    rows = [[] for _ in range(batch)]
    for (b, _), v in zip(indices, values):
        if not 0 <= b < batch:
            raise errors.InvalidArgumentError(f'{op}: labels batch index {b} out of range '
                                              f'[0, {batch})')
        rows[b].append(v)
    lengths = np.array([len(r) for r in rows], np.int64)
    dense = np.zeros((batch, int(lengths.max(initial=0))), np.int64)
    for b, row in enumerate(rows):
        dense[b, :len(row)] = row
    return dense, lengths


def _collapsed(dense, lengths):
    out = np.zeros_like(dense)
    new_lengths = np.zeros_like(lengths)
    for b in range(len(lengths)):
        seq = dense[b, :lengths[b]]
        keep = seq[np.r_[True, seq[1:] != seq[:-1]]] if len(seq) else seq
        out[b, :len(keep)] = keep
        new_lengths[b] = len(keep)
    return out, new_lengths


def _ctc_loss_kernel(inputs, labels_indices, labels_values, sequence_length,
                     preprocess_collapse_repeated=False, ctc_merge_repeated=True,
                     ignore_longer_outputs_than_inputs=False):
    if not ctc_merge_repeated:
        raise errors.UnimplementedError('CTCLoss: ctc_merge_repeated=False is not part of defun')
    t_max, batch, classes = inputs.shape
    if len(sequence_length) != batch:
        raise errors.InvalidArgumentError(f'len(sequence_length) != batch_size. len('
                                          f'sequence_length): {len(sequence_length)} batch_size: '
                                          f'{batch}')
    if np.any(sequence_length > t_max):
        raise errors.InvalidArgumentError(f'sequence_length(b) <= time: {sequence_length} vs '
                                          f'{t_max}')
    if np.any((labels_values < 0) | (labels_values >= classes - 1)):
        raise errors.InvalidArgumentError(f'CTCLoss: labels must be in [0, {classes - 1}) (the '
                                          f'last class is the blank), got {labels_values}')
    dense, lengths = _sparse_to_dense_labels(labels_indices, labels_values, batch, 'CTCLoss')
    if preprocess_collapse_repeated:
        dense, lengths = _collapsed(dense, lengths)
    skipped = np.zeros(batch, bool)
    for b in range(batch):
        required = ctc_kernels.required_frames(dense[b], lengths[b])
        if required > sequence_length[b]:
            if not ignore_longer_outputs_than_inputs:
                raise errors.InvalidArgumentError(
                    f'Not enough time for target transition sequence (required: {required}, '
                    f'available: {sequence_length[b]}){b}You can turn this error into a warning '
                    f'by using the flag ignore_longer_outputs_than_inputs')
            skipped[b] = True
    blank_first = np.concatenate([inputs[..., -1:], inputs[..., :-1]], axis=2)
    loss, grad = ctc_kernels.ctc_loss_and_grad(blank_first, dense + 1, lengths,
                                               sequence_length, -np.inf)
    grad = np.concatenate([grad[..., 1:], grad[..., :1]], axis=2)
    loss[skipped] = 0
    grad[:, skipped] = 0
    return loss, grad


CTC_LOSS = define_op(
    'CTCLoss', _ctc_loss_kernel, _loss_infer, _loss_grad, num_outputs=2,
    accepts_missing_grads=True,
    inputs=('inputs: T', 'labels_indices: int64', 'labels_values: int32', 'sequence_length: int32'),
    attrs=('T: {float, double}', 'preprocess_collapse_repeated: bool', 'ctc_merge_repeated: bool',
           'ignore_longer_outputs_than_inputs: bool'))


def _ctc_loss_dense_kernel(logits, labels, label_length, logit_length):
    return ctc_kernels.ctc_loss_and_grad(logits, labels, label_length, logit_length,
                                         ctc_kernels.LOG_ZERO_DENSE)


CTC_LOSS_DENSE = define_op(
    'CTCLossDense', _ctc_loss_dense_kernel, _loss_infer, _loss_grad, num_outputs=2,
    accepts_missing_grads=True, inputs=('logits: T',), attrs=('T: {float, double}',))


def _blank(x, blank_index):
    """The blank's class index, and whether it may differ from the last class; with the
    number of classes unknown until run time, a negative index becomes a tensor."""
    classes = dims(x)[2] if dims(x) is not None else None
    if blank_index >= 0:
        return blank_index, classes is None or blank_index != classes - 1
    if classes is None:
        return shape(x)[2] + blank_index, True
    return classes + blank_index, blank_index != -1


def _blank_to(logits, blank, where_to):
    """logits with class `blank` moved to the front ('first') or the back ('last')."""
    pieces = [logits[:, :, blank:blank + 1], logits[:, :, :blank], logits[:, :, blank + 1:]]
    return concat(pieces if where_to == 'first' else pieces[1:] + pieces[:1], axis=2)


def ctc_loss(labels, logits, label_length, logit_length, logits_time_major=True, unique=None,
             blank_index=None, name=None):
    """The negative log probability of each label sequence under CTC (a [batch] vector), as
    TF computes it: dense `labels` [batch, max_label_length] with `label_length`, or a
    SparseTensor of labels (then `blank_index` is required); `logits` are [time, batch, classes]
    (or [batch, time, classes] when not logits_time_major) with `logit_length` frames used."""
    x = to_tensor(logits, name='logits', op='ctc_loss')
    original = x.dtype
    if original == dtypes.float16:
        x = cast(x, dtypes.float32)
    if not logits_time_major:
        x = transpose(x, [1, 0, 2])
    lengths = to_tensor(logit_length, name='logit_length', op='ctc_loss')
    if isinstance(labels, SparseTensor):
        loss = _sparse_loss(labels, x, lengths, blank_index)
    else:
        loss = _dense_loss(labels, x, label_length, lengths, 0 if blank_index is None else
                           blank_index)
    return cast(loss, original) if loss.dtype != original else loss


def _sparse_loss(labels, x, lengths, blank_index):
    if blank_index is None:
        raise ValueError('Argument `blank_index` must be provided when `labels` is a '
                         '`SparseTensor`.')
    blank, moved = _blank(x, blank_index)
    values = labels.values
    if moved:
        x = _blank_to(x, blank, 'last')
        values = where(values < blank, values, values - 1)
    loss, _ = apply_op(CTC_LOSS, (x, cast(labels.indices, dtypes.int64),
                                  cast(values, dtypes.int32), cast(lengths, dtypes.int32)),
                       {'preprocess_collapse_repeated': False, 'ctc_merge_repeated': True,
                        'ignore_longer_outputs_than_inputs': False})
    return loss


def _dense_loss(labels, x, label_length, lengths, blank_index):
    y = to_tensor(labels, name='labels', op='ctc_loss')
    if label_length is None:
        raise ValueError('Attempt to convert a value (None) with an unsupported type (<class '
                         "'NoneType'>) to a Tensor.")
    label_lengths = to_tensor(label_length, name='label_length', op='ctc_loss')
    if blank_index != 0:
        blank, _ = _blank(x, blank_index)
        x = _blank_to(x, blank, 'first')
        y = where(y < blank, y + 1, y)
    loss, _ = apply_op(CTC_LOSS_DENSE, (x, y, label_lengths, lengths))
    return loss


def _greedy_kernel(inputs, sequence_length, merge_repeated=True, blank_index=-1):
    classes = inputs.shape[2]
    blank = blank_index + classes if blank_index < 0 else blank_index
    if np.any(sequence_length > inputs.shape[0]):
        raise errors.InvalidArgumentError(f'sequence_length(b) <= max_time: {sequence_length} '
                                          f'vs {inputs.shape[0]}')
    return ctc_kernels.greedy_decode(inputs, sequence_length, merge_repeated, blank)


CTC_GREEDY_DECODER = define_op(
    'CTCGreedyDecoder', _greedy_kernel,
    lambda x, lengths, **attrs: [(dtypes.int64, (None, 2)), (dtypes.int64, (None,)),
                                 (dtypes.int64, (2,)),
                                 (x.dtype, (None if dims(x) is None else dims(x)[1], 1))],
    None, num_outputs=4, inputs=('inputs: T', 'sequence_length: int32'),
    attrs=('merge_repeated: bool', 'blank_index: int', 'T: {float, double}'))


def ctc_greedy_decoder(inputs, sequence_length, merge_repeated=True, blank_index=None):
    """Best-path decoding of time-major `inputs` [time, batch, classes]: ([a SparseTensor of
    int64 classes per sequence], minus the sum of each frame's largest logit [batch, 1])."""
    x = to_tensor(inputs, name='inputs', op='ctc_greedy_decoder')
    lengths = to_tensor(sequence_length, name='sequence_length', op='ctc_greedy_decoder')
    attrs = {'merge_repeated': bool(merge_repeated),
             'blank_index': -1 if blank_index is None else blank_index}
    indices, values, shape, log_prob = apply_op(CTC_GREEDY_DECODER, (x, lengths), attrs)
    return [SparseTensor(indices, values, shape)], log_prob


def _beam_kernel(inputs, sequence_length, beam_width, top_paths, merge_repeated):
    if top_paths > beam_width:
        raise errors.InvalidArgumentError('requested more paths than the beam width.')
    if np.any(sequence_length > inputs.shape[0]):
        raise errors.InvalidArgumentError(f'sequence_length(b) <= max_time: {sequence_length} '
                                          f'vs {inputs.shape[0]}')
    paths, log_prob = ctc_kernels.beam_search_decode(inputs, sequence_length, beam_width,
                                                     top_paths, merge_repeated)
    return tuple(p[0] for p in paths) + tuple(p[1] for p in paths) + \
        tuple(p[2] for p in paths) + (log_prob,)


def _beam_infer(x, lengths, beam_width, top_paths, merge_repeated):
    batch = None if dims(x) is None else dims(x)[1]
    return ([(dtypes.int64, (None, 2))] * top_paths + [(dtypes.int64, (None,))] * top_paths
            + [(dtypes.int64, (2,))] * top_paths + [(x.dtype, (batch, top_paths))])


CTC_BEAM_SEARCH_DECODER = define_op(
    'CTCBeamSearchDecoder', _beam_kernel, _beam_infer, None, num_outputs=None,
    inputs=('inputs: T', 'sequence_length: int32'),
    attrs=('beam_width: int >= 1', 'top_paths: int >= 1', 'merge_repeated: bool',
           'T: {float, double}'))


def ctc_beam_search_decoder(inputs, sequence_length, beam_width=100, top_paths=1):
    """TF's beam search over time-major `inputs` [time, batch, classes] (the blank is the last
    class; repeated labels are not merged): ([top_paths SparseTensors of int64 classes], their
    log probabilities [batch, top_paths])."""
    x = to_tensor(inputs, name='inputs', op='ctc_beam_search_decoder')
    lengths = to_tensor(sequence_length, name='sequence_length', op='ctc_beam_search_decoder')
    attrs = {'beam_width': beam_width, 'top_paths': top_paths, 'merge_repeated': False}
    outs = apply_op(CTC_BEAM_SEARCH_DECODER, (x, lengths), attrs)
    n = top_paths
    decoded = [SparseTensor(outs[i], outs[n + i], outs[2 * n + i]) for i in range(n)]
    return decoded, outs[3 * n]
