"""Default and given op names of array ops in a function graph. Expected names recorded with
TensorFlow 2.21 (/work/tfenv/bin/python)."""
import pytest

import defun as tf

X = tf.constant([[1., 2.], [3., 4.]])
I = tf.constant([[1, 2], [3, 4]])

CASES = {
    'unstack:0': lambda x, i: tf.unstack(x)[0],
    'split:0': lambda x, i: tf.split(x, 2)[0],
    'ones_like:0': lambda x, i: tf.ones_like(x),
    'zeros_like:0': lambda x, i: tf.zeros_like(x),
    'one_hot:0': lambda x, i: tf.one_hot(i[0], 3),
    'Pad:0': lambda x, i: tf.pad(x, [[1, 1], [0, 0]]),
    'u:1': lambda x, i: tf.unstack(x, name='u')[1],
    'parts:0': lambda x, i: tf.split(x, [1, 1], name='parts')[0],
}


def _output_name(fn):
    graph = tf.function(fn).get_concrete_function(X, I).graph
    identity = [op for op in graph.get_operations() if op.type == 'Identity'][0]
    return identity.inputs[0].name


@pytest.mark.parametrize('expected', sorted(CASES))
def test_op_names_are_tfs(expected):
    assert _output_name(CASES[expected]) == expected
