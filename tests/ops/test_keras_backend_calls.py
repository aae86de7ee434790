"""Calls Keras's TensorFlow backend makes, with values and exception classes recorded from
TensorFlow 2.21: linspace and range in float16 (and the integer dtypes whose Range kernel TF
lacks), pad of bool and string tensors with a Python zero, searchsorted of no values, matmul of
int8 operands into int32, TensorShape conversion, and the raw UniqueV2 ops."""
import numpy as np
import pytest

import defun as tf


def test_linspace_in_float16():
    # TF's tf.linspace composes ops that run half (its LinSpace kernel does not)
    start, stop = tf.constant(0.5, tf.float16), tf.constant(10.5, tf.float16)
    result = tf.linspace(start, stop, 7)
    assert result.dtype == tf.float16
    assert result.numpy().tolist() == [0.5, 2.16796875, 3.833984375, 5.5, 7.16796875, 8.8359375,
                                       10.5]
    along = tf.linspace(tf.constant([0.5, -1.0], tf.float16), tf.constant(3.3, tf.float16), 4,
                        axis=1)
    assert along.numpy().tolist() == [[0.5, 1.43359375, 2.3671875, 3.30078125],
                                      [-1.0, 0.43359375, 1.8671875, 3.30078125]]


def test_range_dtypes():
    assert tf.range(1.5, 4, dtype=tf.float16).numpy().tolist() == [1.5, 2.5, 3.5]
    assert tf.range(tf.constant(1.5, tf.float16), 4).dtype == tf.float16
    assert tf.range(tf.constant(1), tf.constant(5.0)).numpy().tolist() == [1.0, 2.0, 3.0, 4.0]
    assert tf.range(tf.constant(1, tf.int64), 5).dtype == tf.int64
    for dtype in (tf.int16, tf.int8):   # TF's Range has no CPU kernel for them
        with pytest.raises(tf.errors.NotFoundError, match='Range'):
            tf.range(10, dtype=dtype)
    with pytest.raises(tf.errors.InvalidArgumentError, match="attr 'Tidx' of uint8"):
        tf.range(10, dtype=tf.uint8)


def test_pad_with_a_python_zero_pads_any_dtype_with_its_zero():
    padded = tf.pad(tf.constant([[True, False]]), [[1, 0], [0, 1]])
    assert padded.numpy().tolist() == [[False, False, False], [True, False, False]]
    assert tf.pad(tf.constant([True]), [[1, 1]], constant_values=True).numpy().tolist() == \
        [True, True, True]
    assert tf.pad(tf.constant(['a']), [[1, 1]]).numpy().tolist() == [b'', b'a', b'']
    assert tf.pad(tf.constant([1, 2]), [[1, 1]], constant_values=0.0).numpy().tolist() == \
        [0, 1, 2, 0]
    assert tf.eye(2, 3, dtype=tf.bool).numpy().tolist() == [[True, False, False],
                                                             [False, True, False]]
    with pytest.raises(TypeError):
        tf.pad(tf.constant([True]), [[1, 1]], constant_values=1)


def test_searchsorted_of_no_values():
    found = tf.searchsorted(tf.constant([1.0, 2, 3]), tf.constant([], tf.float32), side='right')
    assert found.shape == (0,) and found.dtype == tf.int32
    assert tf.searchsorted(tf.zeros((0, 3)), tf.zeros((0, 2))).shape == (0, 2)


def test_int8_matmul_into_int32():
    a = tf.constant([[100, -100, 7]], tf.int8)
    b = tf.constant([[100], [100], [3]], tf.int8)
    product = tf.matmul(a, b, output_type=tf.int32)
    assert product.dtype == tf.int32 and product.numpy().tolist() == [[21]]
    mixed = tf.matmul(tf.constant([[200, 1]], tf.uint8), tf.constant([[2], [-3]], tf.int8),
                      output_type=tf.int32)
    assert mixed.numpy().tolist() == [[397]]
    x = tf.constant(np.arange(6, dtype=np.int8).reshape(3, 2))
    y = tf.constant(np.arange(6, dtype=np.int8).reshape(2, 3))
    transposed = tf.matmul(x, y, transpose_a=True, transpose_b=True, output_type=tf.int32)
    assert transposed.numpy().tolist() == [[10, 28], [13, 40]]
    batched = tf.matmul(tf.ones((2, 1, 3, 4), tf.int8), tf.ones((5, 4, 2), tf.int8),
                        output_type=tf.int32)
    assert batched.shape == (2, 5, 3, 2)
    with pytest.raises(tf.errors.InvalidArgumentError, match="attr 'T' of int8"):
        tf.matmul(a, b)
    with pytest.raises(tf.errors.NotFoundError, match='BatchMatMulV3'):
        tf.matmul(tf.ones((1, 1)), tf.ones((1, 1)), output_type=tf.float64)


