"""tf.debugging's asserts (defun/ops/debugging/asserts.py, check_ops.py): eager messages, trace-time checks and
run-time Assert ops. Every expected message was recorded from TensorFlow 2.21."""
import re

import numpy as np
import pytest

import defun as tf
from defun.core import errors


def _message(exc_type, fn, *args, **kwargs):
    with pytest.raises(exc_type) as info:
        fn(*args, **kwargs)
    return str(info.value)


X, Y = [1., 2., 3.], [1., 5., 3.]


@pytest.mark.parametrize('fn, sym, where, xs, ys', [
    (tf.debugging.assert_equal, '==', '[[1]]', '[2.]', '[5.]'),
    (tf.debugging.assert_none_equal, '!=', '[[0]\n [2]]', '[1. 3.]', '[1. 3.]'),
    (tf.debugging.assert_greater, '>', '[[0]\n [1]\n [2]]', '[1. 2. 3.]', '[1. 5. 3.]'),
    (tf.debugging.assert_greater_equal, '>=', '[[1]]', '[2.]', '[5.]'),
    (tf.debugging.assert_less, '<', '[[0]\n [2]]', '[1. 3.]', '[1. 3.]'),
])
def test_binary_asserts_eager_messages(fn, sym, where, xs, ys):
    n = where.count('[') - 1
    expected = (f'Condition x {sym} y did not hold.\nIndices of first {n} different values:\n'
                f'{where}\nCorresponding x values:\n{xs}\nCorresponding y values:\n{ys}\n'
                f'First 3 elements of x:\n[1. 2. 3.]\nFirst 3 elements of y:\n[1. 5. 3.]')
    assert _message(errors.InvalidArgumentError, fn, tf.constant(X), tf.constant(Y)) == expected


def test_binary_asserts_pass_and_broadcast():
    assert tf.debugging.assert_less_equal(tf.constant(X), tf.constant(Y)) is None
    assert tf.assert_equal(tf.constant([[1, 2], [1, 2]]), [1, 2]) is None
    assert tf.debugging.assert_greater(tf.zeros([0]), 1.0) is None  # empty: trivially true
    assert _message(errors.InvalidArgumentError, tf.debugging.assert_equal, tf.constant(X), 2.,
                    message='hey') == ('hey\nCondition x == y did not hold.\nFirst 3 elements of '
                                       'x:\n[1. 2. 3.]\nFirst 1 elements of y:\n[2.]')
    assert _message(errors.InvalidArgumentError, tf.assert_less, tf.range(10), 5,
                    summarize=2) == ('Condition x < y did not hold.\nFirst 2 elements of x:\n'
                                     '[0 1]\nFirst 1 elements of y:\n[5]')


def test_binary_assert_bad_operands():
    # TF converts x and y separately, so a Python int against floats is a dtype mismatch.
    with pytest.raises(errors.InvalidArgumentError, match='float32.*int32'):
        tf.debugging.assert_greater(tf.zeros(3), 2)
    with pytest.raises(errors.InvalidArgumentError, match=r'Incompatible shapes: \[3\] vs. \[2\]'):
        tf.debugging.assert_equal(tf.zeros(3), tf.zeros(2))


@pytest.mark.parametrize('fn, x, text', [
    (tf.debugging.assert_negative, X, "\nCondition x < 0 did not hold element-wise:\nx (shape=(3,)"
     " dtype=float32) = \n['1.0', '2.0', '3.0']"),
    (tf.debugging.assert_non_negative, [-1., -2., -3.], "\nCondition x >= 0 did not hold "
     "element-wise:\nx (shape=(3,) dtype=float32) = \n['-1.0', '-2.0', '-3.0']"),
    (tf.debugging.assert_positive, [-1., -2., -3.], "\nCondition x > 0 did not hold element-wise"
     ":\nx (shape=(3,) dtype=float32) = \n['-1.0', '-2.0', '-3.0']"),
    # TF runs these two lines together
    (tf.debugging.assert_non_positive, X, "\nCondition x <= 0 did not hold element-wise:x "
     "(shape=(3,) dtype=float32) = \n['1.0', '2.0', '3.0']"),
])
def test_sign_asserts(fn, x, text):
    assert _message(errors.InvalidArgumentError, fn, tf.constant(x)) == text
    zero = tf.constant([0.])
    if fn in (tf.debugging.assert_negative, tf.debugging.assert_positive):
        with pytest.raises(errors.InvalidArgumentError):
            fn(zero)
    else:
        assert fn(zero) is None


