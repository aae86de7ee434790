"""Stateful random ops: normal, uniform (float and int), truncated_normal, shuffle, categorical,
gamma and poisson, with TF's seed semantics.

An op's two seeds are resolved when it is created, as TF's get_seed does: with a global seed
(tf.random.set_seed) an unseeded op takes the next of a sequence the global seed determines
(eagerly) or the graph's op count (in a graph); with only an op seed, the global seed is TF's
default.
Each op draws from a numpy Generator, its `stream` attr: eagerly, an op the user seeded continues
the stream of earlier calls with the same seeds (TF caches such kernels), which set_seed restarts;
in a graph, every op node owns its stream, so each compiled call draws anew and two functions built
after the same set_seed draw the same numbers. Unseeded ops without a global seed draw from OS
entropy. The ops are stateful (never folded or pruned); only gamma is differentiable (in alpha,
as TF).
"""
import math

import numpy as np

from defun.core import context, dtypes, error_helpers
from defun.core.dispatch import apply_op
from defun.ops.support import helpers as op_helpers
from defun.ops.framework.base_ops import ones_like, sum_to
from defun.ops.math.exports import maximum
from defun.ops.support.helpers import dims, to_tensor
from defun.ops.support import validation
from defun.ops.random import samplers
from defun.ops.random.philox import Stream
from defun.core.registry import define_op
from defun.core.tensor import Tensor

__all__ = ['normal', 'uniform', 'truncated_normal', 'shuffle', 'categorical', 'gamma', 'poisson']


# ---------------------------------------------------------------- seeds and streams

def op_seeds(seed):
    """(seed, seed2) for a new op as TF's random_seed.get_seed: None when nothing is seeded."""
    global_seed = context.global_seed()
    graph = context.current_graph()
    if global_seed is not None:
        if seed is None:
            seed = context.next_operation_seed() if graph is None else graph.next_op_seed()
        seeds = (global_seed, int(seed))
    elif seed is not None:
        seeds = (context.DEFAULT_GRAPH_SEED, int(seed))
    else:
        return None
    return (0, 2 ** 31 - 1) if seeds == (0, 0) else seeds


def random_attrs(op_type, dtype, seed):
    """The seed, seed2 and stream attrs of a new stateful random op."""
    context.check_random_seed(seed)   # tf.config.experimental.enable_op_determinism's rule
    seeds = op_seeds(seed)
    if seeds is None:    # unseeded: TF draws both seeds from OS entropy
        stream = Stream(*(int(w) for w in context.random_generator().integers(
            1, 2 ** 63, size=2)))
    elif context.current_graph() is not None or seed is None:
        # A graph's op owns its kernel; an op seed from the global sequence is used once.
        stream = Stream(*seeds)
    else:
        stream = context.random_stream((op_type, dtype.name, seeds), lambda: Stream(*seeds))
    seed, seed2 = seeds or (0, 0)
    return {'seed': seed, 'seed2': seed2, 'stream': stream}


def shape_arg(shape, op):
    if isinstance(shape, Tensor):
        return validation.shape_tensor(shape, op)
    if isinstance(shape, (list, tuple)) and any(isinstance(d, (bool, np.bool_, Tensor))
                                                for d in shape):  # TF converts, then checks
        return validation.shape_tensor(to_tensor(shape, name='shape', op=op), op)
    return validation.shape_tensor(op_helpers.int_input(shape, op, 'shape'), op)


def shape_infer(shape_t, *rest, dtype=None, **attrs):
    dims_ = op_helpers.shape_arg_dims(shape_t)
    negative = [d for d in dims_ or () if d is not None and d < 0]
    if negative:  # TF's shape function refuses it while the graph is built
        raise validation.invalid_argument(f'Dimension {negative[0]} must be >= 0 in shape '
                                          f'{list(dims_)}')
    return dtype, dims_


def sizes(shape_array):
    result = tuple(int(n) for n in np.reshape(shape_array, [-1]))
    if any(n < 0 for n in result):
        raise validation.invalid_argument(f'Dimension -1 must be >= 0 in shape {list(result)}')
    return result


def float_dtype(dtype, op):
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise TypeError(f'{op}: dtype must be a floating point type, got {dtype.name}')
    return dtype


def compute_dtype(dtype):
    """The numpy dtype TF's kernels draw floats of `dtype` in (half precision via float32)."""
    return np.float64 if dtype == dtypes.float64 else np.float32


