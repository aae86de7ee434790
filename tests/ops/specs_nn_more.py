"""Specs for defun/ops/nn/compositions.py, clip_ops.py and the scatter extrema of gathering.py, with numpy
references written independently (direct loops for the convolutions, via specs_nn's reference)."""
import numpy as np

import defun as tf
from tests.ops.spec import Spec, ints, positive, rand
from tests.ops.specs_nn import _away_from_kinks, _np_conv

_SELU = (1.6732632423543772848170429916717, 1.0507009873554804934193349852946)


def _np_selu(x):
    alpha, scale = _SELU
    return scale * np.where(x > 0, x, alpha * np.expm1(np.minimum(x, 0)))


def _np_depthwise(x, w, stride=1, padding='VALID', dilation=1):
    kh, kw, c, m = w.shape
    outs = [_np_conv(x[..., i:i + 1], w[:, :, i:i + 1, :], stride, padding, dilation)
            for i in range(c)]
    return np.concatenate(outs, axis=-1)


def _np_conv_transpose(dy, w, out_shape, stride, padding):
    """The adjoint of conv2d: the x-gradient of sum(conv2d(x, w) * dy), by finite construction."""
    n, h, wd, c = out_shape
    result = np.zeros(out_shape)
    for idx in np.ndindex(*out_shape):
        basis = np.zeros(out_shape)
        basis[idx] = 1.0
        result[idx] = np.sum(_np_conv(basis, w, stride, padding) * dy)
    return result


def _np_scatter(ufunc):
    def reference(x, indices, updates):
        out = x.copy()
        ufunc.at(out, tuple(indices.T), updates)
        return out
    return reference


def _np_clip_by_norm(t, c, axes=None):
    norm = np.sqrt(np.sum(t * t, axis=axes, keepdims=True))
    return t * c / np.maximum(norm, c)


def _np_global_clip(a, b, c):
    norm = np.sqrt(np.sum(a * a) + np.sum(b * b))
    scale = c * min(1 / norm, 1 / c)
    return a * scale, b * scale, norm


_IDX = np.array([[0, 1], [2, 0], [0, 1]], np.int32)   # a duplicate index, to exercise ties


def _distinct(*shape, seed=0):
    """Values far apart, so that no update ties its target and min/max are smooth there."""
    rng = np.random.default_rng(seed)
    return rng.permutation(np.prod(shape)).reshape(shape) * 0.37 - 2.0


