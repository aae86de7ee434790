"""More of tf.nn: softsign, selu, l2_normalize, embedding_lookup, dropout, and the convolutions TF
writes in terms of conv2d (conv1d, depthwise_conv2d, separable_conv2d).

softsign and selu are ops of their own (kernel, inference, gradient in our ops); the rest are
compositions, as in TF, so their gradients come from the ops they use. depthwise_conv2d is one
conv2d with a block-diagonal filter (in_channels x multiplier outputs, each reading one input
channel), built by an einsum with the identity so that it stays differentiable in the filter.
"""
import numpy as np

from defun.core import context, dtypes, error_helpers, errors
from defun.core.dispatch import apply_op
from defun.ops.array.joining import concat, stack
from defun.ops.support.helpers import dims, same_as_first, to_tensor
from defun.ops.framework.base_ops import cast, ones_like, reshape, shape, zeros_like
from defun.ops.math.elementary import abs, exp, log, log1p, rsqrt
from defun.ops.math.arithmetic import square
from defun.ops.math.arithmetic import maximum
from defun.ops.array.gathering import gather
from defun.ops.linalg.products import einsum
from defun.ops.linalg.diagonals import diag
from defun.ops.math.logic import greater_equal, where
from defun.ops.nn.activations import relu
from defun.ops.nn.conv import avg_pool2d, conv2d, max_pool2d
from defun.ops.nn import layouts
from defun.ops.nn.layouts import hw_arg
from defun.ops.random.stateful import uniform
from defun.ops.math.reductions import reduce_sum
from defun.ops.array.transform import expand_dims, squeeze, transpose
from defun.ops.support import validation
from defun.core.registry import define_op
from defun.ops.support.docs import documented

__all__ = ['softsign', 'selu', 'l2_normalize', 'embedding_lookup', 'dropout', 'conv1d',
           'depthwise_conv2d', 'batch_normalization', 'normalize_moments',
           'weighted_cross_entropy_with_logits', 'log_poisson_loss', 'crelu', 'max_pool1d',
           'avg_pool1d', 'separable_conv2d', 'space_to_depth', 'depth_to_space',
           'compute_average_loss', 'scale_regularization_loss', 'zero_fraction']


def _features(x, op):
    return to_tensor(x, name='features', op=op)


# ---------------------------------------------------------------- softsign, selu

SOFTSIGN = define_op(
    'Softsign', lambda x: x / (1 + np.abs(x)), same_as_first,
    lambda op, g: g / square(1 + abs(op.inputs[0])))


def softsign(features, name=None):
    """x / (|x| + 1)."""
    return apply_op(SOFTSIGN, (_features(features, 'softsign'),), None, name)


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def _selu_kernel(x):
    if x.dtype in dtypes.STEPWISE_FLOATS:  # half/bfloat16: scale * alpha * (exp(x) - 1), per step
        t = x.dtype.type
        scaled = t(_SELU_SCALE * _SELU_ALPHA) * (np.exp(np.minimum(x, 0)) - t(1))
        return np.where(x < 0, scaled, t(_SELU_SCALE) * x)
    negative = _SELU_ALPHA * np.expm1(np.minimum(x, 0))
    return (_SELU_SCALE * np.where(x > 0, x, negative)).astype(x.dtype, copy=False)


def _selu_grad(op, g):
    x = op.inputs[0]
    # As TF's SeluGrad: the scale wherever the output is not negative (x = 0 included).
    slope = where(x < 0, _SELU_SCALE * _SELU_ALPHA * exp(x), _SELU_SCALE * ones_like(x))
    return g * slope


SELU = define_op('Selu', _selu_kernel, same_as_first, _selu_grad,
                 low_precision_steps=True)  # bfloat16: TF's formula, each step rounded


def selu(features, name=None):
    """scale * (x if x > 0 else alpha * (exp(x) - 1)), with the self-normalising constants."""
    return apply_op(SELU, (_features(features, 'selu'),), None, name)


