"""Property-based tests (hypothesis) of broadcasting, dtype rules and slicing, with numpy as the
oracle. Example counts are kept small so the whole file runs in a few seconds."""
import operator

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import defun as tf

FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

REAL_DTYPES = [np.float16, np.float32, np.float64, np.int8, np.int16, np.int32, np.int64,
               np.uint8]
dtype_st = st.sampled_from(REAL_DTYPES)


def small_values(dtype):
    # Values that keep every op below exact in each dtype (no overflow, no rounding surprises).
    if np.dtype(dtype).kind == 'f':
        return st.floats(-8, 8, allow_nan=False, width=16).map(lambda v: round(v, 2))
    if np.dtype(dtype).kind == 'u':
        return st.integers(0, 10)
    return st.integers(-10, 10)


@st.composite
def broadcastable_pair(draw, dtype=None):
    dtype = draw(dtype_st) if dtype is None else dtype
    shapes = draw(hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=4,
                                                   max_side=4))
    a, b = (draw(hnp.arrays(dtype, shape, elements=small_values(dtype)))
            for shape in shapes.input_shapes)
    return a, b


OPS = [operator.add, operator.sub, operator.mul, tf.maximum, tf.minimum]
NP_OF = {tf.maximum: np.maximum, tf.minimum: np.minimum}


@FAST
@given(pair=broadcastable_pair(), op=st.sampled_from(OPS))
def test_broadcasting_binary_ops_match_numpy(pair, op):
    a, b = pair
    result = op(tf.constant(a), tf.constant(b))
    expected = NP_OF.get(op, op)(a, b)
    assert result.dtype.as_numpy_dtype == a.dtype.type
    assert result.shape.as_tuple() == expected.shape
    np.testing.assert_array_equal(result.numpy(), expected.astype(a.dtype))


@FAST
@given(pair=broadcastable_pair(), op=st.sampled_from([operator.lt, operator.ge, operator.eq]))
def test_broadcasting_comparisons_match_numpy(pair, op):
    a, b = pair
    result = op(tf.constant(a), tf.constant(b))
    assert result.dtype is tf.bool
    np.testing.assert_array_equal(result.numpy(), op(a, b))


@FAST
@given(pair=broadcastable_pair(dtype=np.float64))
def test_broadcasting_gradients_reduce_to_input_shapes(pair):
    a, b = pair
    x, y = tf.constant(a), tf.constant(b)
    with tf.GradientTape() as tape:
        tape.watch([x, y])
        z = x * y + x
    gx, gy = tape.gradient(z, [x, y])
    out_shape = np.broadcast_shapes(a.shape, b.shape)
    ones = np.ones(out_shape)
    # d/dx sum(x*y + x) summed over broadcast axes, computed with numpy's broadcasting.
    expected_gx = _sum_to(ones * b + ones, a.shape)
    expected_gy = _sum_to(ones * a, b.shape)
    assert gx.shape.as_tuple() == a.shape and gy.shape.as_tuple() == b.shape
    # Sums may be taken in another order (BLAS or pairwise): exact up to rounding, and a sum that
    # cancels to zero one way can leave a last-bit residue the other way.
    np.testing.assert_allclose(gx.numpy(), expected_gx, atol=1e-9)
    np.testing.assert_allclose(gy.numpy(), expected_gy, atol=1e-9)


def _sum_to(g, shape):
    lead = g.ndim - len(shape)
    g = g.sum(axis=tuple(range(lead)))
    axes = tuple(i for i, d in enumerate(shape) if d == 1 and g.shape[i] != 1)
    return g.sum(axis=axes, keepdims=True).reshape(shape)


@FAST
@given(pair=broadcastable_pair())
def test_python_scalar_adopts_tensor_dtype(pair):
    a, _ = pair
    scalar = 2 if a.dtype.kind in 'iu' else 2.5
    for result, expected in ((tf.constant(a) * scalar, a * a.dtype.type(scalar)),
                             (scalar - tf.constant(a), a.dtype.type(scalar) - a)):
        assert result.dtype.as_numpy_dtype == a.dtype.type
        np.testing.assert_array_equal(result.numpy(), expected)


@FAST
@given(d1=dtype_st, d2=dtype_st)
def test_tensors_of_different_dtypes_never_promote(d1, d2):
    a, b = tf.ones([2], dtype=d1), tf.ones([2], dtype=d2)
    if d1 == d2:
        assert (a + b).dtype.as_numpy_dtype == d1
    else:
        with pytest.raises(tf.errors.InvalidArgumentError):
            a + b


@FAST
@given(value=st.one_of(st.integers(-2 ** 63, 2 ** 63 - 1), st.floats(allow_nan=False,
                                                                       allow_infinity=False,
                                                                       width=32),
                       st.booleans()))
def test_python_scalar_conversion(value):
    t = tf.constant(value)
    if isinstance(value, bool):
        assert t.dtype is tf.bool
    elif isinstance(value, int):
        fits = -2 ** 31 <= value < 2 ** 31
        assert t.dtype is (tf.int32 if fits else tf.int64)
        assert int(t) == value
    else:
        assert t.dtype is tf.float32
        assert t.numpy() == np.float32(value)


@FAST
@given(arr=hnp.arrays(dtype_st, hnp.array_shapes(min_dims=0, max_dims=3, max_side=3),
                      elements=st.integers(0, 5)))
def test_numpy_arrays_keep_dtype_and_values(arr):
    t = tf.constant(arr)
    assert t.dtype.as_numpy_dtype == arr.dtype.type
    np.testing.assert_array_equal(t.numpy(), arr)
    np.testing.assert_array_equal(np.asarray(t), arr)


# ------------------------------------------------------------------ slicing

@st.composite
def array_and_index(draw):
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=5))
    arr = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape)
    index = draw(hnp.basic_indices(shape, min_dims=0, allow_newaxis=True, allow_ellipsis=True))
    return arr, index


@FAST
@given(case=array_and_index())
def test_getitem_matches_numpy(case):
    arr, index = case
    expected = arr[index]
    result = tf.constant(arr)[index]
    assert result.shape.as_tuple() == expected.shape
    np.testing.assert_array_equal(result.numpy(), expected)


@FAST
@given(case=array_and_index())
def test_getitem_gradient_scatters_like_numpy(case):
    arr, index = case
    x = tf.constant(arr)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(x[index] * 2.0)
    expected = np.zeros_like(arr)
    expected[index] = 2.0  # basic indices never repeat an element, so this is the scatter
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), expected)
