"""Loop counters a While op's generated code may keep as Python ints.

An int32 scalar loop variable `i` is a counter when the body's new value is `i + d` (or `i - d`)
for a constant d, and the cond is exactly `i < L` (`<=`, `>`, `>=`, either operand order) for a
limit L that cannot change while the loop runs: a constant, or a tensor the loop captures. The
range check: the body runs only while the test holds, so before the step `i` is at most L - 1
(`<`) or L (`<=`); with L a constant, or the largest int32 when L is only known at run time, the
step cannot leave int32's range when that bound plus d still fits (and symmetrically counting
down). Then Python ints compute exactly what int32 arithmetic would, ten times faster than numpy
scalars; counters that fail the check keep int32's wrapping arithmetic.

Only the executor's infix kernels are recognised (executor.infix), so no op type is named here.
"""
import numpy as np

from defun.core import dtypes
from defun.compiler.executor import infix

__all__ = ['Counter', 'find_counters']

INT32_MIN, INT32_MAX = -2 ** 31, 2 ** 31 - 1
_FLIPPED = {'<': '>', '<=': '>=', '>': '<', '>=': '<='}


class Counter:
    """Loop variable `index`: `compare` (cond's op) tests it `symbol` against `limit` (an int, or
    ('captured', m): the loop's m-th captured input); `step` (body's op) adds `delta`."""

    def __init__(self, index, compare, symbol, limit, step, delta):
        self.index, self.compare, self.symbol, self.limit = index, compare, symbol, limit
        self.step, self.delta = step, delta


def find_counters(op):
    """{loop variable index: Counter} for While op `op` (cond, body, n_vars attrs; a captured
    limit whose value is known at build time counts as a constant)."""
    cond, body, n_vars = op.attrs['cond'], op.attrs['body'], op.attrs['n_vars']
    test = cond.outputs[0] if cond.outputs else None
    if test is None or not _only_use(test, cond):
        return {}
    found = {}
    for j in range(n_vars):
        counter = _counter(cond, body, n_vars, j, test, op.inputs[n_vars:])
        if counter is not None:
            found[j] = counter
    return found


def _counter(cond, body, n_vars, j, test, captured):
    ph_cond, ph_body = cond.inputs[j], body.inputs[j]
    if ph_body.dtype is not dtypes.int32 or ph_body.shape.as_tuple() != ():
        return None
    compared = _compare(test, ph_cond, cond, n_vars, captured)
    stepped = _step(body.outputs[j], ph_body)
    if compared is None or stepped is None:
        return None
    symbol, limit = compared
    delta = stepped
    if not _stays_in_range(symbol, limit, delta):
        return None
    return Counter(j, test.op, symbol, limit, body.outputs[j].op, delta)


def _only_use(test, cond):
    """The test feeds nothing but the loop's decision (its Python bool is used by `if` only)."""
    return not test.consumers() and sum(t is test for t in cond.outputs) == 1


def _compare(test, ph, cond, n_vars, captured):
    """(symbol, limit) when `test` is `ph symbol limit` with a loop-invariant int32 limit."""
    symbol = infix(test.op)
    if symbol not in _FLIPPED:
        return None
    a, b = test.op.inputs
    if a is ph and b is not ph:
        other = b
    elif b is ph and a is not ph:
        other, symbol = a, _FLIPPED[symbol]
    else:
        return None
    if other.dtype is not dtypes.int32 or other.shape.as_tuple() != ():
        return None
    value = other.static_value()
    if value is not None:
        return symbol, int(value)
    for m, x in enumerate(cond.inputs[n_vars:]):
        if x is other:
            value = captured[m].static_value() if hasattr(captured[m], 'static_value') else None
            return symbol, (('captured', m) if value is None else int(value))
    return None


def _step(out, ph):
    """d when `out` is `ph + d` or `ph - d` for a constant int d != 0."""
    symbol = infix(out.op) if hasattr(out, 'op') else None
    if symbol not in ('+', '-'):
        return None
    a, b = out.op.inputs
    if a is ph and b is not ph:
        other = b
    elif b is ph and a is not ph and symbol == '+':
        other = a
    else:
        return None
    value = other.static_value()
    if value is None or np.ndim(value) != 0 or other.dtype is not dtypes.int32:
        return None
    delta = int(value) if symbol == '+' else -int(value)
    return delta or None


def _stays_in_range(symbol, limit, delta):
    """Whether `i + delta` stays in int32 whenever `i symbol limit` holds."""
    static = isinstance(limit, int)
    if delta > 0 and symbol in ('<', '<='):
        top = (limit if static else INT32_MAX) - (1 if symbol == '<' else 0)
        return top + delta <= INT32_MAX
    if delta < 0 and symbol in ('>', '>='):
        bottom = (limit if static else INT32_MIN) + (1 if symbol == '>' else 0)
        return bottom + delta >= INT32_MIN
    return False