def l2_normalize(x, axis=None, epsilon=1e-12, name=None, dim=None):
    """x / sqrt(max(sum(x**2, axis), epsilon))."""
    validation.op_name(name)
    t = to_tensor(x, name='x', op='l2_normalize')
    axis = dim if axis is None else axis
    squared = reduce_sum(square(t), axis, keepdims=True)
    return t * rsqrt(maximum(squared, to_tensor(epsilon, dtype=squared.dtype)))


# ---------------------------------------------------------------- normalisation and losses

def batch_normalization(x, mean, variance, offset, scale, variance_epsilon, name=None):
    """(x - mean) * scale / sqrt(variance + epsilon) + offset, as TF arranges it."""
    x = to_tensor(x, name='x', op='batch_normalization')
    inv = rsqrt(to_tensor(variance, dtype=x.dtype, op='batch_normalization') + variance_epsilon)
    if scale is not None:
        inv = inv * to_tensor(scale, dtype=x.dtype, op='batch_normalization')
    mean = to_tensor(mean, dtype=x.dtype, op='batch_normalization')
    shift = -mean * inv if offset is None else to_tensor(
        offset, dtype=x.dtype, op='batch_normalization') - mean * inv
    return x * inv + shift


def normalize_moments(counts, mean_ss, variance_ss, shift, name=None):
    """(mean, variance) from sufficient statistics (sums of x - shift and of its squares)."""
    mean_ss = to_tensor(mean_ss, name='mean_ss', op='normalize_moments')
    divisor = 1 / to_tensor(counts, dtype=mean_ss.dtype, name='counts', op='normalize_moments')
    shifted_mean = mean_ss * divisor
    mean = shifted_mean if shift is None else shifted_mean + shift
    variance = variance_ss * divisor - square(shifted_mean)
    return mean, variance


def weighted_cross_entropy_with_logits(labels, logits, pos_weight, name=None):
    """Sigmoid cross entropy with the positive term weighted by pos_weight (TF's stable form)."""
    validation.op_name(name)
    z = to_tensor(logits, name='logits', op='weighted_cross_entropy_with_logits')
    y = to_tensor(labels, dtype=z.dtype, name='labels', op='weighted_cross_entropy_with_logits')
    q = to_tensor(pos_weight, dtype=z.dtype, name='pos_weight',
                  op='weighted_cross_entropy_with_logits')
    weight = 1 + (q - 1) * y
    # relu, as TF's formula: its gradient at logits 0 is 0 (maximum's tie would give -1).
    return (1 - y) * z + weight * (log1p(exp(-abs(z))) + relu(-z))


def log_poisson_loss(targets, log_input, compute_full_loss=False, name=None):
    """exp(log_input) - log_input * targets (+ Stirling's term for targets > 1 when full)."""
    validation.op_name(name)
    c = to_tensor(log_input, name='log_input', op='log_poisson_loss')
    z = to_tensor(targets, dtype=c.dtype, name='targets', op='log_poisson_loss')
    loss = exp(c) - c * z
    if not compute_full_loss:
        return loss
    stirling = z * log(z) - z + 0.5 * log(2 * np.pi * z)
    safe = where(z > 1, stirling, zeros_like(z))
    return loss + safe


# ---------------------------------------------------------------- embedding_lookup

def _partitioned_ids(tables, ids):
    """Rows of the concatenated tables for TF's 'mod' partitioning: id i lives in partition
    i % n, at row i // n."""
    n = len(tables)
    sizes = [shape(t, out_type=ids.dtype)[0] for t in tables]
    starts = [sizes[0] * 0]
    for size in sizes[:-1]:
        starts.append(starts[-1] + size)
    return gather(stack(starts), ids % n) + ids // n


def embedding_lookup(params, ids, max_norm=None, name=None):
    """The rows of `params` named by `ids` (params may be a list of 'mod'-partitioned tables);
    rows longer than max_norm are scaled down to it."""
    validation.op_name(name)
    if isinstance(params, (list, tuple)):
        if not params:
            raise ValueError('embedding_lookup: params must not be empty')
        tables = [to_tensor(p, name='params', op='embedding_lookup') for p in params]
    else:
        tables = [to_tensor(params, name='params', op='embedding_lookup')]
    ids = to_tensor(ids, name='ids', op='embedding_lookup')
    if not ids.dtype.is_integer:
        raise TypeError(f'embedding_lookup: ids must be int32 or int64, got {error_helpers.describe(ids)}')
    if len(tables) == 1:
        result = gather(tables[0], ids)
    else:
        result = gather(concat(tables, axis=0), _partitioned_ids(tables, ids))
    if max_norm is None:
        return result
    norm_axes = list(range(ids.shape.rank, result.shape.rank))
    squared = reduce_sum(square(result), norm_axes, keepdims=True)
    limit = to_tensor(max_norm, dtype=result.dtype, name='max_norm', op='embedding_lookup')
    scale = where(squared > square(limit), limit * rsqrt(squared), ones_like(squared))
    return result * scale


