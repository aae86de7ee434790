"""Neural-network ops: activations (relu, relu6, elu, leaky_relu, gelu, silu), softmax and
log_softmax, l2_loss, bias_add, moments and the cross-entropy losses. Convolution and pooling live
in nn_conv.py.

As in TF, the piecewise activations have gradient ops of their own (ReluGrad, EluGrad, ...) whose
gradients are again such ops, so higher-order gradients need no masks built from comparisons.
Functions TF writes as compositions (gelu, silu, moments, the cross entropies) are compositions here
too, so their gradients come from the ops they use.
"""
import numpy as np

from defun.core import context, dtypes, error_helpers, errors
from defun.core.dispatch import apply_op
from defun.ops.support import helpers as op_helpers
from defun.ops.math import exports as math_ops
from defun.ops.support.helpers import dims, same_as_first, to_tensor
from defun.ops.framework.base_ops import cast, sum_to, zeros_like
from defun.ops.framework.python_ops import stop_gradient
from defun.ops.array.gathering import gather
from defun.ops.array.transform import expand_dims, squeeze
from defun.ops.support.dtype_checks import half_in_float32
from defun.ops.nn import native_losses
from defun.core.registry import define_op
from defun.ops.support import validation
from defun.ops.support.docs import documented

__all__ = ['relu', 'relu6', 'elu', 'leaky_relu', 'gelu', 'silu', 'swish', 'softmax',
           'log_softmax', 'l2_loss', 'bias_add', 'moments', 'sigmoid_cross_entropy_with_logits',
           'softmax_cross_entropy_with_logits', 'sparse_softmax_cross_entropy_with_logits']

_HALF = np.dtype(np.float16)


def _float_arg(x, op, name='features'):
    # TF's activations, softmax and losses take real floating point types only.
    return validation.element_type(to_tensor(x, name=name, op=op), 'f', op, name)


def _pair_infer(g, x, **attrs):
    return g.dtype, op_helpers.broadcast_dims(dims(g), dims(x))


# ---------------------------------------------------------------- relu family

def _relu_kernel(x):
    return np.maximum(x, np.zeros((), dtype=x.dtype))


RELU = define_op('Relu', _relu_kernel, same_as_first,
                 lambda op, g: relu_grad(g, op.outputs[0]),
                 lowering=('np.maximum({0}, {dtype}(0))', 'iuf'))
# (y > 0) * g, as the kernel's g * (y > 0): g or a zero of g's sign (NaN stays NaN).
RELU_GRAD = define_op(
    'ReluGrad', lambda g, y: g * (y > 0), _pair_infer,
    lambda op, grad: (relu_grad(grad, op.inputs[1]), zeros_like(op.inputs[1])),
    lowering=('({1} > 0) * {0}', 'iuf'))


def relu_grad(g, y):
    """g where y > 0, else 0."""
    return apply_op(RELU_GRAD, (g, y))


@documented('activation', 'Computes the rectified linear max(features, 0).')
def relu(features, name=None):
    x = validation.element_type(to_tensor(features, name='features', op='relu'), 'fiu', 'relu',
                                'features')
    return apply_op(RELU, (x,), None, name)


RELU6_GRAD = define_op(
    'Relu6Grad', lambda g, x: g * ((x > 0) & (x < 6)), _pair_infer,
    lambda op, grad: (apply_op(RELU6_GRAD, (grad, op.inputs[1])), zeros_like(op.inputs[1])))
RELU6 = define_op('Relu6', lambda x: np.clip(x, 0, 6).astype(x.dtype, copy=False), same_as_first,
                  lambda op, g: apply_op(RELU6_GRAD, (g, op.inputs[0])))


@documented('activation', 'Computes min(max(features, 0), 6).')
def relu6(features, name=None):
    x = validation.element_type(to_tensor(features, name='features', op='relu6'), 'fiu',
                                'relu6', 'features')
    return apply_op(RELU6, (x,), None, name)


