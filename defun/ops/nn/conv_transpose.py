"""Transposed convolutions: tf.nn.conv1d_transpose, conv2d_transpose, conv3d_transpose and the
rank-generic conv_transpose.

Each is the gradient of the forward convolution with respect to its input, as in TF: the 2-D op
Conv2DBackpropInput (1-D runs it over a height of one) and the 3-D op Conv3DBackpropInputV2,
whose kernels check `output_shape` against the forward geometry as TF's do. Channels-first
layouts are transposed to channels-last around the op.
"""
from defun.core import dtypes
from defun.core.dispatch import apply_op
from defun.ops.array.joining import concat
from defun.ops.array.transform import expand_dims, squeeze
from defun.ops.nn import layouts
from defun.ops.nn.conv import CONV2D_BACKPROP_INPUT
from defun.ops.nn.conv3d import CONV3D_BACKPROP_INPUT, window_attrs
from defun.ops.support import helpers as op_helpers, validation
from defun.ops.support.helpers import dims, to_tensor

__all__ = ['conv1d_transpose', 'conv2d_transpose', 'conv3d_transpose', 'conv_transpose']


def _operands(input, filters, op):  # noqa: A002
    x = to_tensor(input, name='input', op=op)
    w = to_tensor(filters, dtype=x.dtype, name='filters', op=op)
    op_helpers.float_only(x, op)
    return x, w


def conv2d_transpose(input, filters, output_shape, strides, padding='SAME',  # noqa: A002
                     data_format='NHWC', dilations=None, name=None):
    """The gradient of conv2d with respect to its input: `input` (NHWC or NCHW) has the conv's
    output shape, `filters` are HWOI ([height, width, output_channels, in_channels]) and
    `padding` is 'SAME', 'VALID' or a list of [before, after] pairs."""
    x, w = _operands(input, filters, 'conv2d_transpose')
    data_format = data_format or 'NHWC'
    layouts.check_format(data_format, ('NHWC', 'NCHW'), 'conv2d_transpose')
    sizes = to_tensor(output_shape, dtype=dtypes.int32, name='output_shape',
                      op='conv2d_transpose')
    _check_static(x, w, sizes, 4, data_format, 'conv2d_transpose')
    attrs = {'strides': layouts.hw_arg(strides, 'strides', 'conv2d_transpose', data_format),
             **layouts.padding_attrs(padding, 'conv2d_transpose', 4, data_format),
             'dilations': layouts.hw_arg(dilations, 'dilations', 'conv2d_transpose',
                                         data_format)}
    x = layouts.to_channels_last(x, data_format)
    sizes = layouts.sizes_to_channels_last(sizes, data_format)
    return layouts.from_channels_last(
        apply_op(CONV2D_BACKPROP_INPUT, (sizes, w, x), attrs, name), data_format)


def _check_static(x, w, sizes, rank, data_format, op):
    """What TF's wrappers check before the op: output_shape's length, and the channels of input,
    filters and output_shape where they are known."""
    value = op_helpers.static_value(sizes)
    if value is not None and value.ndim == 1 and len(value) != rank:
        raise ValueError(f'{op}: output_shape must have length {rank}, got {list(value)}')
    wd, xd = dims(w), dims(x)
    channel = 1 if layouts.channels_first(data_format) else -1
    if wd is not None and xd is not None and None not in (wd[-1], xd[channel]) \
            and wd[-1] != xd[channel]:
        raise validation.invalid_argument(
            f'{op}: filter and out_backprop must have the same out_depth: input channels '
            f'{xd[channel]}, filters {list(wd)}')
    if value is not None and value.ndim == 1 and wd is not None and wd[-2] is not None \
            and int(value[channel]) != wd[-2]:
        raise validation.invalid_argument(
            f"{op}: input depth must be evenly divisible by filter depth: output_shape "
            f"{list(value)} against the filters' output channels {wd[-2]}")


