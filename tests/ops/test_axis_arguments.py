"""Axis and count arguments converted as TF's wrappers convert them (classes and messages recorded
from TensorFlow 2.21): an int compared in Python by the wrapper (stack, unstack, softmax), an op
input typed by an attribute with a default type (cumsum's and cumprod's 'Tidx', top_k's 'Tk') or
without one (roll's 'Taxis')."""
import numpy as np
import pytest

import defun as tf
from defun.core import errors

IAE = errors.InvalidArgumentError


def _x():
    return tf.ones([2, 4])


def _in_function(call):
    return tf.function(call)()


# -------------------------------------------------- ints the wrapper compares in Python

@pytest.mark.parametrize('call', [
    lambda: tf.stack([_x(), _x()], axis=tf.constant(1.0)),
    lambda: tf.unstack(_x(), axis=tf.constant(1)),
    lambda: tf.nn.softmax(_x(), axis=tf.constant(0.0)),
    lambda: tf.nn.log_softmax(_x(), axis=tf.constant(1)),
], ids=['stack', 'unstack', 'softmax', 'log_softmax'])
def test_a_tensor_axis_cannot_be_compared_while_tracing(call):
    # TF: "Using a symbolic `tf.Tensor` as a Python `bool` is not allowed."
    with pytest.raises(errors.OperatorNotAllowedInGraphError, match='as a Python `bool`'):
        _in_function(call)


def test_eager_tensor_axes_are_taken_by_value():
    assert tf.stack([_x(), _x()], axis=tf.constant(1.0)).shape == (2, 2, 4)  # TF: (2, 2, 4)
    assert len(tf.unstack(_x(), axis=tf.constant(1))) == 4  # TF: 4 tensors
    assert _in_function(lambda: tf.stack([_x(), _x()], axis=np.float32(1.0))).shape == (2, 2, 4)


def test_unstack_indexes_with_its_axis():
    # TF: TypeError "list indices must be integers or slices, not numpy.float32"
    with pytest.raises(TypeError):
        _in_function(lambda: tf.unstack(_x(), axis=np.float32(1.0)))


@pytest.mark.parametrize('op', [tf.nn.softmax, lambda x, axis: tf.stack([x, x], axis=axis)])
def test_values_that_do_not_compare_are_type_errors(op):
    # TF: TypeError "'<=' not supported between instances of 'int' and 'dict'"
    with pytest.raises(TypeError, match="dict"):
        op(_x(), axis={'a': 0})


# -------------------------------------------------- op inputs typed by an attribute

@pytest.mark.parametrize('op', [tf.math.cumsum, tf.math.cumprod], ids=['cumsum', 'cumprod'])
def test_cumulative_axis_converts_as_an_int32_input(op):
    # TF: ValueError "Attempt to convert a value ({'a': 0}) with an unsupported type
    # (<class 'dict'>) to a Tensor." eagerly; TypeError (make_tensor_proto) while tracing
    with pytest.raises(ValueError, match=r"Attempt to convert a value \(\{'a': 0\}\) with an unsupported"):
        op(_x(), axis={'a': 0})
    with pytest.raises(TypeError):
        _in_function(lambda: op(_x(), axis={'a': 0}))
    with pytest.raises(ValueError, match='unsupported type'):
        op(_x(), axis=[None])
    # Tidx defaults to int32: a bool converts, a fractional float does not.
    assert op(_x(), axis=True).shape == (2, 4)  # TF: runs, in both modes
    assert _in_function(lambda: op(_x(), axis=True)).shape == (2, 4)
    with pytest.raises(TypeError, match='Cannot convert 1.5 to EagerTensor of dtype int32'):
        op(_x(), axis=1.5)
    # TF: InvalidArgumentError "ScanOp: axis must be a scalar, not [0]" in both modes
    with pytest.raises(IAE, match=r'ScanOp: axis must be a scalar, not \[0\]'):
        op(_x(), axis=[])
    with pytest.raises(IAE, match=r'ScanOp: axis must be a scalar, not \[0\]'):
        _in_function(lambda: op(_x(), axis=[]))
    # TF: "Value for attr 'Tidx' of string is not in the list of allowed values: int32, int64"
    with pytest.raises(IAE, match="Value for attr 'Tidx' of string is not in the list of "
                                  "allowed values: int32, int64"):
        op(_x(), axis='a')
    with pytest.raises(IAE, match="attr 'Tidx' of float is not"):
        op(_x(), axis=tf.constant(1.0))
    with pytest.raises(TypeError):
        _in_function(lambda: op(_x(), axis=tf.constant(1.0)))


def test_top_k_k_converts_as_an_int32_input():
    with pytest.raises(ValueError, match='with an unsupported type'):  # TF's class and text
        tf.math.top_k(_x(), {'a': 0})
    with pytest.raises(ValueError, match='with an unsupported type'):
        tf.math.top_k(_x(), [None])
    # TF: "Value for attr 'Tk' of string is not in the list of allowed values: int16, int32, int64"
    with pytest.raises(IAE, match="Value for attr 'Tk' of string is not in the list of allowed "
                                  "values: int16, int32, int64"):
        tf.math.top_k(_x(), 'a')
    with pytest.raises(IAE, match="attr 'Tk' of float is not"):
        tf.math.top_k(_x(), tf.constant(1.0))
    with pytest.raises(TypeError):
        _in_function(lambda: tf.math.top_k(_x(), tf.constant(1.0)))
    assert tf.math.top_k(_x(), True).values.shape == (2, 1)  # TF: k=True runs as k=1


@pytest.mark.parametrize('axis,kind', [('a', 'string'), (True, 'bool'), (1.5, 'float'),
                                       ([], 'float'), ('FT', 'float')])
def test_roll_axis_type_is_the_ops_to_refuse(axis, kind):
    # Taxis has no default type: the value converts as it is, and Roll refuses its type
    # (TF: "Value for attr 'Taxis' of bool is not in the list of allowed values: int32, int64").
    def call():
        return tf.roll(_x(), 1, axis=tf.constant(1.0) if axis == 'FT' else axis)
    with pytest.raises(IAE, match=f"Value for attr 'Taxis' of {kind} is not in the list of "
                                  f"allowed values: int32, int64"):
        call()
    with pytest.raises(TypeError):
        _in_function(call)


def test_one_element_matrix_axes_eagerly():
    axis = tf.constant([[0]])
    assert tf.stack([_x(), _x()], axis=axis).shape == (2, 2, 4)  # TF: an int attribute of it
    with pytest.raises(TypeError):  # TF: "only integer scalar arrays can be converted to a
        tf.unstack(_x(), axis=axis)  # scalar index"
    # TF: InvalidArgumentError "limit must be a scalar, not shape [1,1] [Op:Range]"
    with pytest.raises(IAE, match='limit must be a scalar'):
        tf.nn.softmax(_x(), axis=axis)


def test_top_k_k_must_be_a_scalar():
    # TF: InvalidArgumentError "k must be scalar, got shape [2]" eagerly; ValueError "Input must
    # be scalar but has rank 1" from its shape function while tracing
    with pytest.raises(IAE, match='k must be scalar'):
        tf.math.top_k(_x(), tf.constant([1, 2]))
    with pytest.raises(ValueError):
        _in_function(lambda: tf.math.top_k(_x(), tf.constant([1, 2])))