def _elu_kernel(x):
    if x.dtype in dtypes.STEPWISE_FLOATS:  # TF's half/bfloat16 elu: exp(x) - 1, each step rounded
        return np.where(x < 0, np.exp(np.minimum(x, 0)) - x.dtype.type(1), x)
    return np.where(x > 0, x, np.expm1(np.minimum(x, 0))).astype(x.dtype, copy=False)


def _elu_grad_grad(op, grad):
    g, y = op.inputs
    # d/dy of g * (y + 1) on y < 0 is g; -relu_grad(-a, -y) is a where y < 0, else 0.
    return apply_op(ELU_GRAD, (grad, y)), -relu_grad(-(grad * g), -y)


ELU_GRAD = define_op('EluGrad', lambda g, y: np.where(y > 0, g, g * (y + 1)).astype(g.dtype),
                     _pair_infer, _elu_grad_grad)
ELU = define_op('Elu', _elu_kernel, same_as_first,
                lambda op, g: apply_op(ELU_GRAD, (g, op.outputs[0])),
                low_precision_steps=True)  # bfloat16: TF's formula, each step rounded


@documented('activation', 'Computes the exponential linear unit: exp(x) - 1 below 0, x above.')
def elu(features, name=None):
    return apply_op(ELU, (_float_arg(features, 'elu'),), None, name)


def _leaky_kernel(x, alpha):
    return np.where(x > 0, x, x * np.asarray(alpha, dtype=x.dtype))


LEAKY_RELU_GRAD = define_op(
    'LeakyReluGrad',
    lambda g, x, alpha: np.where(x > 0, g, g * np.asarray(alpha, dtype=g.dtype)), _pair_infer,
    lambda op, grad: (apply_op(LEAKY_RELU_GRAD, (grad, op.inputs[1]),
                               {'alpha': op.get_attr('alpha')}), zeros_like(op.inputs[1])))
LEAKY_RELU = define_op(
    'LeakyRelu', _leaky_kernel, same_as_first,
    lambda op, g: apply_op(LEAKY_RELU_GRAD, (g, op.inputs[0]), {'alpha': op.get_attr('alpha')}),
    low_precision_steps=True)  # TF multiplies by alpha rounded to the type


def leaky_relu(features, alpha=0.2, name=None):
    """Computes the leaky ReLU max(alpha * features, features).

    Args:
      features: A floating-point `Tensor`.
      alpha: The slope below zero.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` with the shape and dtype of `features`."""
    x = to_tensor(features, name='features', op='leaky_relu')
    if x.dtype.is_integer:  # TF casts integer features to float32 here
        x = cast(x, dtypes.float32)
    x = _float_arg(x, 'leaky_relu')
    if not isinstance(alpha, (int, float, np.number)) or isinstance(alpha, bool):
        raise TypeError(f'leaky_relu: `alpha` must be a float, got {alpha!r}')
    return apply_op(LEAKY_RELU, (x,), {'alpha': float(alpha)}, name)


def gelu(features, approximate=False, name=None):
    """x * Phi(x) (with erf), or TF's tanh approximation when `approximate`."""
    validation.op_name(name)
    x = to_tensor(features, name='features', op='gelu')
    if not x.dtype.is_floating:  # TF's check, a ValueError
        raise ValueError(f'gelu: `features.dtype` must be a floating point tensor, got '
                         f'{error_helpers.describe(x)}')
    # TF's formulas, op for op (in float16 each op rounds, so the order is part of the value).
    if approximate:
        coeff = cast(0.044715, x.dtype)
        inner = 0.7978845608028654 * (x + coeff * math_ops.pow(x, 3))
        return 0.5 * x * (1.0 + math_ops.tanh(inner))
    return 0.5 * x * math_ops.erfc(-x * cast(0.7071067811865476, x.dtype))


