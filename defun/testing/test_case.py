"""`tf.test.TestCase`: Python's unittest.TestCase with TF's assertion helpers, and `tf.test.main`.

Tensors, Variables and nested structures of them compare by value (TF's helpers call `evaluate`,
which here is `.numpy()` on every leaf). TF's session helpers (`session`, `cached_session`,
`test_session`) belong to TF1 graphs and sessions and are not here; every helper that only looks at
values is. As in TF, `setUp` seeds the global random seed, numpy's and Python's with TF's default
(87654321), so a test sees the same random numbers on every run.
"""
import contextlib
import math
import random
import re
import tempfile
import unittest

import numpy as np

from defun.core import context, dtypes, nest
from defun.core.errors import OpError

__all__ = ['TestCase', 'main']

_DEFAULT_SEED = context.DEFAULT_GRAPH_SEED
# TF's default tolerances by dtype in assertAllCloseAccordingToType: (rtol, atol)
_HALF_TOLERANCE = 1e-3
_FLOAT_TOLERANCE = 1e-6


def _value(x):
    """The numpy value of a tensor, Variable, or array-like (TF's `evaluate` of one leaf)."""
    if hasattr(x, 'numpy'):
        return x.numpy()
    return x


def _array(x):
    value = _value(x)
    return value if isinstance(value, np.ndarray) else np.asarray(value)


def main(argv=None):
    """Runs the tests of the calling module (unittest.main)."""
    return unittest.main(argv=argv)