def test_sign_assert_message_and_summarize():
    text = _message(errors.InvalidArgumentError, tf.debugging.assert_positive,
                    tf.constant([-1, 2, 3, 4]), message='m', summarize=2)
    assert text == ("m.  \nCondition x > 0 did not hold element-wise:\nx (shape=(4,) "
                    "dtype=int32) = \n['-1', '2', '...']")


def test_assert_near():
    assert tf.debugging.assert_near(tf.constant(X), tf.constant(X) + 1e-7) is None
    text = _message(errors.InvalidArgumentError, tf.debugging.assert_near, tf.constant(X),
                    tf.constant(Y))
    assert text == ("Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. Summarized "
                    "data: b''\nb'x and y not equal to tolerance rtol = tf.Tensor(1.1920929e-06,"
                    " shape=(), dtype=float32), atol = tf.Tensor(1.1920929e-06, shape=(), "
                    "dtype=float32)'\nb'x (shape=(3,) dtype=float32) = '\n1.0, 2.0, 3.0\n"
                    "b'y (shape=(3,) dtype=float32) = '\n1.0, 5.0, 3.0")
    assert tf.debugging.assert_near(tf.constant([1.0]), [1.5], atol=0.6) is None


def test_rank_asserts():
    x = tf.constant(X)
    assert tf.assert_rank(x, 1) is None
    assert _message(ValueError, tf.debugging.assert_rank, x, 2) == \
        'Tensor  must have rank 2.  Received rank 1, shape (3,)'
    assert _message(ValueError, tf.debugging.assert_rank_at_least, x, 2, message='m') == \
        'm.  Tensor  must have rank at least 2.  Received rank 1, shape (3,)'
    assert _message(ValueError, tf.debugging.assert_rank_in, x, [0, 2]) == \
        'Tensor  must have rank in (0, 2).  Received rank 1, shape (3,)'
    assert tf.debugging.assert_rank_in(x, [0, 1]) is None
    assert _message(ValueError, tf.debugging.assert_rank, x, [1]) == 'Rank must be a scalar.'
    with pytest.raises(TypeError, match='must be of type tf.int32'):
        tf.debugging.assert_rank(x, 1.0)


def test_type_checks():
    x = tf.constant(X)
    assert tf.debugging.assert_scalar(tf.constant(1.)) is None
    assert _message(ValueError, tf.debugging.assert_scalar, x) == \
        'Expected scalar shape, saw shape: (3,).'
    assert _message(TypeError, tf.debugging.assert_type, x, tf.int32) == \
        'tensor must be of type tf.int32; got tf.float32'
    assert _message(TypeError, tf.debugging.assert_integer, x) == \
        'Expected "x" to be integer type.  Found: tensor of dtype <dtype: \'float32\'>'
    assert tf.debugging.assert_integer(tf.constant(1)) is None
    assert tf.debugging.assert_same_float_dtype([x, x]) is tf.float32
    assert tf.debugging.assert_same_float_dtype(None) is tf.float32
    assert _message(ValueError, tf.debugging.assert_same_float_dtype, [tf.constant(1)]) == \
        "Expected floating point type, got <dtype: 'int32'>."
    assert _message(ValueError, tf.debugging.assert_same_float_dtype, [x], tf.float64) == (
        "tf.Tensor([1. 2. 3.], shape=(3,), dtype=float32), type=<dtype: 'float32'>, must be of "
        "the same type (<dtype: 'float64'>).")
    assert tf.debugging.is_numeric_tensor(x)
    assert not tf.debugging.is_numeric_tensor(tf.constant('a'))
    assert not tf.debugging.is_numeric_tensor(3)


def test_proper_iterable_and_finite():
    assert tf.debugging.assert_proper_iterable([1]) is None
    assert _message(TypeError, tf.debugging.assert_proper_iterable, 'abc') == \
        'Expected argument "values" to be a "proper" iterable.  Found: <class \'str\'>'
    assert _message(TypeError, tf.debugging.assert_proper_iterable, 3) == \
        'Expected argument "values" to be iterable.  Found: <class \'int\'>'
    with pytest.raises(errors.InvalidArgumentError, match='bad : Tensor had Inf values'):
        tf.debugging.assert_all_finite(tf.constant(X) / 0, 'bad')
    np.testing.assert_array_equal(tf.debugging.assert_all_finite(tf.constant(X), 'm'), X)


