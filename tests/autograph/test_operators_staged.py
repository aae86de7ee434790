"""The staged (graph) paths of the runtime operators, with defun's graph ops replaced by eager fakes.

These check AutoGraph's own logic around `defun.cond` / `defun.while_loop` (branch and loop state
handling, the checks that name variables, the type probe) independently of defun's graph machinery:
the fakes trace every branch like the real ops, then pick the result eagerly; the type probe's
throwaway graph (defun.control_flow.trial_tracing.trial_trace) is faked by a plain call.
"""
import numpy as np
import pytest

import autograph
import defun
from autograph.operators import tensors
from defun import control_flow
from defun.control_flow import trial_tracing


def _fake_cond(pred, true_fn, false_fn):
    true_out, false_out = true_fn(), false_fn()
    return true_out if bool(pred) else false_out


def _fake_while_loop(cond, body, loop_vars, shape_invariants=None, maximum_iterations=None):
    loop_vars = tuple(loop_vars)
    count = 0
    while bool(cond(*loop_vars)) and (maximum_iterations is None or count < maximum_iterations):
        loop_vars = tuple(body(*loop_vars))
        count += 1
    return loop_vars


def _fake_trial_trace(fn, *args, name=None):
    return fn(*args)


@pytest.fixture(autouse=True)
def staged(monkeypatch):
    monkeypatch.setattr(tensors, 'building_graph', lambda: True)
    # The operators call control flow through defun.control_flow, never the face `defun`.
    monkeypatch.setattr(control_flow, 'cond', _fake_cond)
    monkeypatch.setattr(control_flow, 'while_loop', _fake_while_loop)
    monkeypatch.setattr(trial_tracing, 'trial_trace', _fake_trial_trace)


def _run(fn, *args, features=None):
    converted = autograph.to_graph(fn, experimental_optional_features=features)
    return converted(*[defun.constant(a) for a in args])


def _if_fn(x):
    if x > 0:
        y = x * 2
    else:
        y = -x
    return y


def test_staged_if_traces_both_branches_and_selects():
    assert _run(_if_fn, 3).numpy() == 6
    assert _run(_if_fn, -4).numpy() == 4


def _undefined_else(x):
    if x > 0:
        y = x
    return y


def test_staged_if_undefined_in_one_branch():
    with pytest.raises(ValueError, match="'y' must also be initialized in the else branch"):
        _run(_undefined_else, 1)


def _branch_dtypes(x):
    if x > 0:
        y = defun.constant(1.0)
    else:
        y = defun.constant(1)
    return y


def test_staged_if_dtype_mismatch():
    with pytest.raises(TypeError, match="'y' has dtype float32 in the main branch"):
        _run(_branch_dtypes, 1)


def _returns(x):
    if x > 0:
        return 1
    if x < 0:
        return -1
    return 0


def test_staged_returns_from_branches():
    assert [_run(_returns, v).numpy() for v in (5, -2, 0)] == [1, -1, 0]


def _loop(n):
    s = 0
    p = 1.0
    for i in defun.range(n):
        if i % 2 == 0:
            continue
        s = s + i
        p = p * 2.0
    return s, p


def test_staged_for_converts_python_numbers_to_tensors():
    s, p = _run(_loop, 6)
    assert s.numpy() == 9 and p.numpy() == 8.0
    assert s.dtype == defun.int32 and p.dtype == defun.float32


def _dtype_change(n):
    x = defun.constant(0)
    for i in defun.range(n):
        x = defun.cast(x, defun.float32) + 1.0
    return x


def _shape_change(n):
    x = defun.constant([1])
    while n > 0:
        x = defun.concat([x, x], 0)
        n -= 1
    return x


def _structure_change(n):
    s = [defun.constant(0)]
    for i in defun.range(n):
        s = s + [defun.constant(1)]
    return s


def test_staged_loop_checks_name_the_variable():
    with pytest.raises(TypeError, match="'x' has dtype int32 before the loop, but dtype float32 after one iteration of this for loop"):
        _run(_dtype_change, 3)
    with pytest.raises(ValueError, match="'x' has shape"):
        _run(_shape_change, 2)
    with pytest.raises(TypeError, match="'s' does not have the same nested structure"):
        _run(_structure_change, 2)


def _none_before(n):
    x = None
    for i in defun.range(n):
        x = i
    return x


def _last_after(n):
    for i in defun.range(n):
        last = i * 2
    return last


def test_staged_loop_probes_variables_without_initial_value():
    assert _run(_none_before, 3).numpy() == 2
    assert _run(_last_after, 4).numpy() == 6


def _shape_invariant(n):
    x = defun.constant([[1.0, 1.0]])
    i = 0
    while i < n:
        autograph.experimental.set_loop_options(shape_invariants=[(x, defun.TensorShape([None, 2]))])
        x = defun.concat([x, x * 2.0], axis=0)
        i += 1
    return x


def test_staged_loop_shape_invariants():
    assert _run(_shape_invariant, 2).numpy().shape == (4, 2)


def _python_while_tensor_break(limit):
    s = defun.constant(0)
    while True:
        s += 1
        if s > limit:
            break
    return s


def test_python_while_turning_tensor_is_not_implemented():
    # The pre-flight check warns about exactly this at conversion.
    with pytest.raises(NotImplementedError, match='while loop'), \
            pytest.warns(autograph.AutoGraphWarning, match='leaves a Python `while True` loop'):
        _run(_python_while_tensor_break, 3)


def _first_square_above(limit):
    i = defun.constant(0)
    while i < 100:
        if i * i > limit:
            return i
        i += 1
    return defun.constant(-1)


def test_staged_return_inside_loop():
    one_sided = autograph.experimental.Feature.ONE_SIDED_RETURNS
    assert _run(_first_square_above, 30, features=one_sided).numpy() == 6
    with pytest.raises(NotImplementedError, match='return statement cannot be placed'):
        _run(_first_square_above, 30)


def _logic(a, b):
    return a > 0 and b > 0, a > 0 or b > 0, not a > 0, (1 if a > b else 2)


def test_staged_logical_and_conditional_expressions():
    results = [[np.asarray(r).item() for r in _run(_logic, a, b)] for a, b in ((1, 1), (1, -1), (-1, -1))]
    assert results == [[True, True, False, 2], [False, True, False, 1], [False, False, True, 2]]
