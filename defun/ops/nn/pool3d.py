"""3-D max and average pooling over NDHWC tensors (tf.nn.max_pool3d, avg_pool3d) and their
gradients, as TF's CPU kernels compute them.

Each kernel loops over the window's taps, one elementwise op over a strided view per tap.
MaxPool3D starts from the dtype's lowest value, so padding never wins. Unlike 2-D max pooling,
TF's 3-D gradient sends a window's gradient to every input equal to the window's maximum (ties
all receive it), and MaxPool3DGradGrad is the adjoint of that routing; the two are each other's
gradient. AvgPool3D divides by the number of input positions under each window (padding is not
counted); AvgPool3DGrad's gradient is AvgPool3D.
"""
import numpy as np

from defun.core.dispatch import apply_op
from defun.core.registry import define_op
from defun.ops.framework.base_ops import shape, zeros_like
from defun.ops.nn import layouts
from defun.ops.support import helpers as op_helpers, windows_nd
from defun.ops.support.helpers import dims, to_tensor

__all__ = ['max_pool3d', 'avg_pool3d']

_WINDOW = ('ksize: list(int32)', 'strides: list(int32)', 'padding: {"SAME", "VALID"}')
_ONE = (1, 1, 1)


def _geometry(spatial, ksize, strides, padding):
    return windows_nd.geometry(spatial, ksize, strides, _ONE, padding)


def _pool_infer(x, ksize, strides, padding):
    d = dims(x) or (None,) * 5
    out = tuple(windows_nd.out_dim(d[i + 1], ksize[i], strides[i], 1, padding) for i in range(3))
    return x.dtype, (d[0],) + out + (d[4],)


def _lowest(dtype):
    return -np.inf if dtype == np.float16 else np.finfo(dtype).min


def _max_pool_kernel(x, ksize, strides, padding):
    out, pads = _geometry(x.shape[1:4], ksize, strides, padding)
    xp = windows_nd.padded(x, pads, _lowest(x.dtype))
    result = np.full((x.shape[0],) + out + (x.shape[4],), _lowest(x.dtype), dtype=x.dtype)
    for _, view in windows_nd.taps(ksize, out, strides, _ONE):
        np.fmax(result, xp[view], out=result)
    return result


def _routes(x, y, ksize, strides, padding):
    """Per tap, (its view of the padded input, where the input there equals its window's max);
    padding is NaN, equal to nothing."""
    out, pads = _geometry(x.shape[1:4], ksize, strides, padding)
    xp = windows_nd.padded(x, pads, np.nan)
    return [(view, xp[view] == y) for _, view in windows_nd.taps(ksize, out, strides, _ONE)], \
        xp.shape, pads


def _max_pool_grad_kernel(x, y, g, ksize, strides, padding):
    routes, padded_shape, pads = _routes(x, y, ksize, strides, padding)
    dxp = np.zeros(padded_shape, dtype=g.dtype)
    for view, hit in routes:
        dxp[view] += np.where(hit, g, 0)
    return np.ascontiguousarray(windows_nd.cropped(dxp, pads, x.shape[1:4]))


def _max_pool_grad_grad_kernel(x, y, gg, ksize, strides, padding):
    routes, _, pads = _routes(x, y, ksize, strides, padding)
    ggp = windows_nd.padded(gg, pads)
    out = np.zeros(y.shape, dtype=gg.dtype)
    for view, hit in routes:
        out += np.where(hit, ggp[view], 0)
    return out


def _attrs(op):
    return {name: op.get_attr(name) for name in ('ksize', 'strides', 'padding')}


_FLOATS = 'T: {half, bfloat16, float}'
MAX_POOL3D = define_op(
    'MaxPool3D', _max_pool_kernel, _pool_infer,
    lambda op, g: apply_op(MAX_POOL3D_GRAD, (op.inputs[0], op.outputs[0], g), _attrs(op)),
    inputs=('input: T',), attrs=(_FLOATS,) + _WINDOW)
MAX_POOL3D_GRAD = define_op(
    'MaxPool3DGrad', _max_pool_grad_kernel, lambda x, y, g, **attrs: (g.dtype, dims(x)),
    lambda op, grad: (zeros_like(op.inputs[0]), zeros_like(op.inputs[1]),
                      apply_op(MAX_POOL3D_GRAD_GRAD, (op.inputs[0], op.inputs[1], grad),
                               _attrs(op))),
    inputs=('orig_input: T', 'orig_output: T', 'grad: T'), attrs=(_FLOATS,) + _WINDOW)