class TestCase(unittest.TestCase):
    """unittest.TestCase with TF's value assertions (assertAllClose, assertAllEqual, ...)."""

    def setUp(self):
        super().setUp()
        random.seed(_DEFAULT_SEED)
        np.random.seed(_DEFAULT_SEED)
        context.set_random_seed(_DEFAULT_SEED)
        self._temp_dir = None

    def get_temp_dir(self):
        """A directory that lives as long as the test case (created on first use)."""
        if self._temp_dir is None:
            holder = tempfile.TemporaryDirectory()
            self.addCleanup(holder.cleanup)
            self._temp_dir = holder.name
        return self._temp_dir

    def evaluate(self, tensors):
        """The numpy values of a (nested) structure of tensors."""
        return nest.map_structure(_value, tensors)

    # -- closeness
    def _close(self, a, b, rtol, atol, msg, path):
        a, b = _array(a), _array(b)
        where = f' at {path}' if path else ''
        if a.shape != b.shape and not (a.size == b.size == 1):
            self.fail(f'Shape mismatch{where}: expected {a.shape}, got {b.shape}. {msg or ""}')
        if a.dtype.kind in 'OSU' or b.dtype.kind in 'OSU':
            np.testing.assert_array_equal(a, b, err_msg=msg or '')
            return
        np.testing.assert_allclose(b, a, rtol=rtol, atol=atol, equal_nan=True,
                                   err_msg=f'Mismatch{where}. {msg or ""}')

    def _structures(self, a, b):
        a, b = _value(a), _value(b)
        if isinstance(a, dict) or isinstance(b, dict):
            self.assertIsInstance(a, dict)
            self.assertIsInstance(b, dict)
            self.assertEqual(set(a), set(b), 'mismatched keys')
            return [(f'[{k!r}]', a[k], b[k]) for k in a]
        if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) and not (
                _is_numeric_sequence(a) and _is_numeric_sequence(b)):
            self.assertEqual(len(a), len(b), f'Length mismatch: {len(a)} != {len(b)}')
            return [(f'[{i}]', x, y) for i, (x, y) in enumerate(zip(a, b))]
        return None

    def _all_close(self, a, b, rtol, atol, msg, path=''):
        parts = self._structures(a, b)
        if parts is None:
            self._close(a, b, rtol, atol, msg, path)
            return
        for sub, x, y in parts:
            self._all_close(x, y, rtol, atol, msg, path + sub)

    def assertAllClose(self, a, b, rtol=1e-6, atol=1e-6, msg=None):
        """a and b (arrays, tensors or nested structures of them) agree to atol + rtol * |b|."""
        self._all_close(a, b, rtol, atol, msg)

    def assertAllCloseAccordingToType(self, a, b, rtol=1e-6, atol=1e-6, float_rtol=1e-6,
                                      float_atol=1e-6, half_rtol=1e-3, half_atol=1e-3,
                                      bfloat16_rtol=1e-2, bfloat16_atol=1e-2, msg=None):
        """assertAllClose with the tolerance loosened to the least precise dtype of a and b."""
        kinds = {_array(a).dtype, _array(b).dtype}
        if any(k == np.float32 or k == np.complex64 for k in kinds):
            rtol, atol = max(rtol, float_rtol), max(atol, float_atol)
        if any(k == np.float16 for k in kinds):
            rtol, atol = max(rtol, half_rtol), max(atol, half_atol)
        if any(getattr(k, 'name', '') == 'bfloat16' for k in kinds):
            rtol, atol = max(rtol, bfloat16_rtol), max(atol, bfloat16_atol)
        self.assertAllClose(a, b, rtol, atol, msg)

    def assertNotAllClose(self, a, b, rtol=1e-6, atol=1e-6, msg=None):
        try:
            self.assertAllClose(a, b, rtol, atol, msg)
        except AssertionError:
            return
        self.fail(msg or 'The two values are close at all elements')

    def assertArrayNear(self, farray1, farray2, err, msg=None):
        self.assertEqual(len(farray1), len(farray2), msg)
        for f1, f2 in zip(farray1, farray2):
            self.assertNear(float(f1), float(f2), err, msg)

    def assertNDArrayNear(self, ndarray1, ndarray2, err, msg=None):
        self.assertTrue(np.allclose(_array(ndarray1), _array(ndarray2), rtol=0, atol=err), msg)

    def assertNear(self, f1, f2, err, msg=None):
        self.assertTrue(f1 == f2 or math.fabs(f1 - f2) <= err,
                        f'{f1!r} != {f2!r} +/- {err!r}{" (" + msg + ")" if msg else ""}')

    # -- equality and order
    def assertAllEqual(self, a, b, msg=None):
        """a and b have the same shape and equal elements."""
        a, b = _array(a), _array(b)
        if a.shape != b.shape and not (a.size == b.size == 1):
            self.fail(f'Shape mismatch: expected {a.shape}, got {b.shape}. {msg or ""}')
        np.testing.assert_array_equal(a, b, err_msg=msg or '')

    def assertNotAllEqual(self, a, b, msg=None):
        try:
            self.assertAllEqual(a, b, msg)
        except AssertionError:
            return
        self.fail(msg or 'The two values are equal at all elements')

    def _compare_all(self, a, comparison, what):
        values = _array(a)
        if not np.all(comparison(values)):
            self.fail(f'Not every element is {what}: {values}')

    def assertAllGreater(self, a, comparison_target):
        self._compare_all(a, lambda v: v > comparison_target, f'> {comparison_target}')

    def assertAllLess(self, a, comparison_target):
        self._compare_all(a, lambda v: v < comparison_target, f'< {comparison_target}')

    def assertAllGreaterEqual(self, a, comparison_target):
        self._compare_all(a, lambda v: v >= comparison_target, f'>= {comparison_target}')

    def assertAllLessEqual(self, a, comparison_target):
        self._compare_all(a, lambda v: v <= comparison_target, f'<= {comparison_target}')

    def assertAllInRange(self, target, lower_bound, upper_bound, open_lower_bound=False,
                         open_upper_bound=False):
        values = _array(target)
        if not np.issubdtype(values.dtype, np.number):
            raise AssertionError(f'The value of {target} does not have an ordered numeric type '
                                 f'({values.dtype})')
        low = values > lower_bound if open_lower_bound else values >= lower_bound
        high = values < upper_bound if open_upper_bound else values <= upper_bound
        if not np.all(low & high):
            self.fail(f'{values} is not in the range {"(" if open_lower_bound else "["}'
                      f'{lower_bound}, {upper_bound}{")" if open_upper_bound else "]"}')

    def assertAllInSet(self, target, expected_set):
        values = _array(target).ravel().tolist()
        extra = set(values) - set(expected_set)
        if extra:
            self.fail(f'{sorted(extra)} not in {expected_set}')

    def assertDTypeEqual(self, target, expected_dtype):
        """Every element of a (nested) structure has numpy dtype `expected_dtype`."""
        expected = dtypes.as_dtype(expected_dtype).np_dtype
        for leaf in nest.flatten(target):
            self.assertEqual(_array(leaf).dtype, expected)

    def assertShapeEqual(self, input_a, input_b, msg=None):
        """A numpy array's shape equals a tensor's static shape."""
        self.assertEqual(tuple(np.shape(_array(input_a))), tuple(input_b.shape.as_list()), msg)

    def assertDeviceEqual(self, device1, device2, msg=None):
        self.assertEqual((device1 or '').upper(), (device2 or '').upper(), msg)

    # -- collections and strings (absltest's, which TF's TestCase inherits)
    def assertItemsEqual(self, first, second, msg=None):
        self.assertCountEqual(first, second, msg)

    def assertLen(self, container, expected_len, msg=None):
        if len(container) != expected_len:
            self.fail(msg or f'{container!r} has length of {len(container)}, expected '
                      f'{expected_len}.')

    def assertEmpty(self, container, msg=None):
        self.assertLen(container, 0, msg)

    def assertNotEmpty(self, container, msg=None):
        if not len(container):
            self.fail(msg or f'{container!r} has length of 0.')

    def assertStartsWith(self, actual, expected_start, msg=None):
        if not actual.startswith(expected_start):
            self.fail(msg or f'{actual!r} does not start with {expected_start!r}')

    def assertEndsWith(self, actual, expected_end, msg=None):
        if not actual.endswith(expected_end):
            self.fail(msg or f'{actual!r} does not end with {expected_end!r}')

    def assertBetween(self, value, minv, maxv, msg=None):
        if not minv <= value <= maxv:
            self.fail(msg or f'{value!r} is not between {minv!r} and {maxv!r}')

    def assertSameStructure(self, a, b, msg=None):
        try:
            nest.assert_same_structure(a, b)
        except (ValueError, TypeError) as exc:
            self.fail(f'{msg or ""} {exc}')

    # -- errors
    @contextlib.contextmanager
    def assertRaisesWithPredicateMatch(self, exception_type, expected_err_re_or_predicate):
        """Expects `exception_type` whose message matches a regex, or satisfies a predicate."""
        if callable(expected_err_re_or_predicate):
            predicate = expected_err_re_or_predicate
        else:
            pattern = expected_err_re_or_predicate
            predicate = lambda e: re.search(pattern, str(e)) is not None  # noqa: E731
        try:
            yield
        except exception_type as e:
            if not predicate(e):
                raise AssertionError(f'Exception of type {type(e).__name__}: {e} does not match '
                                     f'{expected_err_re_or_predicate!r}') from e
        else:
            self.fail(f'{exception_type.__name__} not raised')

    def assertRaisesOpError(self, expected_err_re_or_predicate):
        """Expects a TF error (an OpError such as InvalidArgumentError) matching the pattern."""
        return self.assertRaisesWithPredicateMatch(OpError, expected_err_re_or_predicate)

    def assertRaisesIncompatibleShapesError(self, exception_type=None):
        return self.assertRaisesWithPredicateMatch(
            exception_type or OpError,
            r'Incompatible shapes|Dimensions must be equal|required broadcastable shapes')


def _is_numeric_sequence(value):
    """A list of numbers (compared as one array, as TF does) rather than a structure."""
    return all(isinstance(v, (int, float, complex, bool, np.generic)) for v in value)
