"""Stateless random ops (tf.random.stateless_*) and the counter-based draws tf.random.Generator
makes: the same seed always gives the same numbers, in eager code and in graphs alike.

As in TF, a shape-[2] seed is first turned into a Philox key and counter
(StatelessRandomGetKeyCounter, TF's scrambling); every distribution op then takes (shape, key,
counter) and draws TF's own numbers at exactly that key and counter (defun.ops.random.philox), so the ops
are pure functions of their inputs. A Generator passes the key and counter read from its state
Variable instead.
"""
import numpy as np

from defun.core import dtypes, error_helpers
from defun.core.dispatch import apply_op
from defun.ops.support import helpers as op_helpers
from defun.ops.array.joining import stack
from defun.ops.framework.base_ops import ones_like
from defun.ops.support.helpers import to_tensor
from defun.ops.random.stateful import (categorical_draw, categorical_infer, compute_dtype, tiny_floor,
                              float_dtype, gamma_grad, shape_arg, shape_infer, sizes)
from defun.ops.support import validation
from defun.ops.random import samplers
from defun.ops.random.philox import Draws, key_counter_from_seed
from defun.core.registry import define_op
from defun.ops.support.docs import documented

__all__ = ['stateless_normal', 'stateless_uniform', 'stateless_truncated_normal',
           'stateless_categorical', 'stateless_binomial', 'stateless_gamma', 'stateless_poisson']
EXPERIMENTAL = ['stateless_split', 'stateless_fold_in']   # tf.random.experimental only

_MASK = (1 << 64) - 1


def philox(key, counter):
    """TF's Philox draws at one key ([1] int64) and counter ([2] int64, low word first)."""
    k = int(np.asarray(key).astype(np.uint64).ravel()[0])
    words = [int(w) for w in np.asarray(counter).astype(np.uint64).ravel()[:2]]
    # ThreeFry's state has a one-word counter; it draws Philox bits too (not TF's ThreeFry).
    return Draws(k, words[0] | (words[-1] << 64 if len(words) == 2 else 0))


def _key_counter_kernel(seed):
    if np.shape(seed) != (2,):
        raise validation.invalid_argument(f'seed must have shape [2], not {list(np.shape(seed))} '
                                          f'[Op:StatelessRandomGetKeyCounter]')
    s0, s1 = (int(w) & _MASK for w in np.asarray(seed).astype(np.int64))
    key, counter = key_counter_from_seed(s0, s1)
    words = np.array([counter & _MASK, counter >> 64], np.uint64).astype(np.int64)
    return np.array([key], np.uint64).astype(np.int64), words


def _key_counter_infer(seed):
    d = seed.shape.as_tuple()
    if d is not None and d != (2,) and None not in d:
        raise validation.invalid_argument(f'seed must have shape [2], not {list(d)}')
    if not seed.dtype.is_integer:
        raise TypeError(f'stateless random ops: seed must be int32 or int64, got '
                        f'{error_helpers.describe(seed)}')
    return [(dtypes.int64, (1,)), (dtypes.int64, (2,))]


KEY_COUNTER = define_op('StatelessRandomGetKeyCounter', _key_counter_kernel, _key_counter_infer,
                        None, num_outputs=2)


def key_counter(seed):
    """(key, counter) for a shape-[2] integer seed."""
    s = to_tensor(seed, name='seed', op='stateless random op')
    if not s.dtype.is_integer:
        raise TypeError(f'stateless random ops: seed must be an int32 or int64 tensor of shape '
                        f'[2], got {error_helpers.describe(s)}')
    return apply_op(KEY_COUNTER, (s,))


def _kernel(draw):
    def kernel(s, key, counter, *params, dtype):
        return draw(philox(key, counter), sizes(s), *params, dtype=dtype).astype(dtype.np_dtype)
    return kernel


def _uniform_int(gen, size, lo, hi, dtype):
    if not lo < hi:
        raise validation.invalid_argument(f'Need minval < maxval: {lo} >= {hi}')
    return gen.integers(lo, hi, size, np.asarray(lo).dtype)


def _full_int(gen, size, dtype_holder, dtype):
    return gen.full_int(size, dtype_holder.dtype)


def _suffix_check(size, param_shape):
    if tuple(size[len(size) - len(param_shape):]) != tuple(param_shape) or \
            len(param_shape) > len(size):
        raise validation.invalid_argument('Shape passed in must end with broadcasted shape.')
    return int(np.prod(size, dtype=np.int64)) // max(int(np.prod(param_shape, dtype=np.int64)), 1)


def _binomial(gen, size, counts, probs, dtype):
    counts, probs = np.broadcast_arrays(counts, probs)
    per_batch = _suffix_check(size, counts.shape)
    if per_batch * counts.size == 0:
        return np.zeros(size)
    out = samplers.binomial(gen, counts.ravel(), probs.ravel(), per_batch,
                            probs.dtype != np.float64)
    return out.reshape(size)


