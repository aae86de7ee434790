"""Specs for the nn ops (defun/ops/nn/activations.py, nn_conv.py) and the debugging ops (defun/ops/debugging/debug.py),
with numpy references written independently of the kernels (direct loops for convolution)."""

import numpy as np

import defun as tf
from defun.core.dispatch import apply_op
from defun.ops.nn import activations as nn, conv as nn_conv
from tests.ops.spec import positive, Spec, rand


def _away_from_kinks(*shape, seed=0):
    """Values not within finite-difference reach of 0 (or 6) so piecewise ops are smooth there."""
    x = rand(*shape, low=-4.0, high=8.0, seed=seed)
    x[np.abs(x) < 0.05] += 0.1
    x[np.abs(x - 6) < 0.05] += 0.1
    return x


def _np_softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _np_conv(x, w, stride=1, padding='VALID', dilation=1):
    n, h, wd, c = x.shape
    kh, kw, _, o = w.shape
    ekh, ekw = (kh - 1) * dilation + 1, (kw - 1) * dilation + 1
    if padding == 'SAME':
        oh, ow = -(-h // stride), -(-wd // stride)
        ph = max((oh - 1) * stride + ekh - h, 0)
        pw = max((ow - 1) * stride + ekw - wd, 0)
        x = np.pad(x, ((0, 0), (ph // 2, ph - ph // 2), (pw // 2, pw - pw // 2), (0, 0)))
    else:
        oh, ow = (h - ekh) // stride + 1, (wd - ekw) // stride + 1
    out = np.zeros((n, oh, ow, o), x.dtype)
    for a in range(oh):
        for b in range(ow):
            for i in range(kh):
                for j in range(kw):
                    out[:, a, b, :] += x[:, a * stride + i * dilation,
                                         b * stride + j * dilation, :] @ w[i, j]
    return out


def _np_pool(x, k, stride, padding, reduce):
    n, h, w, c = x.shape
    if padding == 'SAME':
        oh, ow = -(-h // stride), -(-w // stride)
        ph, pw = max((oh - 1) * stride + k - h, 0), max((ow - 1) * stride + k - w, 0)
        top, left = ph // 2, pw // 2
    else:
        oh, ow, top, left = (h - k) // stride + 1, (w - k) // stride + 1, 0, 0
    out = np.zeros((n, oh, ow, c), x.dtype)
    for a in range(oh):
        for b in range(ow):
            r0, c0 = a * stride - top, b * stride - left
            window = x[:, max(r0, 0):r0 + k, max(c0, 0):c0 + k, :]
            out[:, a, b, :] = reduce(window, axis=(1, 2))
    return out


def _grad_of(op, attrs, *fixed):
    return lambda *xs: apply_op(op, tuple(fixed) + xs, attrs)


def _printed(x):
    tf.print('value:', x, output_stream='file:///dev/null')
    return tf.identity(x)


def _asserted(x):
    tf.debugging.Assert(tf.constant(True), [x])
    return tf.identity(x)


_CONV = {'strides': (1, 1), 'padding': 'SAME', 'dilations': (1, 1)}
_POOL = {'ksize': (2, 2), 'strides': (1, 1), 'padding': 'VALID'}
_IMG = np.random.default_rng(3).permutation(2 * 4 * 5 * 2).reshape(2, 4, 5, 2) * 0.1 - 3.0

SPECS = [
    Spec('Relu', tf.nn.relu, [_away_from_kinks(3, 4)], lambda x: np.maximum(x, 0)),
    Spec('Relu', tf.nn.relu, [np.array([-2, 0, 3], np.int32)], lambda x: np.maximum(x, 0),
         id='int'),
    Spec('ReluGrad', nn.relu_grad, [rand(5), _away_from_kinks(5)], lambda g, y: g * (y > 0)),
    Spec('Relu6', tf.nn.relu6, [_away_from_kinks(3, 4)], lambda x: np.clip(x, 0, 6)),
    Spec('Relu6Grad', _grad_of(nn.RELU6_GRAD, None), [rand(6), _away_from_kinks(6)],
         lambda g, x: g * ((x > 0) & (x < 6))),
    Spec('Elu', tf.nn.elu, [_away_from_kinks(3, 4)],
         lambda x: np.where(x > 0, x, np.expm1(np.minimum(x, 0)))),
    Spec('EluGrad', _grad_of(nn.ELU_GRAD, None), [rand(5), _away_from_kinks(5)],
         lambda g, y: np.where(y > 0, g, g * (y + 1))),
    Spec('LeakyRelu', lambda x: tf.nn.leaky_relu(x, alpha=0.1), [_away_from_kinks(3, 4)],
         lambda x: np.where(x > 0, x, 0.1 * x)),
    Spec('LeakyReluGrad', _grad_of(nn.LEAKY_RELU_GRAD, {'alpha': 0.3}),
         [rand(5), _away_from_kinks(5)], lambda g, x: np.where(x > 0, g, 0.3 * g)),
    Spec('Softmax', tf.nn.softmax, [rand(3, 4)], _np_softmax),
    Spec('Softmax', lambda x: tf.nn.softmax(x, axis=0), [rand(3, 4)],
         lambda x: _np_softmax(x, 0), id='axis0'),
    Spec('LogSoftmax', tf.nn.log_softmax, [rand(3, 4)], lambda x: np.log(_np_softmax(x))),
    Spec('SoftmaxCrossEntropyWithLogits',
         lambda z, x: tf.nn.softmax_cross_entropy_with_logits(labels=z, logits=x),
         [positive(3, 4), rand(3, 4)],
         lambda z, x: -np.sum(z * np.log(_np_softmax(x)), axis=-1)),
    Spec('SparseSoftmaxCrossEntropyWithLogits',
         lambda x: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[3, 0, 2], logits=x),
         [rand(3, 4)], lambda x: -np.log(_np_softmax(x))[np.arange(3), [3, 0, 2]]),
    Spec('SparseSoftmaxCrossEntropyWithLogits',
         lambda x: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[[1, 0], [2, 2]], logits=x),
         [rand(2, 2, 3)],
         lambda x: -np.log(np.take_along_axis(_np_softmax(x), np.array([[[1], [0]], [[2], [2]]]),
                                              -1)[..., 0]), id='rank3'),
    Spec('L2Loss', tf.nn.l2_loss, [rand(3, 4)], lambda x: np.sum(x * x) / 2),
    Spec('BiasAdd', tf.nn.bias_add, [rand(2, 3, 4), rand(4)], lambda x, b: x + b),
    Spec('BiasAdd', lambda x, b: tf.nn.bias_add(x, b, data_format='NCHW'),
         [rand(2, 3, 2, 2), rand(3)], lambda x, b: x + b[:, None, None], id='NCHW'),
    Spec('BiasAdd', lambda x, b: tf.nn.bias_add(x, b, data_format='NC...'),
         [rand(2, 3, 2), rand(3)], lambda x, b: x + b[:, None], id='NC...'),
    Spec('Conv2D', lambda x, w: tf.nn.conv2d(x, w, 1, 'VALID'), [rand(2, 4, 5, 2), rand(2, 3, 2, 3)],
         _np_conv),
    Spec('Conv2D', lambda x, w: tf.nn.conv2d(x, w, 2, 'SAME'), [rand(1, 5, 4, 2), rand(3, 2, 2, 2)],
         lambda x, w: _np_conv(x, w, 2, 'SAME'), id='same-s2'),
    Spec('Conv2D', lambda x, w: tf.nn.conv2d(x, w, 1, 'SAME', dilations=2),
         [rand(1, 5, 5, 1), rand(2, 2, 1, 2)], lambda x, w: _np_conv(x, w, 1, 'SAME', 2),
         id='dilated'),
    Spec('Conv2DBackpropInput', _grad_of(nn_conv.CONV2D_BACKPROP_INPUT, _CONV,
                                         tf.constant([1, 4, 3, 2])),
         [rand(2, 2, 2, 3), rand(1, 4, 3, 3)], None),
    Spec('Conv2DBackpropFilter', lambda x, dy: apply_op(
        nn_conv.CONV2D_BACKPROP_FILTER, (x, tf.constant([2, 2, 2, 3]), dy), _CONV),
        [rand(1, 4, 3, 2), rand(1, 4, 3, 3)], None),
    Spec('MaxPool', lambda x: tf.nn.max_pool2d(x, 2, 2, 'VALID'), [_IMG],
         lambda x: _np_pool(x, 2, 2, 'VALID', np.max)),
    Spec('MaxPool', lambda x: tf.nn.max_pool(x, [1, 3, 3, 1], [1, 2, 2, 1], 'SAME'), [_IMG],
         lambda x: _np_pool(x, 3, 2, 'SAME', np.max), id='same'),
    Spec('MaxPoolGrad', lambda g: apply_op(nn_conv.MAX_POOL_GRAD, (
        tf.constant(_IMG), tf.nn.max_pool2d(_IMG, 2, 1, 'VALID'), g), _POOL),
        [rand(2, 3, 4, 2)], None),
    Spec('MaxPoolGradGrad', lambda g: apply_op(nn_conv.MAX_POOL_GRAD_GRAD, (
        tf.constant(_IMG), tf.nn.max_pool2d(_IMG, 2, 1, 'VALID'), g), _POOL),
        [rand(2, 4, 5, 2)], None),
    Spec('AvgPool', lambda x: tf.nn.avg_pool2d(x, 3, 2, 'SAME'), [rand(2, 4, 5, 2)],
         lambda x: _np_pool(x, 3, 2, 'SAME', np.mean)),
    Spec('AvgPool', lambda x: tf.nn.avg_pool(x, 2, 1, 'VALID'), [rand(1, 3, 3, 1)],
         lambda x: _np_pool(x, 2, 1, 'VALID', np.mean), id='valid'),
    Spec('AvgPoolGrad', lambda g: apply_op(nn_conv.AVG_POOL_GRAD, (tf.constant([2, 4, 5, 2]), g),
                                           {**_POOL, 'padding': 'SAME'}),
         [rand(2, 4, 5, 2)], None),
    Spec('CheckNumerics', lambda x: tf.debugging.check_numerics(x, 'finite'), [rand(3)],
         lambda x: x),
    Spec('PrintV2', _printed, [rand(3)], lambda x: x, grad=False),
    Spec('Assert', _asserted, [rand(3)], lambda x: x, grad=False),
]