def test_assert_shapes():
    x, m = tf.constant(X), tf.zeros([3, 2])
    assert tf.debugging.assert_shapes([(x, ('N',)), (m, ('N', 'M')), (m, (..., 2))]) is None
    assert _message(ValueError, tf.debugging.assert_shapes,
                    [(x, ('N',)), (tf.zeros([2, 3]), ('N', 'M'))]) == (
        'Specified by tensor shape=(3,) dtype=float32 dimension 0.  Tensor shape=(2, 3) '
        'dtype=float32 dimension 0 must have size 3.  Received size 2, shape (2, 3)')
    assert _message(ValueError, tf.debugging.assert_shapes, [(x, (4,))]) == (
        'Specified explicitly.  Tensor shape=(3,) dtype=float32 dimension 0 must have size 4.  '
        'Received size 3, shape (3,)')
    assert _message(ValueError, tf.debugging.assert_shapes, [(x, ('N', 'M'))]) == \
        'Tensor  must have rank 2.  Received rank 1, shape (3,)'


def test_graph_asserts_run_when_called():
    @tf.function
    def f(a, b):
        tf.debugging.assert_equal(a, b, message='m')
        tf.debugging.assert_non_negative(a)
        return a

    np.testing.assert_array_equal(f(tf.constant(X), tf.constant(X)), X)
    # TF's Assert kernel text, recorded from TF 2.21
    with pytest.raises(errors.InvalidArgumentError, match=re.escape(
            'assertion failed: [m] [Condition x == y did not hold element-wise:] [x (a:0) = ] '
            '[1 2 3] [y (b:0) = ] [1 5 3]')):
        f(tf.constant(X), tf.constant(Y))


def test_static_checks_at_trace_time():
    @tf.function
    def f(a):
        tf.debugging.assert_greater(tf.constant([1, 2]), tf.constant([1, 3]))
        return a

    with pytest.raises(errors.InvalidArgumentError) as info:
        f(tf.constant(1.))
    assert str(info.value).startswith('Condition x > y did not hold element-wise:\nx (Const:0) = '
                                      '\n[1 2]\ny (Const_1:0) = \n[1 3]')

    @tf.function
    def g(a):
        tf.debugging.assert_rank(a, 2)
        return a

    with pytest.raises(ValueError, match='must have rank 2.  Received rank 1'):
        g(tf.constant(X))


def test_dynamic_rank_and_shape_checks():
    @tf.function(input_signature=[tf.TensorSpec(None, tf.float32)])
    def f(a):
        tf.debugging.assert_rank(a, 1)
        return a

    np.testing.assert_array_equal(f(tf.constant(X)), X)
    with pytest.raises(errors.InvalidArgumentError, match='must have rank'):
        f(tf.zeros([2, 2]))

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)] * 2)
    def g(a, b):
        tf.debugging.assert_shapes([(a, ('N',)), (b, ('N',))])
        return a + b

    np.testing.assert_array_equal(g(tf.constant(X), tf.constant(Y)), [2., 7., 6.])
    with pytest.raises(errors.InvalidArgumentError, match='must have size'):
        g(tf.constant(X), tf.zeros([2]))


def test_assert_kernel_summarizes_as_tf():
    @tf.function
    def f(a, b, c, d):
        tf.debugging.Assert(False, [a, b, c, d, tf.zeros([2, 0])], summarize=3)
        return a

    with pytest.raises(errors.InvalidArgumentError, match=re.escape(
            'assertion failed: [[0.333333343 2e+10][3...]...] [1 0] [[0 1 2...]...] [a b] []')):
        f(tf.constant([[1 / 3, 2e10], [3, 4]]), tf.constant([True, False]),
          tf.range(24, dtype=tf.int64)[None, :], tf.constant(['a', 'b']))


def test_assert_type_takes_composite_tensors_as_tf():
    # TF 2.21: a SparseTensor's dtype is its values' dtype; no conversion to a dense tensor
    sparse = tf.SparseTensor(indices=[[0, 0], [1, 2]], values=[1, 2], dense_shape=[3, 4])
    assert tf.debugging.assert_type(sparse, tf_type=tf.int32) is None
    with pytest.raises(TypeError, match='must be of type tf.int32'):
        tf.debugging.assert_type(tf.ragged.constant([[1.]]), tf.int32)
