"""2-D convolution and pooling in NHWC layout, with TF's SAME/VALID padding.

Convolutions and their backprops are im2col and one matmul (windows.py); pooling loops over the
window taps, one elementwise op each over strided views (faster than numpy's reductions over small
strided axes for the windows nets use). Gradients are TF's op pairs: Conv2D's gradients are
Conv2DBackpropInput and Conv2DBackpropFilter, whose own gradients are again these three ops;
MaxPoolGrad and MaxPoolGradGrad are each other's gradient; AvgPoolGrad's gradient is AvgPool.
Max pooling follows TF's CPU kernels where NaNs and infinities are involved: the forward starts from
the dtype's lowest finite value and lets no NaN win, the gradients route through the argmax scan of
the input (see _argmax_masks).
"""
import numpy as np

from defun.core import error_helpers, errors
from defun.core.dispatch import apply_op
from defun.ops.support import helpers as op_helpers, windows
from defun.ops.support.helpers import dims, to_tensor
from defun.ops.framework.base_ops import shape, zeros_like
from defun.ops.nn import layouts
from defun.core.registry import define_op, tf_attrs_except
from defun.ops.support import validation
from defun.ops.support.docs import documented

__all__ = ['conv2d', 'max_pool2d', 'avg_pool2d', 'max_pool', 'avg_pool']


# ---------------------------------------------------------------- conv2d and its backprops

def _conv2d_kernel(x, w, strides, padding, dilations, explicit_paddings=()):
    groups = x.shape[3] // w.shape[2] if w.shape[2] else 1
    if groups > 1:  # grouped: each slice of input channels meets its own slice of the filters
        return np.concatenate([
            _conv2d_kernel(xg, wg, strides, padding, dilations, explicit_paddings)
            for xg, wg in zip(np.split(x, groups, 3), np.split(w, groups, 3))], axis=3)
    kh, kw, c, o = w.shape
    oh, ow, ph, pw = windows.geometry(x.shape, kh, kw, strides, dilations, padding,
                                      explicit_paddings)
    n = x.shape[0]
    if not (n and oh and ow):
        return np.zeros((n, oh, ow, o), dtype=x.dtype)
    cols = windows.columns(windows.padded(x, ph, pw), kh, kw, oh, ow, strides, dilations)
    return (cols @ w.reshape(kh * kw * c, o)).reshape(n, oh, ow, o)


