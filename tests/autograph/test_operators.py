"""Tests of the runtime operators on Python values (and eager tensors): plain Python semantics."""
import io
import contextlib

import pytest

from autograph import operators
from autograph.operators import py_builtins
from autograph.operators import special_values


def _state(holder, names):
    def get_state():
        return tuple(holder[n] for n in names)

    def set_state(values):
        holder.update(zip(names, values))
    return get_state, set_state


def test_if_stmt_runs_one_branch():
    seen = []
    for cond in (True, False, 0, [1]):
        operators.if_stmt(cond, lambda: seen.append('t'), lambda: seen.append('f'),
                          lambda: (), lambda v: None, (), 0)
    assert seen == ['t', 'f', 'f', 't']


def test_while_stmt_python_loop():
    s = {'i': 0, 'total': 0}
    get_state, set_state = _state(s, ('i', 'total'))

    def body():
        s['total'] += s['i']
        s['i'] += 1
    operators.while_stmt(lambda: s['i'] < 5, body, get_state, set_state, ('i', 'total'), {})
    assert s == {'i': 5, 'total': 10}


def test_while_stmt_evaluates_test_once_per_iteration():
    calls = []
    s = {'i': 0}

    def test():
        calls.append(s['i'])
        return s['i'] < 2

    def body():
        s['i'] += 1
    operators.while_stmt(test, body, lambda: (), lambda v: None, (), {})
    assert calls == [0, 1, 2]


def test_for_stmt_extra_test_stops_without_fetching_more():
    fetched = []

    def items():
        for i in range(10):
            fetched.append(i)
            yield i
    s = {'stop': False}

    def body(i):
        if i == 2:
            s['stop'] = True
    operators.for_stmt(items(), lambda: not s['stop'], body, lambda: (), lambda v: None, (), {})
    assert fetched == [0, 1, 2]


def test_logical_operators_return_python_operands():
    assert operators.and_(0, lambda: 1 / 0) == 0
    assert operators.and_([1], lambda: 'x') == 'x'
    assert operators.or_('', lambda: []) == []
    assert operators.or_(3, lambda: 1 / 0) == 3
    assert operators.not_([]) is True
    assert operators.if_exp(0, lambda: 1 / 0, lambda: 'no') == 'no'


def test_undefined_and_ld():
    value = operators.Undefined('x')
    with pytest.raises(UnboundLocalError, match="'x'"):
        operators.ld(value)
    with pytest.raises(UnboundLocalError):
        value + 1
    assert operators.ld(3) == 3
    assert special_values.is_undefined(value) and 'x' in repr(value)


def test_assert_stmt():
    assert operators.assert_stmt(True, lambda: 1 / 0) is None
    with pytest.raises(AssertionError, match='oops'):
        operators.assert_stmt(0, lambda: 'oops')
    with pytest.raises(AssertionError):
        operators.assert_stmt(False, lambda: None)


def test_list_append_keeps_aliasing():
    xs = []
    assert operators.list_append(xs, 1) is xs and xs == [1]


def test_builtin_overloads_on_python_values():
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        operators.print_('a', 1, sep='-', end='!')
    assert out.getvalue() == 'a-1!'
    assert list(operators.range_(2, 8, 3)) == [2, 5]
    assert py_builtins.len_([1, 2]) == 2
    assert list(py_builtins.enumerate_('ab', 1)) == [(1, 'a'), (2, 'b')]
    assert list(py_builtins.zip_([1, 2], 'ab')) == [(1, 'a'), (2, 'b')]
    assert py_builtins.int_('12') == 12 and py_builtins.float_(2) == 2.0
    assert py_builtins.max_(1, 5, 3) == 5 and py_builtins.min_([4, 2]) == 2
    assert set(operators.OVERLOADS) >= {print, range, len, enumerate, zip}
