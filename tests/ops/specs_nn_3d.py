"""Specs for the 3-D convolution and pooling ops (defun/ops/nn/conv3d.py, pool3d.py), with numpy
references written from TF's definitions: SAME/VALID geometry per dim, a loop over the filter's
taps (not im2col), pooling windows read one by one, adjoints built by finite construction.
MaxPool3D and its gradients take no float64 in TF, so their specs run in float32 on values
spaced apart (no ties); float32 differences of the projected sum are good to a few percent, so
their tolerance is 0.05, where a gradient routed to a wrong input is off by at least 0.5 (the
projection's weights are in [0.5, 1.5]). Their gradients are also checked against TF's in test_nn_window_tf.py."""
import itertools

import numpy as np

import defun as tf
from defun.core.dispatch import apply_op
from defun.ops.nn import conv3d as nn_conv3d, pool3d as nn_pool3d
from tests.ops.spec import Spec, rand


def _pads(size, k, stride, padding):
    if padding == 'VALID':
        return (size - k) // stride + 1, 0, 0
    out = -(-size // stride)
    total = max((out - 1) * stride + k - size, 0)
    return out, total // 2, total - total // 2


def _np_conv3d(x, w, stride=1, padding='VALID'):
    steps = (stride,) * 3 if isinstance(stride, int) else stride
    geo = [_pads(x.shape[i + 1], w.shape[i], steps[i], padding) for i in range(3)]
    xp = np.pad(x, [(0, 0)] + [(g[1], g[2]) for g in geo] + [(0, 0)])
    out = np.zeros((x.shape[0],) + tuple(g[0] for g in geo) + (w.shape[4],))
    for tap in itertools.product(*[range(k) for k in w.shape[:3]]):
        view = xp[(slice(None),) + tuple(slice(t, t + s * (g[0] - 1) + 1, s)
                                         for t, g, s in zip(tap, geo, steps))]
        out += view @ w[tap]
    return out


def _np_pool3d(x, k, stride, padding, reduce):
    geo = [_pads(x.shape[i + 1], k, stride, padding) for i in range(3)]
    out = np.zeros((x.shape[0],) + tuple(g[0] for g in geo) + (x.shape[4],), x.dtype)
    for pos in itertools.product(*[range(g[0]) for g in geo]):
        window = x[(slice(None),) + tuple(
            slice(max(p * stride - g[1], 0), p * stride - g[1] + k) for p, g in zip(pos, geo))]
        out[(slice(None),) + pos] = reduce(window, axis=(1, 2, 3))
    return out


def _adjoint(forward, out_shape, dy):
    """The x-gradient of sum(forward(x) * dy), one basis vector at a time."""
    result = np.zeros(out_shape)
    for idx in np.ndindex(*out_shape):
        basis = np.zeros(out_shape)
        basis[idx] = 1.0
        result[idx] = np.sum(forward(basis) * dy)
    return result.astype(np.asarray(dy).dtype)


def _spaced(*shape, seed=0):
    """Distinct float32 values 1e-4 apart around 0: no ties within the finite differences' steps
    (1e-6, 1e-5 for second order), and sums small enough that float32 resolves a step's change."""
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    return ((rng.permutation(n) - n // 2) * 1e-4).reshape(shape).astype(np.float32)


_CONV = {'strides': (2, 1, 2), 'padding': 'SAME', 'dilations': (1, 1, 1)}
_POOL = {'ksize': (2, 2, 2), 'strides': (1, 2, 1), 'padding': 'SAME'}
_X = _spaced(1, 3, 4, 3, 2)
_W = rand(2, 2, 3, 2, 3, seed=1)

SPECS = [
    Spec('Conv3D', lambda x, w: tf.nn.conv3d(x, w, [1, 1, 1, 1, 1], 'VALID'),
         [rand(2, 3, 4, 3, 2), rand(2, 2, 2, 2, 3)], _np_conv3d),
    Spec('Conv3D', lambda x, w: tf.nn.conv3d(x, w, [1, 2, 1, 2, 1], 'SAME'),
         [rand(1, 3, 3, 4, 2), rand(2, 2, 3, 2, 2)],
         lambda x, w: _np_conv3d(x, w, (2, 1, 2), 'SAME'), id='same-strided'),
    Spec('Conv3D', lambda x, w: tf.nn.convolution(x, w, padding='SAME'),
         [rand(1, 3, 2, 3, 1), rand(3, 2, 2, 1, 2)], lambda x, w: _np_conv3d(x, w, 1, 'SAME'),
         id='convolution'),
    Spec('Conv3DBackpropInputV2',
         lambda dy, w: tf.nn.conv3d_transpose(dy, w, [1, 3, 4, 3, 2], [1, 2, 1, 2, 1], 'SAME'),
         [rand(1, 2, 4, 2, 3), rand(2, 3, 2, 2, 3)],
         lambda dy, w: _adjoint(lambda x: _np_conv3d(x, w, (2, 1, 2), 'SAME'), (1, 3, 4, 3, 2),
                                dy)),
    Spec('Conv3DBackpropFilterV2', lambda x, dy: apply_op(
        nn_conv3d.CONV3D_BACKPROP_FILTER, (x, tf.constant([2, 2, 3, 2, 3]), dy), _CONV),
        [rand(1, 3, 4, 3, 2), rand(1, 2, 4, 2, 3)],
        lambda x, dy: _adjoint(lambda w: _np_conv3d(x, w, (2, 1, 2), 'SAME'), (2, 2, 3, 2, 3),
                               dy)),
    Spec('MaxPool3D', lambda x: tf.nn.max_pool3d(x, 2, 1, 'VALID'), [_spaced(2, 3, 4, 3, 2)],
         lambda x: _np_pool3d(x, 2, 1, 'VALID', np.max), grad_tol=0.05),
    Spec('MaxPool3D', lambda x: tf.nn.max_pool(x, 3, 2, 'SAME'), [_spaced(1, 4, 3, 5, 2, seed=1)],
         lambda x: _np_pool3d(x, 3, 2, 'SAME', np.max), grad_tol=0.05, id='same'),
    Spec('MaxPool3DGrad', lambda g: apply_op(nn_pool3d.MAX_POOL3D_GRAD, (
        tf.constant(_X), apply_op(nn_pool3d.MAX_POOL3D, (tf.constant(_X),), _POOL), g), _POOL),
        [_spaced(1, 3, 2, 3, 2, seed=2)], None, grad_tol=0.05),
    Spec('MaxPool3DGradGrad', lambda gg: apply_op(nn_pool3d.MAX_POOL3D_GRAD_GRAD, (
        tf.constant(_X), apply_op(nn_pool3d.MAX_POOL3D, (tf.constant(_X),), _POOL), gg), _POOL),
        [_spaced(1, 3, 4, 3, 2, seed=3)], None, grad_tol=0.05),
    Spec('AvgPool3D', lambda x: tf.nn.avg_pool3d(x, 2, 2, 'SAME'), [_spaced(2, 3, 4, 5, 2, seed=4)],
         lambda x: _np_pool3d(x, 2, 2, 'SAME', np.mean), grad_tol=0.05),
    Spec('AvgPool3D', lambda x: tf.nn.pool(x, [2, 1, 3], 'AVG', padding='VALID'),
         [_spaced(1, 3, 2, 4, 2, seed=5)], None, grad_tol=0.05, id='pool'),
    Spec('AvgPool3DGrad', lambda g: apply_op(nn_pool3d.AVG_POOL3D_GRAD, (
        tf.constant([1, 3, 4, 3, 2]), g), _POOL), [_spaced(1, 3, 2, 3, 2, seed=6)],
        lambda g: _adjoint(lambda x: _np_pool3d(x, 2, 1, 'SAME', np.mean)[:, :, ::2], (
            1, 3, 4, 3, 2), g), grad_tol=0.05),
]