def silu(features, beta=1.0):
    """x * sigmoid(beta * x), for real and complex x. (TF's silu takes no `name`.)"""
    x = validation.element_type(to_tensor(features, name='features', op='silu'), 'fc', 'silu',
                                'features')
    return x * math_ops.sigmoid(x if beta == 1.0 else x * beta)


swish = silu


# ---------------------------------------------------------------- softmax

# The ufuncs' own reduce: np.max/np.sum's Python wrappers cost more than a small row's reduction.

def _softmax_kernel(x, axis):
    if not x.size:  # an empty tensor has an empty softmax (numpy's max has no identity)
        return x.copy()
    shifted = x - np.maximum.reduce(x, axis=axis, keepdims=True)
    e = np.exp(shifted)
    return e / np.add.reduce(e, axis=axis, keepdims=True)


def _log_softmax_kernel(x, axis):
    if not x.size:
        return x.copy()
    shifted = x - np.maximum.reduce(x, axis=axis, keepdims=True)
    return shifted - np.log(np.add.reduce(np.exp(shifted), axis=axis, keepdims=True))


def _softmax_grad(op, g):
    y, axis = op.outputs[0], op.get_attr('axis')
    return (g - math_ops.reduce_sum(g * y, axis=axis, keepdims=True)) * y


def _log_softmax_grad(op, g):
    y, axis = op.outputs[0], op.get_attr('axis')
    return g - math_ops.reduce_sum(g, axis=axis, keepdims=True) * math_ops.exp(y)


# TF computes a half softmax in float32 and rounds once (checked against TF 2.21).
SOFTMAX = define_op('Softmax', half_in_float32(_softmax_kernel), same_as_first, _softmax_grad,
                    lowering=native_losses.softmax_lowering)
LOG_SOFTMAX = define_op('LogSoftmax', _log_softmax_kernel, same_as_first, _log_softmax_grad,
                        lowering=native_losses.log_softmax_lowering)


def _softmax_axis(x, axis, op):
    if axis is None:
        axis = -1
    elif isinstance(axis, float):  # TF's shape function refuses it
        raise validation.invalid_argument(f'{op}: `axis` must be an int, got {axis!r}')
    else:
        if getattr(getattr(axis, 'shape', None), 'rank', 0) and context.executing_eagerly():
            # TF's wrapper builds range(axis) with it: Range's kernel refuses a non-scalar limit
            raise errors.InvalidArgumentError(f'{op}: limit must be a scalar, not shape '
                                              f'{axis.shape.as_list()} (`axis`)')
        axis = validation.compared_int(axis, op, 'axis')
    r = x.shape.rank
    if r is not None:
        if r == 0:
            raise validation.invalid_argument(f'{op}: logits must have rank >= 1, got a scalar')
        if not -r <= axis < r:
            # TF's kernel makes this check, so it is an InvalidArgumentError in graphs too.
            raise errors.InvalidArgumentError(
                f'{op}: axis {axis} is out of range for {error_helpers.describe(x)}')
    return axis


@documented('softmax', 'Computes softmax: exp(logits) / reduce_sum(exp(logits), axis).')
def softmax(logits, axis=None, name=None):
    x = _float_arg(logits, 'softmax', 'logits')
    return apply_op(SOFTMAX, (x,), {'axis': _softmax_axis(x, axis, 'softmax')}, name)


@documented('softmax', 'Computes log-softmax: logits - log(reduce_sum(exp(logits), axis)).')
def log_softmax(logits, axis=None, name=None):
    x = _float_arg(logits, 'log_softmax', 'logits')
    return apply_op(LOG_SOFTMAX, (x,), {'axis': _softmax_axis(x, axis, 'log_softmax')}, name)


# ---------------------------------------------------------------- losses and statistics

L2_LOSS = define_op('L2Loss', lambda x: (np.sum(np.square(x)) / 2).astype(x.dtype),
                    lambda x: (x.dtype, ()), lambda op, g: op.inputs[0] * g)


