"""tf.random.Generator: a random-number generator whose state is a Variable, so that it works the
same eagerly and inside compiled functions (each call advances the state), plus the global
generator (get_global_generator / set_global_generator) and create_rng_state.

The state is TF's layout for Philox, int64 [counter_low, counter_high, key] (ThreeFry: [counter,
key]). Each draw reads the state and advances the counter by 256 per element requested, in one
stateful op (RngReadAndSkip), then makes a counter-based draw at the key and counter read (the
ops of random_stateless.py), so draws never overlap and a generator reset to a state repeats them.
"""
import enum

import numpy as np

from defun.core import context, dtypes, errors
from defun.core.dispatch import apply_op
from defun.ops.random import stateless as rs
from defun.ops.array.joining import stack
from defun.ops.framework.base_ops import cast, reshape, zeros_like
from defun.ops.support.helpers import to_tensor
from defun.ops.random.stateful import float_dtype, shape_arg
from defun.ops.math.reductions import reduce_prod
from defun.state.trackable import AutoTrackable
from defun.state.variables import Variable
from defun.core.variable_base import is_variable

__all__ = ['Generator', 'Algorithm', 'get_global_generator', 'set_global_generator',
           'create_rng_state']

_WORDS = 2 ** 64
_SKIP_PER_ELEMENT = 256   # TF's conservative counter advance per requested element


class Algorithm(enum.Enum):
    """The counter-based RNG algorithms of `tf.random.Generator` and the stateless ops."""
    PHILOX = 1
    THREEFRY = 2
    AUTO_SELECT = 3


_STATE_SIZES = {Algorithm.PHILOX: 3, Algorithm.THREEFRY: 2}


def _algorithm(alg):
    if alg is None or alg == 'auto_select' or alg == Algorithm.AUTO_SELECT or alg == 3:
        return Algorithm.PHILOX
    for member in (Algorithm.PHILOX, Algorithm.THREEFRY):
        if alg in (member, member.value, member.name.lower()):
            return member
    raise ValueError(f'Argument `alg` got unsupported value {alg!r}. Supported values are '
                     f'philox, threefry and auto_select.')


def _words(seed):
    """An int (any size) or a sequence of ints as int64 words, little end first."""
    if isinstance(seed, (int, np.integer)):
        value, words = int(seed) % (_WORDS ** 4), []
        while value:
            words.append(value % _WORDS)
            value //= _WORDS
        seed = words or [0]
    array = np.asarray(seed)
    if array.dtype.kind not in 'iu':
        raise TypeError(f'Generator: seed must be an integer or a list of integers, got {seed!r}')
    return np.asarray([int(w) % _WORDS for w in np.ravel(array)], np.uint64).astype(np.int64)


def _seed_state(seed, alg):
    """TF's create_rng_state: an int is cut into the state's words (low word first); a shorter
    sequence is padded with zeros on the left, so a small seed lands in the key."""
    size = _STATE_SIZES[_algorithm(alg)]
    words = _words(seed)[:size]
    padding = np.zeros(size - len(words), np.int64)
    if isinstance(seed, (int, np.integer)):
        return np.concatenate([words, padding])
    return np.concatenate([padding, words])


def create_rng_state(seed, alg):
    """The int64 state tensor a generator of algorithm `alg` seeded with `seed` starts from."""
    return to_tensor(_seed_state(seed, alg), op='create_rng_state')


