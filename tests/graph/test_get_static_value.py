"""`tf.get_static_value` answers as TF's `constant_value` does: only constants, fully known shapes
and TF's short list of ops over them; every other op (arithmetic, `where`, slicing) is None inside
a tf.function. Expected values recorded from TensorFlow 2.21."""
import numpy as np
import pytest

import defun as tf

# name -> (build the tensor from x: float32[2, 3] and u: int32[None], TF's value or None)
CASES = {
    'const': (lambda x, u: tf.constant([3, 4]), ([3, 4], 'int32')),
    'mul': (lambda x, u: tf.constant(3) * 4, None),
    'add': (lambda x, u: tf.add(tf.constant(3), 4), None),
    'where': (lambda x, u: tf.where(tf.constant([True, False])), None),
    'greater': (lambda x, u: tf.constant(3) > 2, None),
    'strided_slice': (lambda x, u: tf.shape(x)[0], None),
    'reshape': (lambda x, u: tf.reshape(tf.constant([1, 2]), [2, 1]), None),
    'shape': (lambda x, u: tf.shape(x), ([2, 3], 'int32')),
    'shape_unknown': (lambda x, u: tf.shape(u), None),
    'size': (lambda x, u: tf.size(x), (6, 'int32')),
    'rank': (lambda x, u: tf.rank(u), (1, 'int32')),
    'range': (lambda x, u: tf.range(5), ([0, 1, 2, 3, 4], 'int32')),
    'cast': (lambda x, u: tf.cast(tf.constant([1.5, 2.5]), tf.int32), ([1, 2], 'int32')),
    'concat': (lambda x, u: tf.concat([tf.constant([1]), tf.constant([2, 3])], 0),
               ([1, 2, 3], 'int32')),
    'stack': (lambda x, u: tf.stack([tf.constant(1), tf.constant(2)]), ([1, 2], 'int32')),
    'stack_axis1': (lambda x, u: tf.stack([tf.constant([1]), tf.constant([2])], axis=1), None),
    'stack_unknown': (lambda x, u: tf.stack([tf.constant(1), tf.shape(u)[0]]), None),
    'unstack': (lambda x, u: tf.unstack(tf.constant([[1, 2], [3, 4]]))[1], ([3, 4], 'int32')),
    'split': (lambda x, u: tf.split(tf.constant([1, 2, 3, 4]), 2)[1], ([3, 4], 'int32')),
    'fill': (lambda x, u: tf.fill([2, 2], 7), ([[7, 7], [7, 7]], 'int32')),
    'zeros': (lambda x, u: tf.zeros([2, 2]), ([[0.0, 0.0], [0.0, 0.0]], 'float32')),
    'equal': (lambda x, u: tf.equal(tf.constant([1, 2]), tf.constant([1, 3])),
              ([True, False], 'bool')),
    'not_equal': (lambda x, u: tf.not_equal(tf.constant([1, 2]), tf.constant([1, 3])),
                  ([False, True], 'bool')),
    'stop_gradient': (lambda x, u: tf.stop_gradient(tf.constant(2.0)), (2.0, 'float32')),
    'identity': (lambda x, u: tf.identity(tf.constant(5)), (5, 'int32')),
}


def _traced(build, **kwargs):
    found = {}

    @tf.function(input_signature=[tf.TensorSpec([2, 3], tf.float32),
                                  tf.TensorSpec([None], tf.int32)])
    def f(x, u):
        found['value'] = tf.get_static_value(build(x, u), **kwargs)
        return x

    f.get_concrete_function()
    return found['value']


@pytest.mark.parametrize('name', sorted(CASES))
def test_inside_tf_function_as_tf(name):
    build, expected = CASES[name]
    value = _traced(build)
    if expected is None:
        assert value is None
    else:
        assert value.tolist() == expected[0]
        assert value.dtype == np.dtype(expected[1])


def test_partial_stack_has_none_for_unknown_elements():
    value = _traced(lambda x, u: tf.stack([tf.constant(1), tf.shape(u)[0]]), partial=True)
    assert value.dtype == object
    assert value[0] == 1 and value[1] is None


def test_eager_variables_and_python_values():
    assert tf.get_static_value(tf.constant(3) * 4) == 12  # eager: the value
    assert tf.get_static_value(tf.Variable(3)) is None
    assert tf.get_static_value(3) == 3
    assert tf.get_static_value([1, 2]) == [1, 2]  # TF hands back what is not a tensor


def test_where_in_tf_function_is_not_static_so_int_is_not_called():
    # Keras's associative_scan asks for the static length of a `where` result and falls back to
    # the dynamic path on None (TF's answer inside a tf.function).
    @tf.function
    def f():
        n = tf.shape(tf.where(tf.constant([True, False, True])))[0]
        return tf.constant(-1) if tf.get_static_value(n) is not None else n

    assert int(f()) == 2