def conv1d_transpose(input, filters, output_shape, strides, padding='SAME',  # noqa: A002
                     data_format='NWC', dilations=None, name=None):
    """The gradient of conv1d with respect to its input: `input` (NWC or NCW) has the conv's
    output shape, `filters` are [width, output_channels, in_channels]."""
    x, w = _operands(input, filters, 'conv1d_transpose')
    data_format = data_format or 'NWC'
    layouts.check_format(data_format, ('NWC', 'NCW'), 'conv1d_transpose')
    if not isinstance(padding, str):
        raise TypeError(f"Expected string for argument 'padding' not {padding!r}.")
    sizes = to_tensor(output_shape, dtype=dtypes.int32, name='output_shape',
                      op='conv1d_transpose')
    _check_static(x, w, sizes, 3, data_format, 'conv1d_transpose')
    stride = layouts.int_or_list(strides, 1, data_format, 'strides')
    rate = layouts.int_or_list(dilations, 1, data_format, 'dilations')
    spatial = 2 if layouts.channels_first(data_format) else 1
    x = layouts.to_channels_last(x, data_format)
    sizes = layouts.sizes_to_channels_last(sizes, data_format)
    sizes = concat([sizes[:1], [1], sizes[1:]], 0)
    out = conv2d_transpose(expand_dims(x, 1), expand_dims(w, 0), sizes, [1, stride[spatial]],
                           padding, dilations=[1, rate[spatial]], name=name)
    return layouts.from_channels_last(squeeze(out, [1]), data_format)


def conv3d_transpose(input, filters, output_shape, strides, padding='SAME',  # noqa: A002
                     data_format='NDHWC', dilations=None, name=None):
    """The gradient of conv3d with respect to its input: `input` (NDHWC or NCDHW) has the
    conv's output shape, `filters` are [depth, height, width, output_channels, in_channels]."""
    x, w = _operands(input, filters, 'conv3d_transpose')
    layouts.check_format(data_format, ('NDHWC', 'NCDHW'), 'conv3d_transpose')
    sizes = to_tensor(output_shape, name='output_shape', op='conv3d_transpose',
                      hint=dtypes.int32)
    _check_static(x, w, sizes, 5, data_format, 'conv3d_transpose')
    attrs = window_attrs(layouts.int_or_list(strides, 3, data_format, 'strides'), padding,
                         layouts.int_or_list(dilations, 3, data_format, 'dilations'),
                         data_format, 'conv3d_transpose')
    x = layouts.to_channels_last(x, data_format)
    sizes = layouts.sizes_to_channels_last(sizes, data_format)
    return layouts.from_channels_last(
        apply_op(CONV3D_BACKPROP_INPUT, (sizes, w, x), attrs, name), data_format)


_BY_RANK = {3: conv1d_transpose, 4: conv2d_transpose, 5: conv3d_transpose}


def conv_transpose(input, filters, output_shape, strides, padding='SAME',  # noqa: A002
                   data_format=None, dilations=None, name=None):
    """conv1d_transpose, conv2d_transpose or conv3d_transpose, by the length of output_shape."""
    input = to_tensor(input, name='input', op='conv_transpose')  # noqa: A001
    if hasattr(output_shape, 'shape') and hasattr(output_shape, 'dtype'):
        length = output_shape.shape[0] if output_shape.shape.rank == 1 else None
    elif hasattr(output_shape, '__len__'):
        length = len(output_shape)
    else:
        raise ValueError(f'`output_shape` must be a tensor or sized collection. Received: '
                         f'output_shape={output_shape}')
    if length not in _BY_RANK:
        raise ValueError(f'`output_shape` must be of length 3, 4 or 5. Received: '
                         f'output_shape={output_shape} of length {length}.')
    fn = _BY_RANK[length]
    kwargs = {} if data_format is None else {'data_format': data_format}
    return fn(input, filters, output_shape, strides, padding, dilations=dilations, name=name,
              **kwargs)
