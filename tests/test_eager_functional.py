"""The functional gradient forms of early TF eager under defun.eager, checked against closed-form
derivatives computed with numpy."""
import numpy as np
import pytest

import defun as tf
from defun import eager


def test_gradients_function_all_arguments():
    def f(x, y):
        return x * x * y

    grads = eager.gradients_function(f)(3.0, 2.0)
    assert len(grads) == 2
    assert float(grads[0]) == 2 * 3.0 * 2.0 and float(grads[1]) == 9.0


def test_gradients_function_params_selects_arguments():
    def f(x, y):
        return x * x * y

    grads = eager.gradients_function(f, params=[1])(3.0, 2.0)
    assert len(grads) == 1 and float(grads[0]) == 9.0


def test_gradients_function_composes_for_second_derivatives():
    def f(x):
        return tf.sin(x) * x

    df = eager.gradients_function(f)
    d2f = eager.gradients_function(lambda x: df(x)[0])
    xv = 0.8
    x = tf.constant(xv, dtype=tf.float64)
    np.testing.assert_allclose(df(x)[0].numpy(), np.cos(xv) * xv + np.sin(xv))
    np.testing.assert_allclose(d2f(x)[0].numpy(), -np.sin(xv) * xv + 2 * np.cos(xv))


def test_gradients_function_with_dy():
    def f(x):
        return x * 3.0

    grads = eager.gradients_function(f)(tf.constant([1.0, 2.0]), dy=tf.constant([2.0, -1.0]))
    np.testing.assert_array_equal(grads[0].numpy(), [6.0, -3.0])


def test_value_and_gradients_function():
    xv = np.array([0.5, -1.0, 2.0])

    def f(x):
        return tf.reduce_sum(tf.exp(x))

    value, grads = eager.value_and_gradients_function(f)(xv)
    np.testing.assert_allclose(value.numpy(), np.exp(xv).sum())
    np.testing.assert_allclose(grads[0].numpy(), np.exp(xv))


def test_functions_returning_none_raise_tf_message():
    def f(x):
        x * 2.0

    message = ('Cannot differentiate a function that returns None; did you forget to return a '
               'value from f?')
    for make in (eager.gradients_function, eager.value_and_gradients_function):
        with pytest.raises(ValueError) as info:
            make(f)(1.0)
        assert str(info.value) == message
    for make in (eager.implicit_gradients, eager.implicit_value_and_gradients):
        with pytest.raises(ValueError) as info:
            make(lambda: None)()
        assert str(info.value) == message


def test_implicit_gradients_pairs_gradients_with_variables():
    wv, bv = np.array([1.0, -2.0]), np.array(0.5)
    w, b = tf.Variable(wv), tf.Variable(bv)
    frozen = tf.Variable(3.0, trainable=False, dtype=tf.float64)
    x = np.array([3.0, 4.0])

    def loss(x):
        return (tf.reduce_sum(w * x) + b) ** 2 * frozen

    pairs = eager.implicit_gradients(loss)(x)
    assert [v for _, v in pairs] == [w, b]
    inner = wv @ x + bv
    np.testing.assert_allclose(pairs[0][0].numpy(), 2 * inner * x * 3.0)
    np.testing.assert_allclose(pairs[1][0].numpy(), 2 * inner * 3.0)


def test_implicit_value_and_gradients():
    w = tf.Variable(2.0)
    value, pairs = eager.implicit_value_and_gradients(lambda: w * w * w)()
    assert float(value) == 8.0
    (g, v), = pairs
    assert v is w and float(g) == 12.0


def test_implicit_gradients_without_variables_raises_tf_message():
    frozen = tf.Variable(1.0, trainable=False)
    for make in (eager.implicit_gradients, eager.implicit_value_and_gradients):
        with pytest.raises(ValueError) as info:
            make(lambda x: x * frozen)(tf.constant(2.0))
        assert str(info.value) == ('No trainable variables were accessed while the function '
                                   'was being computed.')


def test_functional_forms_keep_the_function_name():
    def my_loss(x):
        return x

    assert eager.gradients_function(my_loss).__name__ == 'my_loss'
    assert eager.implicit_gradients(my_loss).__name__ == 'my_loss'


def test_params_may_name_the_arguments():
    def f(x, y):
        return x * x * y

    grads = eager.gradients_function(f, params=['y', 'x'])(3.0, 2.0)
    assert float(grads[0]) == 9.0 and float(grads[1]) == 12.0
    with pytest.raises(ValueError, match='z'):
        eager.gradients_function(f, params=['z'])(3.0, 2.0)