# ---------------------------------------------------------------- dropout

def _noise_shape(x, noise_shape):
    if noise_shape is None:
        return shape(x)
    if isinstance(noise_shape, (list, tuple)):
        d = dims(x)
        filled = [d[i] if n is None and d is not None else n for i, n in enumerate(noise_shape)]
        if None in filled:
            return stack([shape(x)[i] if n is None else n for i, n in enumerate(noise_shape)])
        return filled
    return noise_shape


def dropout(x, rate, noise_shape=None, seed=None, name=None):
    """Zeros each element with probability `rate` and scales the rest by 1 / (1 - rate)."""
    validation.op_name(name)
    return dropout_with(x, rate, noise_shape,
                        lambda shape, dtype: uniform(shape, seed=seed, dtype=dtype))


def dropout_with(x, rate, noise_shape, uniform_sampler):
    """Dropout whose uniform noise comes from `uniform_sampler(shape, dtype)` (tf.nn.dropout's
    seeded ops, or nn.experimental's stateless and general forms)."""
    t = to_tensor(x, name='x', op='dropout')
    if not t.dtype.is_floating:
        raise ValueError(f'`x.dtype` must be a floating point tensor as `x` will be scaled. '
                         f'Received: x_dtype={t.dtype!r}')
    if isinstance(rate, (int, float)) and not isinstance(rate, bool):
        if not 0 <= rate < 1:
            raise ValueError(f'`rate` must be a scalar tensor or a float in the range [0, 1). '
                             f'Received: rate={rate}')
        if rate == 0:
            return t
        # TF scales by 1 / (1 - rate) computed in Python (float64), then rounded to x's dtype
        scaled = t * to_tensor(1 / (1 - rate), dtype=t.dtype, name='rate', op='dropout')
        rate_t = to_tensor(rate, dtype=t.dtype, name='rate', op='dropout')
    else:
        rate_t = to_tensor(rate, dtype=t.dtype, name='rate', op='dropout')
        if rate_t.shape.rank not in (None, 0):
            raise ValueError(f'`rate` must be a scalar tensor or a float in the range [0, 1). '
                             f'Received: rate={error_helpers.describe(rate_t)}')
        scaled = t / (1 - rate_t)
    # samplers are called with keywords, as TF calls them (general_dropout's may rely on it)
    noise = uniform_sampler(shape=_noise_shape(t, noise_shape), dtype=t.dtype)
    return where(greater_equal(noise, rate_t), scaled, zeros_like(scaled))


# ---------------------------------------------------------------- convolutions

def _one(value, name, op):
    """conv1d's stride/dilation: an int, [w] or [1, w, 1] -> w."""
    values = [int(v) for v in np.reshape(np.asarray(1 if value is None else value), [-1])]
    if len(values) == 1:
        return values[0]
    if len(values) == 3 and values[0] == 1 and values[2] == 1:
        return values[1]
    raise validation.invalid_argument(f'{op}: {name} must be an int, [w] or [1, w, 1], got '
                                      f'{values}')


