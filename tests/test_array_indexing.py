"""Tensor indexing, iteration and the array ops' error handling: slicing against numpy (property
tests), gradients that scatter into zeros, symbolic indices, TF's errors for bad input."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import defun as tf
from defun.core import errors


# ---------------------------------------------------------------- slicing against numpy

def _index_item(draw, n):
    if n and draw(st.booleans()):
        return draw(st.integers(-n, n - 1))
    bound = st.one_of(st.none(), st.integers(-n - 2, n + 2))
    step = draw(st.one_of(st.none(), st.integers(-3, 3).filter(lambda s: s != 0)))
    return slice(draw(bound), draw(bound), step)


@st.composite
def _array_and_key(draw):
    """An array and a key of ints and slices for a prefix (and maybe a suffix after an
    Ellipsis) of its dims, with newaxis entries inserted anywhere."""
    shape = tuple(draw(st.lists(st.integers(0, 4), min_size=1, max_size=3)))
    lead = draw(st.integers(0, len(shape)))
    items = [_index_item(draw, n) for n in shape[:lead]]
    if draw(st.booleans()):
        tail = draw(st.integers(0, len(shape) - lead))
        items += [Ellipsis] + [_index_item(draw, n) for n in shape[len(shape) - tail:]]
    for _ in range(draw(st.integers(0, 2))):
        items.insert(draw(st.integers(0, len(items))), None)
    return np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape), tuple(items)


@settings(max_examples=150, deadline=None)
@given(_array_and_key())
def test_slicing_matches_numpy(case):
    array, key = case
    expected = array[key]
    result = tf.constant(array)[key]
    assert result.shape == expected.shape
    np.testing.assert_array_equal(result.numpy(), expected)


@settings(max_examples=60, deadline=None)
@given(_array_and_key())
def test_slicing_gradient_scatters_ones(case):
    array, key = case
    x = tf.constant(array)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x[key]
    grad = tape.gradient(y, x)
    expected = np.zeros_like(array)
    expected[key] = 1.0
    np.testing.assert_array_equal(grad.numpy(), expected)


@settings(max_examples=40, deadline=None)
@given(_array_and_key())
def test_slicing_inference_matches_eager(case):
    array, key = case
    with tf.Graph().as_default():
        x = tf.compat.v1.placeholder(tf.float64, array.shape)
        assert tuple(x[key].shape.as_list()) == array[key].shape
        unknown = tf.compat.v1.placeholder(tf.float64, [None] * array.ndim)
        assert unknown[key].shape.is_compatible_with(array[key].shape)


# ---------------------------------------------------------------- specific indexing behaviour

def test_slice_gradient_accumulates_over_two_slices():
    x = tf.constant([1.0, 2.0, 3.0, 4.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(x[1:] * 2.0) + tf.reduce_sum(x[::2])
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), [1.0, 2.0, 3.0, 2.0])


def test_int_index_out_of_range_is_invalid_argument():
    x = tf.constant([[1, 2], [3, 4]])
    with pytest.raises(errors.InvalidArgumentError, match='out of bounds'):
        x[2]
    with pytest.raises(errors.InvalidArgumentError, match='out of bounds'):
        x[0, -3]


def test_too_many_indices():
    with pytest.raises(errors.InvalidArgumentError):
        tf.constant([1, 2])[0, 0]


def test_bad_index_types_are_type_errors():
    x = tf.constant([1.0, 2.0])
    for key in ([0, 1], 1.5, tf.constant(1.0), tf.constant([0, 1]), 'a'):
        with pytest.raises(TypeError, match='valid indices'):
            x[key]


def test_zero_step_and_double_ellipsis():
    x = tf.zeros([2, 2])
    with pytest.raises(ValueError):
        x[::0]
    with pytest.raises(ValueError):
        x[..., ...]


def test_symbolic_index_in_compiled_function():
    @tf.function
    def pick(x, i, n):
        return x[i, :n]

    x = tf.reshape(tf.range(12), [3, 4])
    np.testing.assert_array_equal(pick(x, tf.constant(2), tf.constant(3)).numpy(), [8, 9, 10])
    np.testing.assert_array_equal(pick(x, tf.constant(0), tf.constant(1)).numpy(), [0])
    assert pick.experimental_get_tracing_count() == 1


def test_symbolic_slice_shape_inference():
    with tf.Graph().as_default():
        x = tf.compat.v1.placeholder(tf.float32, [5, 6])
        i = tf.compat.v1.placeholder(tf.int32, [])
        assert x[i].shape.as_list() == [6]
        assert x[:i, 1].shape.as_list() == [None]
        assert x[tf.newaxis, ..., 2:].shape.as_list() == [1, 5, 4]


def test_iteration():
    t = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    rows = [r.numpy().tolist() for r in t]
    assert rows == [[1.0, 2.0], [3.0, 4.0]]
    assert len(t) == 2
    with pytest.raises(TypeError, match='scalar'):
        iter(tf.constant(1.0))


def test_iteration_in_graph():
    # TF 2.21 refuses to iterate a symbolic tensor whatever its static shape.
    with tf.Graph().as_default():
        for shape in ([3, 2], [None, 2]):
            t = tf.compat.v1.placeholder(tf.float32, shape)
            with pytest.raises(tf.errors.OperatorNotAllowedInGraphError,
                               match='Iterating over a symbolic `tf.Tensor` is not allowed'):
                iter(t)
            with pytest.raises(TypeError, match='len is not well defined for a symbolic Tensor'):
                len(t)


def test_variable_indexing():
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_array_equal(v[1].numpy(), [3.0, 4.0])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(v[:, 1])
    np.testing.assert_array_equal(tape.gradient(y, v).numpy(), [[0.0, 1.0], [0.0, 1.0]])


# ---------------------------------------------------------------- other array ops' errors

def test_gather_out_of_range():
    with pytest.raises(errors.InvalidArgumentError, match=r'not in \[0, 3\)'):
        tf.gather(tf.constant([1, 2, 3]), [0, 3])
    with pytest.raises(errors.InvalidArgumentError, match='axis'):
        tf.gather(tf.constant([1, 2, 3]), [0], axis=1)


def test_gather_nd_out_of_range():
    with pytest.raises(errors.InvalidArgumentError, match='does not index'):
        tf.gather_nd(tf.zeros([2, 2]), [[0, 2]])


def test_boolean_mask_shape_mismatch():
    with pytest.raises(ValueError):
        tf.boolean_mask(tf.zeros([3]), [True, False])


def test_pad_errors():
    with pytest.raises(ValueError, match='mode'):
        tf.pad(tf.zeros([2]), [[1, 1]], mode='WRAP')
    with pytest.raises(errors.InvalidArgumentError, match='REFLECT'):
        tf.pad(tf.constant([1, 2]), [[2, 0]], mode='REFLECT')
    with pytest.raises(errors.InvalidArgumentError):
        tf.pad(tf.zeros([2, 2]), [[1, 1]])


def test_axis_errors():
    with pytest.raises(errors.InvalidArgumentError):
        tf.expand_dims(tf.zeros([2]), 3)
    with pytest.raises(errors.InvalidArgumentError, match='squeeze'):
        tf.squeeze(tf.zeros([2, 3]), [1])
    with pytest.raises(errors.InvalidArgumentError):
        tf.transpose(tf.zeros([2, 3]), [0, 0])
    with pytest.raises(errors.InvalidArgumentError):
        tf.reverse(tf.zeros([2]), [1])
    with pytest.raises(errors.InvalidArgumentError, match='multiples'):
        tf.tile(tf.zeros([2]), [1, 2])


def test_top_k_needs_enough_columns():
    with pytest.raises(errors.InvalidArgumentError, match='at least k'):
        tf.nn.top_k(tf.zeros([3]), 4)


def test_constant_and_range_dtypes():
    assert tf.constant(1).dtype == tf.int32
    assert tf.constant(1.0).dtype == tf.float32
    assert tf.constant(np.float64(1.0)).dtype == tf.float64
    assert tf.constant([1, 2], dtype=tf.float64).dtype == tf.float64
    assert tf.constant(7, shape=[2, 2]).numpy().tolist() == [[7, 7], [7, 7]]
    assert tf.constant([1, 2, 3, 4], shape=[2, 2]).shape == (2, 2)
    with pytest.raises(TypeError):
        tf.constant([1, 2, 3], shape=[2, 2])
    with pytest.raises(TypeError):
        tf.constant(1.5, dtype=tf.int32)
    assert tf.range(5).dtype == tf.int32
    assert tf.range(0, 1, 0.25).dtype == tf.float32
    assert tf.range(tf.constant(2, tf.int64), 5).dtype == tf.int64
    assert tf.range(3, dtype=tf.float64).numpy().tolist() == [0.0, 1.0, 2.0]
    with pytest.raises(errors.InvalidArgumentError):
        tf.range(0, 5, 0)


def test_eye():
    np.testing.assert_array_equal(tf.eye(2, 3).numpy(), np.eye(2, 3, dtype=np.float32))
    assert tf.eye(2, batch_shape=[3]).shape == (3, 2, 2)
    assert tf.eye(2, dtype=tf.int32).dtype == tf.int32


def test_linspace_gradient():
    a, b = tf.constant(0.0), tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        y = tf.reduce_sum(tf.linspace(a, b, 5) * tf.constant([1.0, 1.0, 1.0, 1.0, 5.0]))
    ga, gb = tape.gradient(y, [a, b])
    assert float(ga) == pytest.approx(2.5) and float(gb) == pytest.approx(6.5)


# Expected values recorded with TensorFlow 2.21.
def test_strided_slice_masks_match_python_indexing():
    x = tf.reshape(tf.range(24), [2, 3, 4])
    assert tf.strided_slice(x, [0, 0, 0], [2, 3, 4], [1, 2, 3]).numpy().tolist() == [
        [[0, 3], [8, 11]], [[12, 15], [20, 23]]]
    np.testing.assert_array_equal(tf.strided_slice(x, [1, 0], [2, 3], [1, 1], shrink_axis_mask=1),
                                  x.numpy()[1, 0:3])
    np.testing.assert_array_equal(
        tf.strided_slice(x, [0, 5, 0], [0, 0, -1], [1, -1, 1], begin_mask=3, end_mask=3),
        x.numpy()[:, ::-1, 0:-1])
    out = tf.strided_slice(x, [0, 0, 1], [0, 0, 3], [1, 1, 1], ellipsis_mask=1, new_axis_mask=2)
    assert out.shape == (2, 3, 1, 2)
    np.testing.assert_array_equal(out, x.numpy()[..., None, 1:3])


def test_strided_slice_with_tensor_bounds_in_a_function_and_its_gradient():
    f = tf.function(lambda x, b: tf.strided_slice(x, b, b + 2))
    assert f(tf.range(10), tf.constant([3])).numpy().tolist() == [3, 4]
    v = tf.constant([1., 2., 3., 4.])
    with tf.GradientTape() as t:
        t.watch(v)
        y = tf.reduce_sum(tf.strided_slice(v, [1], [4], [2]) * 3.)
    assert t.gradient(y, v).numpy().tolist() == [0., 3., 0., 3.]