def l2_loss(t, name=None):
    """sum(t ** 2) / 2."""
    return apply_op(L2_LOSS, (_float_arg(t, 'l2_loss', 't'),), None, name)


def _bias_add_infer(x, b, data_format='NHWC'):
    d, bd = dims(x), dims(b)
    channels = None if d is None or not d else d[1] if data_format == 'NCHW' else d[-1]
    if channels is not None and bd is not None and bd[0] is not None and channels != bd[0]:
        where = 'channel dimension' if data_format == 'NCHW' else 'last dimension'
        raise validation.invalid_argument(
            f'bias_add: Must provide as many biases as the {where} of the input tensor: '
            f'{list(bd)} vs. {list(d)}')
    return x.dtype, d


def _bias_add_kernel(x, b, data_format='NHWC'):
    if data_format == 'NCHW':   # the bias runs along axis 1
        return x + b.reshape(b.shape + (1,) * (x.ndim - 2))
    return x + b


def _bias_add_grad(op, g):
    if op.attrs and op.attrs.get('data_format') == 'NCHW':
        axes = [0] + list(range(2, g.shape.rank))
        return g, math_ops.reduce_sum(g, axis=axes)
    return g, sum_to(g, op.inputs[1])


BIAS_ADD = define_op('BiasAdd', _bias_add_kernel, _bias_add_infer, _bias_add_grad)

def _channels_first(data_format):
    """TF's reading of bias_add's data_format: 'NC...' (NCHW, NCW, ...) puts the channels on
    axis 1, 'N...C' (NHWC, NWC, ...) last."""
    if data_format is None:
        return False
    if data_format.startswith('NC'):
        return True
    if data_format.startswith('N') and data_format.endswith('C'):
        return False
    raise ValueError('data_format must be of the form `N...C` or `NC...`')


def bias_add(value, bias, data_format=None, name=None):
    """value + bias along the channel axis: the last (NHWC, N...C) or axis 1 (NCHW, NC...)."""
    channels_first = _channels_first(data_format)
    x, b = op_helpers.binary_args(value, bias, 'bias_add')
    if b.shape.rank not in (None, 1):
        raise ValueError(f'bias_add: bias must be 1-D, got {error_helpers.describe(b)}')
    if x.shape.rank is not None and x.shape.rank < 2:
        raise validation.invalid_argument(f'bias_add: Input tensor must be at least 2D: got '
                                          f'{error_helpers.describe(x)}')
    attrs = {'data_format': 'NCHW'} if channels_first else None
    _bias_add_infer(x, b, **(attrs or {}))  # checks the bias length when both shapes are known
    return apply_op(BIAS_ADD, (x, b), attrs, name)


def moments(x, axes, shift=None, keepdims=False, name=None):
    """Mean and variance over `axes` as TF computes them: the variance about the (stopped) mean,
    float16 in float32, integers in integer arithmetic."""
    validation.op_name(name)
    x = to_tensor(x, name='x', op='moments')
    y = cast(x, dtypes.float32) if x.dtype is dtypes.float16 else x
    axes = list(axes) if not isinstance(axes, int) else [axes]
    mean = math_ops.reduce_mean(y, axis=axes, keepdims=True)
    centered = y - stop_gradient(mean)
    # TF's squared difference conjugates: a complex variance is |x - mean|^2 (a real value).
    squared = centered * math_ops.conj(centered) if y.dtype.is_complex else centered * centered
    variance = math_ops.reduce_mean(squared, axis=axes, keepdims=True)
    if not keepdims:
        mean, variance = squeeze(mean, axes), squeeze(variance, axes)
    if x.dtype is dtypes.float16:
        mean, variance = cast(mean, x.dtype), cast(variance, x.dtype)
    return mean, variance


