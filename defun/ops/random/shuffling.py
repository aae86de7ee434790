"""TF's seeded permutations: `tf.random.experimental.index_shuffle` and `stateless_shuffle`,
with TF's own results.

RandomIndexShuffle maps an index to its position in a permutation of [0, max_index] by TF's
cycle-walking cipher: a 4-round Simon cipher on blocks of max(16, bits of max_index rounded up
to even) bits, keyed by the 3-word seed, applied until the result falls in range. The Python
function pads a [2] seed to [3] in front with TF's constant, as TF does.
StatelessShuffle permutes the first dimension by Fisher-Yates over the Philox words that start at
the seed's key and counter (word % (n - i) picks the element that goes to position i).
"""
import math

import numpy as np

from defun.core.dispatch import apply_op
from defun.core.registry import define_op
from defun.ops.array.transform import pad
from defun.ops.random.philox import Draws
from defun.ops.random.stateless import KEY_COUNTER
from defun.ops.support import validation
from defun.ops.support.helpers import dims, to_tensor

__all__ = ['index_shuffle', 'stateless_shuffle']

_SEED_PAD = 498247692          # what TF puts in front of a [2] seed
_Z = 0x7369f885192c0ef5        # Simon's round-constant sequence
_MIN_BLOCK_BITS = 16


def _rotl(x, r, w):
    mask = (1 << w) - 1
    return ((x << r) | (x >> (w - r))) & mask


def _simon_f(x, w):
    return (_rotl(x, 1, w) & _rotl(x, 8, w)) ^ _rotl(x, 2, w)


def _round_keys(key, rounds, w):
    mask = (1 << w) - 1
    c, z = 0xfffffffc & mask, _Z & mask
    keys = [k & mask for k in key]
    for i in range(3, rounds):
        rotated = _rotl(keys[i - 1], w - 3, w) ^ _rotl(keys[i - 1], w - 4, w)   # ROTR 3, 4
        keys.append(c ^ (z & 1) ^ keys[i - 3] ^ rotated)
        z >>= 1
    return keys


def _encrypt(value, keys, w):
    mask = (1 << w) - 1
    left, right = (value >> w) & mask, value & mask
    for i in range(0, len(keys), 2):
        left ^= _simon_f(right, w) ^ keys[i]
        right ^= _simon_f(left, w) ^ keys[i + 1]
    return (left << w) | right


def _shuffled_index(index, key, max_index, rounds):
    if max_index == 0:
        return 0
    bits = math.ceil(math.log2(max_index))
    bits = max(bits + bits % 2, _MIN_BLOCK_BITS)
    w = min(bits, 64) // 2
    keys = _round_keys(key, rounds, w)
    value = index
    while True:
        value = _encrypt(value, keys, w)
        if value <= max_index:
            return value


def _index_shuffle_kernel(index, seed, max_index, rounds):
    seed = np.asarray(seed)
    if seed.shape[-1:] != (3,) or seed.ndim > 2:
        raise validation.invalid_argument(
            f'Seed must be a vector of size [3] or a matrix of size [n, 3] but got '
            f'{list(seed.shape)}.')
    seeds = seed.reshape(-1, 3).astype(np.uint64).astype(object) & 0xFFFFFFFF
    n = max(np.size(index), np.size(max_index), len(seeds))
    idx = np.broadcast_to(np.asarray(index).astype(object).ravel(), (n,)) if np.ndim(index) \
        else [int(index)] * n
    top = np.broadcast_to(np.asarray(max_index).astype(object).ravel(), (n,)) \
        if np.ndim(max_index) else [int(max_index)] * n
    keys = [tuple(int(k) for k in s) for s in np.broadcast_to(seeds, (n, 3))]
    out = [_shuffled_index(int(i), k, int(m), rounds) for i, k, m in zip(idx, keys, top)]
    result = np.array(out, dtype=np.asarray(index).dtype)
    scalar = np.ndim(index) == 0 and np.ndim(max_index) == 0 and seed.ndim == 1
    return result[0] if scalar else result


def _index_shuffle_infer(index, seed, max_index, rounds):
    shapes = [dims(index), dims(max_index)]
    if all(s == () for s in shapes) and dims(seed) is not None and len(dims(seed)) == 1:
        return index.dtype, ()
    return index.dtype, (None,)


INDEX_SHUFFLE = define_op(
    'RandomIndexShuffle', _index_shuffle_kernel, _index_shuffle_infer, None,
    inputs=('index: dtype', 'seed: Tseed', 'max_index: dtype'),
    attrs=('rounds: int', 'dtype: {int32, uint32, int64, uint64}',
           'Tseed: {int32, uint32, int64, uint64}'))


def index_shuffle(index, seed, max_index):
    """The position of `index` in TF's pseudorandom permutation of [0, max_index] for `seed`
    (shape [2], or [n, 3] per element)."""
    index = to_tensor(index, name='index', op='index_shuffle')
    max_index = to_tensor(max_index, dtype=index.dtype, name='max_index', op='index_shuffle')
    seed = to_tensor(seed, name='seed', op='index_shuffle')
    rank = seed.shape.rank if seed.shape.rank is not None else 1
    seed = pad(seed, [[1, 0]] + [[0, 0]] * (rank - 1), constant_values=_SEED_PAD)
    return apply_op(INDEX_SHUFFLE, (index, seed, max_index), {'rounds': 4})


def _shuffle_kernel(value, key, counter):
    n = value.shape[0] if value.ndim else 0
    if value.size <= 1 or n <= 1:
        return value.copy()
    words = [int(k) for k in np.asarray(counter).astype(np.uint64).ravel()[:2]]
    draws = Draws(int(np.asarray(key).astype(np.uint64).ravel()[0]),
                  words[0] | (words[1] << 64))
    stream = draws.words(-(-(n - 1) // 4))[:n - 1]
    order = np.arange(n)
    for i, word in enumerate(stream.tolist()):
        j = i + word % (n - i)
        order[i], order[j] = order[j], order[i]
    return value[order]


SHUFFLE = define_op(
    'StatelessShuffle', _shuffle_kernel, lambda value, key, counter: (value.dtype, dims(value)),
    None, inputs=('value: T', 'key: int64', 'counter: int64'), attrs=('T: type',))


def stateless_shuffle(value, seed, alg='auto_select', name=None):
    """`value` shuffled along its first dimension, deterministically for `seed` (shape [2])."""
    validation.op_name(name)
    value = to_tensor(value, name='value', op='stateless_shuffle')
    seed = to_tensor(seed, name='seed', op='stateless_shuffle')
    key, counter = apply_op(KEY_COUNTER, (seed,))
    return apply_op(SHUFFLE, (value, key, counter))