def conv1d(input, filters, stride, padding, data_format='NWC', dilations=None, name=None):
    """1-D convolution of NWC (or NCW) `input` with WIO `filters` (conv2d over a height of
    one)."""
    data_format = data_format or 'NWC'
    layouts.check_format(data_format, ('NWC', 'NCW'), 'conv1d')
    x = to_tensor(input, name='input', op='conv1d')
    if not isinstance(padding, str):   # TF's conv1d takes no explicit padding
        raise TypeError(f"Expected string for argument 'padding' not {padding!r}.")
    w = to_tensor(filters, name='filters', op='conv1d')
    if x.shape.rank not in (None, 3) or w.shape.rank not in (None, 3):
        raise ValueError(f'conv1d: input must be 3-D [batch, width, channels] and filters 3-D '
                         f'[width, in, out]; got {error_helpers.describe(x)} and {error_helpers.describe(w)}')
    strides = (1, _one(stride, 'stride', 'conv1d'))
    rates = (1, _one(dilations, 'dilations', 'conv1d'))
    x = layouts.to_channels_last(x, data_format)
    out = conv2d(expand_dims(x, 1), expand_dims(w, 0), strides, padding, dilations=rates)
    return layouts.from_channels_last(squeeze(out, [1]), data_format)


def depthwise_conv2d(input, filter, strides, padding, data_format=None, dilations=None,
                     name=None):
    """Each input channel convolved with its own `channel_multiplier` filters: filter
    [height, width, in_channels, multiplier], output channel c * multiplier + m."""
    x = to_tensor(input, name='input', op='depthwise_conv2d')
    w = to_tensor(filter, dtype=x.dtype, name='filter', op='depthwise_conv2d')
    if w.shape.rank not in (None, 4):
        raise ValueError(f'depthwise_conv2d: filter must be 4-D [height, width, in_channels, '
                         f'multiplier], got {error_helpers.describe(w)}')
    if not isinstance(strides, (list, tuple)) and not hasattr(strides, 'shape'):
        raise TypeError(f"Expected list for 'strides' argument to 'depthwise_conv2d_native' Op, "
                        f'not {strides!r}.')
    hw_arg(strides, 'strides', 'depthwise_conv2d')
    size = shape(w)
    identity = diag(ones_like(w[0, 0, :, 0]))   # in_channels x in_channels, known or not
    spread = einsum('hwcm,cd->hwcdm', w, identity)
    full = reshape(spread, stack([size[0], size[1], size[2], size[2] * size[3]]))
    return conv2d(x, full, strides, padding, data_format=data_format or 'NHWC',
                  dilations=dilations)


# ---------------------------------------------------------------- built on conv2d and pooling

def crelu(features, axis=-1, name=None):
    """relu(x) and relu(-x) concatenated along axis (twice the channels)."""
    validation.op_name(name)
    x = to_tensor(features, name='features', op='crelu')
    return concat([relu(x), relu(-x)], axis=axis)


def _pool1d(pool, input, ksize, strides, padding, data_format, op):
    data_format = data_format or 'NWC'
    layouts.check_format(data_format, ('NWC', 'NCW'), op)
    x = to_tensor(input, name='input', op=op)
    if x.shape.rank not in (None, 3):
        raise ValueError(f'{op}: input must be 3-D [batch, width, channels], got '
                         f'{error_helpers.describe(x)}')
    if isinstance(padding, (list, tuple)):   # [[0, 0], [left, right], [0, 0]] -> NHWC pairs
        if len(padding) != 3:
            raise ValueError(f'When padding is a list, it must be of size 3. Received: '
                             f'padding={padding} of size {len(padding)}')
        first = layouts.channels_first(data_format)
        padding = [padding[0], [0, 0]] + ([padding[2], padding[1]] if first else
                                          [padding[1], padding[2]])
    k, s = _one(ksize, 'ksize', op), _one(strides, 'strides', op)
    x = layouts.to_channels_last(x, data_format)
    out = squeeze(pool(expand_dims(x, 1), (1, k), (1, s), padding), [1])
    return layouts.from_channels_last(out, data_format)


@documented('pool', 'Max pooling over 1-D windows of a 3-D tensor.')
def max_pool1d(input, ksize, strides, padding, data_format='NWC', name=None):
    return _pool1d(max_pool2d, input, ksize, strides, padding, data_format, 'max_pool1d')


@documented('pool', 'Average pooling over 1-D windows of a 3-D tensor.')
def avg_pool1d(input, ksize, strides, padding, data_format='NWC', name=None):
    return _pool1d(avg_pool2d, input, ksize, strides, padding, data_format, 'avg_pool1d')