SPECS = [
    Spec('Softsign', tf.nn.softsign, [_away_from_kinks(3, 4)], lambda x: x / (1 + np.abs(x))),
    Spec('Softsign', tf.math.softsign, [rand(5)], lambda x: x / (1 + np.abs(x)), id='math',
         second_order=False),
    Spec('Selu', tf.nn.selu, [_away_from_kinks(3, 4)], _np_selu),
    Spec('Rsqrt', lambda x: tf.nn.l2_normalize(x, axis=-1), [rand(2, 3)],
         lambda x: x / np.sqrt(np.sum(x * x, -1, keepdims=True)), id='l2_normalize'),
    Spec('GatherV2', lambda p: tf.nn.embedding_lookup(p, [[2, 0], [1, 1]]), [rand(4, 3)],
         lambda p: p[[[2, 0], [1, 1]]], id='embedding_lookup'),
    Spec('GatherV2', lambda a, b: tf.nn.embedding_lookup([a, b], [3, 0, 2]),
         [rand(2, 2), rand(2, 2, seed=1)],
         lambda a, b: np.stack([a, b], 1).reshape(4, 2)[[3, 0, 2]], id='embedding-partitioned'),
    Spec('GatherV2', lambda p: tf.nn.embedding_lookup(p, [0, 1], max_norm=1.0),
         [np.array([[3.0, 4.0], [0.3, 0.4]])], lambda p: np.array([[0.6, 0.8], [0.3, 0.4]]),
         id='embedding-max-norm'),
    Spec('Conv2D', lambda x, w: tf.nn.conv1d(x, w, 2, 'SAME'), [rand(2, 7, 2), rand(3, 2, 3)],
         lambda x, w: _np_conv(x[:, None], w[None], 2, 'SAME')[:, 0], id='conv1d'),
    Spec('Conv2D', lambda x, w: tf.nn.conv1d(x, w, 1, 'VALID', dilations=2),
         [rand(1, 7, 1), rand(2, 1, 2)],
         lambda x, w: _np_conv(x[:, None], w[None], 1, 'VALID', 2)[:, 0], id='conv1d-dilated'),
    Spec('Conv2D', lambda x, w: tf.nn.depthwise_conv2d(x, w, [1, 1, 1, 1], 'VALID'),
         [rand(1, 4, 4, 2), rand(2, 2, 2, 2)], _np_depthwise, id='depthwise'),
    Spec('Conv2D', lambda x, w: tf.nn.depthwise_conv2d(x, w, [1, 2, 2, 1], 'SAME'),
         [rand(2, 5, 4, 3), rand(3, 2, 3, 1)], lambda x, w: _np_depthwise(x, w, 2, 'SAME'),
         id='depthwise-same-s2'),
    Spec('Conv2DBackpropInput',
         lambda dy, w: tf.nn.conv2d_transpose(dy, w, [1, 4, 4, 2], 2, 'SAME'),
         [rand(1, 2, 2, 3), rand(3, 3, 2, 3)],
         lambda dy, w: _np_conv_transpose(dy, w, (1, 4, 4, 2), 2, 'SAME'), id='transpose'),
    Spec('Conv2DBackpropInput',
         lambda dy, w: tf.nn.conv2d_transpose(dy, w, [1, 5, 5, 1], 2, 'VALID'),
         [rand(1, 2, 2, 2), rand(3, 3, 1, 2)],
         lambda dy, w: _np_conv_transpose(dy, w, (1, 5, 5, 1), 2, 'VALID'), id='transpose-valid'),
    Spec('ConcatV2', tf.nn.crelu, [_away_from_kinks(2, 3)],
         lambda x: np.concatenate([np.maximum(x, 0), np.maximum(-x, 0)], -1), id='crelu'),
    Spec('MaxPool', lambda x: tf.nn.max_pool1d(x, 2, 2, 'VALID'), [_distinct(2, 6, 2)],
         lambda x: x.reshape(2, 3, 2, 2).max(axis=2), id='max_pool1d'),
    Spec('AvgPool', lambda x: tf.nn.avg_pool1d(x, 3, 1, 'VALID'), [rand(1, 5, 2)],
         lambda x: np.stack([x[:, i:i + 3].mean(1) for i in range(3)], 1), id='avg_pool1d'),
    Spec('Conv2D', lambda x, d, p: tf.nn.separable_conv2d(x, d, p, [1, 1, 1, 1], 'VALID'),
         [rand(1, 4, 4, 2), rand(2, 2, 2, 2), rand(1, 1, 4, 3)],
         lambda x, d, p: _np_conv(_np_depthwise(x, d), p), id='separable'),
    Spec('Transpose', lambda x: tf.nn.space_to_depth(x, 2), [rand(1, 4, 6, 2)],
         lambda x: x.reshape(1, 2, 2, 3, 2, 2).transpose(0, 1, 3, 2, 4, 5).reshape(1, 2, 3, 8),
         id='space_to_depth'),
    Spec('Transpose', lambda x: tf.nn.depth_to_space(x, 2), [rand(1, 2, 3, 8)],
         lambda x: x.reshape(1, 2, 3, 2, 2, 2).transpose(0, 1, 3, 2, 4, 5).reshape(1, 4, 6, 2),
         id='depth_to_space'),
    Spec('TensorScatterMax', lambda x, u: tf.tensor_scatter_nd_max(x, _IDX, u),
         [_distinct(3, 2), _distinct(3, seed=1) + 0.1],
         lambda x, u: _np_scatter(np.maximum)(x, _IDX, u)),
    Spec('TensorScatterMin', lambda x, u: tf.tensor_scatter_nd_min(x, _IDX, u),
         [_distinct(3, 2), _distinct(3, seed=1) + 0.1],
         lambda x, u: _np_scatter(np.minimum)(x, _IDX, u)),
    Spec('TensorScatterMin', lambda x, u: tf.tensor_scatter_nd_min(x, _IDX, u),
         [ints(3, 2), ints(3)], lambda x, u: _np_scatter(np.minimum)(x, _IDX, u), id='int'),
    Spec('EuclideanNorm', tf.math.reduce_euclidean_norm, [rand(2, 3)],
         lambda x: np.sqrt(np.sum(x * x))),
    Spec('EuclideanNorm', lambda x: tf.math.reduce_euclidean_norm(x, axis=1, keepdims=True),
         [rand(2, 3)], lambda x: np.sqrt(np.sum(x * x, 1, keepdims=True)), id='axis'),
    Spec('EuclideanNorm', lambda x: tf.math.reduce_euclidean_norm(x, 0), [ints(3, 2)],
         lambda x: np.sqrt(np.sum(x.astype(float) ** 2, 0)).astype(np.int32), id='int'),
    Spec('SelectV2', lambda t: tf.clip_by_norm(t, 1.5), [rand(2, 3)],
         lambda t: _np_clip_by_norm(t, 1.5), id='clip_by_norm'),
    Spec('SelectV2', lambda t: tf.clip_by_norm(t, 1.0, axes=[1]), [rand(3, 2)],
         lambda t: _np_clip_by_norm(t, 1.0, 1), id='clip_by_norm-axes'),
    Spec('L2Loss', lambda a, b: tf.linalg.global_norm([a, None, b]), [rand(2, 2), rand(3)],
         lambda a, b: np.sqrt(np.sum(a * a) + np.sum(b * b)), id='global_norm'),
    Spec('L2Loss', lambda a, b: tf.nest.flatten(tf.clip_by_global_norm([a, b], 1.0)),
         [rand(2, 2), rand(3)], lambda a, b: list(_np_global_clip(a, b, 1.0)),
         id='clip_by_global_norm'),
    Spec('Less', lambda n: tf.sequence_mask(n, 4), [np.array([1, 3, 0], np.int32)],
         lambda n: np.arange(4) < n[:, None], id='sequence_mask'),
    Spec('Less', lambda n: tf.sequence_mask(n, dtype=tf.float32), [np.array([[1, 2]], np.int64)],
         lambda n: (np.arange(2) < n[..., None]).astype(np.float32), id='sequence_mask-default'),
    Spec('BroadcastTo', lambda x, y: tf.meshgrid(x, y), [rand(3), positive(2)],
         lambda x, y: np.meshgrid(x, y), id='meshgrid'),
    Spec('BroadcastTo', lambda x, y, z: tf.meshgrid(x, y, z, indexing='ij'),
         [rand(2), rand(3), rand(4)], lambda x, y, z: np.meshgrid(x, y, z, indexing='ij'),
         id='meshgrid-ij'),
]


# TF 2.21: the non-increasing fit of [3, 1, 2, 5] pools [1, 2, 5] to 8/3; of [9, 4, 6, 1], [4, 6]
SPECS += [
    Spec('IsotonicRegression', lambda x: tf.nn.isotonic_regression(x)[0],
         [np.array([[3., 1., 2., 5.], [9., 4., 6., 1.]])],
         lambda x: np.array([[3., 8 / 3, 8 / 3, 8 / 3], [9., 5., 5., 1.]])),
]
