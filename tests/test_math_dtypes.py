"""TF's dtype rules for the math ops: no implicit promotion between tensors, Python scalars adopt
the tensor operand's dtype, comparisons give bool, integer division and means as TF computes them,
and each op's accepted element types (InvalidArgumentError eagerly, TypeError in a graph)."""
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import defun as tf
from defun.core import errors


def test_python_scalar_adopts_the_tensor_dtype():
    assert (tf.constant([1.5], tf.float64) * 2).dtype is tf.float64
    assert (3 - tf.constant([1], tf.int64)).dtype is tf.int64
    assert tf.maximum(tf.constant([1.0], tf.float16), 0).dtype is tf.float16
    assert tf.pow(2, tf.constant([3], tf.int64)).dtype is tf.int64
    assert tf.where(tf.constant([True]), tf.constant([1.0], tf.float64), 0.0).dtype is tf.float64


def test_python_float_does_not_silently_truncate_to_int():
    # TF 2.21 converts 1.5 to the tensor's dtype, which fails: TypeError in both modes (only
    # tf.add converts it by its own rules and lets the op refuse the mix).
    with pytest.raises(TypeError, match='floordiv'):
        tf.math.floordiv(tf.constant([3]), 1.5)
    with pytest.raises(errors.InvalidArgumentError, match='add'):
        tf.add(tf.constant([3]), 1.5)
    with pytest.raises(TypeError, match='floordiv'):
        tf.function(lambda: tf.math.floordiv(tf.constant([3]), 1.5))()


@pytest.mark.parametrize('fn', [tf.add, tf.maximum, tf.math.floormod, tf.pow, tf.less, tf.equal,
                                tf.atan2, tf.math.divide_no_nan])
def test_no_implicit_promotion_between_tensors(fn):
    with pytest.raises(errors.InvalidArgumentError, match='float32.*float64|cast'):
        fn(tf.constant([1.0]), tf.constant([1.0], tf.float64))


def test_comparisons_and_classification_give_bool():
    x = tf.constant([1.0, np.nan])
    for result in [x < 1, x <= 1, x > 1, x >= 1, tf.equal(x, 1.0), tf.not_equal(x, 1.0),
                   tf.math.is_nan(x), tf.math.is_finite(x), tf.math.is_inf(x)]:
        assert result.dtype is tf.bool


def test_integer_division_rules():
    a, b = tf.constant([7, -7]), tf.constant([2, 2])
    assert (a / b).dtype is tf.float64
    np.testing.assert_array_equal((a // b).numpy(), [3, -4])
    np.testing.assert_array_equal((a % b).numpy(), [1, 1])
    assert (tf.constant([7], tf.int16) / tf.constant([2], tf.int16)).dtype is tf.float32
    with pytest.raises(errors.InvalidArgumentError, match='Integer division by zero'):
        a // tf.constant([0, 1])


def test_float_floordiv_floors_the_true_quotient():
    assert float(tf.math.floordiv(tf.constant(1.0, tf.float64), 0.1)) == 10.0


def test_reduce_mean_of_ints_truncates_toward_zero():
    x = tf.constant([[-1, -2], [3, 4]])
    assert tf.reduce_mean(x).numpy() == 1
    np.testing.assert_array_equal(tf.reduce_mean(x, axis=1).numpy(), [-1, 3])
    assert tf.reduce_mean(x).dtype is tf.int32


def test_argmax_output_types():
    x = tf.constant([[1.0, 3.0], [4.0, 2.0]])
    assert tf.argmax(x).dtype is tf.int64
    assert tf.math.argmin(x, output_type=tf.int32).dtype is tf.int32
    with pytest.raises(TypeError, match='output_type'):
        tf.argmax(x, output_type=tf.float32)


def test_abs_of_complex_is_real_and_round_of_int_is_identity():
    assert tf.abs(tf.constant([3 + 4j], tf.complex64)).dtype is tf.float32
    x = tf.constant([1, 2])
    assert tf.round(x) is x


def test_complex_parts():
    z = tf.complex(tf.constant([1.0]), tf.constant([-0.0]))
    assert z.dtype is tf.complex64
    assert tf.math.real(z).dtype is tf.float32 and tf.math.imag(z).dtype is tf.float32
    assert tf.complex(tf.constant([1.0], tf.float64), tf.constant(2.0, tf.float64)).dtype is \
        tf.complex128
    # TF 2.21: a Python float converts to float32 on its own, and the pair must agree.
    with pytest.raises(TypeError, match='incorrect types: float64 float32'):
        tf.complex(tf.constant([1.0], tf.float64), 2.0)
    assert np.signbit(tf.math.imag(z).numpy()[0])


@pytest.mark.parametrize('fn, value', [
    (tf.sqrt, [4]), (tf.math.log, [1]), (tf.math.erf, [1]), (tf.floor, [1]),
    (tf.math.is_nan, [1]), (tf.logical_not, [1]), (tf.math.softplus, [1]),
    (tf.reduce_any, [1.0]), (tf.linalg.inv, [[1]]),
])
def test_unsupported_dtype_raises_invalid_argument_eagerly(fn, value):
    with pytest.raises(errors.InvalidArgumentError, match='expected a'):
        fn(tf.constant(value))


def test_unsupported_dtype_raises_type_error_while_tracing():
    @tf.function
    def f(x):
        return tf.sqrt(x)

    with pytest.raises(TypeError, match='sqrt'):
        f(tf.constant([4]))


def test_reduce_variance_rejects_integers():
    with pytest.raises(TypeError, match='integer'):
        tf.math.reduce_variance(tf.constant([1, 2]))


def test_special_values_are_silent():
    """TF computes 1/0, log(0), sqrt(-1) without a word; numpy's RuntimeWarnings stay hidden.
    (Run in a fresh interpreter: pytest installs warning filters of its own around each test.)"""
    program = ('import defun as tf\n'
               'x = tf.constant([1.0, 0.0, -1.0]) / tf.constant([0.0, 0.0, 0.0])\n'
               'tf.math.log(tf.constant([0.0, -1.0])); tf.sqrt(tf.constant([-1.0]))\n'
               'print(tf.math.is_nan(x).numpy().tolist())\n')
    done = subprocess.run([sys.executable, '-W', 'default', '-c', program], capture_output=True,
                          text=True, cwd=pathlib.Path(__file__).parent.parent, timeout=60)
    assert done.stdout.strip() == '[False, True, False]', done.stderr
    assert 'RuntimeWarning' not in done.stderr
