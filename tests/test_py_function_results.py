"""What py_function makes of its function's result, and from_generator arguments built inside
dataset functions. Expected values were recorded with TensorFlow 2.21 (/work/tfenv/bin/python)."""
import time

import pytest

import defun as tf


def test_empty_tout_ignores_the_result():
    # TF 2.21: Tout=() or [] gives [] whether the function returns None or a list.
    assert tf.py_function(lambda: None, [], ()) == []
    assert tf.py_function(lambda: [5.0], [], []) == []


def test_extra_returned_values_are_dropped():
    out = tf.py_function(lambda: [1.0, 2.0], [], [tf.float32])
    assert len(out) == 1 and out[0].numpy() == 1.0


@pytest.mark.parametrize('result', [None, [], ()])
def test_too_few_values_is_invalid_argument(result):
    with pytest.raises(tf.errors.InvalidArgumentError, match='returns 0 values, but expects to '
                       'see 1 values'):
        tf.py_function(lambda: result, [], tf.float32)


def test_side_effect_only_py_function_in_a_dataset_map():
    # The data_performance guide's mapped_function.
    calls = []

    def mapped(s):
        tf.py_function(lambda: calls.append(time.time()), [], ())
        return s

    assert [int(x) for x in tf.data.Dataset.range(3).map(mapped)] == [0, 1, 2]
    assert len(calls) == 3


def test_side_effect_only_py_function_in_a_compiled_function():
    calls = []

    @tf.function
    def f(x):
        tf.py_function(lambda: calls.append(1), [], ())
        return x + 1

    assert f(tf.constant(1)).numpy() == 2 and calls == [1]


def _gen(n, k):
    for i in range(n):
        yield (i * k,)


def test_generator_args_from_an_interleave_function():
    ds = tf.data.Dataset.range(1, 3).interleave(lambda x: tf.data.Dataset.from_generator(
        _gen, output_signature=tf.TensorSpec((1,), tf.int64), args=(x, 10)))
    assert [t.numpy().tolist() for t in ds] == [[0], [0], [10]]  # TF 2.21


def test_generator_args_from_a_flat_map_function():
    ds = tf.data.Dataset.range(2).flat_map(lambda x: tf.data.Dataset.from_generator(
        _gen, output_signature=tf.TensorSpec((1,), tf.int64), args=(3, x + 1)))
    assert [t.numpy().tolist() for t in ds] == [[0], [1], [2], [0], [2], [4]]  # TF 2.21
