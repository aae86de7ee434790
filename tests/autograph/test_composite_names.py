"""Attributes and constant subscripts (`self.x`, `d['k']`, `a.b.c`) carried through tensor control flow.

Each function runs natively on Python values and compiled with tensors; the results must agree
(the expected values are Python's own).
"""
import numpy as np
import pytest

import defun


class Box:
    pass


def _value(x):
    if isinstance(x, dict):
        return {k: _value(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return type(x)(_value(v) for v in x)
    return np.asarray(x).item()


def dict_in_if(a):
    x = {'a': a}
    if x['a'] > 0:
        x['b'] = 1
    else:
        x['b'] = -1
    return x


def list_item_in_if(a):
    x = [a, 0]
    if x[0] > 0:
        x[1] = 10
    return x


def attributes_in_while(n):
    box = Box()
    box.total = 0
    box.inner = Box()
    box.inner.count = 1
    while n > 0:
        box.total += n
        box.inner.count *= 2
        n -= 1
    return box.total, box.inner.count


def dict_items_in_for(n):
    y = {'a': 1, 'b': 0}
    for i in range(n):
        y['a'] += i
        y['b'] = y['a'] * 2
    return y


def nested_subscripts_in_if(a):
    x = {'a': {'a': a}}
    if x['a']['a'] > 0:
        x['a']['b'] = a * 3
    else:
        x['a']['b'] = a
    return x


@pytest.mark.parametrize('fn, args', [
    (dict_in_if, (1,)), (dict_in_if, (-1,)), (list_item_in_if, (2,)), (list_item_in_if, (-2,)),
    (attributes_in_while, (3,)), (attributes_in_while, (0,)), (dict_items_in_for, (4,)),
    (dict_items_in_for, (0,)), (nested_subscripts_in_if, (2,)), (nested_subscripts_in_if, (-2,)),
])
def test_compiled_with_tensors_matches_python(fn, args):
    expected = _value(fn(*args))
    got = defun.function(fn)(*[defun.constant(a) for a in args])
    assert _value(got) == expected


class Counter:
    def __init__(self):
        self.hits = 0

    @defun.function
    def step(self, x):
        if x > 0:
            self.hits = self.hits + 1
        return self.hits


def test_method_attribute_in_tensor_if():
    c = Counter()
    assert int(c.step(defun.constant(3))) == 1
    assert int(c.step(defun.constant(-3))) == 0


def test_a_key_set_in_one_branch_only_names_the_composite():
    def f(a):
        x = {'a': a}
        if x['a'] > 0:
            x['b'] = 1
        return x
    with pytest.raises(ValueError, match=r"'x\['b'\]' must also be initialized in the else branch"):
        defun.function(f)(defun.constant(1))
    assert f(1) == {'a': 1, 'b': 1} and defun.function(f)(0) == {'a': 0}


def test_a_key_first_set_in_a_tensor_loop_needs_an_iteration():
    def f(n):
        y = {}
        for i in range(n):
            y['a'] = i
        return y
    assert int(defun.function(f)(defun.constant(3))['a']) == 2
    # TF's message, with the quotes of the string data C-escaped by the Assert kernel.
    with pytest.raises(defun.errors.InvalidArgumentError,
                       match=r"loop must iterate at least once to initialize y\[\\'a\\'\]"):
        defun.function(f)(defun.constant(0))


def test_missing_parent_raises_key_error_from_the_branch():
    def f(a):
        x = {'a': a}
        if a > 0:
            x['b']['c'] = 1
        return x
    with pytest.raises(KeyError, match="'b'"):
        defun.function(f)(defun.constant(1))


def test_an_object_made_inside_the_loop_is_not_loop_state():
    def f(n):
        s = 0
        for i in range(n):
            b = Box()
            b.v = i
            s += b.v
        return s
    assert int(defun.function(f)(defun.constant(4))) == 6
