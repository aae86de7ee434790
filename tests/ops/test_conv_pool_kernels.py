"""The fast conv2d / pooling kernels (im2col over strided views, col2im, disjoint-window paths)
against naive references written here from TF's definitions: a loop over output positions and filter
taps, TF's SAME/VALID geometry, max pooling's gradient going to the first maximum of each window, and
average pooling counting only the positions inside the input. Odd sizes, strides larger and smaller
than the window, dilations, few and many channels (the kernels' two im2col layouts), float64 so that
the comparison is tight."""
import itertools

import numpy as np
import pytest

import defun as tf
from defun.core.dispatch import apply_op
from defun.ops.nn import conv as nn_conv


def _geometry(size, k, stride, dilation, padding):
    """(output size, padding before) of one spatial dim, per TF's documented SAME/VALID rules."""
    eff = (k - 1) * dilation + 1
    if padding == 'VALID':
        return (size - eff) // stride + 1, 0
    out = -(-size // stride)
    return out, max((out - 1) * stride + eff - size, 0) // 2


def _windows(x_shape, k_shape, strides, dilations, padding):
    """Yields (a, b, i, j, r, q): output (a, b) reads input (r, q) through tap (i, j)."""
    oh, top = _geometry(x_shape[1], k_shape[0], strides[0], dilations[0], padding)
    ow, left = _geometry(x_shape[2], k_shape[1], strides[1], dilations[1], padding)
    for a, b, i, j in itertools.product(range(oh), range(ow), range(k_shape[0]), range(k_shape[1])):
        r, q = a * strides[0] - top + i * dilations[0], b * strides[1] - left + j * dilations[1]
        if 0 <= r < x_shape[1] and 0 <= q < x_shape[2]:
            yield a, b, i, j, r, q


def _out_shape(x_shape, k_shape, strides, dilations, padding, depth):
    return (x_shape[0], _geometry(x_shape[1], k_shape[0], strides[0], dilations[0], padding)[0],
            _geometry(x_shape[2], k_shape[1], strides[1], dilations[1], padding)[0], depth)


def ref_conv(x, w, strides, dilations, padding):
    out = np.zeros(_out_shape(x.shape, w.shape, strides, dilations, padding, w.shape[3]))
    for a, b, i, j, r, q in _windows(x.shape, w.shape, strides, dilations, padding):
        out[:, a, b] += x[:, r, q] @ w[i, j]
    return out


def ref_conv_grads(x, w, dy, strides, dilations, padding):
    dx, dw = np.zeros_like(x), np.zeros_like(w)
    for a, b, i, j, r, q in _windows(x.shape, w.shape, strides, dilations, padding):
        dx[:, r, q] += dy[:, a, b] @ w[i, j].T
        dw[i, j] += x[:, r, q].T @ dy[:, a, b]
    return dx, dw


def ref_pool(x, k, strides, padding, kind, g=None):
    """max/avg pooling, or with g its gradient (first maximum / share of the inside positions)."""
    shape = _out_shape(x.shape, k, strides, (1, 1), padding, x.shape[3])
    taps = {}
    for a, b, i, j, r, q in _windows(x.shape, k, strides, (1, 1), padding):
        taps.setdefault((a, b), []).append((r, q))
    out, dx = np.zeros(shape), np.zeros_like(x)
    for (a, b), where in taps.items():
        values = np.stack([x[:, r, q] for r, q in where])            # [taps, N, C]
        if kind == 'max':
            out[:, a, b] = values.max(0)
            first = values.argmax(0)                                  # first maximum, row-major
            for t, (r, q) in enumerate(where):
                if g is not None:
                    dx[:, r, q] += np.where(first == t, g[:, a, b], 0)
        else:
            out[:, a, b] = values.mean(0)
            for r, q in where:
                if g is not None:
                    dx[:, r, q] += g[:, a, b] / len(where)
    return dx if g is not None else out


CONV_CASES = [  # (x shape, filter shape, strides, dilations, padding)
    ((2, 7, 5, 1), (3, 3, 1, 4), (1, 1), (1, 1), 'SAME'),
    ((1, 7, 6, 3), (2, 3, 3, 2), (2, 3), (1, 1), 'SAME'),
    ((2, 8, 9, 5), (3, 2, 5, 3), (2, 2), (1, 1), 'VALID'),
    ((1, 9, 7, 6), (3, 3, 6, 2), (1, 1), (2, 3), 'SAME'),
    ((1, 9, 8, 2), (2, 2, 2, 3), (1, 1), (3, 2), 'VALID'),
    ((2, 7, 7, 4), (2, 2, 4, 2), (3, 3), (1, 1), 'VALID'),    # disjoint windows, unread rows
    ((1, 6, 6, 1), (2, 2, 1, 2), (2, 2), (1, 1), 'SAME'),     # disjoint windows tiling the input
    ((1, 5, 5, 8), (1, 1, 8, 3), (1, 1), (1, 1), 'VALID'),    # 1x1 convolution
    ((1, 3, 4, 2), (5, 4, 2, 1), (1, 2), (1, 1), 'SAME'),     # filter larger than the input
]


@pytest.mark.parametrize('x_shape, w_shape, strides, dilations, padding', CONV_CASES)
def test_conv2d_and_its_backprops_match_the_naive_loops(x_shape, w_shape, strides, dilations,
                                                         padding):
    rng = np.random.default_rng(sum(x_shape) + sum(w_shape))
    x, w = rng.standard_normal(x_shape), rng.standard_normal(w_shape)
    attrs = {'strides': strides, 'padding': padding, 'dilations': dilations}
    y = tf.nn.conv2d(x, w, strides, padding, dilations=dilations)
    np.testing.assert_allclose(y.numpy(), ref_conv(x, w, strides, dilations, padding), rtol=1e-10,
                               atol=1e-12)
    dy = rng.standard_normal(y.shape)
    dx = apply_op(nn_conv.CONV2D_BACKPROP_INPUT, (tf.constant(x_shape), tf.constant(w), tf.constant(dy)),
                  attrs)
    dw = apply_op(nn_conv.CONV2D_BACKPROP_FILTER, (tf.constant(x), tf.constant(w_shape),
                                                       tf.constant(dy)), attrs)
    ref_dx, ref_dw = ref_conv_grads(x, w, dy, strides, dilations, padding)
    np.testing.assert_allclose(dx.numpy(), ref_dx, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(dw.numpy(), ref_dw, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize('dtype', [np.float16, np.float32])
def test_conv2d_kernels_keep_the_dtype(dtype):
    x, w = np.ones((1, 5, 5, 2), dtype), np.ones((3, 3, 2, 3), dtype)
    attrs = {'strides': (1, 1), 'padding': 'SAME', 'dilations': (1, 1)}
    y = tf.nn.conv2d(x, w, 1, 'SAME')
    dx = apply_op(nn_conv.CONV2D_BACKPROP_INPUT, (tf.constant([1, 5, 5, 2]), tf.constant(w), y),
                  attrs)
    dw = apply_op(nn_conv.CONV2D_BACKPROP_FILTER, (tf.constant(x), tf.constant([3, 3, 2, 3]), y),
                  attrs)
    assert y.numpy().dtype == dx.numpy().dtype == dw.numpy().dtype == dtype
    assert y.numpy()[0, 2, 2, 0] == 18 and y.numpy()[0, 0, 0, 0] == 8   # all 9 taps vs a corner


def test_empty_batch_convolves_to_empty():
    y = tf.nn.conv2d(np.zeros((0, 4, 4, 3), np.float32), np.ones((2, 2, 3, 5), np.float32), 1,
                     'SAME')
    assert y.shape == (0, 4, 4, 5)


POOL_CASES = [  # (x shape, ksize, strides, padding)
    ((2, 8, 8, 3), (2, 2), (2, 2), 'VALID'),
    ((1, 7, 5, 2), (2, 2), (2, 2), 'SAME'),
    ((1, 7, 6, 4), (3, 3), (2, 2), 'SAME'),       # overlapping windows
    ((2, 6, 7, 1), (3, 2), (1, 3), 'VALID'),
    ((1, 7, 7, 2), (2, 2), (3, 3), 'VALID'),      # gaps between windows
    ((1, 5, 4, 3), (5, 4), (1, 1), 'SAME'),
]


@pytest.mark.parametrize('x_shape, ksize, strides, padding', POOL_CASES)
@pytest.mark.parametrize('kind', ['max', 'avg'])
def test_pooling_and_its_gradient_match_the_naive_loops(x_shape, ksize, strides, padding, kind):
    rng = np.random.default_rng(sum(x_shape))
    x = rng.standard_normal(x_shape)
    x[..., 0] = np.round(x[..., 0])            # ties: the first maximum takes the gradient
    pool = tf.nn.max_pool2d if kind == 'max' else tf.nn.avg_pool2d
    y = pool(x, ksize, strides, padding)
    np.testing.assert_allclose(y.numpy(), ref_pool(x, ksize, strides, padding, kind), rtol=1e-12)
    g = rng.standard_normal(y.shape)
    attrs = {'ksize': ksize, 'strides': strides, 'padding': padding}
    if kind == 'max':
        dx = apply_op(nn_conv.MAX_POOL_GRAD, (tf.constant(x), y, tf.constant(g)), attrs)
    else:
        dx = apply_op(nn_conv.AVG_POOL_GRAD, (tf.constant(x_shape), tf.constant(g)), attrs)
    np.testing.assert_allclose(dx.numpy(), ref_pool(x, ksize, strides, padding, kind, g),
                               rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize('x_shape, ksize, strides, padding', POOL_CASES)
def test_max_pool_grad_grad_picks_the_gradient_at_the_first_maximum(x_shape, ksize, strides,
                                                                    padding):
    rng = np.random.default_rng(sum(x_shape) + 1)
    x = np.round(rng.standard_normal(x_shape) * 2)        # many ties
    y = tf.nn.max_pool2d(x, ksize, strides, padding)
    gg = rng.standard_normal(x_shape)
    attrs = {'ksize': ksize, 'strides': strides, 'padding': padding}
    out = apply_op(nn_conv.MAX_POOL_GRAD_GRAD, (tf.constant(x), y, tf.constant(gg)), attrs).numpy()
    # <MaxPoolGrad(g), gg> = <g, MaxPoolGradGrad(gg)> for every g: the two are adjoint.
    g = rng.standard_normal(y.shape)
    np.testing.assert_allclose(np.sum(ref_pool(x, ksize, strides, padding, 'max', g) * gg),
                               np.sum(g * out), rtol=1e-10)


def test_integer_max_pool_pads_with_the_lowest_value():
    x = np.full((1, 3, 3, 1), -5, np.int32)
    y = tf.nn.max_pool2d(x, 2, 2, 'SAME').numpy()
    assert y.dtype == np.int32 and (y == -5).all()


NAN, INF = float('nan'), float('inf')


def test_max_pool_ignores_nan_and_starts_from_the_lowest_finite_value():
    # Values recorded from TF 2.21: NaN and -inf never win a window; a window of only those
    # gives the dtype's lowest finite value (-inf for half).
    x = np.array([NAN, 2, 4, 3], np.float32).reshape(1, 2, 2, 1)
    assert tf.nn.max_pool2d(x, 2, 2, 'VALID').numpy().ravel().tolist() == [4.0]
    for dtype, lowest in [(np.float32, np.finfo(np.float32).min),
                          (np.float64, np.finfo(np.float64).min), (np.float16, -np.inf)]:
        y = tf.nn.max_pool2d(np.full((1, 2, 2, 1), NAN, dtype), 2, 2, 'VALID').numpy()
        assert y.dtype == dtype and y.ravel().tolist() == [lowest]
    y = tf.nn.max_pool2d(np.full((1, 2, 2, 1), -INF, np.float32), 2, 2, 'VALID').numpy()
    assert y.ravel().tolist() == [np.finfo(np.float32).min]
    x = np.array([NAN, 1, 2, NAN], np.float32).reshape(1, 2, 2, 1)
    y = tf.nn.max_pool2d(x, 2, 1, 'SAME').numpy().ravel()
    assert y.tolist() == [2.0, 1.0, 2.0, np.finfo(np.float32).min]


def test_max_pool_grad_follows_the_argmax_scan_of_the_input():
    # As TF's kernel (values recorded from TF 2.21): the window's first element, replaced only by
    # a later, strictly greater one; orig_output is not consulted.
    attrs = {'ksize': (2, 2), 'strides': (2, 2), 'padding': 'VALID'}
    g = tf.constant(np.full((1, 1, 1, 1), 10, np.float32))

    def grad(values, y):
        x = tf.constant(np.array(values, np.float32).reshape(1, 2, 2, 1))
        return apply_op(nn_conv.MAX_POOL_GRAD, (x, tf.constant(np.full((1, 1, 1, 1), y, np.float32)),
                                                g), attrs).numpy().ravel().tolist()
    assert grad([1, 2, 4, 4], 2.0) == [0, 0, 10, 0]
    assert grad([NAN, 2, 4, 3], 4.0) == [10, 0, 0, 0]
    assert grad([3, NAN, 1, 5], 5.0) == [0, 0, 0, 10]


def test_max_pool_gradient_does_not_spread_an_infinite_gradient():
    x = tf.Variable(np.array([1, 2, 3, 4], np.float32).reshape(1, 2, 2, 1))
    with tf.GradientTape() as tape:
        y = tf.nn.max_pool2d(x, 2, 2, 'VALID') * INF
    assert tape.gradient(y, x).numpy().ravel().tolist() == [0, 0, 0, INF]


def test_max_pool_grad_with_overlapping_windows_and_ties_matches_tf():
    x = tf.constant(np.array([1, 5, 5, 2, 7, 0, 7, 1, 3, 3, 9, 9], np.float32).reshape(1, 3, 4, 1))
    g = tf.constant(np.array([1, 10, 100, 1000, 10000, 100000], np.float32).reshape(1, 2, 3, 1))
    attrs = {'ksize': (2, 2), 'strides': (1, 1), 'padding': 'VALID'}
    dx = apply_op(nn_conv.MAX_POOL_GRAD, (x, tf.nn.max_pool2d(x, 2, 1, 'VALID'), g), attrs)
    # Recorded from TF 2.21 (tf.raw_ops.MaxPoolGrad).
    assert dx.numpy().ravel().tolist() == [0, 0, 0, 0, 1001, 0, 110, 0, 0, 0, 110000, 0]
    attrs = {'ksize': (2, 3), 'strides': (1, 2), 'padding': 'SAME'}
    dx = apply_op(nn_conv.MAX_POOL_GRAD, (x, tf.nn.max_pool2d(x, [2, 3], [1, 2], 'SAME'),
                                          tf.ones([1, 3, 2, 1])), attrs)
    assert dx.numpy().ravel().tolist() == [0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 4, 0]
