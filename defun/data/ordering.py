"""Transformations that select, reorder or hold elements: shuffle, repeat, take, skip,
concatenate, enumerate, cache, prefetch, assert_cardinality.

shuffle gives TF's orders exactly (its seeds, Philox stream and buffer: see shuffle_stream.py).
Only cache, shuffle's buffer and
prefetch's queue hold elements; everything else streams.
"""
import itertools
import os
import queue
import threading

import numpy as np

from defun.core import context
from defun.core.errors import FailedPreconditionError, InvalidArgumentError

from defun.data import structure
from defun.data.shuffle_stream import ShuffleSeeds, shuffled
from defun.data.base import (AUTOTUNE, INFINITE, UNKNOWN, Dataset, check_count, count_or_tensor,
                             opens_inputs, register, resolved)

__all__ = ['assert_cardinality', 'base_seed', 'default_cycle_length', 'PREFETCH_AUTOTUNE_SIZE']

# What AUTOTUNE means for a prefetch buffer here: enough to overlap one step with the next.
PREFETCH_AUTOTUNE_SIZE = 4


class _Unary(Dataset):
    """A transformation of one input that keeps its element_spec."""

    def __init__(self, input_dataset, cardinality=None):
        self._inputs = (input_dataset,)
        self.element_spec = input_dataset.element_spec
        self._cardinality = input_dataset._cardinality if cardinality is None else cardinality

    @property
    def _input(self):
        return self._inputs[0]


def base_seed(seed):
    """A seed list for numpy: the op seed with the global one, a draw after set_seed, or entropy."""
    global_seed = context.global_seed()
    if seed is not None:
        return [int(seed), context.DEFAULT_GRAPH_SEED if global_seed is None else global_seed]
    if global_seed is not None:
        return [global_seed, context.next_operation_seed()]
    return [int(x) for x in np.random.SeedSequence().generate_state(2)]


@register('shuffle')
class _ShuffleDataset(_Unary):
    def __init__(self, input_dataset, buffer_size, seed, reshuffle_each_iteration):
        super().__init__(input_dataset)
        self._buffer_size = check_count(
            buffer_size, 'buffer_size', 1,
            'buffer_size must be greater than zero or UNKNOWN_CARDINALITY [Op:ShuffleDatasetV3]')
        self._seeds = ShuffleSeeds(seed, bool(reshuffle_each_iteration))

    def flat_iterator(self):
        return shuffled(iter(self._input.flat_iterator()), self._buffer_size,
                        self._seeds.next_iteration())


def _repeat_cardinality(n, count):
    if count < 0:
        return 0 if n == 0 else INFINITE
    if n == INFINITE:
        return 0 if count == 0 else INFINITE
    return n * count if n >= 0 else UNKNOWN


@register('repeat')
class _RepeatDataset(_Unary):
    def __init__(self, input_dataset, count):
        count = -1 if count is None else count_or_tensor(count, 'count')
        self._tensors = (count,)
        symbolic = hasattr(count, 'op')
        super().__init__(input_dataset, UNKNOWN if symbolic else
                         _repeat_cardinality(input_dataset._cardinality, count))

    def flat_iterator(self):
        count = resolved(self._tensors[0])
        if count == 0:
            return iter(())
        # The first pass's iterator is made now, the others when the one before ends (as TF).
        return self._repeating(self._input.flat_iterator(), count)

    def _repeating(self, upstream, count):
        epochs = itertools.count() if count < 0 else range(count)
        for epoch in epochs:
            produced = False
            for element in upstream if epoch == 0 else self._input.flat_iterator():
                produced = True
                yield element
            if not produced:
                return   # an empty input repeated forever is still empty


def _take_cardinality(n, count):
    if count < 0:
        return n
    if n == UNKNOWN:
        return UNKNOWN if count else 0
    return count if n == INFINITE else min(n, count)


@register('take')
class _TakeDataset(_Unary):
    def __init__(self, input_dataset, count):
        count = count_or_tensor(count, 'count')
        self._tensors = (count,)
        super().__init__(input_dataset, UNKNOWN if hasattr(count, 'op') else
                         _take_cardinality(input_dataset._cardinality, count))

    def flat_iterator(self):
        count = resolved(self._tensors[0])
        if count < 0:
            return self._input.flat_iterator()
        return itertools.islice(self._input.flat_iterator(), count)


def _skip_cardinality(n, count):
    if n < 0:
        return n
    return 0 if count < 0 else max(n - count, 0)


@register('skip')
class _SkipDataset(_Unary):
    def __init__(self, input_dataset, count):
        count = count_or_tensor(count, 'count')
        self._tensors = (count,)
        super().__init__(input_dataset, UNKNOWN if hasattr(count, 'op') else
                         _skip_cardinality(input_dataset._cardinality, count))

    def flat_iterator(self):
        count = resolved(self._tensors[0])
        upstream = self._input.flat_iterator()
        if count < 0:
            for _ in upstream:
                pass
            return iter(())
        return itertools.islice(upstream, count, None)


