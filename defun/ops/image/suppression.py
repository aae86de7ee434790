"""tf.image.non_max_suppression (and _with_scores, _padded): greedy selection of boxes by
descending score, dropping each box whose IoU with a kept one exceeds the threshold, as TF's
NonMaxSuppressionV5 kernel does (corners in either order, ties kept in index order). Soft-NMS
(`soft_nms_sigma` > 0) is not here. Not differentiable."""
import numpy as np

from defun.core import dtypes
from defun.core.dispatch import apply_op
from defun.core.registry import define_op
from defun.core.unsupported import NotInDefunError
from defun.ops.support.helpers import to_tensor

__all__ = ['non_max_suppression', 'non_max_suppression_with_scores',
           'non_max_suppression_padded']


def _iou(box, others):
    y1, x1 = np.minimum(box[0], box[2]), np.minimum(box[1], box[3])
    y2, x2 = np.maximum(box[0], box[2]), np.maximum(box[1], box[3])
    oy1, ox1 = np.minimum(others[:, 0], others[:, 2]), np.minimum(others[:, 1], others[:, 3])
    oy2, ox2 = np.maximum(others[:, 0], others[:, 2]), np.maximum(others[:, 1], others[:, 3])
    inter = np.maximum(np.minimum(y2, oy2) - np.maximum(y1, oy1), 0) * \
        np.maximum(np.minimum(x2, ox2) - np.maximum(x1, ox1), 0)
    union = (y2 - y1) * (x2 - x1) + (oy2 - oy1) * (ox2 - ox1) - inter
    with np.errstate(divide='ignore', invalid='ignore'):
        return np.where(union > 0, inter / union, 0.0)


def _nms_kernel(boxes, scores, max_output_size, iou_threshold, score_threshold, pad):
    boxes, scores = np.asarray(boxes, np.float32), np.asarray(scores, np.float32)
    limit = int(max_output_size)
    order = [i for i in np.argsort(-scores, kind='stable') if scores[i] > score_threshold]
    kept = []
    for i in order:
        if len(kept) >= limit:
            break
        if not kept or np.all(_iou(boxes[i], boxes[kept]) <= iou_threshold):
            kept.append(i)
    n = len(kept)
    indices = np.array(kept + [0] * (limit - n if pad else 0), np.int32)
    picked = np.array(scores[kept].tolist() + [0.0] * (limit - n if pad else 0), np.float32)
    return indices, picked, np.array(n, np.int32)


def _nms_infer(boxes, scores, max_output_size, iou_threshold, score_threshold, pad):
    return [(dtypes.int32, (None,)), (dtypes.float32, (None,)), (dtypes.int32, ())]


NON_MAX_SUPPRESSION = define_op('NonMaxSuppressionV5', _nms_kernel, _nms_infer, None,
                                num_outputs=3)


def _run(boxes, scores, max_output_size, iou_threshold, score_threshold, pad, name):
    inputs = (to_tensor(boxes, dtype=dtypes.float32, name='boxes', op='non_max_suppression'),
              to_tensor(scores, dtype=dtypes.float32, name='scores', op='non_max_suppression'),
              to_tensor(max_output_size, dtype=dtypes.int32, name='max_output_size',
                        op='non_max_suppression'))
    attrs = {'iou_threshold': float(iou_threshold), 'score_threshold': float(score_threshold),
             'pad': bool(pad)}
    return apply_op(NON_MAX_SUPPRESSION, inputs, attrs, name)


def non_max_suppression(boxes, scores, max_output_size, iou_threshold=0.5,
                        score_threshold=float('-inf'), name=None):
    """Indices (int32) of at most `max_output_size` boxes kept by greedy NMS."""
    return _run(boxes, scores, max_output_size, iou_threshold, score_threshold, False, name)[0]


def non_max_suppression_with_scores(boxes, scores, max_output_size, iou_threshold=0.5,
                                    score_threshold=float('-inf'), soft_nms_sigma=0.0, name=None):
    """(indices, their scores) of the boxes kept by greedy NMS."""
    if soft_nms_sigma:
        raise NotInDefunError('tf.image.non_max_suppression_with_scores with soft_nms_sigma > 0 '
                              '(Soft-NMS) is not part of defun')
    indices, picked, _ = _run(boxes, scores, max_output_size, iou_threshold, score_threshold,
                              False, name)
    return indices, picked


def non_max_suppression_padded(boxes, scores, max_output_size, iou_threshold=0.5,
                               score_threshold=float('-inf'), pad_to_max_output_size=False,
                               name=None, sorted_input=False, canonicalized_coordinates=False,
                               tile_size=512):
    """(indices, how many are valid): NMS whose indices are padded with zeros to
    `max_output_size` when `pad_to_max_output_size`."""
    indices, _, valid = _run(boxes, scores, max_output_size, iou_threshold, score_threshold,
                             pad_to_max_output_size, name)
    return indices, valid
