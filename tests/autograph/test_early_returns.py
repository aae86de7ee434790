"""Early returns under tensor conditions: what TF 2.21 converts, and its errors elsewhere.

Expected values are Python's own (each function also runs natively).
"""
import numpy as np
import pytest

import defun
from autograph.experimental import Feature


def _raises():
    raise ValueError()


def return_in_try_with_finally(x):
    try:
        if x > 0:
            return 1
        else:
            return 0
    finally:
        x = x + 1


def return_in_finally(x):
    try:
        return 2
    finally:
        if x > 0:
            return 1  # noqa: B012
        return 0  # noqa: B012


def raise_while_computing_the_return_value(c):
    if c:
        return 2
    try:
        return _raises()
    except ValueError:
        pass
    return 1


def nested_returns(x):
    if x > 0:
        if x < 5:
            return x
        else:
            return x * x
    else:
        return x * x * x


@pytest.mark.parametrize('fn, values', [
    (return_in_try_with_finally, (0, 1)), (return_in_finally, (0, 1)),
    (raise_while_computing_the_return_value, (True, False)), (nested_returns, (-1, 3, 6)),
])
def test_compiled_with_tensors_matches_python(fn, values):
    for v in values:
        got = defun.function(fn)(defun.constant(v))
        assert np.asarray(got).item() == fn(v)


def test_a_return_value_computation_that_raises_does_not_return():
    def f():
        try:
            return _raises()
        except ValueError:
            pass
        return 1
    assert defun.function(f)() == 1


def _inner_return_only(c1, c2):
    if c1:
        if c2:
            return 1
    return 2


def test_one_sided_return_is_tfs_error_by_default_and_a_feature_converts_it():
    args = (defun.constant(True), defun.constant(False))
    with pytest.raises(ValueError, match='else branch must also have a return'):
        defun.function(_inner_return_only)(*args)
    f = defun.function(_inner_return_only, experimental_autograph_options=Feature.ONE_SIDED_RETURNS)
    for c1 in (True, False):
        for c2 in (True, False):
            assert int(f(defun.constant(c1), defun.constant(c2))) == _inner_return_only(c1, c2)