def sigmoid_cross_entropy_with_logits(labels=None, logits=None, name=None):
    """max(x, 0) - x * z + log(1 + exp(-|x|)), TF's overflow-free form."""
    validation.op_name(name)
    if labels is None or logits is None:
        raise ValueError('sigmoid_cross_entropy_with_logits needs both labels and logits')
    x = _float_arg(logits, 'sigmoid_cross_entropy_with_logits', 'logits')
    z = to_tensor(labels, dtype=x.dtype, name='labels', op='sigmoid_cross_entropy_with_logits')
    op_helpers.broadcast_dims(dims(x), dims(z), 'sigmoid_cross_entropy_with_logits')
    if dims(x) is not None and dims(z) is not None and dims(x) != dims(z) and \
            None not in dims(x) + dims(z):
        raise ValueError(f'logits and labels must have the same shape ({x.shape} vs {z.shape})')
    # TF's where-based form, so the gradient at x = 0 is sigmoid(0) - z, as TF's.
    positive = math_ops.greater_equal(x, zeros_like(x))
    relu_x = math_ops.where(positive, x, zeros_like(x))
    neg_abs_x = math_ops.where(positive, -x, x)
    return relu_x - x * z + math_ops.log1p(math_ops.exp(neg_abs_x))


def _xent_kernel(logits, labels, axis):
    shifted = logits - np.max(logits, axis=axis, keepdims=True)
    exp = np.exp(shifted)
    total = np.sum(exp, axis=axis, keepdims=True)
    loss = -np.sum(labels * (shifted - np.log(total)), axis=axis)
    # d loss / d logits, kept as the op's second output for the gradient (TF's "backprop").
    backprop = exp / total * np.sum(labels, axis=axis, keepdims=True) - labels
    return loss.astype(logits.dtype, copy=False), backprop


def _xent_infer(logits, labels, axis):
    d = dims(logits)
    return [(logits.dtype, None if d is None else d[:axis % len(d)] + d[axis % len(d) + 1:]),
            (logits.dtype, d)]


def _xent_grad(op, grad_loss, grad_backprop):
    logits, labels = op.inputs
    axis = op.get_attr('axis')
    g = expand_dims(grad_loss, axis) if grad_loss is not None else None
    d_logits = None if g is None else g * op.outputs[1]
    d_labels = None if g is None else g * -log_softmax(logits, axis=axis)
    if grad_backprop is not None:
        # Second order: the backprop output is softmax(logits) * sum(labels) - labels.
        p = softmax(logits, axis=axis)
        gp = math_ops.reduce_sum(grad_backprop * p, axis=axis, keepdims=True)
        through_softmax = math_ops.reduce_sum(labels, axis=axis, keepdims=True) * \
            (grad_backprop - gp) * p
        d_logits = through_softmax if d_logits is None else d_logits + through_softmax
        d_labels = (gp - grad_backprop) if d_labels is None else d_labels + gp - grad_backprop
    return d_logits, d_labels


# A None for the backprop output skips second-order work.
SOFTMAX_XENT = define_op('SoftmaxCrossEntropyWithLogits', _xent_kernel, _xent_infer, _xent_grad,
                         num_outputs=2, accepts_missing_grads=True,
                         lowering=native_losses.xent_lowering)


def softmax_cross_entropy_with_logits(labels, logits, axis=-1, name=None):
    """-sum(labels * log_softmax(logits)) over `axis`: one fused op when the shapes agree (its
    gradient reuses the softmax computed on the way forward), as TF's kernel."""
    x = _float_arg(logits, 'softmax_cross_entropy_with_logits', 'logits')
    z = to_tensor(labels, name='labels', op='softmax_cross_entropy_with_logits')
    if z.dtype is not x.dtype and z.dtype.is_floating:  # TF casts float labels to the logits'
        z = cast(z, x.dtype)
    z = to_tensor(z, dtype=x.dtype, name='labels', op='softmax_cross_entropy_with_logits')
    if dims(x) is not None and dims(z) is not None and \
            not x.shape.is_compatible_with(z.shape):
        raise validation.invalid_argument(
            f'softmax_cross_entropy_with_logits: logits and labels must be broadcastable: '
            f'logits_size={list(dims(x))} labels_size={list(dims(z))}')
    axis = _softmax_axis(x, axis, 'softmax_cross_entropy_with_logits')
    if dims(x) is not None and dims(x) == dims(z) and None not in dims(x):
        loss, _ = apply_op(SOFTMAX_XENT, (x, z), {'axis': axis}, name)
        return loss
    return -math_ops.reduce_sum(z * log_softmax(x, axis=axis), axis=axis)


