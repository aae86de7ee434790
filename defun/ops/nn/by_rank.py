"""tf.nn's rank-generic entry points: `convolution`, `max_pool`, `avg_pool` and `pool` take an
input of spatial rank 1, 2 or 3 and hand it to the op for that rank (NWC/NCW, NHWC/NCHW,
NDHWC/NCDHW), which is how Keras's convolution and pooling layers call them."""
from defun.core import errors
from defun.ops.nn import conv, layouts
from defun.ops.nn.compositions import avg_pool1d, conv1d, max_pool1d
from defun.ops.nn.conv3d import conv3d
from defun.ops.nn.pool3d import avg_pool3d, max_pool3d
from defun.ops.support.helpers import to_tensor

__all__ = ['convolution', 'max_pool', 'avg_pool', 'pool']

_LAYOUTS = {3: ('NWC', 'NCW'), 4: ('NHWC', 'NCHW'), 5: ('NDHWC', 'NCDHW')}


def _spatial_rank(x, data_format, op):
    rank = x.shape.rank
    if rank not in _LAYOUTS:
        raise ValueError(f'{op}: input must have rank 3, 4 or 5 ([batch, spatial..., channels]), '
                         f'got shape {x.shape}')
    if data_format is not None and data_format not in _LAYOUTS[rank]:
        raise ValueError(f'{op}: data_format {data_format!r} does not fit an input of rank '
                         f'{rank} (expected one of {_LAYOUTS[rank]})')
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
    """An N-D convolution (cross-correlation, as TF) for N = 1, 2 or 3."""
    x = to_tensor(input, name='input', op='convolution')
    n = _spatial_rank(x, data_format, 'convolution')
    if not isinstance(padding, str):   # TF's convolution takes no explicit padding
        raise TypeError(f"Expected string for argument 'padding' not {padding!r}.")
    fmt = data_format or _LAYOUTS[n + 2][0]
    if n == 1:
        return conv1d(x, filters, _single(strides, 'convolution', 'strides') or 1, padding,
                      fmt, _single(dilations, 'convolution', 'dilations'), name=name)
    if n == 2:
        return conv.conv2d(x, filters, 1 if strides is None else strides, padding, fmt,
                           dilations, name=name)
    return conv3d(x, filters, layouts.int_or_list(strides, 3, fmt, 'strides'), padding, fmt,
                  layouts.int_or_list(dilations, 3, fmt, 'dilations'), name=name)


def max_pool(input, ksize, strides, padding, data_format=None, name=None):  # noqa: A002
    """tf.nn.max_pool: NWC (3-D input), NHWC (4-D) or NDHWC (5-D), or their channels-first
    forms; `padding` may be a list of [before, after] pairs for 1-D and 2-D."""
    x = to_tensor(input, name='input', op='max_pool')
    n = _spatial_rank(x, data_format, 'max_pool')
    if n == 1:
        return max_pool1d(x, _single(ksize, 'max_pool', 'ksize'),
                          _single(strides, 'max_pool', 'strides'), padding, data_format, name)
    if n == 3:
        return max_pool3d(x, ksize, strides, padding, data_format or 'NDHWC', name)
    return conv.max_pool(x, ksize, strides, padding, data_format, name)


def avg_pool(input, ksize, strides, padding, data_format=None, name=None):  # noqa: A002
    """tf.nn.avg_pool: NWC (3-D input), NHWC (4-D) or NDHWC (5-D), or their channels-first
    forms."""
    x = to_tensor(input, name='input', op='avg_pool')
    n = _spatial_rank(x, data_format, 'avg_pool')
    if n == 1:
        return avg_pool1d(x, _single(ksize, 'avg_pool', 'ksize'),
                          _single(strides, 'avg_pool', 'strides'), padding, data_format, name)
    if n == 3:
        return avg_pool3d(x, ksize, strides, padding, data_format or 'NDHWC', name)
    return conv.avg_pool(x, ksize, strides, padding, data_format, name)


def pool(input, window_shape, pooling_type, strides=None, padding='VALID',  # noqa: A002
         data_format=None, dilations=None, name=None):
    """TF's generic pooling: 'MAX' or 'AVG' over windows of `window_shape` (1 to 3 spatial
    dims). Dilated windows (dilations > 1) are not part of defun."""
    window = [window_shape] if isinstance(window_shape, int) else list(window_shape)
    n = len(window)
    if n not in (1, 2, 3):
        raise ValueError(f'`len(window_shape)` must be 1, 2, or 3. Received: '
                         f'window_shape={window_shape} of length {n}')
    x = to_tensor(input, name='input', op='pool')
    if x.shape.rank not in (None, n + 2):
        raise ValueError(f'`input` must have a static shape or a rank of {n + 2}. Received: '
                         f'input.shape={x.shape} with rank {x.shape.rank}')
    rates = [1] * n if dilations is None else list(dilations)
    steps = [1] * n if strides is None else list(strides)
    if padding == 'SAME' and any(r != 1 for r in rates):
        raise ValueError(f"pooling with 'SAME' padding is not implemented for `dilation_rate` > "
                         f'1. Received: padding={padding} and dilation_rate={rates}')
    if any(s != 1 for s in steps) and any(r != 1 for r in rates):
        raise ValueError(f'`strides` > 1 not supported in conjunction with `dilation_rate` > 1. '
                         f'Received: strides={steps} and dilation_rate={rates}')
    if pooling_type not in ('MAX', 'AVG'):
        raise ValueError(f'{n}-D {pooling_type} pooling is not supported.')
    if any(r != 1 for r in rates):
        raise errors.UnimplementedError('pool: dilated pooling windows (dilations > 1) are not '
                                        'part of defun')
    fn = max_pool if pooling_type == 'MAX' else avg_pool
    return fn(x, window, steps, padding, data_format, name)
