"""No cache keeps alive what its owner dropped: dropped functions free the graphs and constants
they closed over, Variables passed as arguments are never held, and traces made for objects that
died are freed."""
import gc
import os
import weakref

import numpy as np
import pytest

import defun as tf


def rss_mib():
    with open('/proc/self/statm') as f:
        return int(f.read().split()[1]) * os.sysconf('SC_PAGE_SIZE') / 2 ** 20


@pytest.mark.skipif(not os.path.exists('/proc/self/statm'), reason='needs Linux /proc')
def test_dropped_functions_closing_over_1mib_constants_are_freed():
    x = tf.constant(np.ones(4, np.float32))

    def make_and_call(i):
        c = tf.constant(np.full(2 ** 18, float(i), np.float32))   # 1 MiB

        @tf.function
        def f(y):
            s = tf.reduce_sum(y) + tf.reduce_sum(c)
            if s > 0:                      # a cond and a loop: their branch graphs capture c
                s = s + tf.reduce_sum(c)
            for _ in tf.range(2):
                s = s + c[0]
            return s
        assert np.isclose(float(f(x)), 4.0 + 2 * 2 ** 18 * i + 2 * i, rtol=1e-6)
        return weakref.ref(f)
    for i in range(20):  # warm up caches and the allocator
        make_and_call(i)
    gc.collect()
    before = rss_mib()
    # 250 functions (1,000 took 40 s on a loaded machine): keeping their constants would grow the
    # RSS by 250 MiB, and keeping one in twelve would already pass the 20 MiB bound.
    refs = [make_and_call(i) for i in range(250)]
    gc.collect()
    growth = rss_mib() - before
    assert all(r() is None for r in refs)
    assert growth < 20, f'RSS grew {growth:.1f} MiB over 250 dropped functions'


def test_short_lived_variables_leave_no_cache_entries():
    f = tf.function(lambda v, x: v.assign_add(x))
    refs = []
    for i in range(500):
        v = tf.Variable(float(i))
        f(v, tf.constant(1.0))
        assert v.numpy() == i + 1.0
        refs.append(weakref.ref(v))
        del v
    gc.collect()
    assert all(r() is None for r in refs)
    assert f.experimental_get_tracing_count() == 1
    assert len(f.pretty_printed_concrete_signatures(verbose=False).splitlines()) == 1


def test_traces_for_dead_objects_are_freed():
    class Box:
        def __init__(self, k):
            self.k = k
    f = tf.function(lambda b, x: x * b.k)
    x = tf.constant(1.0)
    box = Box(2.0)
    concrete = weakref.ref(f.get_concrete_function(box, x))
    assert float(f(box, x)) == 2.0 and f.experimental_get_tracing_count() == 1
    del box
    gc.collect()
    assert float(f(Box(3.0), x)) == 3.0   # the next miss drops the dead object's trace
    gc.collect()
    assert concrete() is None
    assert len(f.pretty_printed_concrete_signatures(verbose=False).splitlines()) == 1
