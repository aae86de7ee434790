"""Property tests (hypothesis) for the argument validators of defun/ops/support/validation.py, through the
public ops: any shape and any axis list is either accepted with numpy's result or refused with TF's
class (InvalidArgumentError eagerly, ValueError while tracing), never numpy's error."""
import warnings

import numpy as np
from hypothesis import given, settings, strategies as st

import defun as tf
from defun.core import errors

shapes = st.lists(st.integers(1, 3), min_size=0, max_size=4).map(tuple)
FAST = settings(max_examples=60, deadline=None)


def _traced(fn):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        return tf.function(fn)()


@FAST
@given(shapes, st.lists(st.integers(-6, 6), min_size=1, max_size=3))
def test_reduction_axes(shape, axes):
    x = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape)
    rank = len(shape)
    in_range = all(-rank <= a < rank for a in axes)  # a scalar has no axes (TF)
    distinct = len({a % rank for a in axes}) == len(axes) if in_range else True
    if in_range and distinct:
        expected = np.sum(x, axis=tuple(axes))
        np.testing.assert_allclose(tf.reduce_sum(tf.constant(x), axis=axes).numpy(), expected)
        np.testing.assert_allclose(_traced(lambda: tf.reduce_sum(tf.constant(x), axis=axes)),
                                   expected)
        return
    try:
        tf.reduce_sum(tf.constant(x), axis=axes)
    except errors.InvalidArgumentError as exc:
        assert 'reduce_sum' in str(exc) and 'axis' in str(exc)
    else:
        raise AssertionError('accepted a bad axis')
    graph_class = ValueError if not in_range else errors.InvalidArgumentError
    try:
        _traced(lambda: tf.reduce_sum(tf.constant(x), axis=axes))
    except graph_class as exc:
        assert 'axis' in str(exc)
    else:
        raise AssertionError('accepted a bad axis while tracing')


@FAST
@given(shapes, st.integers(-6, 6))
def test_expand_dims_axis(shape, axis):
    x = np.zeros(shape)
    rank = len(shape)
    if -rank - 1 <= axis <= rank:
        assert tf.expand_dims(x, axis).shape == np.expand_dims(x, axis).shape
        return
    try:
        tf.expand_dims(x, axis)
    except errors.InvalidArgumentError as exc:
        assert 'expand_dims' in str(exc)
    else:
        raise AssertionError('accepted a bad axis')


@FAST
@given(shapes, shapes)
def test_broadcasting_shapes(a, b):
    try:
        expected = np.broadcast_shapes(a, b)
    except ValueError:
        expected = None
    for run in (lambda f: f(), _traced):
        try:
            out = run(lambda: tf.add(tf.zeros(a), tf.zeros(b)))
        except (errors.InvalidArgumentError, ValueError) as exc:
            assert expected is None and 'broadcast' not in str(exc).split(':')[0]
            assert not isinstance(exc, ValueError) or run is _traced
        else:
            assert expected is not None and tuple(out.shape) == expected


@FAST
@given(st.lists(st.integers(0, 4), min_size=1, max_size=4), st.integers(-2, 2))
def test_split_sizes(sizes, error):
    total = sum(sizes)
    x = tf.constant(np.arange(total, dtype=np.float32))
    parts = tf.split(x, [s + (error if i == 0 else 0) for i, s in enumerate(sizes)]) \
        if error == 0 else None
    if error == 0 or sizes[0] + error < 0:  # (a -1 size means "the rest": not an error)
        if error:
            return
        assert [int(p.shape[0]) for p in parts] == sizes
        np.testing.assert_array_equal(np.concatenate([p.numpy() for p in parts]), x.numpy())
        return
    bad = [sizes[0] + error] + sizes[1:]
    try:
        tf.split(x, bad)
    except errors.InvalidArgumentError as exc:
        assert 'split' in str(exc)
    else:
        raise AssertionError(f'split {total} into {bad}')
    try:
        _traced(lambda: tf.split(x, bad))
    except ValueError as exc:
        assert 'split' in str(exc)
    else:
        raise AssertionError(f'split {total} into {bad} while tracing')


