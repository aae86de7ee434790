"""TF's shuffle of a dataset, draw for draw: its seeds, its random stream and its buffer.

The seeds are random_seed.get_seed's (seed, seed2), or fresh entropy when nothing is seeded. An
iteration draws uint32 words in order from Philox4x32-10 keyed by its seed with its seed2 in the
counter's upper half (TF's PhiloxRandom behind a SingleSampleAdapter). With
reshuffle_each_iteration, each iteration takes its (seed, seed2) as the next two words of one
such stream kept by the dataset (TF's RandomSeedGenerator, shared by the dataset's iterators);
without, every iteration uses the dataset's seeds (FixedSeedGenerator).

The buffer holds up to `buffer_size` elements in slots taken modulo its size: each step refills
it from the input, then emits slot start + (word % count), moves the element at `start` into the
emptied slot and advances `start`, so the orders are TF's exactly.
"""
import threading

import numpy as np

from defun.ops.random.philox import Draws
from defun.ops.random.stateful import op_seeds

__all__ = ['ShuffleSeeds', 'shuffled', 'Words']

_MASK64 = (1 << 64) - 1
_GROUPS = 64   # Philox blocks (4 words each) computed at a time


class Words:
    """uint32 words, in order, of PhiloxRandom(seed, seed2)."""

    def __init__(self, seed, seed2):
        self._draws = Draws(seed & _MASK64, (seed2 & _MASK64) << 64)
        self._block, self._used, self._groups = (), 0, 0

    def __call__(self):
        if self._used == len(self._block):
            self._block = self._draws.words(_GROUPS, skip=self._groups).tolist()
            self._groups += _GROUPS
            self._used = 0
        self._used += 1
        return self._block[self._used - 1]


class ShuffleSeeds:
    """The (seed, seed2) each iteration of one shuffle dataset uses."""

    def __init__(self, seed, reshuffle_each_iteration):
        seeds = op_seeds(seed)
        if seeds is None:   # TF's kernel: unseeded means fresh entropy
            seeds = tuple(int(w) for w in np.random.SeedSequence().generate_state(2, np.uint64))
        self._seeds = seeds
        self._generator = Words(*seeds) if reshuffle_each_iteration else None
        self._lock = threading.Lock()

    def next_iteration(self):
        if self._generator is None:
            return self._seeds
        with self._lock:
            return self._generator(), self._generator()


def shuffled(upstream, buffer_size, seeds):
    """The elements of the iterator `upstream` in TF's shuffle order for (seed, seed2) `seeds`."""
    word = Words(*seeds)
    buffer, start, end = {}, 0, 0
    exhausted = False
    while True:
        while not exhausted and end - start < buffer_size:   # refilled before every draw, as TF
            element = next(upstream, _END)
            if element is _END:
                exhausted = True
            else:
                buffer[end % buffer_size] = element
                end += 1
        if end == start:
            return
        index = (start + word() % (end - start)) % buffer_size
        first = start % buffer_size
        element = buffer[index]
        buffer[index] = buffer[first]   # the oldest element takes the emptied slot
        del buffer[first]
        start += 1
        yield element


_END = object()
