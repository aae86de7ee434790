"""3-D convolution over NDHWC tensors (tf.nn.conv3d) and its two backprops (the first is also
tf.nn.conv3d_transpose's op, see conv_transpose.py).

The kernels are im2col and one matmul over the N-D window views of windows_nd. As for Conv2D, the
gradients are TF's op triple: Conv3D's gradients are Conv3DBackpropInputV2 and
Conv3DBackpropFilterV2, and each of those has the other two as its gradients. NCDHW input, which
TF's default (oneDNN) CPU kernels accept, is transposed to NDHWC around the op by the wrapper.
"""
import numpy as np

from defun.core import errors
from defun.core.dispatch import apply_op
from defun.core.registry import define_op
from defun.ops.framework.base_ops import shape
from defun.ops.nn import layouts
from defun.ops.support import helpers as op_helpers, validation, windows_nd
from defun.ops.support.helpers import dims

__all__ = ['conv3d']

_T = 'T: {half, bfloat16, float, double}'
_ATTRS = (_T, 'strides: list(int32)', 'padding: {"SAME", "VALID"}', 'dilations: list(int32)')


def _conv3d_kernel(x, w, strides, padding, dilations):
    k, o = w.shape[:3], w.shape[4]
    _check_channels(x.shape, w.shape)
    out, pads = windows_nd.geometry(x.shape[1:4], k, strides, dilations, padding)
    n = x.shape[0]
    if not (n and all(out)):
        return np.zeros((n,) + out + (o,), dtype=x.dtype)
    cols = windows_nd.columns(windows_nd.padded(x, pads), k, out, strides, dilations)
    return (cols @ w.reshape(-1, o)).reshape((n,) + out + (o,))


def _check_channels(x_shape, w_shape):
    """TF's CPU kernel: the filter's input depth divides the input's and equals it (no groups)."""
    c, fc = x_shape[4], w_shape[3]
    if c is None or fc is None:
        return
    if fc == 0 or c % fc:
        raise validation.invalid_argument(
            f'Input depth must be evenly divisible by filter depth: {c} vs {fc}')
    if c != fc:
        raise validation.invalid_argument(
            f'Number of channels in filter ({fc}) must match last dimension of input ({c})')


def _conv3d_infer(x, w, strides, padding, dilations):
    d = dims(x) or (None,) * 5
    k = dims(w) or (None,) * 5
    _check_channels(d, k)
    out = tuple(windows_nd.out_dim(d[i + 1], k[i], strides[i], dilations[i], padding)
                for i in range(3))
    return x.dtype, (d[0],) + out + (k[4],)


def _attrs(op):
    return {name: op.get_attr(name) for name in ('strides', 'padding', 'dilations')}


def _conv3d_grad(op, g):
    x, w = op.inputs
    return (apply_op(CONV3D_BACKPROP_INPUT, (shape(x), w, g), _attrs(op)),
            apply_op(CONV3D_BACKPROP_FILTER, (x, shape(w), g), _attrs(op)))


CONV3D = define_op('Conv3D', _conv3d_kernel, _conv3d_infer, _conv3d_grad,
                   inputs=('input: T', 'filter: T'), attrs=_ATTRS)


def _checked_geometry(in_shape, w_shape, dy_shape, strides, padding, dilations, op):
    """The output sizes and paddings of the forward conv, checked against out_backprop's shape
    as TF's backprop kernels check them."""
    k = w_shape[:3]
    out, pads = windows_nd.geometry(in_shape[1:4], k, strides, dilations, padding)
    for i in range(3):
        if out[i] != dy_shape[i + 1]:
            raise errors.InvalidArgumentError(
                f"{op}: Size of out_backprop doesn't match computed: actual = {dy_shape[i + 1]}, "
                f'computed = {out[i]} spatial_dim: {i + 1} input: {in_shape[i + 1]} filter: '
                f'{k[i]} output: {dy_shape[i + 1]} stride: {strides[i]} dilation: '
                f'{dilations[i]}')
    if in_shape[4] != w_shape[3]:
        raise errors.InvalidArgumentError(
            f'input and filter_sizes must have the same number of channels. Got {in_shape[4]} '
            f'for input and {w_shape[3]} for filter_sizes')
    if dy_shape[4] != w_shape[4]:
        raise errors.InvalidArgumentError(
            f'out_backprop and filter_sizes must have the same number of output channels. Got '
            f'{dy_shape[4]} for out_backprop and {w_shape[4]} for filter_sizes')
    if dy_shape[0] != in_shape[0]:
        raise errors.InvalidArgumentError(
            f'input and out_backprop must have the same batch size. Got {in_shape[0]} for input '
            f'and {dy_shape[0]} for out_backprop')
    return k, out, pads


def _sizes(values, op, what):
    sizes = tuple(int(v) for v in values)
    if len(sizes) != 5:
        raise errors.InvalidArgumentError(f'{op}: {what} must have 5 elements, got {list(sizes)}')
    return sizes


