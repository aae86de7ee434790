"""TensorFlow's random bits: Philox4x32-10 and the way TF's kernels turn them into numbers.

Philox maps a 128-bit counter and a 64-bit key to four 32-bit words. A draw of n numbers starting
at counter c uses the words of counters c, c+1, ... in order (each counter gives four float32 or
int32 numbers, two float64 or int64 ones), converted as TF's distributions do: a float from the
23 (52) mantissa bits, normals by Box-Muller on pairs, integers by `lo + bits % range`, truncated
normals by rejecting |x| >= 2 with each group of four outputs reading from its own counter block.
So `tf.random.Generator`, the stateless ops and the seeded stateful ops give TF's own numbers.

`Draws` is one such start (key, counter); `Stream` is the generator of a seeded stateful kernel,
which, as TF's GuardedPhiloxRandom, reserves 256 counters per requested number at each call.
The rejection samplers (gamma, Poisson, binomial) and multinomial are in samplers.py.
"""
import threading

import numpy as np

from defun.ops.support import libm_float32

__all__ = ['Draws', 'Stream', 'philox4x32', 'key_counter_from_seed', 'RESERVED_PER_OUTPUT']

RESERVED_PER_OUTPUT = 256   # counters a stateful kernel (or Generator) skips per number drawn
_M0, _M1 = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)
_W0, _W1 = 0x9E3779B9, 0xBB67AE85
_MASK32, _MASK64 = 0xFFFFFFFF, (1 << 64) - 1


def philox4x32(counters, key):
    """Philox4x32-10 of an (n, 4) uint32 counter array under a 64-bit `key` (a Python int)."""
    c0, c1, c2, c3 = (counters[:, i].astype(np.uint64) for i in range(4))
    k0, k1 = key & _MASK32, (key >> 32) & _MASK32
    mask, shift = np.uint64(_MASK32), np.uint64(32)
    for _ in range(10):
        p0, p1 = _M0 * c0, _M1 * c2
        c0, c1, c2, c3 = ((p1 >> shift) ^ c1 ^ np.uint64(k0), p1 & mask,
                          (p0 >> shift) ^ c3 ^ np.uint64(k1), p0 & mask)
        k0, k1 = (k0 + _W0) & _MASK32, (k1 + _W1) & _MASK32
    return np.stack([c0, c1, c2, c3], axis=1).astype(np.uint32)


def _counter_words(counter, n):
    """(n, 4) uint32 words of the 128-bit counters counter, counter+1, ..., counter+n-1."""
    start = np.uint64(counter & _MASK64)
    low = start + np.arange(n, dtype=np.uint64)   # wraps modulo 2**64, carrying into high
    high = np.uint64((counter >> 64) & _MASK64) + (low < start).astype(np.uint64)
    mask, shift = np.uint64(_MASK32), np.uint64(32)
    return np.stack([low & mask, low >> shift, high & mask, high >> shift], 1).astype(np.uint32)


def key_counter_from_seed(seed0, seed1):
    """TF's StatelessRandomGetKeyCounter: a shape-[2] seed scrambled into (key, counter)."""
    words = np.array([[seed0 & _MASK32, (seed0 >> 32) & _MASK32,
                       seed1 & _MASK32, (seed1 >> 32) & _MASK32]], np.uint32)
    mix = philox4x32(words, 0x02461E29_3EC8F720)[0]
    return int(mix[0]) | (int(mix[1]) << 32), (int(mix[2]) | (int(mix[3]) << 32)) << 64


def _to_unit_float32(words):
    bits = np.uint32(127 << 23) | (words & np.uint32(0x7FFFFF))
    return bits.view(np.float32) - np.float32(1.0)


def _to_unit_float64(high, low):
    mantissa = ((high.astype(np.uint64) & np.uint64(0xFFFFF)) << np.uint64(32)) | \
        low.astype(np.uint64)
    return (np.uint64(1023 << 52) | mantissa).view(np.float64) - 1.0


def _box_muller32(x0, x1):
    u1 = np.maximum(_to_unit_float32(x0), np.float32(1e-7))
    # TF computes 2 * M_PI * u in double before storing it as a float, then calls the C
    # library's logf and sincosf, whose last bits libm_float32 reproduces.
    v1 = (2.0 * np.pi * _to_unit_float32(x1).astype(np.float64)).astype(np.float32)
    u2 = np.sqrt(np.float32(-2.0) * libm_float32.log(u1))
    sin_v, cos_v = libm_float32.sincos(v1)
    return sin_v * u2, cos_v * u2


def _interleave(a, b):
    out = np.empty(a.size + b.size, a.dtype)
    out[0::2], out[1::2] = a, b
    return out


def _words64(words):
    return words[0::2].astype(np.uint64) | (words[1::2].astype(np.uint64) << np.uint64(32))


