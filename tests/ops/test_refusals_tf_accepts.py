"""Inputs defun used to refuse where TensorFlow 2.21 returns a value; every expected value, class
and message below was recorded by running the same call under TF 2.21."""
import numpy as np
import pytest

import defun as tf


def test_shuffle_of_a_scalar_or_one_row_returns_it():
    # TF: tf.random.shuffle(3) -> 3 (int32); a single row comes back as it is
    assert tf.random.shuffle(3).numpy() == 3
    assert tf.random.shuffle(tf.constant(3.0)).dtype == tf.float32
    np.testing.assert_array_equal(tf.random.shuffle([[1, 2]]).numpy(), [[1, 2]])
    assert tf.function(lambda: tf.random.shuffle(4))().numpy() == 4


def test_empty_python_list_takes_the_ops_input_dtype():
    # TF: one_hot([], 3) is float32 [0, 3] (indices convert as int64, TI's default);
    # logical_not([]) is bool [0] (LogicalNot's input is bool)
    hot = tf.one_hot([], 3)
    assert hot.shape == (0, 3) and hot.dtype == tf.float32
    assert tf.one_hot([[]], 3).shape == (1, 0, 3)
    neg = tf.logical_not([])
    assert neg.shape == (0,) and neg.dtype == tf.bool
    # TF: a non-bool list is refused by the conversion, TypeError eagerly and in a graph
    with pytest.raises(TypeError, match='bool'):
        tf.logical_not([1])
    with pytest.raises(TypeError):
        tf.function(lambda: tf.logical_not([1]))()
    # TF: float indices stay refused (InvalidArgumentError eagerly, TypeError in a graph)
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.one_hot([1.5], 3)
    with pytest.raises(TypeError):
        tf.function(lambda: tf.one_hot([1.5], 3))()


def test_zeros_and_ones_truncate_float_dims_while_a_graph_is_built():
    # TF: inside tf.function zeros([1.5, 2]) is float32 [1, 2]; eagerly it is a TypeError
    out = tf.function(lambda: tf.zeros([1.5, 2]))()
    np.testing.assert_array_equal(out.numpy(), np.zeros([1, 2], np.float32))
    np.testing.assert_array_equal(tf.function(lambda: tf.ones([1.5, 2.7]))().numpy(),
                                  np.ones([1, 2], np.float32))
    with pytest.raises(TypeError):
        tf.zeros([1.5, 2])
    with pytest.raises(TypeError):  # TF: "Expected int32, but got -1.5"
        tf.function(lambda: tf.zeros([-1.5, 2]))()
    with pytest.raises(ValueError):  # TF: a nested list is no shape
        tf.function(lambda: tf.zeros([[1, 2]]))()


def test_eye_casts_a_float_tensor_size():
    # TF: eye(constant(2.5)) is the 2x2 identity; eye(2, constant(3.0)) is 2x3
    np.testing.assert_array_equal(tf.eye(tf.constant(2.5)).numpy(), np.eye(2))
    np.testing.assert_array_equal(tf.eye(2, tf.constant(3.0, tf.float64)).numpy(), np.eye(2, 3))
    # TF: a negative size is InvalidArgumentError, bool and string sizes InvalidArgumentError,
    # a Python float TypeError
    for bad in (tf.constant(-2.5), tf.constant(True), tf.constant('a')):
        with pytest.raises(tf.errors.InvalidArgumentError):
            tf.eye(bad)
    with pytest.raises(TypeError):
        tf.eye(2.5)
    # TF: inside tf.function, a captured float constant size gives the same identity
    size = tf.constant(2.5)
    np.testing.assert_array_equal(tf.function(lambda: tf.eye(size))().numpy(), np.eye(2))


GATHER_PREFIX = ('{{function_node __wrapped__GatherV2_device_/job:localhost/replica:0/task:0/'
                 'device:CPU:0}} ')


@pytest.mark.parametrize('indices,text', [(5, 'indices = 5 is not in [0, 3)'),
                                          ([5], 'indices[0] = 5 is not in [0, 3)'),
                                          ([[0, 1], [2, 5]], 'indices[1,1] = 5 is not in [0, 3)')])
def test_gather_out_of_range_message_is_tfs(indices, text):
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.gather([1, 2, 3], indices)
    assert str(info.value) == GATHER_PREFIX + text + ' [Op:GatherV2]'


def test_gather_out_of_range_in_compiled_code_keeps_the_users_line():
    @tf.function
    def f():
        return tf.gather([1, 2, 3], [5])  # the line the error points at
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        f()
    message = str(info.value)
    assert '\nindices[0] = 5 is not in [0, 3)\n' in message
    assert 'GatherV2:' not in message and '{{node GatherV2}}' in message
    assert 'the line the error points at' in message


def test_concat_takes_a_python_bool_axis_as_an_int():
    # TF: concat([x, x], axis=True) is [2, 4] (its wrapper converts the axis to int32 first);
    # gather's tensor axis keeps refusing a bool (TF: InvalidArgumentError, attr 'Taxis')
    x = tf.ones([2, 2])
    assert tf.concat([x, x], axis=True).shape == (2, 4)
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.gather(x, [0], axis=True)
