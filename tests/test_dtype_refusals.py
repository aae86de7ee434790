"""Dtypes TF's ops refuse: each expected class and message was recorded from TF 2.21."""
import pytest

import defun as tf


@pytest.mark.parametrize('value', [[True], ['a']])
def test_real_and_conj_refuse_bool_and_string(value):
    x = tf.constant(value)
    with pytest.raises(TypeError, match='input must be a numeric tensor, but got tensor with dtype'):
        tf.math.real(x)
    with pytest.raises(TypeError, match='Expected numeric or variant tensor, got dtype tf.'):
        tf.math.conj(x)
    assert tf.math.imag(x).dtype == x.dtype  # TF returns zeros of the same dtype here


@pytest.mark.parametrize('dtype', [tf.int8, tf.int16, tf.bool])
def test_matmul_refuses_types_outside_tfs_constraint(dtype):
    a = tf.cast(tf.ones([2, 2]), dtype)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=f"Value for attr 'T' of {dtype.name} is not in the list of allowed"):
        tf.matmul(a, a)

    @tf.function
    def f(x):
        return tf.matmul(x, x)
    with pytest.raises(TypeError, match="Value for attr 'T'"):
        f(a)
    assert tf.matmul(tf.ones([2, 2], tf.int64), tf.ones([2, 2], tf.int64)).numpy()[0, 0] == 2


def test_argument_refusals_recorded_from_tf():
    x = tf.ones([2, 3])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r'ScanOp: axis must be a scalar, not \[1,1\]'):
        tf.math.cumsum(x, axis=[[0]])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r'value must represent a scalar, got shape \[2\]'):
        tf.fill([2], [1.0, 2.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="attr 'T' of string"):
        tf.ones_like(tf.constant(['a']))
    with pytest.raises(tf.errors.InvalidArgumentError, match="attr 'T' of bool"):
        tf.math.square(tf.constant([True]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="attr 'Tperm' of float"):
        tf.transpose(x, [1.0, 0.0])
    with pytest.raises(TypeError, match='Cannot convert 1.5 to EagerTensor of dtype int32'):
        tf.reverse(x, 1.5)
    with pytest.raises(tf.errors.InvalidArgumentError, match="attr 'Tidx' of float"):
        tf.reverse(x, [1.5])
    with pytest.raises(TypeError, match="attr 'Tidx' of float"):
        tf.function(lambda: tf.reverse(x, [1.5]))()
    assert tf.reverse(x, [1]).shape == (2, 3) and tf.transpose(x, [1, 0]).shape == (3, 2)


def test_reduction_axis_of_rank_two_refused_in_graphs_only_as_tf():
    x = tf.ones([2, 3])
    assert tf.reduce_sum(x, axis=[[0]]).shape == (3,)  # TF's eager kernel flattens it

    @tf.function
    def f(t):
        return tf.reduce_sum(t, axis=[[0]])
    with pytest.raises(ValueError, match='Shape must be at most rank 1 but is rank 2'):
        f(x)
    with pytest.raises(TypeError, match="unexpected keyword argument 'name'"):
        tf.nn.silu(x, name='s')  # TF's silu has no name parameter