class Draws:
    """Numbers as TF's kernels make them from the Philox stream that starts at (key, counter)."""

    def __init__(self, key, counter):
        self.key, self.counter = int(key) & _MASK64, int(counter) & ((1 << 128) - 1)

    def words(self, n_groups, skip=0):
        return philox4x32(_counter_words(self.counter + skip, n_groups), self.key).reshape(-1)

    def standard_normal(self, size, dtype=np.float32):
        n = int(np.prod(size, dtype=np.int64))
        if np.dtype(dtype) == np.float64:
            w = self.words((n + 1) // 2)
            u1 = np.maximum(_to_unit_float64(w[0::4], w[1::4]), 1e-7)
            v1 = 2.0 * np.pi * _to_unit_float64(w[2::4], w[3::4])
            u2 = np.sqrt(-2.0 * np.log(u1))
            out = _interleave(np.sin(v1) * u2, np.cos(v1) * u2)
        else:
            w = self.words((n + 3) // 4)
            out = _interleave(*_box_muller32(w[0::2], w[1::2]))
        return out[:n].reshape(size).astype(dtype)

    def random(self, size, dtype=np.float32):
        n = int(np.prod(size, dtype=np.int64))
        if np.dtype(dtype) == np.float64:
            w = self.words((n + 1) // 2)
            out = _to_unit_float64(w[0::2], w[1::2])
        else:
            out = _to_unit_float32(self.words((n + 3) // 4))
        return out[:n].reshape(size).astype(dtype)

    def integers(self, low, high, size, dtype):
        """TF's uniform integers in [low, high): `low + bits % (high - low)`."""
        n = int(np.prod(size, dtype=np.int64))
        span = int(high) - int(low)
        if np.dtype(dtype).itemsize == 8:
            bits = _words64(self.words((n + 1) // 2)) % np.uint64(span & _MASK64)
        else:
            bits = (self.words((n + 3) // 4) % np.uint32(span & _MASK32)).astype(np.uint64)
        return (np.int64(low) + bits[:n].astype(np.int64)).reshape(size).astype(dtype)

    def full_int(self, size, dtype):
        """Integers over the whole range of `dtype` (TF's UniformFullInt)."""
        n = int(np.prod(size, dtype=np.int64))
        dtype = np.dtype(dtype)
        bits = _words64(self.words((n + 1) // 2)) if dtype.itemsize == 8 else \
            self.words((n + 3) // 4)
        return bits[:n].view(dtype).reshape(size)

    def truncated_normal(self, size, dtype=np.float32):
        """Normals within two standard deviations; group g of four reads counters from
        counter + 256 g one word at a time, as TF's variable-samples fill does."""
        n = int(np.prod(size, dtype=np.int64))
        out = np.empty(((n + 3) // 4) * 4, np.float32)
        for g in range(len(out) // 4):
            out[4 * g:4 * g + 4] = self._truncated_group(g * RESERVED_PER_OUTPUT)
        return out[:n].reshape(size).astype(dtype)

    def _truncated_group(self, skip):
        found, block = [], 0
        while len(found) < 4:
            words = self.words(8, skip + block)  # 16 pairs: usually more than enough
            block += 8
            for f0, f1 in zip(*_box_muller32(words[0::2], words[1::2])):
                found += [f for f in (f0, f1) if abs(f) < 2.0]
        return np.array(found[:4], np.float32)

    def permutation(self, n):
        """TF's shuffle of range(n): for each i < n - 1, swap i with i + word_i % (n - i), the
        words read one at a time from this counter on."""
        order = np.arange(n)
        words = self.words((n + 2) // 4)[:max(n - 1, 0)].tolist()
        for i, word in enumerate(words):
            j = i + word % (n - i)
            order[i], order[j] = order[j], order[i]
        return order


class Stream:
    """The generator of one seeded stateful kernel: key `seed`, counter `seed2` << 64; each draw
    reserves 256 counters per number (TF's GuardedPhiloxRandom), so calls never overlap."""

    def __init__(self, seed, seed2):
        self._next = self._start = Draws(seed, (int(seed2) & _MASK64) << 64)
        self._lock = threading.Lock()

    def restart(self):
        """Back to the first number, as a kernel TF instantiates anew (a new dataset iterator)."""
        with self._lock:
            self._next = self._start

    def take(self, n):
        """The Draws for a call producing `n` numbers; the stream moves past them."""
        with self._lock:
            draws = self._next
            self._next = Draws(draws.key, draws.counter + max(int(n), 0) * RESERVED_PER_OUTPUT)
        return draws

    def standard_normal(self, size, dtype=np.float32):
        return self.take(np.prod(size)).standard_normal(size, dtype)

    def random(self, size, dtype=np.float32):
        return self.take(np.prod(size)).random(size, dtype)

    def integers(self, low, high, size, dtype):
        return self.take(np.prod(size)).integers(low, high, size, dtype)

    def truncated_normal(self, size, dtype=np.float32):
        return self.take(np.prod(size)).truncated_normal(size, dtype)

    def take_counters(self, n):
        """The Draws for a call that reserves `n` counters (TF's ReserveSamples128)."""
        with self._lock:
            draws = self._next
            self._next = Draws(draws.key, draws.counter + max(int(n), 0))
        return draws

    def permutation(self, n):
        # A shuffle reserves only the 128-bit blocks its n - 1 words fill (ReserveSamples32).
        with self._lock:
            draws = self._next
            self._next = Draws(draws.key, draws.counter + (max(int(n) - 1, 0) + 3) // 4)
        return draws.permutation(n)
