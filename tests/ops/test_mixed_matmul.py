"""tf.linalg.matmul with an output_type that is not both operands' dtype (TF's BatchMatMulV3):
values and errors recorded from TF 2.21."""
import numpy as np
import pytest

import defun as tf


def test_int8_products_into_int32():
    a = tf.constant([[1, 2], [3, 4]], tf.int8)
    b = tf.constant([[5, 6], [7, 8]], tf.int8)
    r = tf.linalg.matmul(a, b, output_type=tf.int32)
    assert r.dtype == tf.int32 and r.numpy().tolist() == [[19, 22], [43, 50]]
    assert tf.linalg.matmul(a, b, output_type=tf.int32, transpose_b=True).numpy().tolist() == \
        [[17, 23], [39, 53]]
    big = tf.linalg.matmul(tf.constant([[100, 100]], tf.int8), tf.constant([[100], [100]], tf.int8),
                           output_type=tf.int32)
    assert big.numpy().tolist() == [[20000]]   # no int8 overflow
    a3 = tf.cast(tf.reshape(tf.range(8), [2, 2, 2]), tf.int8)
    assert tf.linalg.matmul(a3, a3, output_type=tf.int32).numpy().tolist() == \
        [[[2, 3], [6, 11]], [[46, 55], [66, 79]]]
    f = tf.function(lambda a, b: tf.linalg.matmul(a, b, output_type=tf.int32))
    assert f(a, b).numpy().tolist() == [[19, 22], [43, 50]]


def test_refusals_as_tf():
    a = tf.constant([[1, 2], [3, 4]], tf.int8)
    with pytest.raises(tf.errors.InvalidArgumentError, match="attr 'T' of int8"):
        tf.linalg.matmul(a, a)                      # MatMul takes no int8
    with pytest.raises(tf.errors.NotFoundError, match='Could not find device'):
        tf.linalg.matmul(a, a, output_type=tf.int64)
    x = tf.constant([[1., 2.]])
    with pytest.raises(tf.errors.NotFoundError, match='Could not find device'):
        tf.linalg.matmul(x, tf.constant([[1.], [2.]]), output_type=tf.int32)
    same = tf.linalg.matmul(x, tf.constant([[1.], [2.]]), output_type=tf.float32)
    assert same.numpy().tolist() == [[5.]]
    assert np.asarray(same).dtype == np.float32