@register('concatenate')
class _ConcatenateDataset(Dataset):
    def __init__(self, input_dataset, dataset):
        if not isinstance(dataset, Dataset):
            raise TypeError(f'`dataset` must be a `tf.data.Dataset` object, got {dataset!r}')
        structure.check_compatible(input_dataset.element_spec, dataset.element_spec,
                                   'concatenate')
        self._inputs = (input_dataset, dataset)
        self.element_spec = structure.most_specific(input_dataset.element_spec,
                                                    dataset.element_spec)
        a, b = input_dataset._cardinality, dataset._cardinality
        self._cardinality = INFINITE if INFINITE in (a, b) else (
            UNKNOWN if UNKNOWN in (a, b) else a + b)

    def flat_iterator(self):
        return self._concatenated(self._inputs[0].flat_iterator())

    def _concatenated(self, first):
        yield from first
        yield from self._inputs[1].flat_iterator()   # made when the first ends, as in TF


@register('enumerate')
def _enumerate(input_dataset, start):
    start = check_count(start, 'start')
    return Dataset.zip((Dataset.range(start, np.iinfo(np.int64).max), input_dataset))


@register('cache')
class CacheDataset(_Unary):
    def __init__(self, input_dataset, filename):
        if filename:
            raise NotImplementedError('Dataset.cache(filename): caching to files is not '
                                      'supported; use cache() to cache in memory')
        super().__init__(input_dataset)
        self._cached = None
        self._lock = threading.Lock()

    def flat_iterator(self):
        cached = self._cached
        if cached is not None:
            return iter(cached)
        return self._filling(self._input.flat_iterator())

    def _filling(self, upstream):
        elements = []
        for element in upstream:
            elements.append(element)
            yield element
        with self._lock:   # only a complete pass fills the cache, as in TF
            if self._cached is None:
                self._cached = elements


def _producer(source, q, stop):
    """The prefetch thread: moves elements into the bounded queue until told to stop."""
    def put(item):
        while not stop.is_set():
            try:
                q.put(item, timeout=0.05)
                return True
            except queue.Full:
                continue
        return False
    try:
        for element in source:
            if not put((True, element)):
                return
        put((False, None))
    except BaseException as exc:   # handed to the consumer, which raises it
        put((None, exc))


@register('prefetch')
class _PrefetchDataset(_Unary):
    def __init__(self, input_dataset, buffer_size):
        size = check_count(buffer_size, 'buffer_size')
        if size < AUTOTUNE:
            raise InvalidArgumentError('buffer_size must be >= 0 or set buffer_size to be -1 for '
                                       'auto-tuning [Op:PrefetchDataset]')
        self._size = PREFETCH_AUTOTUNE_SIZE if size == AUTOTUNE else size
        super().__init__(input_dataset)

    def flat_iterator(self):
        if self._size == 0:
            return self._input.flat_iterator()
        return self._prefetching(self._input.flat_iterator())

    def _prefetching(self, upstream):
        # The thread holds the queue and the stop flag, never this generator: dropping the
        # consumer closes the generator, whose `finally` stops the thread.
        q, stop = queue.Queue(self._size), threading.Event()
        thread = threading.Thread(target=_producer, args=(upstream, q, stop),
                                  name='tf.data prefetch', daemon=True)
        thread.start()
        try:
            while True:
                kind, item = q.get()
                if kind is True:
                    yield item
                elif kind is False:
                    return
                else:
                    raise item
        finally:
            stop.set()


class _AssertCardinalityDataset(_Unary):
    def __init__(self, input_dataset, expected):
        self._expected = check_count(expected, 'expected_cardinality')
        super().__init__(input_dataset, self._expected)

    @opens_inputs
    def flat_iterator(self, upstream):
        n = 0
        for element in upstream:
            n += 1
            if self._expected >= 0 and n > self._expected:
                raise FailedPreconditionError(
                    f'Input dataset was expected to contain {self._expected} elements but '
                    f'contained at least {n} elements.')
            yield element
        if self._expected == INFINITE or n < self._expected:
            raise FailedPreconditionError(
                f'Input dataset was expected to contain {self._expected} elements but '
                f'contained only {n} elements.')


def assert_cardinality(expected_cardinality):
    """`tf.data.experimental.assert_cardinality`: a transformation for Dataset.apply."""
    def apply(dataset):
        return _AssertCardinalityDataset(dataset, expected_cardinality)
    return apply


def default_cycle_length():
    """What AUTOTUNE means for interleave's cycle_length (TF: the number of schedulable cores)."""
    return os.cpu_count() or 1
