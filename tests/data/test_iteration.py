"""Eager iteration: for, iter/next, get_next / OutOfRangeError, get_next_as_optional, Optional,
as_numpy_iterator; streaming (nothing materialised) and prefetch threads that stop."""
import gc
import threading
import time

import numpy as np
import pytest

import defun as tf

D = tf.data.Dataset


def test_iter_next_and_end_of_sequence():
    it = iter(D.range(2))
    assert it.element_spec == tf.TensorSpec([], tf.int64)
    assert int(next(it)) == 0 and int(it.get_next()) == 1
    with pytest.raises(StopIteration):
        next(it)
    it2 = iter(D.range(0))
    # TF raises OutOfRangeError from get_next (recorded message: 'End of sequence')
    with pytest.raises(tf.errors.OutOfRangeError, match='End of sequence'):
        it2.get_next()


def test_get_next_as_optional_and_optional():
    it = iter(D.range(1))
    o = it.get_next_as_optional()
    assert bool(o.has_value()) and int(o.get_value()) == 0
    empty = it.get_next_as_optional()
    assert not bool(empty.has_value())
    assert empty.element_spec == tf.TensorSpec([], tf.int64)
    with pytest.raises(tf.errors.InvalidArgumentError, match='does not have a value'):
        empty.get_value()
    assert int(tf.experimental.Optional.from_value(1).get_value()) == 1
    assert not bool(tf.experimental.Optional.empty(tf.TensorSpec([], tf.int32)).has_value())


def test_numpy_iterator():
    it = D.from_tensor_slices({'a': [1, 2]}).as_numpy_iterator()
    assert repr(it).startswith('NumpyIterator(iterator=')
    first = next(it)
    assert isinstance(first['a'], np.int32) and first['a'] == 1


def test_pipelines_stream():
    seen = []

    def gen():
        for i in range(10 ** 9):      # far too many to materialise
            seen.append(i)
            yield i
    ds = D.from_generator(gen, output_types=tf.int64).map(lambda x: x + 1).batch(4)
    it = iter(ds)
    assert next(it).numpy().tolist() == [1, 2, 3, 4]
    assert len(seen) <= 5


def test_shuffle_streams_with_its_buffer_only():
    seen = []

    def gen():
        for i in range(10 ** 9):
            seen.append(i)
            yield i
    it = iter(D.from_generator(gen, output_types=tf.int64).shuffle(8, seed=1))
    next(it)
    assert len(seen) <= 9


def _prefetch_threads():
    return [t for t in threading.enumerate() if t.name == 'tf.data prefetch']


def test_prefetch_thread_stops_when_iterator_dropped():
    before = len(_prefetch_threads())
    it = iter(D.range(10 ** 9).prefetch(2))
    assert int(next(it)) == 0
    assert len(_prefetch_threads()) == before + 1
    assert all(t.daemon for t in _prefetch_threads())
    del it
    gc.collect()
    for _ in range(200):
        if len(_prefetch_threads()) == before:
            break
        time.sleep(0.01)
    assert len(_prefetch_threads()) == before


def test_prefetch_passes_errors():
    def gen():
        yield 1
        raise RuntimeError('boom in generator')
    with pytest.raises(RuntimeError, match='boom'):
        list(D.from_generator(gen, output_types=tf.int32).prefetch(1))


def test_cardinality_is_a_tensor():
    c = D.range(3).cardinality()
    assert c.dtype == tf.int64 and int(c) == 3
    assert int(tf.data.experimental.cardinality(D.range(3).repeat())) == -1