MAX_POOL3D_GRAD_GRAD = define_op(
    'MaxPool3DGradGrad', _max_pool_grad_grad_kernel, lambda x, y, g, **attrs: (g.dtype, dims(y)),
    lambda op, grad: (zeros_like(op.inputs[0]), zeros_like(op.inputs[1]),
                      apply_op(MAX_POOL3D_GRAD, (op.inputs[0], op.inputs[1], grad), _attrs(op))),
    inputs=('orig_input: T', 'orig_output: T', 'grad: T'), attrs=('T: realnumbertype',) + _WINDOW)


def _inside(size, k, stride, out, before):
    """Per output position of one dim, how many of its window's positions are in the input."""
    starts = np.arange(out) * stride - before
    return (np.minimum(starts + k, size) - np.maximum(starts, 0)).astype(np.float64)


def _counts(spatial, ksize, strides, padding):
    out, pads = _geometry(spatial, ksize, strides, padding)
    per_dim = [_inside(spatial[i], ksize[i], strides[i], out[i], pads[i][0]) for i in range(3)]
    counts = np.multiply.outer(np.multiply.outer(per_dim[0], per_dim[1]), per_dim[2])
    return counts[None, ..., None], out, pads


def _avg_pool_kernel(x, ksize, strides, padding):
    counts, out, pads = _counts(x.shape[1:4], ksize, strides, padding)
    xp = windows_nd.padded(x, pads)
    total = np.zeros((x.shape[0],) + out + (x.shape[4],), dtype=x.dtype)
    for _, view in windows_nd.taps(ksize, out, strides, _ONE):
        total += xp[view]
    return (total / counts).astype(x.dtype)


def _avg_pool_grad_kernel(input_shape, g, ksize, strides, padding):
    in_shape = tuple(int(n) for n in input_shape)
    counts, out, pads = _counts(in_shape[1:4], ksize, strides, padding)
    padded = (in_shape[0],) + tuple(n + sum(p) for n, p in zip(in_shape[1:4], pads)) \
        + (in_shape[4],)
    dxp = np.zeros(padded, dtype=g.dtype)
    share = (g / counts).astype(g.dtype)
    for _, view in windows_nd.taps(ksize, out, strides, _ONE):
        dxp[view] += share
    return np.ascontiguousarray(windows_nd.cropped(dxp, pads, in_shape[1:4]))


def _sizes_infer(sizes, g, **attrs):
    value = op_helpers.static_value(sizes)
    return g.dtype, (None,) * 5 if value is None else tuple(int(n) for n in value)


_AVG_T = 'T: {half, bfloat16, float, double}'
AVG_POOL3D = define_op(
    'AvgPool3D', _avg_pool_kernel, _pool_infer,
    lambda op, g: apply_op(AVG_POOL3D_GRAD, (shape(op.inputs[0]), g), _attrs(op)),
    inputs=('input: T',), attrs=(_AVG_T,) + _WINDOW)
AVG_POOL3D_GRAD = define_op(
    'AvgPool3DGrad', _avg_pool_grad_kernel, _sizes_infer,
    lambda op, grad: (None, apply_op(AVG_POOL3D, (grad,), _attrs(op))),
    inputs=('orig_input_shape: int32', 'grad: T'), attrs=(_AVG_T,) + _WINDOW)


def _pool3d(opdef, input, ksize, strides, padding, data_format, name, op):  # noqa: A002
    layouts.check_format(data_format, ('NDHWC', 'NCDHW'), op)
    x = to_tensor(input, name='input', op=op)
    if x.shape.rank not in (None, 5):
        raise ValueError(f'{op}: input must be 5-D, got shape {x.shape}')
    if isinstance(padding, (list, tuple)):
        raise TypeError(f"Expected string for argument 'padding' not {padding!r}.")
    attrs = {'ksize': layouts.full_list(layouts.int_or_list(ksize, 3, data_format, 'ksize'), 3,
                                        data_format, 'ksize', op),
             'strides': layouts.full_list(layouts.int_or_list(strides, 3, data_format,
                                                              'strides'),
                                          3, data_format, 'strides', op),
             'padding': layouts.padding_mode(padding, op)}
    x = layouts.to_channels_last(x, data_format)
    return layouts.from_channels_last(apply_op(opdef, (x,), attrs, name), data_format)


def max_pool3d(input, ksize, strides, padding, data_format='NDHWC', name=None):  # noqa: A002
    """Max pooling over 3-D windows of a 5-D tensor (NDHWC, or NCDHW)."""
    return _pool3d(MAX_POOL3D, input, ksize, strides, padding, data_format, name, 'max_pool3d')


def avg_pool3d(input, ksize, strides, padding, data_format='NDHWC', name=None):  # noqa: A002
    """Average pooling over 3-D windows of a 5-D tensor (NDHWC, or NCDHW); windows that reach
    into SAME padding average over their input positions only."""
    return _pool3d(AVG_POOL3D, input, ksize, strides, padding, data_format, name, 'avg_pool3d')