def _define(op_type, draw, infer=shape_infer):
    return define_op(op_type, draw, infer, None, stateful=True)


RANDOM_NORMAL = _define('RandomStandardNormal', lambda s, dtype, seed, seed2, stream: stream.
                        standard_normal(sizes(s), compute_dtype(dtype)).astype(dtype.np_dtype))
RANDOM_UNIFORM = _define('RandomUniform', lambda s, dtype, seed, seed2, stream: stream.random(
    sizes(s), compute_dtype(dtype)).astype(dtype.np_dtype))
TRUNCATED_NORMAL = _define('TruncatedNormal', lambda s, dtype, seed, seed2, stream: stream.
                           truncated_normal(sizes(s), compute_dtype(dtype)).astype(dtype.np_dtype))


def _uniform_int_kernel(s, minval, maxval, seed, seed2, stream):
    if not minval < maxval:
        raise validation.invalid_argument(f'Need minval < maxval: {minval} >= {maxval} '
                                          f'[Op:RandomUniformInt]')
    return stream.integers(minval, maxval, sizes(s), np.asarray(minval).dtype)


RANDOM_UNIFORM_INT = _define('RandomUniformInt', _uniform_int_kernel,
                             lambda s, lo, hi, **attrs: shape_infer(s, dtype=lo.dtype))


def _draw(opdef, shape, dtype, seed, name, op):
    attrs = {'dtype': dtype, **random_attrs(opdef.type, dtype, seed)}
    return apply_op(opdef, (shape_arg(shape, op),), attrs, name)


def _scaled(z, mean, stddev, dtype, op):
    stddev = to_tensor(stddev, dtype=dtype, name='stddev', op=op)
    mean = to_tensor(mean, dtype=dtype, name='mean', op=op)
    return z * stddev + mean


def normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    """Samples from N(mean, stddev**2)."""
    dtype = float_dtype(dtype, 'random.normal')
    z = _draw(RANDOM_NORMAL, shape, dtype, seed, name, 'random.normal')
    return _scaled(z, mean, stddev, dtype, 'random.normal')


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    """Samples from N(mean, stddev**2) truncated to two standard deviations of the mean."""
    dtype = float_dtype(dtype, 'random.truncated_normal')
    z = _draw(TRUNCATED_NORMAL, shape, dtype, seed, name, 'random.truncated_normal')
    return _scaled(z, mean, stddev, dtype, 'random.truncated_normal')


def uniform(shape, minval=0, maxval=None, dtype=dtypes.float32, seed=None, name=None):
    """Samples from [minval, maxval): floats, or integers when dtype is int32/int64."""
    dtype = dtypes.as_dtype(dtype)
    if dtype.is_integer:
        if maxval is None:
            raise ValueError(f'Must specify maxval for integer dtype {dtype!r}')
        if dtype not in (dtypes.int32, dtypes.int64):
            raise TypeError(f'random.uniform: integer dtype must be int32 or int64, got '
                            f'{dtype.name}')
        lo = to_tensor(minval, dtype=dtype, name='minval', op='random.uniform')
        hi = to_tensor(maxval, dtype=dtype, name='maxval', op='random.uniform')
        attrs = random_attrs('RandomUniformInt', dtype, seed)
        return apply_op(RANDOM_UNIFORM_INT, (shape_arg(shape, 'random.uniform'), lo, hi), attrs,
                        name)
    dtype = float_dtype(dtype, 'random.uniform')
    u = _draw(RANDOM_UNIFORM, shape, dtype, seed, name, 'random.uniform')
    lo = to_tensor(minval, dtype=dtype, name='minval', op='random.uniform')
    hi = to_tensor(1 if maxval is None else maxval, dtype=dtype, name='maxval',
                   op='random.uniform')
    return u * (hi - lo) + lo


# ---------------------------------------------------------------- shuffle, categorical

def _shuffle_kernel(x, seed, seed2, stream):
    if np.ndim(x) == 0 or np.shape(x)[0] <= 1:
        return np.array(x)  # TF's kernel forwards a scalar or a single row, drawing nothing
    return x[stream.permutation(np.shape(x)[0])]


RANDOM_SHUFFLE = _define('RandomShuffle', _shuffle_kernel, lambda x, **attrs: (x.dtype, dims(x)))


def restart_streams(operations):
    """Restarts the stream of every stateful random op among `operations`: TF makes new kernels
    for a dataset's functions with each new iterator, so each iterator draws the same numbers."""
    for op in operations:
        stream = op.attrs.get('stream')
        if isinstance(stream, Stream):
            stream.restart()


