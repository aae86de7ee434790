"""Runs every reference corpus entry natively, converted, and compiled with tensor inputs.

Results, printed output and the type of any exception must agree between the native run and the
converted run (both on Python values). The compiled mode feeds numeric arguments as tensors through
`defun.function` and compares results as numpy values (strings as the bytes a string tensor holds);
for entries where TensorFlow itself raises (`TFRaises`), it asserts that error instead.
"""
import contextlib
import io
import warnings

import numpy as np
import pytest

import autograph
import defun
from autograph.experimental import Feature
from tests.reference import corpus_branches  # noqa: F401  (registers cases)
from tests.reference import corpus_calls  # noqa: F401
from tests.reference import corpus_loops  # noqa: F401
from tests.reference.registry import CASES

# defun's conversions beyond TF's (autograph.options): the corpus covers them too.
EXTENSIONS = (Feature.LOOP_ELSE, Feature.ONE_SIDED_RETURNS)

PARAMS = [pytest.param(c.fn, args, c.tensor, id='%s-%d' % (c.fn.__name__, i))
          for c in CASES for i, args in enumerate(c.arg_sets)]
COMPILED = [pytest.param(c.fn, args, c.tf_raises, id='%s-%d' % (c.fn.__name__, i))
            for c in CASES if c.tensor for i, args in enumerate(c.arg_sets)]


def run(fn, args):
    """(result, stdout, exception type) of calling fn(*args)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            return fn(*args), out.getvalue(), None
        except Exception as e:  # the corpus compares exception types
            return None, out.getvalue(), type(e)


def test_corpus_size():
    assert len(CASES) >= 80


@pytest.mark.parametrize('fn, args, tensor', PARAMS)
def test_converted_matches_native(fn, args, tensor):
    expected = run(fn, args)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', autograph.AutoGraphWarning)
        # The corpus includes what only defun converts (loop else clauses, one-sided returns).
        converted = autograph.to_graph(fn, experimental_optional_features=EXTENSIONS)
        # (and what runs unconverted, with TF's warning, when called: generators)
        result = run(converted, args)
    assert converted is not fn
    assert result == expected


def _as_tensor(value):
    if isinstance(value, (bool, int, float)):
        return defun.constant(value)
    return value


def _assert_close(got, expected):
    """Compares nested results; tensors against Python numbers, with float32 tolerance."""
    if isinstance(expected, dict):
        assert sorted(got) == sorted(expected)
        for key in expected:
            _assert_close(got[key], expected[key])
    elif isinstance(expected, (list, tuple)) and not isinstance(got, (list, tuple)):
        np.testing.assert_allclose(np.asarray(got), np.asarray(expected), rtol=1e-5)
    elif isinstance(expected, (list, tuple)):
        assert len(got) == len(expected)
        for g, e in zip(got, expected):
            _assert_close(g, e)
    elif expected is None:
        assert got is None
    elif isinstance(expected, str):
        # A string tensor holds bytes, as in TensorFlow.
        value = np.asarray(got).item()
        assert (value.decode() if isinstance(value, bytes) else value) == expected
    else:
        np.testing.assert_allclose(np.asarray(got), np.asarray(expected), rtol=1e-5)


@pytest.mark.parametrize('fn, args, tf_raises', COMPILED)
def test_compiled_with_tensors_matches_native(fn, args, tf_raises):
    if not all(hasattr(defun, name) for name in ('function', 'cond', 'while_loop')):
        pytest.skip('defun.functions.function and its control-flow ops are not all available yet')
    expected, _, error = run(fn, args)
    compiled = defun.function(fn, experimental_autograph_options=EXTENSIONS)
    with warnings.catch_warnings():
        # The corpus holds the constructs the pre-flight check warns about (`while True` left by
        # an `if`); whether they fail is what this test compares.
        warnings.simplefilter('ignore', autograph.AutoGraphWarning)
        result, _, compiled_error = run(compiled, [_as_tensor(a) for a in args])
    if tf_raises is not None and tf_raises.applies_to(args):
        # TensorFlow cannot agree with Python here (tf_raises.reason says why): it raises.
        assert compiled_error is tf_raises.error, tf_raises.reason
        return
    assert compiled_error == error
    if error is None:
        _assert_close(result, expected)
