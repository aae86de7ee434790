"""tf.nn's rank-generic entry points: `convolution`, `max_pool` and `avg_pool` take an input of
any spatial rank and hand it to the op for that rank (1-D inputs are NWC, 2-D NHWC, as TF's
channels-last defaults), which is how Keras's convolution and pooling layers call them. 3-D
(NDHWC) convolution and pooling are not part of defun: they raise UnimplementedError."""
from defun.core import errors
from defun.ops.nn import conv
from defun.ops.nn.compositions import avg_pool1d, conv1d, max_pool1d
from defun.ops.support.helpers import to_tensor

__all__ = ['convolution', 'max_pool', 'avg_pool']

_LAYOUTS = {3: ('NWC', 'NCW'), 4: ('NHWC', 'NCHW'), 5: ('NDHWC', 'NCDHW')}


def _spatial_rank(x, data_format, op):
    rank = x.shape.rank
    if rank not in _LAYOUTS:
        raise ValueError(f'{op}: input must have rank 3, 4 or 5 ([batch, spatial..., channels]), '
                         f'got shape {x.shape}')
    if data_format is not None and data_format not in _LAYOUTS[rank]:
        raise ValueError(f'{op}: data_format {data_format!r} does not fit an input of rank '
                         f'{rank} (expected one of {_LAYOUTS[rank]})')
    if rank == 5:
        raise errors.UnimplementedError(f'{op}: 3-D (NDHWC) convolution and pooling are not part '
                                        f'of defun')
    return rank - 2


def _single(value, op, what):
    """A 1-D op's stride or dilation from TF's forms: an int, [s] or [1, s, 1]."""
    if value is None or isinstance(value, int):
        return value
    values = list(value)
    if len(values) == 3:
        values = values[1:2]
    if len(values) != 1:
        raise ValueError(f'{op}: {what} must be an int or a list of 1 or 3 ints, got {value!r}')
    return values[0]


def convolution(input, filters, strides=None, padding='VALID', data_format=None,  # noqa: A002
                dilations=None, name=None):
    """An N-D convolution (cross-correlation, as TF) for N = 1 (NWC) or 2 (NHWC)."""
    x = to_tensor(input, name='input', op='convolution')
    n = _spatial_rank(x, data_format, 'convolution')
    if n == 1:
        return conv1d(x, filters, _single(strides, 'convolution', 'strides') or 1, padding,
                      data_format or 'NWC', _single(dilations, 'convolution', 'dilations'),
                      name=name)
    return conv.conv2d(x, filters, 1 if strides is None else strides, padding,
                       data_format or 'NHWC', dilations, name=name)


def max_pool(input, ksize, strides, padding, data_format=None, name=None):  # noqa: A002
    """tf.nn.max_pool: NWC (3-D input) or NHWC (4-D)."""
    x = to_tensor(input, name='input', op='max_pool')
    if x.shape.rank == 3:
        _spatial_rank(x, data_format, 'max_pool')
        return max_pool1d(x, _single(ksize, 'max_pool', 'ksize'),
                          _single(strides, 'max_pool', 'strides'), padding, name=name)
    return conv.max_pool(x, ksize, strides, padding, data_format, name)


def avg_pool(input, ksize, strides, padding, data_format=None, name=None):  # noqa: A002
    """tf.nn.avg_pool: NWC (3-D input) or NHWC (4-D)."""
    x = to_tensor(input, name='input', op='avg_pool')
    if x.shape.rank == 3:
        _spatial_rank(x, data_format, 'avg_pool')
        return avg_pool1d(x, _single(ksize, 'avg_pool', 'ksize'),
                          _single(strides, 'avg_pool', 'strides'), padding, name=name)
    return conv.avg_pool(x, ksize, strides, padding, data_format, name)