def test_int8_matmul_in_a_function():
    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.int8),
                                  tf.TensorSpec([3, None], tf.int8)])
    def product(a, b):
        result = tf.matmul(a, b, output_type=tf.int32)
        assert result.shape.as_list() == [None, None] and result.dtype == tf.int32
        return result
    a = np.array([[100, -100, 7]], np.int8)
    assert product(a, np.array([[100], [100], [3]], np.int8)).numpy().tolist() == [[21]]


def test_tensor_shapes_convert_to_int_tensors():
    assert tf.convert_to_tensor(tf.TensorShape([])).dtype == tf.int32
    assert tf.convert_to_tensor(tf.TensorShape([3, 2 ** 31])).dtype == tf.int64
    x = tf.ones((), tf.int16)
    assert tf.broadcast_to(x, tf.broadcast_static_shape(x.shape, x.shape)).shape == ()
    with pytest.raises(TypeError, match='Allowed dtypes are tf.int32 and tf.int64'):
        tf.convert_to_tensor(tf.TensorShape([2]), dtype=tf.float32)


def _listed(result):
    return [t.numpy().tolist() for t in result]


def test_unique_slices():
    x = np.array([[1, -0., 1], [2, 3, 2], [1, 0, 1], [np.nan, 5, 5], [np.nan, 5, 5]], np.float32)
    y, idx = tf.raw_ops.UniqueV2(x=x, axis=[0])
    np.testing.assert_array_equal(y.numpy(), [[1, 0, 1], [2, 3, 2], [np.nan, 5, 5],
                                              [np.nan, 5, 5]])
    assert idx.numpy().tolist() == [0, 1, 0, 2, 3] and idx.dtype == tf.int32
    y, idx, count = tf.raw_ops.UniqueWithCountsV2(x=x, axis=[-1], out_idx=tf.int64)
    assert y.shape == (5, 3) and idx.numpy().tolist() == [0, 1, 2]
    assert count.numpy().tolist() == [1, 1, 1] and count.dtype == tf.int64
    assert _listed(tf.raw_ops.UniqueV2(x=np.array([3, 1, 3, 2, 1]), axis=[])) == \
        [[3, 1, 2], [0, 1, 0, 2, 1]]
    ints = np.array([[1, 2], [1, 2], [0, 2]], np.int32)
    assert _listed(tf.raw_ops.UniqueWithCountsV2(x=ints, axis=np.array([0], np.int32))) == \
        [[[1, 2], [0, 2]], [0, 0, 1], [2, 1]]


@pytest.mark.parametrize('axis, message', [([], 'unique expects a 1D vector'),
                                           ([2], r'axis has to be between \[0, 2\)'),
                                           ([0, 1], 'axis does not support input tensors')])
def test_unique_slices_refusals(axis, message):
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        tf.raw_ops.UniqueV2(x=np.ones((2, 3)), axis=axis)


def test_unique_slices_shapes_in_a_graph():
    @tf.function(input_signature=[tf.TensorSpec([4, 3], tf.float32)])
    def f(x):
        y, idx = tf.raw_ops.UniqueV2(x=x, axis=[1])
        assert y.shape.as_list() == [None, None] and idx.shape.as_list() == [3]
        return y
    assert f(np.ones((4, 3), np.float32)).shape == (4, 1)


def test_unique_keeps_every_nan_apart():
    # TF's unique compares with ==, under which NaN equals nothing (and -0.0 equals 0.0)
    x = np.array([1.0, np.nan, 2.0, np.nan, -0.0, 0.0], np.float32)
    y, idx = tf.unique(x)
    np.testing.assert_array_equal(y.numpy(), [1.0, np.nan, 2.0, np.nan, 0.0])
    assert idx.numpy().tolist() == [0, 1, 2, 3, 4, 4]
    assert tf.unique_with_counts(x).count.numpy().tolist() == [1, 1, 1, 1, 2]