def _check_depths(x, w):
    """TF's grouped convolution: the filter's depth divides the input's, and the number of
    groups (their quotient) divides the output depth."""
    d, k = dims(x), dims(w)
    if d is None or k is None or d[3] is None or k[2] is None:
        return
    if k[2] == 0 or d[3] % k[2]:
        raise validation.invalid_argument(
            f'conv2d: input depth must be evenly divisible by filter depth: {d[3]} vs {k[2]} '
            f'(input {list(d)}, filter {list(k)})')
    if k[3] is not None and k[3] % (d[3] // k[2]):
        raise validation.invalid_argument(
            f'conv2d: output depth must be evenly divisible by number of groups: {k[3]} vs '
            f'{d[3] // k[2]}')


def _conv2d_infer(x, w, strides, padding, dilations, explicit_paddings=()):
    _check_depths(x, w)
    d = dims(x) or (None,) * 4
    k = dims(w) or (None,) * 4
    return x.dtype, tuple([d[0]] + [
        windows.out_dim(d[i + 1], k[i], strides[i], dilations[i], padding,
                        windows.explicit_pair(padding, explicit_paddings, i)) for i in (0, 1)]
        + [k[3]])


def _conv_attrs(op):
    return {name: op.attrs[name] for name in ('strides', 'padding', 'dilations',
                                              'explicit_paddings') if name in op.attrs}


def _conv2d_grad(op, g):
    x, w = op.inputs
    attrs = _conv_attrs(op)
    return (apply_op(CONV2D_BACKPROP_INPUT, (shape(x), w, g), attrs),
            apply_op(CONV2D_BACKPROP_FILTER, (x, shape(w), g), attrs))


CONV2D = define_op('Conv2D', _conv2d_kernel, _conv2d_infer, _conv2d_grad,
                   inputs=('input: T', 'filter: T'),
                   attrs=('T: {half, bfloat16, float, double, int32}', 'strides: list(int32)',
                          'padding: {"SAME", "VALID", "EXPLICIT"}', 'dilations: list(int32)',
                          'explicit_paddings: list(int)'))


def _check_backprop(in_shape, w_shape, dy_shape, out, strides, dilations, op):
    """TF's backprop kernels' checks of out_backprop against the forward conv's geometry."""
    if len(in_shape) != 4:
        raise errors.InvalidArgumentError(
            f'Conv2DBackpropInput requires input_sizes to contain 4 values or 2 values, but got: '
            f'{len(in_shape)}')
    for i in (0, 1):
        if out[i] != dy_shape[i + 1]:
            raise errors.InvalidArgumentError(
                f"{op}: Size of out_backprop doesn't match computed: actual = {dy_shape[i + 1]}, "
                f'computed = {out[i]} spatial_dim: {i + 1} input: {in_shape[i + 1]} filter: '
                f'{w_shape[i]} output: {dy_shape[i + 1]} stride: {strides[i]} dilation: '
                f'{dilations[i]}')
    if w_shape[2] == 0 or in_shape[3] % w_shape[2]:
        raise errors.InvalidArgumentError(f'{op}: input depth must be evenly divisible by filter '
                                          f'depth')
    if dy_shape[3] != w_shape[3]:
        raise errors.InvalidArgumentError(f'{op}: filter and out_backprop must have the same '
                                          f'out_depth')


def _backprop_input_kernel(input_sizes, w, dy, strides, padding, dilations,
                           explicit_paddings=()):
    in_shape = tuple(int(n) for n in input_sizes)
    groups = in_shape[3] // w.shape[2] if len(in_shape) == 4 and w.shape[2] else 1
    if groups > 1 and not in_shape[3] % w.shape[2]:
        sizes = in_shape[:3] + (w.shape[2],)
        return np.concatenate([
            _backprop_input_kernel(sizes, wg, dyg, strides, padding, dilations, explicit_paddings)
            for wg, dyg in zip(np.split(w, groups, 3), np.split(dy, groups, 3))], axis=3)
    kh, kw, c, o = w.shape
    oh, ow, ph, pw = windows.geometry(in_shape, kh, kw, strides, dilations, padding,
                                      explicit_paddings)
    _check_backprop(in_shape, w.shape, dy.shape, (oh, ow), strides, dilations,
                    'Conv2DCustomBackpropInput')
    n = in_shape[0]
    if not (n and oh and ow):
        return np.zeros(in_shape, dtype=dy.dtype)
    # The flipped-filter form needs padding no wider than the filter's reach on either side.
    if strides == (1, 1) and max(ph) <= (kh - 1) * dilations[0] \
            and max(pw) <= (kw - 1) * dilations[1]:
        return _transposed_conv(in_shape, w, dy, ph, pw, dilations)
    padded = (in_shape[0], in_shape[1] + sum(ph), in_shape[2] + sum(pw), in_shape[3])
    # VALID may leave rows the windows never reach; make room for every tap anyway.
    padded = (padded[0], max(padded[1], (kh - 1) * dilations[0] + strides[0] * (oh - 1) + 1),
              max(padded[2], (kw - 1) * dilations[1] + strides[1] * (ow - 1) + 1), padded[3])
    dxp = np.zeros(padded, dtype=dy.dtype)
    dy2, w2 = dy.reshape(n * oh * ow, o), w.reshape(kh * kw * c, o)
    if c < windows.FEW_CHANNELS:  # tap-major, as windows.columns gathers them
        cols = (w2 @ dy2.T).reshape(kh, kw, c, n, oh, ow).transpose(3, 4, 5, 0, 1, 2)
    else:
        cols = (dy2 @ w2.T).reshape(n, oh, ow, kh, kw, c)
    windows.add_columns(dxp, cols, strides, dilations)
    return dxp[:, ph[0]:ph[0] + in_shape[1], pw[0]:pw[0] + in_shape[2], :]


def _transposed_conv(in_shape, w, dy, ph, pw, dilations):
    """The input gradient of a stride-1 convolution as a VALID convolution of the padded dy with
    the filter flipped in space and in/out swapped: one im2col and one matmul, no scatter. dx[r]
    sums dy[r + pad - i * d] w[i]; padding dy by (k - 1) * d - pad before and by what is left to
    the input's size after makes that a correlation with the taps in reverse order."""
    kh, kw, c, o = w.shape
    n, h, wd = in_shape[:3]
    before = ((kh - 1) * dilations[0] - ph[0], (kw - 1) * dilations[1] - pw[0])
    zp = windows.padded(dy, (before[0], h + ph[0] - dy.shape[1]),
                        (before[1], wd + pw[0] - dy.shape[2]))
    flipped = w[::-1, ::-1].transpose(0, 1, 3, 2).reshape(kh * kw * o, c)
    cols = windows.columns(zp, kh, kw, h, wd, (1, 1), dilations)
    return (cols @ flipped).reshape(n, h, wd, c)


def _backprop_filter_kernel(x, filter_sizes, dy, strides, padding, dilations,
                            explicit_paddings=()):
    kh, kw, c, o = (int(n) for n in filter_sizes)
    groups = x.shape[3] // c if c else 1
    if groups > 1:
        sizes = (kh, kw, c, o // groups)
        return np.concatenate([
            _backprop_filter_kernel(xg, sizes, dyg, strides, padding, dilations,
                                    explicit_paddings)
            for xg, dyg in zip(np.split(x, groups, 3), np.split(dy, groups, 3))], axis=3)
    oh, ow, ph, pw = windows.geometry(x.shape, kh, kw, strides, dilations, padding,
                                      explicit_paddings)
    n = x.shape[0]
    if not (n and oh and ow):
        return np.zeros((kh, kw, c, o), dtype=dy.dtype)
    cols = windows.columns(windows.padded(x, ph, pw), kh, kw, oh, ow, strides, dilations)
    return (cols.T @ dy.reshape(n * oh * ow, o)).reshape(kh, kw, c, o)


def _sizes_infer(sizes, other, dy, **attrs):
    value = op_helpers.static_value(sizes)
    return dy.dtype, (None,) * 4 if value is None else tuple(int(n) for n in value)


CONV2D_BACKPROP_INPUT = define_op(
    'Conv2DBackpropInput', _backprop_input_kernel, _sizes_infer,
    lambda op, grad: (None,
                      apply_op(CONV2D_BACKPROP_FILTER, (grad, shape(op.inputs[1]), op.inputs[2]),
                               _conv_attrs(op)),
                      apply_op(CONV2D, (grad, op.inputs[1]), _conv_attrs(op))))
CONV2D_BACKPROP_FILTER = define_op(
    'Conv2DBackpropFilter', _backprop_filter_kernel,
    lambda x, sizes, dy, **attrs: _sizes_infer(sizes, x, dy),
    lambda op, grad: (apply_op(CONV2D_BACKPROP_INPUT, (shape(op.inputs[0]), grad, op.inputs[2]),
                               _conv_attrs(op)),
                      None,
                      apply_op(CONV2D, (op.inputs[0], grad), _conv_attrs(op))))


def conv2d(input, filters, strides, padding, data_format='NHWC', dilations=None, name=None):
    """2-D convolution (cross-correlation, as TF) of NHWC (or NCHW) `input` with HWIO `filters`;
    `padding` is 'SAME', 'VALID' or a list of [before, after] pairs, one per dim of the input."""
    x, w = op_helpers.binary_args(input, filters, 'conv2d')
    op_helpers.float_only(x, 'conv2d')
    data_format = data_format or 'NHWC'
    layouts.check_format(data_format, ('NHWC', 'NCHW'), 'conv2d')
    layouts.check_rank(x, 4, 'conv2d', data_format)
    if w.shape.rank not in (None, 4):
        raise ValueError(f'conv2d: filters must be 4-D [height, width, in, out], got '
                         f'{error_helpers.describe(w)}')
    attrs = {'strides': layouts.hw_arg(strides, 'strides', 'conv2d', data_format),
             **layouts.padding_attrs(padding, 'conv2d', 4, data_format),
             'dilations': layouts.hw_arg(dilations, 'dilations', 'conv2d', data_format)}
    if attrs['strides'] != (1, 1) and attrs['dilations'] != (1, 1):
        raise validation.invalid_argument('conv2d: strides > 1 with dilations > 1 is not '
                                          'supported (as in TF)')
    x = layouts.to_channels_last(x, data_format)
    _conv2d_infer(x, w, **attrs)  # depths, and windows that fit, also when run eagerly
    return layouts.from_channels_last(apply_op(CONV2D, (x, w), attrs, name), data_format)


# ---------------------------------------------------------------- pooling

def _pool_infer(x, ksize, strides, padding, explicit_paddings=()):
    d = dims(x) or (None,) * 4
    return x.dtype, tuple([d[0]] + [
        windows.out_dim(d[i + 1], ksize[i], strides[i], 1, padding,
                        windows.explicit_pair(padding, explicit_paddings, i)) for i in (0, 1)]
        + [d[3]])


def _lowest(dtype):
    """TF's max pooling starts from the lowest finite value (-inf for half), so -inf and NaN
    inputs never win a window: a window of only those gives that lowest value."""
    if dtype.kind != 'f':
        return np.iinfo(dtype).min
    return -np.inf if dtype == np.float16 else np.finfo(dtype).min


def _check_explicit_window(ksize, padding, explicit_paddings):
    """TF's MaxPool kernel: an explicit padding narrower than the window on every side."""
    if padding != 'EXPLICIT':
        return
    sides = (('Top', 'Bottom'), ('Left', 'Right'))
    for dim in (0, 1):
        for side, pad in zip(sides[dim], windows.explicit_pair(padding, explicit_paddings, dim)):
            if pad >= ksize[dim]:
                raise errors.InvalidArgumentError(
                    f'{side} padding {pad} needs to be smaller than the window size '
                    f'{ksize[dim]}')


def _max_pool_kernel(x, ksize, strides, padding, explicit_paddings=()):
    _check_explicit_window(ksize, padding, explicit_paddings)
    oh, ow, ph, pw = windows.geometry(x.shape, ksize[0], ksize[1], strides, (1, 1), padding,
                                      explicit_paddings)
    xp = windows.padded(x, ph, pw, _lowest(x.dtype))
    out = np.full((x.shape[0], oh, ow, x.shape[3]), _lowest(x.dtype), dtype=x.dtype)
    larger = np.fmax if x.dtype.kind == 'f' else np.maximum   # fmax: NaN loses, as in TF
    for _, _, view in windows.taps(ksize[0], ksize[1], oh, ow, strides, (1, 1)):
        larger(out, xp[view], out=out)
    return out


def _argmax_masks(x, ksize, strides, padding, explicit_paddings=()):
    """(per tap, the mask of windows routing their gradient through it; padded shape, ph, pw).

    As TF's kernel: a window's argmax scan starts at its first element inside the input and
    moves to each later one strictly greater, so ties keep the first (orig_output is not used).
    Without NaNs that is the first tap equal to the window's max (the fast form: whole-array
    compares); with NaNs, or integers (whose padding could tie), the scan itself."""
    oh, ow, ph, pw = windows.geometry(x.shape, ksize[0], ksize[1], strides, (1, 1), padding,
                                      explicit_paddings)
    views = [view for _, _, view in windows.taps(ksize[0], ksize[1], oh, ow, strides, (1, 1))]
    if x.dtype.kind == 'f' and not np.isnan(x).any():
        xp = windows.padded(x, ph, pw, np.nan)       # padding never equals a window's max
        top = xp[views[0]].copy()
        for view in views[1:]:
            np.fmax(top, xp[view], out=top)
        taken, masks = np.zeros(top.shape, bool), []
        for view in views:
            hit = xp[view] == top
            hit &= ~taken
            taken |= hit
            masks.append(hit)
        return masks, xp.shape, ph, pw
    return _scanned_masks(x, views, ph, pw)


def _scanned_masks(x, views, ph, pw):
    xp = windows.padded(x, ph, pw)
    inside = windows.padded(np.ones((1,) + x.shape[1:3] + (1,), bool), ph, pw, False)
    best, have = xp[views[0]].copy(), inside[views[0]]
    pick = np.zeros(best.shape, np.intp)
    for k, view in enumerate(views[1:], 1):
        take = inside[view] & ((best < xp[view]) | ~have)
        have = have | inside[view]
        np.copyto(best, xp[view], where=take)
        pick[take] = k
    return [pick == k for k in range(len(views))], xp.shape, ph, pw


def _routed(values, mask):
    """values where mask, else 0; without multiplying, so an inf or NaN stays in its window."""
    return values * mask if np.isfinite(values).all() else np.where(mask, values, 0)


def _max_pool_grad_kernel(x, y, g, ksize, strides, padding, explicit_paddings=()):
    masks, padded_shape, ph, pw = _argmax_masks(x, ksize, strides, padding, explicit_paddings)
    oh, ow = g.shape[1:3]
    dxp = np.zeros(padded_shape, dtype=g.dtype)
    for mask, (_, _, view) in zip(masks, windows.taps(ksize[0], ksize[1], oh, ow, strides,
                                                      (1, 1))):
        dxp[view] += _routed(g, mask)
    return dxp[:, ph[0]:ph[0] + x.shape[1], pw[0]:pw[0] + x.shape[2], :]


def _max_pool_grad_grad_kernel(x, y, gg, ksize, strides, padding, explicit_paddings=()):
    masks, _, ph, pw = _argmax_masks(x, ksize, strides, padding, explicit_paddings)
    ggp = windows.padded(gg, ph, pw)
    out = np.zeros(masks[0].shape, dtype=gg.dtype)
    oh, ow = out.shape[1:3]
    for mask, (_, _, view) in zip(masks, windows.taps(ksize[0], ksize[1], oh, ow, strides,
                                                      (1, 1))):
        out += _routed(ggp[view], mask)
    return out


def _pool_attrs(op):
    return {name: op.attrs[name] for name in ('ksize', 'strides', 'padding', 'explicit_paddings')
            if name in op.attrs}


# defun's window attributes hold the 2 spatial numbers where TF's hold the 4 of NHWC (the
# forward ops check the user's values as TF's wrappers do, before they are reduced to 2).
_SPATIAL = ('ksize', 'strides')
MAX_POOL = define_op(
    'MaxPool', _max_pool_kernel, _pool_infer,
    lambda op, g: apply_op(MAX_POOL_GRAD, (op.inputs[0], op.outputs[0], g), _pool_attrs(op)),
    inputs=('input: T',),
    attrs=('T: {half, bfloat16, float, double, int32, int64, uint8, int16, int8, uint16, qint8}',
           'ksize: list(int32)', 'strides: list(int32)', 'padding: {"SAME", "VALID", "EXPLICIT"}',
           'explicit_paddings: list(int)'))
MAX_POOL_GRAD = define_op(
    'MaxPoolGrad', _max_pool_grad_kernel, lambda x, y, g, **attrs: (g.dtype, dims(x)),
    lambda op, grad: (zeros_like(op.inputs[0]), zeros_like(op.inputs[1]),
                      apply_op(MAX_POOL_GRAD_GRAD, (op.inputs[0], op.inputs[1], grad),
                               _pool_attrs(op))),
    attrs=tf_attrs_except('MaxPoolGrad', *_SPATIAL))
MAX_POOL_GRAD_GRAD = define_op(
    'MaxPoolGradGrad', _max_pool_grad_grad_kernel, lambda x, y, g, **attrs: (g.dtype, dims(y)),
    lambda op, grad: (zeros_like(op.inputs[0]), zeros_like(op.inputs[1]),
                      apply_op(MAX_POOL_GRAD, (op.inputs[0], op.inputs[1], grad),
                               _pool_attrs(op))),
    attrs=tf_attrs_except('MaxPoolGradGrad', *_SPATIAL))


def _inside(size, k, stride, out, before):
    """Per output position of one dim, how many of its window's k positions are in the input."""
    starts = np.arange(out) * stride - before
    return (np.minimum(starts + k, size) - np.maximum(starts, 0)).astype(np.float64)


def _window_counts(in_shape, ksize, strides, padding):
    """[1, oh, ow, 1] float64 counts of the input positions under each window (TF's divisor)."""
    oh, ow, ph, pw = windows.geometry(in_shape, ksize[0], ksize[1], strides, (1, 1), padding)
    counts = np.multiply.outer(_inside(in_shape[1], ksize[0], strides[0], oh, ph[0]),
                               _inside(in_shape[2], ksize[1], strides[1], ow, pw[0]))
    return counts[None, :, :, None], oh, ow, ph, pw


def _avg_pool_kernel(x, ksize, strides, padding):
    counts, oh, ow, ph, pw = _window_counts(x.shape, ksize, strides, padding)
    xp = windows.padded(x, ph, pw)
    total = np.zeros((x.shape[0], oh, ow, x.shape[3]), dtype=x.dtype)
    for _, _, view in windows.taps(ksize[0], ksize[1], oh, ow, strides, (1, 1)):
        total += xp[view]
    return (total / counts).astype(x.dtype)


def _avg_pool_grad_kernel(input_shape, g, ksize, strides, padding):
    in_shape = tuple(int(n) for n in input_shape)
    counts, oh, ow, ph, pw = _window_counts(in_shape, ksize, strides, padding)
    dxp = np.zeros((in_shape[0], in_shape[1] + sum(ph), in_shape[2] + sum(pw), in_shape[3]),
                   dtype=g.dtype)
    share = (g / counts).astype(g.dtype)
    cols = np.broadcast_to(share[:, :, :, None, None, :], share.shape[:3] + ksize + share.shape[3:])
    windows.add_columns(dxp, cols, strides, (1, 1))
    return dxp[:, ph[0]:ph[0] + in_shape[1], pw[0]:pw[0] + in_shape[2], :]


AVG_POOL = define_op(
    'AvgPool', _avg_pool_kernel, _pool_infer,
    lambda op, g: apply_op(AVG_POOL_GRAD, (shape(op.inputs[0]), g), _pool_attrs(op)),
    inputs=('value: T',), attrs=('T: {half, bfloat16, float, double}', 'ksize: list(int32)',
                                 'strides: list(int32)', 'padding: {"SAME", "VALID"}'))
AVG_POOL_GRAD = define_op(
    'AvgPoolGrad', _avg_pool_grad_kernel,
    lambda s, g, **attrs: _sizes_infer(s, None, g),
    lambda op, grad: (None, apply_op(AVG_POOL, (grad,), _pool_attrs(op))),
    attrs=tf_attrs_except('AvgPoolGrad', *_SPATIAL))


def _pool(kind, opdef, input, ksize, strides, padding, data_format, name):  # noqa: A002
    data_format = data_format or 'NHWC'
    layouts.check_format(data_format, ('NHWC', 'NCHW'), kind)
    x = layouts.check_rank(to_tensor(input, op=kind), 4, kind, data_format)
    if opdef is AVG_POOL and isinstance(padding, (list, tuple)):  # AvgPool has no EXPLICIT
        raise TypeError(f"Expected string for argument 'padding' not {padding!r}.")
    attrs = {'ksize': layouts.hw_arg(ksize, 'ksize', kind, data_format),
             'strides': layouts.hw_arg(strides, 'strides', kind, data_format),
             **layouts.padding_attrs(padding, kind, 4, data_format)}
    x = layouts.to_channels_last(x, data_format)
    return layouts.from_channels_last(apply_op(opdef, (x,), attrs, name), data_format)


@documented('pool', 'Max pooling over 2-D windows of a 4-D tensor.')
def max_pool2d(input, ksize, strides, padding, data_format='NHWC', name=None):
    return _pool('max_pool2d', MAX_POOL, input, ksize, strides, padding, data_format, name)


@documented('pool', 'Average pooling over 2-D windows of a 4-D tensor.')
def avg_pool2d(input, ksize, strides, padding, data_format='NHWC', name=None):
    return _pool('avg_pool2d', AVG_POOL, input, ksize, strides, padding, data_format, name)


def max_pool(input, ksize, strides, padding, data_format=None, name=None):
    """tf.nn.max_pool: the 2-D case (4-D NHWC input)."""
    return _pool('max_pool', MAX_POOL, input, ksize, strides, padding, data_format, name)


def avg_pool(input, ksize, strides, padding, data_format=None, name=None):
    """tf.nn.avg_pool: the 2-D case (4-D NHWC input)."""
    return _pool('avg_pool', AVG_POOL, input, ksize, strides, padding, data_format, name)
