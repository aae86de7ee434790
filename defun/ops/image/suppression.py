"""tf.image.non_max_suppression (and _with_scores, _padded): greedy selection of boxes by
descending score, dropping each box whose IoU with a kept one exceeds the threshold, as TF's
NonMaxSuppressionV5 kernel does (corners in either order, ties kept in index order). Soft-NMS
(`soft_nms_sigma` > 0) is not here. combined_non_max_suppression runs that selection per class
of a batch and ranks the survivors of all classes (TF's CombinedNonMaxSuppression; equal scores
keep index order, where TF's unstable sort leaves it open). Not differentiable."""
import numpy as np

from defun.core import dtypes, errors
from defun.core.dispatch import apply_op
from defun.core.registry import define_op
from defun.core.unsupported import NotInDefunError
from defun.ops.support.helpers import dims, to_tensor

__all__ = ['non_max_suppression', 'non_max_suppression_with_scores',
           'non_max_suppression_padded', 'combined_non_max_suppression']


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


# ---------------------------------------------------------------- combined_non_max_suppression

def _class_nms(boxes, scores, limit, iou_threshold, score_threshold):
    """[(score, box index)] kept for one class: greedy NMS over the boxes scoring above the
    threshold, by descending score (ties by index), at most `limit`."""
    order = [i for i in np.argsort(-scores, kind='stable') if scores[i] > score_threshold]
    kept = []
    for i in order:
        if len(kept) >= limit:
            break
        if all(_combined_iou(boxes[i], boxes[j]) <= iou_threshold for j in reversed(kept)):
            kept.append(i)
    return [(scores[i], i) for i in kept]


def _combined_iou(a, b):
    """TF's IOU for combined NMS: 0 when either box is empty."""
    area_a = (max(a[0], a[2]) - min(a[0], a[2])) * (max(a[1], a[3]) - min(a[1], a[3]))
    area_b = (max(b[0], b[2]) - min(b[0], b[2])) * (max(b[1], b[3]) - min(b[1], b[3]))
    if area_a <= 0 or area_b <= 0:
        return np.float32(0)
    iy = max(min(max(a[0], a[2]), max(b[0], b[2])) - max(min(a[0], a[2]), min(b[0], b[2])), 0)
    ix = max(min(max(a[1], a[3]), max(b[1], b[3])) - max(min(a[1], a[3]), min(b[1], b[3])), 0)
    inter = np.float32(iy) * np.float32(ix)
    return inter / (area_a + area_b - inter)


def _combined_kernel(boxes, scores, max_per_class, max_total, iou_threshold, score_threshold,
                     pad_per_class, clip_boxes):
    boxes, scores = np.asarray(boxes, np.float32), np.asarray(scores, np.float32)
    _check_combined(boxes, scores)
    batch, num_boxes, q, _ = boxes.shape
    num_classes = scores.shape[2]
    per_class, total = min(int(max_per_class), num_boxes), int(max_total)
    size = min(total, int(max_per_class) * num_classes) if pad_per_class else total
    out_boxes = np.zeros((batch, size, 4), np.float32)
    out_scores = np.zeros((batch, size), np.float32)
    out_classes = np.zeros((batch, size), np.float32)
    valid = np.zeros(batch, np.int32)
    for b in range(batch):
        found = []
        for c in range(num_classes):
            class_boxes = boxes[b, :, c if q > 1 else 0]
            found += [(s, i, c) for s, i in _class_nms(class_boxes, scores[b, :, c], per_class,
                                                       iou_threshold, score_threshold)]
        found.sort(key=lambda item: -item[0])   # stable: ties keep class, then rank order
        found = found[:min(len(found), size)]
        valid[b] = len(found)
        for k, (s, i, c) in enumerate(found):
            box = boxes[b, i, c if q > 1 else 0]
            out_boxes[b, k] = np.clip(box, 0, 1) if clip_boxes else box
            out_scores[b, k], out_classes[b, k] = s, c
    return out_boxes, out_scores, out_classes, valid


def _check_combined(boxes, scores):
    if boxes.ndim != 4 or boxes.shape[3] != 4:
        raise errors.InvalidArgumentError(f'boxes must be 4-D [batch_size, num_boxes, q, 4], '
                                          f'got shape {list(boxes.shape)}')
    if scores.ndim != 3 or scores.shape[:2] != boxes.shape[:2]:
        raise errors.InvalidArgumentError(f'scores must be 3-D [batch_size, num_boxes, '
                                          f'num_classes] matching boxes, got shape '
                                          f'{list(scores.shape)}')
    if boxes.shape[2] not in (1, scores.shape[2]):
        raise errors.InvalidArgumentError('third dimension of boxes must be either 1 or num '
                                          'classes')


def _combined_infer(boxes, scores, max_per_class, max_total, *rest, **attrs):
    b = dims(boxes)
    batch = None if b is None else b[0]
    return [(dtypes.float32, (batch, None, 4)), (dtypes.float32, (batch, None)),
            (dtypes.float32, (batch, None)), (dtypes.int32, (batch,))]


COMBINED_NMS = define_op('CombinedNonMaxSuppression', _combined_kernel, _combined_infer, None,
                         num_outputs=4)


def combined_non_max_suppression(boxes, scores, max_output_size_per_class, max_total_size,
                                 iou_threshold=0.5, score_threshold=float('-inf'),
                                 pad_per_class=False, clip_boxes=True, name=None):
    """Per-class greedy NMS over a batch, the survivors of all classes ranked by score: (boxes
    [batch, n, 4], scores [batch, n], classes [batch, n] (float), valid_detections [batch]),
    n = max_total_size (or fewer with `pad_per_class`), zero-padded."""
    op = 'combined_non_max_suppression'
    inputs = (to_tensor(boxes, dtype=dtypes.float32, name='boxes', op=op),
              to_tensor(scores, dtype=dtypes.float32, name='scores', op=op),
              to_tensor(max_output_size_per_class, dtype=dtypes.int32,
                        name='max_output_size_per_class', op=op),
              to_tensor(max_total_size, dtype=dtypes.int32, name='max_total_size', op=op),
              to_tensor(iou_threshold, dtype=dtypes.float32, name='iou_threshold', op=op),
              to_tensor(score_threshold, dtype=dtypes.float32, name='score_threshold', op=op))
    attrs = {'pad_per_class': bool(pad_per_class), 'clip_boxes': bool(clip_boxes)}
    return tuple(apply_op(COMBINED_NMS, inputs, attrs, name))
