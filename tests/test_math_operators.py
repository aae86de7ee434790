"""Python operators on tensors as TF2 defines them: arithmetic and reflected forms, comparisons,
elementwise == and != that never raise for an unconvertible operand, and & | ^ ~ that are logical
on bool tensors and bitwise on integer ones."""
import numpy as np
import pytest

import defun as tf
from defun.core import errors


def test_arithmetic_operators_and_reflections():
    x = tf.constant([7.0, -7.0])
    np.testing.assert_allclose((x // 2).numpy(), [3.0, -4.0])
    np.testing.assert_allclose((10 // x).numpy(), [1.0, -2.0])
    np.testing.assert_allclose((x % 3).numpy(), [1.0, 2.0])
    np.testing.assert_allclose((15 % x).numpy(), [1.0, -6.0])
    np.testing.assert_allclose((x ** 2).numpy(), [49.0, 49.0])
    np.testing.assert_allclose((2 ** tf.constant([3.0])).numpy(), [8.0])
    np.testing.assert_allclose(abs(x).numpy(), [7.0, 7.0])
    assert +x is x
    np.testing.assert_allclose((-x).numpy(), [-7.0, 7.0])


def test_numpy_array_on_the_left_defers_to_the_tensor():
    result = np.array([1.0, 2.0], np.float32) ** tf.constant([2.0, 2.0])
    assert isinstance(result, tf.Tensor)
    np.testing.assert_allclose(result.numpy(), [1.0, 4.0])


def test_comparison_operators():
    x = tf.constant([1, 2, 3])
    assert (x < 2).numpy().tolist() == [True, False, False]
    assert (x <= 2).numpy().tolist() == [True, True, False]
    assert (x > 2).numpy().tolist() == [False, False, True]
    assert (x >= 2).numpy().tolist() == [False, True, True]
    assert (2 < x).numpy().tolist() == [False, False, True]   # reflected through __gt__


def test_equality_is_elementwise():
    x = tf.constant([1, 2, 3])
    result = x == 2
    assert isinstance(result, tf.Tensor) and result.dtype is tf.bool
    assert result.numpy().tolist() == [False, True, False]
    assert (x != tf.constant([1, 0, 3])).numpy().tolist() == [False, True, False]


def test_equality_with_none_or_unconvertible_values_is_plain_python():
    x = tf.constant([1, 2])
    assert (x == None) is False  # noqa: E711 - the operator is what is being tested
    assert (x != None) is True  # noqa: E711
    assert (x == 'a') is False
    assert (x != object()) is True
    assert (x == [1.5, 2.5]) is False   # floats do not convert to int32


def test_equality_of_shapes_that_do_not_broadcast_is_false():
    result = tf.constant([1, 2, 3]) == tf.constant([1, 2])
    assert result.shape == () and not bool(result)
    assert bool(tf.constant([1, 2, 3]) != tf.constant([1, 2]))
    with pytest.raises(errors.InvalidArgumentError, match=r'Equal.*int32\[3\].*int32\[2\]'):
        tf.equal(tf.constant([1, 2, 3]), tf.constant([1, 2]))


def test_equality_between_tensors_of_different_dtypes_raises():
    with pytest.raises(errors.InvalidArgumentError):
        tf.constant([1]) == tf.constant([1.0])


def test_tensors_are_unhashable_as_tf2_and_refs_are_keys():
    # TF 2.21: hash() of a tensor or Variable raises TypeError (== is elementwise); ref() works.
    a, b = tf.constant(1.0), tf.constant(1.0)
    with pytest.raises(TypeError, match=r'Tensor is unhashable. Instead, use tensor.ref\(\)'):
        hash(a)
    v = tf.Variable(0.0)
    with pytest.raises(TypeError, match=r'Variable is unhashable. Instead, use variable.ref\(\) '
                                        r"as the key. \(Variable: <tf.Variable 'Variable:0'"):
        set([v, a])
    assert len({a.ref(), b.ref(), a.ref()}) == 2
    with tf.Graph().as_default():
        c = tf.constant(1.0)
        assert len({c, c}) == 1  # a TF1-style graph hashes by identity


def test_tensor_equality_switch_of_compat_v1():
    x, y = tf.Variable(0.0), tf.Variable(0.0)
    try:
        tf.compat.v1.disable_tensor_equality()
        assert (x == y) is False and (x == x) is True and (x != y) is True
        assert len({x, y, x}) == 2
    finally:
        tf.compat.v1.enable_tensor_equality()
    assert bool(x == y) and (x == y).dtype == tf.bool


def test_logical_operators_on_bool():
    a = tf.constant([True, True, False, False])
    b = tf.constant([True, False, True, False])
    assert (a & b).numpy().tolist() == [True, False, False, False]
    assert (a | b).numpy().tolist() == [True, True, True, False]
    assert (a ^ b).numpy().tolist() == [False, True, True, False]
    assert (~a).numpy().tolist() == [False, False, True, True]
    assert (True & b).numpy().tolist() == [True, False, True, False]


def test_bitwise_operators_on_integers():
    a, b = tf.constant([12, 10]), tf.constant([10, 6])
    assert (a & b).numpy().tolist() == [8, 2]
    assert (a | b).numpy().tolist() == [14, 14]
    assert (a ^ b).numpy().tolist() == [6, 12]
    assert (~a).numpy().tolist() == [-13, -11]
    assert (~a).dtype is tf.int32


def test_logical_ops_reject_non_bool():
    with pytest.raises(errors.InvalidArgumentError, match='logical_and'):
        tf.logical_and(tf.constant([1]), tf.constant([0]))
    with pytest.raises(errors.InvalidArgumentError, match="attr 'T' of float is not in the list "
                                                          'of allowed values: int8'):
        tf.constant([1.0]) & tf.constant([0.0])


def test_equality_inside_a_function_is_elementwise():
    @tf.function
    def f(x):
        return x == 2.0

    assert f(tf.constant([1.0, 2.0])).numpy().tolist() == [False, True]


def test_fast_eager_operators_keep_values_checks_and_recording():
    # `+ - *` on two eager tensors of one dtype take a shortcut to the kernel (dispatch's
    # binary_operator); values, dtype errors, shape errors and tape recording are as elsewhere.
    a = np.array([1.5, -2.0, 3.0], np.float32)
    b = np.array([0.5, 4.0, -1.0], np.float32)
    ta, tb = tf.constant(a), tf.constant(b)
    for got, want in [(ta + tb, a + b), (ta - tb, a - b), (ta * tb, a * b)]:
        assert got.dtype == tf.float32
        np.testing.assert_array_equal(got.numpy(), want)
    flag = tf.constant([True, False])
    for fn in (lambda: flag + flag, lambda: flag - flag):
        with pytest.raises(errors.InvalidArgumentError, match='bool'):
            fn()
    with pytest.raises(errors.InvalidArgumentError, match=r'float32\[3\].*float32\[2\]'):
        ta + tf.constant([1.0, 2.0])
    s = tf.constant('ab')
    assert (s + s).numpy() == b'abab'
    with tf.GradientTape() as tape:
        tape.watch(ta)
        y = ta * tb + ta - tb
    np.testing.assert_array_equal(tape.gradient(y, ta).numpy(), b + 1)


def test_fast_operators_inside_a_traced_function_build_graph_ops():
    captured = tf.constant([1.0, 2.0])

    @tf.function
    def f(x):
        return x * captured + captured

    np.testing.assert_array_equal(f(tf.constant([3.0, 4.0])).numpy(), [4.0, 10.0])
    graph = f.get_concrete_function(tf.TensorSpec([2], tf.float32)).graph
    assert {'Mul', 'AddV2'} <= {op.type for op in graph.get_operations()}


@pytest.mark.parametrize('dtype', [np.float16, np.float64, np.int8, np.int16, np.int32, np.int64,
                                   np.uint8, np.uint16, np.uint32, np.uint64, np.complex64,
                                   np.complex128])
def test_fast_eager_operators_over_every_numeric_dtype(dtype):
    a = np.array([7, 2, 5], dtype)
    b = np.array([3, 1, 2], dtype)
    ta, tb = tf.constant(a), tf.constant(b)
    for got, want in [(ta + tb, a + b), (ta - tb, a - b), (ta * tb, a * b)]:
        assert got.numpy().dtype == want.dtype
        np.testing.assert_array_equal(got.numpy(), want)
