"""3-D convolution and pooling, tf.nn.pool, transposed convolutions, explicit padding lists and
channels-first layouts against values recorded from TensorFlow 2.21 (data/nn_window_ref.npz, made
by nn_window_cases.py): each case's value, its gradients where TF has them, the same in a traced
tf.function, and the exception class of each call TF refuses."""
import numpy as np
import pytest

import defun as tf
from defun.core import errors
from tests.ops import nn_window_cases

REF = np.load(nn_window_cases.DATA)
INPUTS = {k[3:]: REF[k] for k in REF.files if k.startswith('in_')}
CASES = nn_window_cases.cases(tf, INPUTS)
ERRORS = nn_window_cases.errors(tf, INPUTS)


@pytest.mark.parametrize('name', sorted(CASES))
def test_value_and_gradients_match_tf(name):
    fn, keys = CASES[name]
    value, grads = nn_window_cases.run(tf, INPUTS, name, fn, keys)
    np.testing.assert_allclose(value, REF[f'val_{name}'], rtol=1e-4, atol=1e-4)
    for k, g in zip(keys, grads):
        if f'grad_{name}_{k}' in REF.files:   # TF has no gradient for some layouts on CPU
            np.testing.assert_allclose(g, REF[f'grad_{name}_{k}'], rtol=1e-4, atol=1e-4,
                                       err_msg=f'{name}: gradient for {k}')


@pytest.mark.parametrize('name', sorted(CASES))
def test_traced_value_matches_tf(name):
    fn, keys = CASES[name]
    traced = tf.function(fn)
    value = traced(*[tf.constant(INPUTS[k]) for k in keys])
    np.testing.assert_allclose(value.numpy(), REF[f'val_{name}'], rtol=1e-4, atol=1e-4)


def test_every_case_was_recorded():
    assert all(f'val_{name}' in REF.files for name in CASES)
    assert all(f'err_{name}' in REF.files for name in ERRORS)


@pytest.mark.parametrize('name', sorted(ERRORS))
def test_refusals_raise_tf_exception_class(name):
    expected = str(REF[f'err_{name}'])
    with pytest.raises(Exception) as info:
        ERRORS[name]()
    assert type(info.value).__name__ == expected, f'{name}: {info.value!r}'


def test_explicit_padding_inferred_shape_in_a_graph():
    graph = tf.Graph()
    with graph.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [2, 5, 6, 2])
        y = tf.nn.conv2d(x, tf.ones([3, 2, 2, 3]), 1, [[0, 0], [1, 2], [2, 0], [0, 0]])
        p = tf.nn.max_pool2d(x, 2, 2, [[0, 0], [1, 1], [1, 0], [0, 0]])
    assert y.shape.as_list() == [2, 6, 7, 3]
    assert p.shape.as_list() == [2, 3, 3, 2]


def test_conv3d_transpose_output_shape_checked_in_a_graph():
    @tf.function
    def f(y):
        return tf.nn.conv3d_transpose(y, tf.ones([2, 2, 2, 2, 3]), [1, 5, 5, 3, 2], 2, 'SAME')
    with pytest.raises(errors.InvalidArgumentError, match="Size of out_backprop doesn't match"):
        f(tf.ones([1, 2, 3, 2, 3]))
