"""Compiled functions under threads, freeing of dropped functions and instances, and exception
safety of tracing."""
import gc
import sys
import threading
import weakref

import numpy as np
import pytest

import defun as tf
from defun.core import context


def test_many_threads_share_one_function_and_trace_once():
    traces = []

    @tf.function
    def f(x):
        traces.append(1)
        return x * 2.0 + 1.0
    errors, results = [], {}

    def worker(i):
        try:
            for j in range(50):
                value = float(i * 100 + j)
                out = f(tf.constant(value))
                assert float(out) == value * 2.0 + 1.0
            results[i] = True
        except Exception as exc:  # surfaced below
            errors.append(exc)
    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(results) == 8
    assert len(traces) == 1


def test_threads_with_tapes_over_compiled_calls_get_their_own_gradients():
    @tf.function
    def f(x):
        return x * x * x
    out, errors = {}, []

    def worker(i):
        try:
            x = tf.constant(float(i))
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = f(x)
            out[i] = float(tape.gradient(y, x))
        except Exception as exc:
            errors.append(exc)
    threads = [threading.Thread(target=worker, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert out == {i: 3.0 * i * i for i in range(6)}


class Model:
    def __init__(self):
        self.w = tf.Variable(np.ones(4, np.float32))

    @tf.function
    def __call__(self, x):
        return tf.reduce_sum(self.w * x)


def test_dropping_an_instance_frees_its_traces():
    m = Model()
    m(tf.constant(np.ones(4, np.float32)))
    ref = weakref.ref(m)
    del m
    gc.collect()
    assert ref() is None


def test_functions_created_in_a_loop_use_bounded_memory():
    # Counted in Python's allocated blocks rather than with tracemalloc, which made 10,000 calls
    # take minutes: a function (or its graph, trace or generated code) kept alive per iteration
    # holds dozens of small objects, so even one retained object per function would show as
    # thousands of blocks here, while the bounded caches' churn stays near zero.
    x = tf.constant(np.ones(4, np.float32))

    def make_and_call():
        @tf.function
        def f(y):
            return y * 2.0
        f(x)
        return weakref.ref(f)
    for _ in range(50):  # warm up caches
        make_and_call()
    gc.collect()
    before = sys.getallocatedblocks()
    refs = [make_and_call() for _ in range(3_000)]
    gc.collect()
    assert all(r() is None for r in refs)
    del refs
    gc.collect()
    growth = sys.getallocatedblocks() - before
    assert growth < 1_500, f"{growth} memory blocks retained by 3,000 dropped functions"


def test_instances_created_in_a_loop_are_freed():
    refs = []
    for _ in range(300):
        m = Model()
        m(tf.constant(np.ones(4, np.float32)))
        refs.append(weakref.ref(m))
    del m
    gc.collect()
    assert all(r() is None for r in refs)


def test_exception_while_tracing_leaves_nothing_behind_and_next_call_succeeds():
    fail = {'now': True}

    @tf.function
    def f(x):
        y = x * 2.0
        if fail['now']:
            raise RuntimeError('boom')
        return y
    state = context.state()
    frames_before, tapes_before = len(state.frames), list(state.tapes)
    with tf.GradientTape() as tape:
        with pytest.raises(RuntimeError, match='boom'):
            f(tf.constant(1.0))
        assert state.tapes == [tape._records]
    assert len(state.frames) == frames_before and state.tapes == tapes_before
    assert f.experimental_get_tracing_count() == 0
    assert tf.executing_eagerly()
    fail['now'] = False
    assert float(f(tf.constant(1.0))) == 2.0
    assert f.experimental_get_tracing_count() == 1


def test_variable_created_on_every_call_is_refused():
    @tf.function
    def bad(x):
        v = tf.Variable(1.0)
        return v * x
    with pytest.raises(ValueError, match='non-first call|singleton'):
        bad(tf.constant(2.0))


def test_variable_created_once_from_input_dependent_value():
    class Lazy:
        def __init__(self):
            self.v = None

        @tf.function
        def __call__(self, x):
            if self.v is None:
                self.v = tf.Variable(tf.ones_like(x) * 3.0)
            return self.v * x
    m = Lazy()
    np.testing.assert_allclose(m(tf.constant([1.0, 2.0])).numpy(), [3.0, 6.0])
    np.testing.assert_allclose(m.v.numpy(), [3.0, 3.0])


def test_method_of_a_temporary_instance_runs_with_self_none_as_tf():
    # TF 2.21 binds methods weakly: `P().f(x)` traces with the (already freed) instance as None.
    class P:
        @tf.function
        def f(self, x):
            return x * 2.0, self is None

    value, self_was_none = P().f(tf.constant(1.0))
    assert value.numpy() == 2.0 and bool(self_was_none)