def _sparse_xent_kernel(logits, labels):
    n = logits.shape[-1]
    if labels.size:
        low, high = labels.min(), labels.max()
        if low < 0 or high >= n:  # TF's CPU kernel check, and its message
            raise validation.invalid_argument(
                f'Received a label value of {low if low < 0 else high} which is outside the valid '
                f'range of [0, {n}).  Label values: {" ".join(map(str, labels.reshape(-1)))}')
    shifted = logits - np.maximum.reduce(logits, axis=-1, keepdims=True)
    exp = np.exp(shifted)
    total = np.add.reduce(exp, axis=-1, keepdims=True)
    loss = np.log(total[..., 0]) - np.take_along_axis(shifted, labels[..., None], -1)[..., 0]
    # d loss / d logits (TF's second output, "backprop"): softmax minus the one-hot labels.
    # (Indexed along the axis, not through a flat view: logits that arrive transposed give a
    # backprop whose reshape would be a copy.)
    backprop = exp / total
    at = labels[..., None].astype(np.intp)
    np.put_along_axis(backprop, at, np.take_along_axis(backprop, at, -1) - 1, -1)
    return loss, backprop


def _sparse_xent_grad(op, grad_loss, grad_backprop):
    d_logits = None if grad_loss is None else expand_dims(grad_loss, -1) * op.outputs[1]
    if grad_backprop is not None:
        # Second order: the backprop output is softmax(logits) minus a constant.
        p = softmax(op.inputs[0])
        through = (grad_backprop - math_ops.reduce_sum(grad_backprop * p, axis=-1,
                                                       keepdims=True)) * p
        d_logits = through if d_logits is None else d_logits + through
    return d_logits, None


SPARSE_SOFTMAX_XENT = define_op(
    'SparseSoftmaxCrossEntropyWithLogits', _sparse_xent_kernel,
    lambda logits, labels: [(logits.dtype, None if dims(logits) is None else dims(logits)[:-1]),
                            (logits.dtype, dims(logits))],
    _sparse_xent_grad, num_outputs=2, accepts_missing_grads=True,
    lowering=native_losses.sparse_xent_lowering)


def sparse_softmax_cross_entropy_with_logits(labels=None, logits=None, name=None):
    """-log_softmax(logits)[..., labels]: labels are class indices, one per row of logits."""
    op = 'sparse_softmax_cross_entropy_with_logits'
    x = _float_arg(logits, op, 'logits')
    z = to_tensor(labels, name='labels', op=op)
    if not z.dtype.is_integer:
        raise TypeError(f'{op}: labels must be int32 or int64, got {error_helpers.describe(z)}')
    lr, xr = z.shape.rank, x.shape.rank
    if lr is None or xr is None:
        raise ValueError(f'{op}: labels and logits need known ranks')
    if xr != lr + 1 or any(a is not None and b is not None and a != b
                           for a, b in zip(dims(x)[:lr], dims(z))):
        raise ValueError(f'{op}: Shape mismatch: The shape of labels (received {z.shape}) should '
                         f'equal the shape of logits except for the last dimension (received '
                         f'{x.shape}).')
    if x.dtype.np_dtype == _HALF:  # softmax computes a half in float32: keep its rounding
        return -gather(log_softmax(x), z, axis=lr, batch_dims=lr)
    loss, _ = apply_op(SPARSE_SOFTMAX_XENT, (x, z), None, name)
    return loss