def _gamma(gen, size, alpha, dtype):
    per_alpha = _suffix_check(size, np.shape(alpha))
    if per_alpha * np.size(alpha) == 0:
        return np.zeros(size)
    return samplers.gamma(gen, np.ravel(alpha), per_alpha, stateless=True).reshape(size)


def _poisson(gen, size, lam, dtype):
    per_rate = _suffix_check(size, np.shape(lam))
    if per_rate * np.size(lam) == 0:
        return np.zeros(size)
    return samplers.poisson(gen, np.ravel(lam), per_rate).reshape(size)


# defun's key and counter are int64 (TF's are uint64) and the distribution's parameters follow
# them in another order than TF's: the signature checks the shape input and the attributes only.
_SHAPE_ONLY = {'inputs': ('shape: Tshape',)}
_NO_INPUTS = {'inputs': ()}
NORMAL = define_op('StatelessRandomNormalV2', _kernel(
    lambda g, s, dtype: g.standard_normal(s, compute_dtype(dtype))), shape_infer, None, **_SHAPE_ONLY)
UNIFORM = define_op('StatelessRandomUniformV2', _kernel(
    lambda g, s, dtype: g.random(s, compute_dtype(dtype))), shape_infer, None, **_SHAPE_ONLY)
TRUNCATED = define_op('StatelessTruncatedNormalV2', _kernel(
    lambda g, s, dtype: g.truncated_normal(s, compute_dtype(dtype))), shape_infer, None,
    **_SHAPE_ONLY)
UNIFORM_INT = define_op('StatelessRandomUniformIntV2', _kernel(_uniform_int), shape_infer, None,
                        **_SHAPE_ONLY)
FULL_INT = define_op('StatelessRandomUniformFullIntV2', _kernel(_full_int), shape_infer, None,
                     **_SHAPE_ONLY)
BINOMIAL = define_op('StatelessRandomBinomial', _kernel(_binomial), shape_infer, None, **_NO_INPUTS)
# Unlike tf.random.gamma/poisson, the stateless forms take `shape` ending with their parameter's.
GAMMA = define_op('StatelessRandomGammaV3', _kernel(_gamma), shape_infer, gamma_grad,
                  **_NO_INPUTS)
POISSON = define_op('StatelessRandomPoisson', _kernel(_poisson), shape_infer, None, **_NO_INPUTS)


def _multinomial_kernel(logits, num_samples, key, counter, dtype):
    return categorical_draw(logits, int(num_samples), dtype, lambda n: philox(key, counter))


MULTINOMIAL = define_op('StatelessMultinomial', _multinomial_kernel, categorical_infer, None,
                        inputs=('logits: T',))


def draw(opdef, shape, key, counter, dtype, params=(), name=None, op='stateless'):
    """One counter-based draw (used by the stateless functions and by Generator)."""
    return apply_op(opdef, (shape_arg(shape, op), key, counter) + tuple(params),
                    {'dtype': dtype}, name)


def scaled(z, mean, stddev, dtype, op):
    return z * to_tensor(stddev, dtype=dtype, name='stddev', op=op) + to_tensor(
        mean, dtype=dtype, name='mean', op=op)


@documented('stateless', 'Draws normal values with `mean` and `stddev` determined by `seed`.')
def stateless_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None,
                     alg='auto_select'):
    dtype = float_dtype(dtype, 'stateless_normal')
    z = draw(NORMAL, shape, *key_counter(seed), dtype, name=name, op='stateless_normal')
    return scaled(z, mean, stddev, dtype, 'stateless_normal')


@documented('stateless',
            'Draws normal values re-drawn beyond two standard deviations, determined by `seed`.')
def stateless_truncated_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32,
                               name=None, alg='auto_select'):
    dtype = float_dtype(dtype, 'stateless_truncated_normal')
    z = draw(TRUNCATED, shape, *key_counter(seed), dtype, name=name,
             op='stateless_truncated_normal')
    return scaled(z, mean, stddev, dtype, 'stateless_truncated_normal')


def uniform_with(shape, key, counter, minval, maxval, dtype, name, op):
    """Uniform floats in [minval, maxval), or integers: in [minval, maxval), or over the whole
    range of the dtype when both are None (TF's rule for integer dtypes)."""
    dtype = dtypes.as_dtype(dtype)
    if dtype.is_integer:
        if (minval is None) != (maxval is None):
            raise ValueError(f'For integer `dtype` argument {dtype!r}, argument `minval` and '
                             f'`maxval` must be both None or not None. Got `minval`={minval} '
                             f'and `maxval`={maxval}.')
        if minval is None:
            holder = to_tensor(np.zeros((), dtype.np_dtype))
            return draw(FULL_INT, shape, key, counter, dtype, (holder,), name, op)
        lo = to_tensor(minval, dtype=dtype, name='minval', op=op)
        hi = to_tensor(maxval, dtype=dtype, name='maxval', op=op)
        return draw(UNIFORM_INT, shape, key, counter, dtype, (lo, hi), name, op)
    dtype = float_dtype(dtype, op)
    u = draw(UNIFORM, shape, key, counter, dtype, name=name, op=op)
    lo = to_tensor(0 if minval is None else minval, dtype=dtype, name='minval', op=op)
    hi = to_tensor(1 if maxval is None else maxval, dtype=dtype, name='maxval', op=op)
    return u * (hi - lo) + lo


