"""Emitter rules for elementwise code: scalar constants meeting arrays as 0-d arrays. Each rule is
checked to fire where it should (function_source shows it), not to fire elsewhere, and to give
numpy's results bitwise, with numpy's dtypes."""
import numpy as np
import pytest

import defun as tf


def _source(f, *args):
    return f.get_concrete_function(*args).function_source


def _bits_equal(got, want):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.tobytes() == want.tobytes()


@pytest.mark.parametrize('dtype', [np.float16, np.float32, np.float64, np.int32, np.int64])
def test_scalar_constant_meeting_an_array_is_a_0d_array(dtype):
    @tf.function
    def f(x):
        return x * 3 + 1
    x = np.arange(-4, 5).astype(dtype)
    source = _source(f, tf.constant(x))
    assert 'x * Const_0d' in source and '+ Const_1_0d' in source
    c3, c1 = np.asarray(3).astype(dtype)[()], np.asarray(1).astype(dtype)[()]
    _bits_equal(f(tf.constant(x)).numpy(), x * c3 + c1)


def test_scalar_constant_meeting_a_scalar_stays_a_numpy_scalar():
    @tf.function
    def f(x):
        return x * 2.5 + 1.0
    x = tf.constant(1.5)
    source = _source(f, x)
    assert '_0d' not in source
    got = f(x).numpy()
    assert type(got) is np.float32 and got == np.float32(1.5) * np.float32(2.5) + np.float32(1)


def test_unknown_rank_operand_keeps_the_scalar_constant():
    f = tf.function(lambda x: x * 2.0,
                    input_signature=[tf.TensorSpec(None, tf.float32)])
    assert '_0d' not in f.get_concrete_function().function_source
    _bits_equal(f(tf.constant([1.5, 2.0])).numpy(), np.array([3.0, 4.0], np.float32))
