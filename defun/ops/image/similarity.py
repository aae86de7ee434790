"""tf.image.ssim and tf.image.ssim_multiscale: structural similarity as TF computes it, from
public ops (so it is differentiable in both images): local means and (co)variances under an
11x11 Gaussian window (TF's softmax-normalized kernel, depthwise 'VALID' convolution), the
luminance and contrast-structure terms with TF's constants, averaged over the window positions;
the multiscale form repeats on images halved by 2x2 average pooling (symmetric padding first
when a side is odd) and combines the scales with TF's power factors."""
from defun.core import dtypes
from defun.ops.array.creation import range as range_op
from defun.ops.array.expand_squeeze import expand_dims
from defun.ops.array.joining import concat, stack
from defun.ops.array.transform import pad, tile
from defun.ops.debugging.asserts import assert_greater_equal
from defun.ops.framework.base_ops import cast, reshape, shape
from defun.ops.image.color import convert_image_dtype
from defun.ops.math.arithmetic import floormod
from defun.ops.math.elementary import pow as pow_
from defun.ops.math.reductions import reduce_mean, reduce_prod
from defun.ops.nn.activations import relu, softmax
from defun.ops.nn.by_rank import avg_pool
from defun.ops.nn.compositions import depthwise_conv2d
from defun.ops.support.helpers import to_tensor

__all__ = ['ssim', 'ssim_multiscale']

_POWER_FACTORS = (0.0448, 0.2856, 0.3001, 0.2363, 0.1333)


def _gaussian(size, sigma, dtype):
    coords = cast(range_op(size), dtype) - cast(size - 1, dtype) / 2.0
    g = coords * coords * (-0.5 / (sigma * sigma))
    g = reshape(reshape(g, [1, -1]) + reshape(g, [-1, 1]), [1, -1])
    return reshape(softmax(g), [size, size, 1, 1])


def _per_channel(x, y, max_val, size, sigma, k1, k2, index_map=False):
    """(ssim, contrast-structure) per channel, or their map with `index_map`."""
    dims = shape(x)
    for image in (x, y):
        assert_greater_equal(shape(image)[-3:-1], size, message='ssim: images must be at least '
                             'filter_size pixels high and wide')
    kernel = tile(_gaussian(size, cast(sigma, x.dtype), x.dtype), [1, 1, dims[-1], 1])

    def reducer(t):
        t_shape = shape(t)
        flat = reshape(t, concat([[-1], t_shape[-3:]], 0))
        out = depthwise_conv2d(flat, kernel, strides=[1, 1, 1, 1], padding='VALID')
        return reshape(out, concat([t_shape[:-3], shape(out)[1:]], 0))

    c1, c2 = (k1 * max_val) ** 2, (k2 * max_val) ** 2
    mean_x, mean_y = reducer(x), reducer(y)
    num0 = mean_x * mean_y * 2.0
    den0 = mean_x * mean_x + mean_y * mean_y
    luminance = (num0 + c1) / (den0 + c1)
    cs = (reducer(x * y) * 2.0 - num0 + c2) / (reducer(x * x + y * y) - den0 + c2)
    if index_map:
        return luminance * cs, cs
    return reduce_mean(luminance * cs, [-3, -2]), reduce_mean(cs, [-3, -2])


def _images(img1, img2, max_val, op):
    x, y = to_tensor(img1, name='img1', op=op), to_tensor(img2, name='img2', op=op)
    if x.shape.rank is not None and x.shape.rank < 3:
        raise ValueError(f'{op}: images must have at least 3 dimensions, got shape {x.shape}')
    x.shape[-3:].assert_is_compatible_with(y.shape[-3:])
    peak = convert_image_dtype(cast(max_val, x.dtype), dtypes.float32)
    return convert_image_dtype(x, dtypes.float32), convert_image_dtype(y, dtypes.float32), peak


def ssim(img1, img2, max_val, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03,
         return_index_map=False):
    """The structural similarity of each pair of images [..., height, width, channels] (the
    mean over channels), or its map over window positions with `return_index_map`."""
    x, y, peak = _images(img1, img2, max_val, 'ssim')
    value, _ = _per_channel(x, y, peak, filter_size, filter_sigma, k1, k2, return_index_map)
    return reduce_mean(value, [-1])


def ssim_multiscale(img1, img2, max_val, power_factors=_POWER_FACTORS, filter_size=11,
                    filter_sigma=1.5, k1=0.01, k2=0.03):
    """Multiscale SSIM: contrast-structure at each of len(power_factors) scales (halving the
    images between them) and SSIM at the last, combined as the product of their powers."""
    x, y, peak = _images(img1, img2, max_val, 'ssim_multiscale')
    heads, tail = shape(x)[:-3], shape(x)[-3:]
    images, mcs = [x, y], []
    for k in range(len(power_factors)):
        if k:
            images, tail = _halved(images, heads, tail)
        value, cs = _per_channel(*images, peak, filter_size, filter_sigma, k1, k2)
        mcs.append(relu(cs))
    stacked = stack(mcs[:-1] + [relu(value)], axis=-1)
    return reduce_mean(reduce_prod(pow_(stacked, list(power_factors)), [-1]), [-1])


def _halved(images, heads, tail):
    """The images averaged over 2x2 blocks (odd sides padded symmetrically first)."""
    flat = [reshape(t, concat([[-1], tail], 0)) for t in images]
    remainder = floormod(tail, [2, 2, 1])
    padding = pad(expand_dims(remainder, -1), [[1, 0], [1, 0]])
    pooled = [avg_pool(pad(t, padding, mode='SYMMETRIC'), ksize=[1, 2, 2, 1],
                       strides=[1, 2, 2, 1], padding='VALID') for t in flat]
    tail = shape(pooled[0])[1:]
    return [reshape(t, concat([heads, tail], 0)) for t in pooled], tail