def shuffle(value, seed=None, name=None):
    """`value` with its first dimension randomly permuted."""
    x = to_tensor(value, op='random.shuffle')
    return apply_op(RANDOM_SHUFFLE, (x,), random_attrs('RandomShuffle', x.dtype, seed), name)


def categorical_draw(logits, num_samples, dtype, take):
    """TF's multinomial sampling of each row of `logits`; `take(n)` gives the Draws for a kernel
    call reserving n numbers (doubles: two per sample, four samples a block, per row)."""
    if logits.ndim != 2:
        raise validation.invalid_argument(f'logits should be a matrix, got shape '
                                          f'{list(logits.shape)}')
    if num_samples < 0:
        raise validation.invalid_argument(f'num_samples should be nonnegative, got {num_samples}')
    batch = logits.shape[0]
    if batch * num_samples == 0:
        return np.zeros((batch, num_samples), dtype.np_dtype)
    if logits.shape[1] == 0:
        raise validation.invalid_argument('num_classes should be positive, got 0')
    draws = take(batch * ((num_samples + 3) // 4 * 4) * 2)
    return samplers.multinomial(draws, logits, num_samples).astype(dtype.np_dtype)


def categorical_infer(logits, num_samples, *rest, dtype=None, **attrs):
    d = dims(logits)
    if d is not None and len(d) != 2:
        raise validation.invalid_argument(f'categorical: logits should be a matrix, got '
                                          f'{error_helpers.describe(logits)}')
    n = op_helpers.static_value(num_samples)
    return dtype, ((None if d is None else d[0]), None if n is None else int(n))


def _multinomial_kernel(logits, num_samples, dtype, seed, seed2, stream):
    return categorical_draw(logits, int(num_samples), dtype, stream.take)


MULTINOMIAL = _define('Multinomial', _multinomial_kernel, categorical_infer)


def categorical(logits, num_samples, dtype=None, seed=None, name=None):
    """num_samples class indices per row of logits [batch, classes] (unnormalised log-probs)."""
    x = to_tensor(logits, name='logits', op='random.categorical')
    op_helpers.float_only(x, 'random.categorical')
    dtype = dtypes.int64 if dtype is None else dtypes.as_dtype(dtype)
    n = to_tensor(num_samples, dtype=dtypes.int32, name='num_samples', op='random.categorical')
    attrs = {'dtype': dtype, **random_attrs('Multinomial', dtype, seed)}
    return apply_op(MULTINOMIAL, (x, n), attrs, name)


# ---------------------------------------------------------------- gamma, poisson

def param_shape_infer(s, param, dtype=None, **attrs):
    dtype_, head = shape_infer(s, dtype=dtype)
    tail = dims(param)
    return dtype, None if head is None or tail is None else head + tail


# The gradient of a gamma sample in alpha is TF's implicit reparameterisation: with the sample x
# held at its quantile, dx/dalpha = -(dP/dalpha)(alpha, x) / p(x; alpha), P being the regularised
# lower incomplete gamma function (series below x = alpha + 1, continued fraction above).

_LGAMMA = np.frompyfunc(math.lgamma, 1, 1)


def _lgamma(a):
    return np.asarray(_LGAMMA(a), dtype=np.float64)


def regularized_lower_gamma(a, x, iterations=300):
    """P(a, x), by its series below x = a + 1 and by Lentz's continued fraction for Q above."""
    a, x = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(x, np.float64))
    with np.errstate(divide='ignore', invalid='ignore', over='ignore', under='ignore'):
        log_prefix = a * np.log(x) - x - _lgamma(a)
        # series: sum_n x^n / (a (a+1) ... (a+n))
        term = 1.0 / a
        total = term.copy()
        for n in range(1, iterations):
            term = term * x / (a + n)
            total = total + term
        series = np.exp(log_prefix) * total
        # continued fraction for Q(a, x)
        tiny = 1e-300
        b = x + 1.0 - a
        c = np.full_like(x, 1.0 / tiny)
        d = 1.0 / np.where(b == 0, tiny, b)
        h = d.copy()
        for i in range(1, iterations):
            an = -i * (i - a)
            b = b + 2.0
            d = an * d + b
            d = np.where(np.abs(d) < tiny, tiny, d)
            c = b + an / c
            c = np.where(np.abs(c) < tiny, tiny, c)
            d = 1.0 / d
            h = h * d * c
        upper = np.exp(log_prefix) * h
    result = np.where(x < a + 1, series, 1.0 - upper)
    return np.where(x <= 0, 0.0, result)


def gamma_sample_grad(alpha, sample):
    """d sample / d alpha for gamma samples with unit rate (implicit reparameterisation):
    -(dP/dalpha)(alpha, x) / p(x; alpha), dP/dalpha by central differences in alpha."""
    a = np.asarray(alpha, np.float64)
    x = np.asarray(sample, np.float64)
    h = 1e-6 * np.maximum(a, 1e-3)
    dp = (regularized_lower_gamma(a + h, x) - regularized_lower_gamma(a - h, x)) / (2 * h)
    with np.errstate(divide='ignore', invalid='ignore', over='ignore', under='ignore'):
        log_density = (a - 1) * np.log(x) - x - _lgamma(a)
        return -dp / np.exp(log_density)


RANDOM_GAMMA_GRAD = define_op(
    'RandomGammaGrad', lambda alpha, sample: gamma_sample_grad(alpha, sample).astype(sample.dtype),
    lambda alpha, sample: (sample.dtype, dims(sample)), None)


def gamma_grad(op, g):
    """The gradient of a gamma draw (RandomGamma or its stateless form) for its alpha input."""
    alpha, sample = op.inputs[-1], op.outputs[0]
    partial = apply_op(RANDOM_GAMMA_GRAD, (alpha, sample))
    return (None,) * (len(op.inputs) - 1) + (sum_to(g * partial, alpha),)


def _gamma_kernel(s, alpha, dtype, seed, seed2, stream):
    n = int(np.prod(sizes(s), dtype=np.int64))
    full = sizes(s) + np.shape(alpha)
    if n * np.size(alpha) == 0:
        return np.zeros(full, dtype.np_dtype)
    draws = stream.take(n * np.size(alpha))
    samples = samplers.gamma(draws, np.ravel(alpha), n, stateless=False)
    return samples.reshape(full).astype(dtype.np_dtype)


RANDOM_GAMMA = define_op('RandomGamma', _gamma_kernel, param_shape_infer, gamma_grad,
                         stateful=True)


def gamma(shape, alpha, beta=None, dtype=dtypes.float32, seed=None, name=None):
    """Gamma(alpha, beta) samples of shape shape + broadcast(alpha, beta).shape."""
    dtype = float_dtype(dtype, 'random.gamma')
    a = to_tensor(alpha, dtype=dtype, name='alpha', op='random.gamma')
    if beta is not None:
        b = to_tensor(beta, dtype=dtype, name='beta', op='random.gamma')
        a = a * ones_like(b)   # alpha broadcast against beta: TF's sample shape
    attrs = {'dtype': dtype, **random_attrs('RandomGamma', dtype, seed)}
    samples = apply_op(RANDOM_GAMMA, (shape_arg(shape, 'random.gamma'), a), attrs, name)
    return tiny_floor(samples if beta is None else samples / b, dtype)


def tiny_floor(samples, dtype):
    """Gamma samples raised to the smallest normal float at least, as TF's wrappers do."""
    return maximum(to_tensor(np.finfo(dtype.np_dtype).tiny, dtype=dtype), samples)


def _poisson_kernel(s, lam, dtype, seed, seed2, stream):
    n = int(np.prod(sizes(s), dtype=np.int64))
    full = sizes(s) + np.shape(lam)
    if n * np.size(lam) == 0:
        return np.zeros(full, dtype.np_dtype)
    draws = stream.take(n * np.size(lam))
    return samplers.poisson(draws, np.ravel(lam), n).reshape(full).astype(dtype.np_dtype)


RANDOM_POISSON = _define('RandomPoissonV2', _poisson_kernel, param_shape_infer)


def poisson(shape, lam, dtype=dtypes.float32, seed=None, name=None):
    """Poisson(lam) samples of shape shape + lam.shape, in `dtype` (float or integer)."""
    dtype = dtypes.as_dtype(dtype)
    lam_t = to_tensor(lam, name='lam', op='random.poisson')
    op_helpers.float_only(lam_t, 'random.poisson')
    attrs = {'dtype': dtype, **random_attrs('RandomPoissonV2', dtype, seed)}
    return apply_op(RANDOM_POISSON, (shape_arg(shape, 'random.poisson'), lam_t), attrs, name)