def separable_conv2d(input, depthwise_filter, pointwise_filter, strides, padding,
                     data_format=None, dilations=None, name=None):
    """depthwise_conv2d followed by a 1x1 conv2d mixing the channels."""
    spatial = depthwise_conv2d(input, depthwise_filter, strides, padding, data_format, dilations)
    return conv2d(spatial, pointwise_filter, 1, 'VALID', data_format=data_format or 'NHWC')


def _block(block_size, op):
    b = validation.python_int(block_size, op, 'block_size')
    if b < 2:
        raise ValueError(f'{op}: block_size should be > 1, got {b}')
    return b


def space_to_depth(input, block_size, data_format='NHWC', name=None):
    """Each block_size x block_size patch of pixels moved into the depth, as TF orders it."""
    if data_format != 'NHWC':
        raise errors.UnimplementedError('space_to_depth: only data_format="NHWC" is supported')
    b = _block(block_size, 'space_to_depth')
    x = to_tensor(input, name='input', op='space_to_depth')
    s = shape(x)
    blocks = reshape(x, stack([s[0], s[1] // b, b, s[2] // b, b, s[3]]))
    moved = transpose(blocks, [0, 1, 3, 2, 4, 5])
    return reshape(moved, stack([s[0], s[1] // b, s[2] // b, s[3] * (b * b)]))


def depth_to_space(input, block_size, data_format='NHWC', name=None):
    """The inverse of space_to_depth."""
    if data_format != 'NHWC':
        raise errors.UnimplementedError('depth_to_space: only data_format="NHWC" is supported')
    b = _block(block_size, 'depth_to_space')
    x = to_tensor(input, name='input', op='depth_to_space')
    s = shape(x)
    blocks = reshape(x, stack([s[0], s[1], s[2], b, b, s[3] // (b * b)]))
    moved = transpose(blocks, [0, 1, 3, 2, 4, 5])
    return reshape(moved, stack([s[0], s[1] * b, s[2] * b, s[3] // (b * b)]))


# ---------------------------------------------------------------- loss scaling helpers

def compute_average_loss(per_example_loss, sample_weight=None, global_batch_size=None):
    """sum(per_example_loss * sample_weight) / global_batch_size; by default the global batch is
    this replica's batch size times the number of replicas in sync (1 without a strategy)."""
    loss = to_tensor(per_example_loss, name='per_example_loss', op='compute_average_loss')
    if sample_weight is not None:
        loss = loss * to_tensor(sample_weight, dtype=loss.dtype, op='compute_average_loss')
    if global_batch_size is None:
        replicas = _replicas_in_sync('compute_average_loss')
        batch = cast(shape(loss)[0], loss.dtype) if loss.shape.rank else 1.0
        global_batch_size = batch * replicas
    return reduce_sum(loss) / to_tensor(global_batch_size, dtype=loss.dtype)


def scale_regularization_loss(regularization_loss):
    """The regularization loss divided by the number of replicas in sync."""
    losses = regularization_loss if isinstance(regularization_loss, (list, tuple)) else [
        regularization_loss]
    tensors = [to_tensor(t, op='scale_regularization_loss') for t in losses]
    total = tensors[0]
    for t in tensors[1:]:
        total = total + t
    replicas = _replicas_in_sync('scale_regularization_loss')
    return total if replicas == 1 else total / to_tensor(replicas, dtype=total.dtype)


def _replicas_in_sync(op):
    """The current tf.distribute strategy's number of replicas (1 without one); these losses are
    computed per replica, so a strategy's cross-replica context is an error, as in TF."""
    current = context.current_distribution()
    if current is None:
        return 1
    if current[1] is None:
        raise RuntimeError(f'You are calling `{op}` in cross replica context, while it was '
                           'expected to be called in replica context.')
    return current[0].num_replicas_in_sync


def zero_fraction(value, name=None):
    """The fraction of elements of value that are zero, as a float32 scalar."""
    validation.op_name(name)
    x = to_tensor(value, name='value', op='zero_fraction')
    zeros = cast(x == zeros_like(x), dtypes.float32)
    return reduce_sum(zeros) / cast(reduce_sum(ones_like(zeros)), dtypes.float32)
