"""Tests of convert / converted_call / caching / errors / the public API."""
import functools
import gc
import inspect
import os
import traceback
import warnings
import weakref

import numpy as np
import pytest

import autograph
import defun as tf
from autograph import impl


def plain(x):
    if x > 0:
        return x
    return -x


def test_to_graph_converts_and_caches():
    converted = autograph.to_graph(plain)
    assert converted is not plain
    assert autograph.to_graph(plain) is converted
    assert converted(-3) == 3
    assert converted.__name__ == 'plain'


def test_to_code_is_readable_source():
    source = autograph.to_code(plain)
    assert source.startswith('def plain(x):') and 'ag__.if_stmt' in source


def test_signature_and_defaults_kept():
    def f(a, b=2, *, c=3):
        return a + b + c
    converted = autograph.to_graph(f)
    assert str(inspect.signature(converted)) == '(a, b=2, *, c=3)'
    assert converted(1) == 6 and converted(1, c=10) == 13


def test_methods_are_converted_and_rebound():
    class C:
        def __init__(self):
            self.k = 2

        def scale(self, x):
            if x > 0:
                return x * self.k
            return 0
    obj = C()
    converted = autograph.to_graph(obj.scale)
    assert converted.__self__ is obj and converted(3) == 6


def test_allowlisted_and_do_not_convert_are_returned_as_is():
    assert impl.convert(np.sum) is np.sum
    assert impl.convert(os.path.join) is os.path.join

    @autograph.do_not_convert
    def raw(x):
        return x
    assert impl.convert(raw) is raw
    assert autograph.experimental.do_not_convert(raw) is raw


def test_unavailable_source_warns_once_and_runs():
    namespace = {}
    exec('def g(x):\n    return x * 2\n', namespace)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        assert impl.convert(namespace['g']) is namespace['g']
        impl.convert(namespace['g'])
    assert len([w for w in caught if 'cannot read the source' in str(w.message)]) == 1


def test_converted_call_recurses_into_user_functions_and_lambdas():
    def helper(v):
        return v if v > 0 else -v
    scale = lambda v: helper(v) * 2  # noqa: E731

    def f(x):
        return scale(x)
    assert autograph.to_graph(f)(-4) == 8
    assert impl.convert(helper) is not helper


def test_converted_call_on_partial_and_callable_object():

    class Doubler:
        def __call__(self, v):
            if v:
                return v * 2
            return 0
    assert impl.converted_call(functools.partial(plain, -2), ()) == 2
    assert impl.converted_call(Doubler(), (4,)) == 8
    assert impl.converted_call(print, ('x',), {'end': ''}) is None


def test_cache_is_weak_per_function_object():
    def make(k):
        def inner(x):
            if x:
                return x + k
            return k
        return inner
    fn = make(1)
    converted = autograph.to_graph(fn)
    assert converted(1) == 2
    ref = weakref.ref(fn)
    del fn, converted
    gc.collect()
    assert ref() is None
    other = make(5)
    assert autograph.to_graph(other)(1) == 6


def _divide(a, b):
    total = 0
    for i in range(2):
        total += a // b
    return total


def test_errors_point_at_user_code():
    converted = autograph.to_graph(_divide)
    with pytest.raises(ZeroDivisionError) as info:
        converted(1, 0)
    message = str(info.value)
    assert 'test_impl.py' in message and 'total += a // b' in message
    frames = [f.filename for f in traceback.extract_tb(info.value.__traceback__)]
    assert not any(os.sep + 'operators' + os.sep in f for f in frames[:-1])


def test_errors_keep_key_error_message():
    def f(d):
        if d:
            return d['missing']
        return None
    with pytest.raises(KeyError) as info:
        autograph.to_graph(f)({'a': 1})
    assert info.value.args == ('missing',)
    assert any('in user code' in n for n in info.value.__notes__)


def test_check_reports_surprises():
    def f(x, n):
        out = []
        for i in range(100000):
            pass
        while True:
            if x > n:
                break
        if x:
            y = 1
        f.calls.append(x)
        for _ in range(n):
            f.calls.append(x)
        return y, out
    findings = autograph.check(f)
    text = '\n'.join(str(finding) for finding in findings)
    assert 'unrolls' in text
    assert 'while True' in text
    assert "'y' is assigned only in the main branch" in text
    assert 'appending to f.calls' in text
    assert autograph.check(plain) == []


def test_conversion_warns_with_preflight_findings():
    def g(x):
        for _ in range(5000):
            x = x + 1
        return x
    with pytest.warns(autograph.AutoGraphWarning, match='runs 5000 times'):
        autograph.to_graph(g)


def test_one_branch_assignment_on_a_python_bool_does_not_warn():
    # `if training: noise = ...` is everyday code; TF 2.21 runs it without a warning. With a tensor
    # condition tracing raises TF's ValueError naming the variable instead.
    @tf.function
    def step(x, training):
        if training:
            noise = tf.ones([3])
        y = x
        if training:
            y = y + noise
        return y
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        assert step(tf.zeros([3]), True).numpy().tolist() == [1.0, 1.0, 1.0]
    with pytest.raises(ValueError, match="'noise' must also be initialized in the else branch"):
        step(tf.zeros([3]), tf.constant(True))
    assert "'noise' is assigned only in the main branch" in str(autograph.check(step)[0])


def test_check_accepts_a_function_and_names_the_module_as_imported():
    @tf.function
    def total(x):
        for _ in range(5000):
            x = x + 1.0
        return x
    findings = autograph.check(total)
    assert len(findings) == 1 and 'iterate over tf.range(...)' in findings[0].message
    assert findings[0].lineno == total.python_function.__code__.co_firstlineno + 2

    class Model:
        @tf.function
        def __call__(self, x):
            for _ in range(2000):
                x = x + 1.0
            return x
    assert 'runs 2000 times' in autograph.check(Model().__call__)[0].message
