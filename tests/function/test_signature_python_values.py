"""function: Python lists and numpy arrays passed where an input_signature has a TensorSpec are
converted to one tensor each and traced from the signature (expected values and trace counts
recorded by running the same code on TensorFlow 2.21)."""
import re

import numpy as np
import pytest

import defun as tf


def test_python_list_for_a_tensorspec():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def f(x):
        return tf.reduce_sum(x)
    assert f([1.0, 2.0, 3.0]).numpy() == 6.0
    assert f(np.array([1.0, 2.0], np.float32)).numpy() == 3.0
    r = f(np.array([1.0, 2.0]))     # float64 numpy converts to the spec's float32, as in TF
    assert r.dtype == tf.float32 and r.numpy() == 3.0
    assert f([1, 2]).numpy() == 3.0
    with pytest.raises(TypeError):
        f(tf.constant([[1.0]]))
    with pytest.raises(TypeError):
        f(tf.constant([1, 2]))
    assert f.experimental_get_tracing_count() == 1


def test_two_specs_and_nested_signature():
    @tf.function(input_signature=[tf.TensorSpec([2], tf.int32), tf.TensorSpec([], tf.float32)])
    def g(a, b):
        return tf.cast(a, tf.float32) * b
    assert g([3, 4], 2.0).numpy().tolist() == [6.0, 8.0]
    assert g(np.array([1, 2]), 1.5).numpy().tolist() == [1.5, 3.0]

    @tf.function(input_signature=[{'a': tf.TensorSpec([None], tf.float32),
                                   'b': [tf.TensorSpec([], tf.float32)]}])
    def h(d):
        return tf.reduce_sum(d['a']) * d['b'][0]
    assert h({'b': [2.0], 'a': [1.0, 2.0]}).numpy() == 6.0


def test_concrete_function_converts_python_values_for_its_tensors():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def f(x):
        return x * 2
    cf = f.get_concrete_function()
    assert cf([1.0, 2.0]).numpy().tolist() == [2.0, 4.0]
    assert cf([1, 2]).numpy().tolist() == [2.0, 4.0]

    @tf.function
    def g(x, k):
        return x * k
    cg = g.get_concrete_function(tf.TensorSpec([None], tf.float32), 3)
    assert cg([1.0, 2.0], 3).numpy().tolist() == [3.0, 6.0]
    with pytest.raises(TypeError):
        cg(1.0, 3)          # a scalar does not fit the traced [None] shape


def _scaled(x, training=False, k=3):
    return x * 2 if training else x * k


def test_parameters_after_the_signature_are_fixed_to_their_defaults():
    # TF 2.21: a parameter beyond the input_signature is the literal of its default.
    f = tf.function(_scaled, input_signature=[tf.TensorSpec([None, 3])], autograph=False)
    assert f(tf.ones([1, 3])).numpy().tolist() == [[3., 3., 3.]]
    assert f(tf.ones([1, 3]), training=False).numpy().tolist() == [[3., 3., 3.]]
    assert f.get_concrete_function().structured_input_signature[0] == (
        tf.TensorSpec([None, 3], name='x'),)
    for args, kwargs, literal in (((), {'training': True}, 'Can not cast True to Literal[False]'),
                                  ((), {'k': 5}, 'Can not cast 5 to Literal[3]'),
                                  ((True,), {}, 'Can not cast True to Literal[False]')):
        with pytest.raises(TypeError, match=re.escape(literal)):
            f(tf.ones([1, 3]), *args, **kwargs)


def test_a_parameter_after_the_signature_needs_a_default():
    f = tf.function(lambda x, y: x, input_signature=[tf.TensorSpec([None])])
    with pytest.raises(TypeError, match='input_signature missing type constraint for y'):
        f(tf.ones([1]), tf.ones([1]))
