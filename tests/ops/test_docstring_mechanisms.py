"""Mechanisms TF's docstring examples rely on, each checked against values recorded from
TensorFlow 2.21 (`/work/tfenv`): bincount per row and binary, linspace of vectors, numpy_function's
eager argument dtypes, string results as bytes, tape gradients through tf.constant(tensor) and
py_function."""
import warnings

import numpy as np

import defun as tf


def _traced(call):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        return tf.function(call)()


def test_bincount_per_row_and_binary_output():
    arr = tf.constant([[1, 1, 2], [0, 3, 3]])
    assert tf.math.bincount(arr, axis=-1, binary_output=True).numpy().tolist() == \
        [[0, 1, 1, 0], [1, 0, 0, 1]]
    assert tf.math.bincount(arr, axis=-1).numpy().tolist() == [[0, 2, 1, 0], [1, 0, 0, 2]]
    assert tf.math.bincount(arr, axis=-1, maxlength=2).numpy().tolist() == [[0, 2], [1, 0]]
    weighted = tf.math.bincount(arr, weights=tf.constant([[1., 2., 3.], [4., 5., 6.]]), axis=-1)
    assert weighted.numpy().tolist() == [[0.0, 3.0, 3.0, 0.0], [4.0, 0.0, 0.0, 11.0]]
    assert tf.math.bincount(tf.constant([1, 1, 2]), binary_output=True).numpy().tolist() == \
        [0, 1, 1]
    assert _traced(lambda: tf.math.bincount(arr, axis=-1, binary_output=True)).numpy().tolist() \
        == [[0, 1, 1, 0], [1, 0, 0, 1]]


def test_linspace_of_vectors_along_an_axis():
    assert tf.linspace([0., 5.], [10., 40.], 5, axis=0).numpy().tolist() == \
        [[0.0, 5.0], [2.5, 13.75], [5.0, 22.5], [7.5, 31.25], [10.0, 40.0]]
    assert _traced(lambda: tf.linspace([0., 5.], [10., 40.], 3, axis=-1)).numpy().tolist() == \
        [[0.0, 5.0, 10.0], [5.0, 22.5, 40.0]]
    start, stop = tf.constant([0., 5.]), tf.constant([10., 40.])
    with tf.GradientTape() as tape:
        tape.watch([start, stop])
        y = tf.reduce_sum(tf.linspace(start, stop, 5, axis=0) *
                          tf.constant([[1.], [2.], [3.], [4.], [5.]]))
    grads = tape.gradient(y, [start, stop])
    assert [g.numpy().tolist() for g in grads] == [[5.0, 5.0], [10.0, 10.0]]


def _names(*arrays):
    return np.asarray(' '.join(a.dtype.name for a in arrays))


def test_numpy_function_takes_python_values_as_numpy_reads_them_eagerly():
    out = tf.numpy_function(_names, [1.5, 2, [1.0, 2.0], True, np.float32(1)], Tout=tf.string)
    assert out.numpy() == b'float64 int64 float64 bool float32'
    assert _traced(lambda: tf.numpy_function(_names, [1.5, 2], Tout=tf.string)).numpy() == \
        b'float32 int32'
    out = tf.py_function(lambda *a: tf.constant(' '.join(x.dtype.name for x in a)),
                         [1.5, 2, [1.0, 2.0]], Tout=tf.string)
    assert out.numpy() == b'float32 int32 float32'


def test_string_results_are_bytes():
    assert tf.py_function(lambda: 'abc', [], Tout=tf.string).numpy() == b'abc'
    assert _traced(lambda: tf.py_function(lambda: 'abc', [], Tout=tf.string)).numpy() == b'abc'


def test_tape_gradients_through_constant_of_a_tensor_and_py_function():
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.constant(x) * x
    assert tape.gradient(y, x).numpy() == 6.0
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.py_function(lambda a: a * a, [x], Tout=tf.float32)
    assert tape.gradient(y, x).numpy() == 6.0