@FAST
@given(shapes, st.integers(0, 4))
def test_unstack_num(shape, num):
    x = tf.zeros(shape)
    if not shape:
        return
    if num == shape[0]:
        assert len(tf.unstack(x, num=num)) == num
        return
    try:
        tf.unstack(x, num=num)
    except errors.InvalidArgumentError as exc:
        assert 'num' in str(exc)
    else:
        raise AssertionError('unstack accepted a wrong num')


def _reshape_expectation(size, target):
    """numpy's answer under TF's rule (no size below -1, at most one -1), or None to refuse."""
    if any(d < -1 for d in target) or target.count(-1) > 1:
        return None
    if -1 in target and size == 0 and 0 in target:  # TF's kernel has its own rule there
        return 'skip'
    try:
        return np.zeros(size).reshape(target).shape
    except ValueError:
        return None


@FAST
@given(st.integers(0, 12), st.lists(st.integers(-3, 6), min_size=0, max_size=3))
def test_reshape_targets(size, target):
    expected = _reshape_expectation(size, target)
    x = tf.zeros([size])
    if expected == 'skip':
        return
    if expected is not None:
        assert tuple(tf.reshape(x, target).shape) == expected
        assert tuple(_traced(lambda: tf.reshape(x, target)).shape) == expected
        return
    try:
        tf.reshape(x, target)
    except errors.InvalidArgumentError as exc:  # TF's kernel text, in TF's eager format
        assert '[Op:Reshape]' in str(exc) and ('reshape' in str(exc) or 'Size' in str(exc)
                                               or '-1' in str(exc))
    else:
        raise AssertionError(f'reshape of {size} elements to {target} accepted')
    try:
        _traced(lambda: tf.reshape(x, target))
    except (ValueError, errors.InvalidArgumentError) as exc:
        assert not isinstance(exc, (TypeError, IndexError))
    else:
        raise AssertionError(f'reshape of {size} elements to {target} accepted while tracing')


@FAST
@given(st.integers(0, 5), st.integers(-2, 6), st.integers(-3, 6), st.integers(0, 2))
def test_slice_windows(n, begin, size, extra_dims):
    x = np.arange(n, dtype=np.float32)
    begins, sizes = [begin] + [0] * extra_dims, [size] + [1] * extra_dims
    valid = extra_dims == 0 and 0 <= begin <= n and (size == -1 or 0 <= size <= n - begin)
    if valid:
        end = n if size == -1 else begin + size
        np.testing.assert_array_equal(tf.slice(x, begins, sizes).numpy(), x[begin:end])
        return
    try:
        tf.slice(x, begins, sizes)
    except errors.InvalidArgumentError as exc:
        assert 'slice' in str(exc).lower()
    else:
        raise AssertionError(f'slice of {n} at {begins} size {sizes} accepted')


@FAST
@given(st.sampled_from([True, 1.5, 'a', None, [[0]], [0, 0], [], {'a': 0}, 2 ** 63, -3, 5]))
def test_axis_values_refused_with_tfs_classes(axis):
    # Whatever the bad axis, the class is one TF raises for a bad argument, and never an
    # IndexError, AttributeError or numpy's own error escaping.
    x = tf.ones([2, 3])
    for op in (tf.reduce_sum, tf.math.cumsum, tf.concat, tf.expand_dims, tf.gather):
        call = {tf.concat: lambda: tf.concat([x, x], axis),
                tf.gather: lambda: tf.gather(x, [0], axis=axis)}.get(op, lambda: op(x, axis))
        for run in (lambda f: f(), _traced):
            try:
                run(call)
            except (ValueError, TypeError, errors.InvalidArgumentError) as exc:
                assert 'numpy' not in str(exc)