class Generator(AutoTrackable):
    """A random-number generator with its state in a Variable (tf.random.Generator)."""

    def __init__(self, copy_from=None, state=None, alg=None):
        if copy_from is not None:
            if state is not None or alg is not None:
                raise ValueError('When `copy_from` is given, `state` and `alg` must be None.')
            state, alg = copy_from.state.numpy(), copy_from.algorithm
        elif state is None:
            raise ValueError('Generator: give `copy_from` or `state` (or use from_seed / '
                             'from_non_deterministic_state)')
        self._alg = _algorithm(alg)
        if is_variable(state) and copy_from is None:
            # As TF: a state Variable is used as it is, shared with whoever else holds it.
            if state.dtype != dtypes.int64 or tuple(state.shape) != (_STATE_SIZES[self._alg],):
                raise ValueError(f'Generator: the state Variable must be int64 of shape '
                                 f'[{_STATE_SIZES[self._alg]}], got {state.dtype.name} '
                                 f'{list(state.shape)}')
            self._state_var = state
            return
        state = np.asarray(state if not hasattr(state, 'numpy') else state.numpy(), np.int64)
        if state.shape != (_STATE_SIZES[self._alg],):
            raise ValueError(f'Generator: the state of algorithm {self._alg.name.lower()} must '
                             f'have shape [{_STATE_SIZES[self._alg]}], got {list(state.shape)}')
        with context.init_scope():
            self._state_var = Variable(state, dtype=dtypes.int64, trainable=False,
                                       name='StateVar')

    # -- construction
    @classmethod
    def from_seed(cls, seed, alg=None):
        return cls(state=_seed_state(seed, alg), alg=alg)

    @classmethod
    def from_state(cls, state, alg):
        return cls(state=state, alg=alg)

    @classmethod
    def from_non_deterministic_state(cls, alg=None):
        seed = context.random_generator().integers(0, 2 ** 63, size=3, dtype=np.int64)
        return cls(state=_seed_state(seed, alg), alg=alg)

    @classmethod
    def from_key_counter(cls, key, counter, alg):
        counter = np.ravel(np.asarray(counter, np.int64))
        key = np.ravel(np.asarray(key, np.int64))
        return cls(state=np.concatenate([counter, key]), alg=alg)

    # -- state
    @property
    def state(self):
        return self._state_var

    @property
    def algorithm(self):
        return self._alg.value

    @property
    def key(self):
        return self._state_var[-1]

    def reset(self, state):
        self._state_var.assign(to_tensor(state, dtype=dtypes.int64, op='Generator.reset'))

    def reset_from_seed(self, seed):
        self._state_var.assign(_seed_state(seed, self._alg))

    def reset_from_key_counter(self, key, counter):
        self.reset(np.concatenate([np.ravel(counter), np.ravel(key)]).astype(np.int64))

    def skip(self, delta):
        apply_op(rs.RNG_READ_AND_SKIP, (self._state_var.handle, to_tensor(
            delta, dtype=dtypes.int64, op='Generator.skip')))

    def _key_counter(self, shape, skip=None):
        """Reads the state and advances it past a draw of `shape` (or by `skip` counters);
        returns (key, counter)."""
        if skip is None:
            skip = reduce_prod(cast(shape_arg(shape, 'Generator'), dtypes.int64)) * \
                _SKIP_PER_ELEMENT
        state = apply_op(rs.RNG_READ_AND_SKIP, (self._state_var.handle, skip))
        size = _STATE_SIZES[self._alg]
        return reshape(state[size - 1], [1]), state[:size - 1]

    # -- draws
    def normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
        dtype = float_dtype(dtype, 'Generator.normal')
        z = rs.draw(rs.NORMAL, shape, *self._key_counter(shape), dtype, name=name)
        return rs.scaled(z, mean, stddev, dtype, 'Generator.normal')

    def truncated_normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
        dtype = float_dtype(dtype, 'Generator.truncated_normal')
        z = rs.draw(rs.TRUNCATED, shape, *self._key_counter(shape), dtype, name=name)
        return rs.scaled(z, mean, stddev, dtype, 'Generator.truncated_normal')

    def uniform(self, shape, minval=0, maxval=None, dtype=dtypes.float32, name=None):
        """Floats in [minval, maxval) (default [0, 1)); for integer dtypes, minval and maxval
        both given, or both None for the full range."""
        dtype = dtypes.as_dtype(dtype)
        if dtype.is_integer and (minval is None) != (maxval is None):
            raise ValueError(f'For integer dtype {dtype!r}, minval and maxval must be both '
                             f'`None` or both non-`None`; got minval={minval} and '
                             f'maxval={maxval}')
        return rs.uniform_with(shape, *self._key_counter(shape), minval, maxval, dtype, name,
                               'Generator.uniform')

    def uniform_full_int(self, shape, dtype=dtypes.uint64, name=None):
        return rs.uniform_with(shape, *self._key_counter(shape), None, None, dtype, name,
                               'Generator.uniform_full_int')

    def binomial(self, shape, counts, probs, dtype=dtypes.int32, name=None):
        c = to_tensor(counts, name='counts', op='Generator.binomial')
        p = to_tensor(probs, name='probs', op='Generator.binomial')
        # TF's StatefulRandomBinomial advances the state by 100 pairs of draws per output,
        # rounded up to whole rows of four, for each batch of parameters.
        n = reduce_prod(cast(shape_arg(shape, 'Generator.binomial'), dtypes.int64))
        batches = int(np.prod(np.broadcast_shapes(tuple(c.shape.as_list()),
                                                  tuple(p.shape.as_list())), dtype=np.int64))
        skip = batches * 200 * (n // batches + 3) // 4 * _SKIP_PER_ELEMENT
        return rs.draw(rs.BINOMIAL, shape, *self._key_counter(shape, skip),
                       dtypes.as_dtype(dtype), (c, p), name)

    def make_seeds(self, count=1):
        """[2, count] int64 seeds for the stateless ops."""
        keys = self.uniform_full_int([count], dtype=dtypes.int64)
        return stack([keys, zeros_like(keys)])

    def split(self, count=1):
        """`count` new generators, each from a key drawn from this one (which advances)."""
        if context.current_graph() is not None:
            raise errors.UnimplementedError('Generator.split inside a compiled function is not '
                                            'supported by defun; split outside it')
        keys = self.uniform_full_int([count], dtype=dtypes.int64).numpy()
        size = _STATE_SIZES[self._alg]
        return [Generator(state=[0] * (size - 1) + [int(k)], alg=self._alg) for k in keys]

    def __repr__(self):
        return f'<tf.random.Generator state={self._state_var.numpy()!r}>'


def get_global_generator():
    """The process-wide generator, created from a non-deterministic state on first use."""
    return context.global_random_generator(Generator.from_non_deterministic_state)


def set_global_generator(generator):
    """Replaces the global generator (functions already traced keep the old one, as in TF)."""
    if not isinstance(generator, Generator):
        raise TypeError(f'set_global_generator: expected a tf.random.Generator, got '
                        f'{type(generator).__name__}')
    context.set_global_random_generator(generator)