@documented('stateless',
            'Draws uniform values in [minval, maxval) determined by `seed` (ints need both '
            'bounds).')
def stateless_uniform(shape, seed, minval=0, maxval=None, dtype=dtypes.float32, name=None,
                      alg='auto_select'):
    return uniform_with(shape, *key_counter(seed), minval, maxval, dtype, name,
                        'stateless_uniform')


def stateless_categorical(logits, num_samples, seed, dtype=dtypes.int64, name=None):
    """Draws class indices from the categorical distributions given by `logits`, determined by `seed`.

    Args:
      logits: A 2-D `[batch, classes]` `Tensor` of unnormalised log-probabilities.
      num_samples: Samples per row.
      seed: A shape-[2] int `Tensor`.
      dtype: int32 or int64.
      name: A name for the operation (optional).

    Returns:
      A `[batch, num_samples]` `Tensor` of class indices."""
    x = to_tensor(logits, name='logits', op='stateless_categorical')
    op_helpers.float_only(x, 'stateless_categorical')
    n = to_tensor(num_samples, dtype=dtypes.int32, name='num_samples', op='stateless_categorical')
    key, counter = key_counter(seed)
    return apply_op(MULTINOMIAL, (x, n, key, counter), {'dtype': dtypes.as_dtype(dtype)}, name)


def stateless_binomial(shape, seed, counts, probs, output_dtype=dtypes.int32, name=None):
    """Binomial(counts, probs) samples; `shape` ends with the broadcast shape of counts and
    probs (probs float32 unless given, counts converted to probs' dtype, as TF)."""
    p = to_tensor(probs, name='probs', op='stateless_binomial', hint=dtypes.float32)
    c = to_tensor(counts, dtype=p.dtype, name='counts', op='stateless_binomial')
    return draw(BINOMIAL, shape, *key_counter(seed), dtypes.as_dtype(output_dtype), (c, p),
                name, 'stateless_binomial')


@documented('stateless',
            "Draws gamma(alpha, beta) values determined by `seed`; `shape` must end with alpha's "
            'shape.')
def stateless_gamma(shape, seed, alpha, beta=None, dtype=dtypes.float32, name=None):
    dtype = float_dtype(dtype, 'stateless_gamma')
    a = to_tensor(alpha, dtype=dtype, name='alpha', op='stateless_gamma')
    if beta is not None:
        b = to_tensor(beta, dtype=dtype, name='beta', op='stateless_gamma')
        a = a * ones_like(b)
    samples = draw(GAMMA, shape, *key_counter(seed), dtype, (a,), name, 'stateless_gamma')
    return tiny_floor(samples if beta is None else samples / b, dtype)


@documented('stateless', 'Draws Poisson(lam) values determined by `seed`.')
def stateless_poisson(shape, seed, lam, dtype=dtypes.int32, name=None):
    lam_t = to_tensor(lam, name='lam', op='stateless_poisson')
    return draw(POISSON, shape, *key_counter(seed), dtypes.as_dtype(dtype), (lam_t,), name,
                'stateless_poisson')


def stateless_split(seed, num=2, alg='auto_select'):
    """`num` new shape-[2] seeds from one, as a [num, 2] tensor of the seed's dtype."""
    s = to_tensor(seed, name='seed', op='stateless_split')
    return uniform_with([num, 2], *key_counter(s), None, None, s.dtype, None, 'stateless_split')


def stateless_fold_in(seed, data, alg='auto_select'):
    """A new seed from `seed` and an integer `data`: a full-range integer of data's dtype drawn
    from `seed`, stacked with `data` (so the result has data's dtype, as TF's)."""
    d = to_tensor(data, name='data', op='stateless_fold_in')
    first = uniform_with([], *key_counter(seed), None, None, d.dtype, None, 'stateless_fold_in')
    return stack([first, d])


# ---------------------------------------------------------------- Generator state

_WORDS = 2 ** 64


def _read_and_skip_kernel(storage, delta):
    state = np.array(storage.value, dtype=np.int64, copy=True)
    counter = [int(w) % _WORDS for w in state[:-1]]
    low = counter[0] + int(delta)
    counter[0] = low % _WORDS
    if len(counter) > 1:
        counter[1] = (counter[1] + low // _WORDS) % _WORDS
    advanced = np.asarray(counter + [int(state[-1]) % _WORDS], np.uint64).astype(np.int64)
    storage.value = advanced
    return np.concatenate([state, np.zeros(3 - len(state), np.int64)]) if len(state) < 3 else state


RNG_READ_AND_SKIP = define_op('RngReadAndSkip', _read_and_skip_kernel,
                              lambda handle, delta: (dtypes.int64, (3,)), None, stateful=True,
                              inputs=())  # defun's handle and delta are not TF's