def _backprop_input_kernel(input_sizes, w, dy, strides, padding, dilations):
    in_shape = _sizes(input_sizes, 'Conv3DBackpropInputOp', 'input_sizes')
    k, out, pads = _checked_geometry(in_shape, w.shape, dy.shape, strides, padding, dilations,
                                     'Conv3DBackpropInputOp')
    n, c, o = in_shape[0], in_shape[4], w.shape[4]
    if not (n and all(out)):
        return np.zeros(in_shape, dtype=dy.dtype)
    reach = windows_nd.reach(out, k, strides, dilations)
    padded = (n,) + tuple(max(size + sum(p), r) for size, p, r in
                          zip(in_shape[1:4], pads, reach)) + (c,)
    dxp = np.zeros(padded, dtype=dy.dtype)
    cols = (dy.reshape(-1, o) @ w.reshape(-1, o).T).reshape((n,) + out + k + (c,))
    windows_nd.add_columns(dxp, cols, k, strides, dilations)
    return np.ascontiguousarray(windows_nd.cropped(dxp, pads, in_shape[1:4]))


def _backprop_filter_kernel(x, filter_sizes, dy, strides, padding, dilations):
    w_shape = _sizes(filter_sizes, 'Conv3DBackpropFilterOp', 'filter_sizes')
    k, out, pads = _checked_geometry(x.shape, w_shape, dy.shape, strides, padding, dilations,
                                     'Conv3DBackpropFilterOp')
    if not (x.shape[0] and all(out)):
        return np.zeros(w_shape, dtype=dy.dtype)
    cols = windows_nd.columns(windows_nd.padded(x, pads), k, out, strides, dilations)
    return (cols.T @ dy.reshape(-1, w_shape[4])).reshape(w_shape)


def _sizes_infer(sizes, other, dy, **attrs):
    value = op_helpers.static_value(sizes)
    return dy.dtype, (None,) * 5 if value is None else tuple(int(n) for n in value)


CONV3D_BACKPROP_INPUT = define_op(
    'Conv3DBackpropInputV2', _backprop_input_kernel, _sizes_infer,
    lambda op, grad: (None,
                      apply_op(CONV3D_BACKPROP_FILTER, (grad, shape(op.inputs[1]), op.inputs[2]),
                               _attrs(op)),
                      apply_op(CONV3D, (grad, op.inputs[1]), _attrs(op))),
    inputs=('input_sizes: Tshape', 'filter: T', 'out_backprop: T'),
    attrs=_ATTRS + ('Tshape: {int32, int64}',))
CONV3D_BACKPROP_FILTER = define_op(
    'Conv3DBackpropFilterV2', _backprop_filter_kernel,
    lambda x, sizes, dy, **attrs: _sizes_infer(sizes, x, dy),
    lambda op, grad: (apply_op(CONV3D_BACKPROP_INPUT, (shape(op.inputs[0]), grad, op.inputs[2]),
                               _attrs(op)),
                      None,
                      apply_op(CONV3D, (op.inputs[0], grad), _attrs(op))),
    inputs=('input: T', 'filter_sizes: int32', 'out_backprop: T'), attrs=_ATTRS)


def window_attrs(strides, padding, dilations, data_format, op):
    """The 3-D ops' attributes from TF's lists of 5 (no explicit padding in 3-D)."""
    if isinstance(padding, (list, tuple)):
        raise TypeError(f"Expected string for argument 'padding' not {padding!r}.")
    return {'strides': layouts.full_list(strides, 3, data_format, 'strides', op),
            'padding': layouts.padding_mode(padding, op),
            'dilations': layouts.full_list([1] * 5 if dilations is None else dilations, 3,
                                           data_format, 'dilations', op)}


def conv3d(input, filters, strides, padding, data_format='NDHWC', dilations=None,  # noqa: A002
           name=None):
    """3-D convolution (cross-correlation, as TF) of NDHWC (or NCDHW) `input` with DHWIO
    `filters`; `strides` and `dilations` are lists of 5 with 1 in the batch and channel dims."""
    x, w = op_helpers.binary_args(input, filters, 'conv3d')
    layouts.check_format(data_format, ('NDHWC', 'NCDHW'), 'conv3d')
    for t, what in ((x, 'input'), (w, 'filters')):
        if t.shape.rank not in (None, 5):
            raise ValueError(f'conv3d: {what} must be 5-D, got shape {t.shape}')
    attrs = window_attrs(strides, padding, dilations, data_format, 'conv3d')
    x = layouts.to_channels_last(x, data_format)
    _conv3d_infer(x, w, **attrs)   # channels and windows that fit, also when run eagerly
    return layouts.from_channels_last(apply_op(CONV3D, (x, w), attrs, name), data_format)
