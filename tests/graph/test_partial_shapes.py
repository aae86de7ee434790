"""Shape inference from shape tensors known in part (TF's constant_value_as_shape): a shape built
from `tf.shape(x)[i]` and constants gives its known dims to fill/zeros/reshape/broadcast_to and
the random ops. Expected shapes recorded with TensorFlow 2.21."""
import defun as tf


def _shapes(body, spec):
    seen = []
    tf.function(lambda x: seen.extend(t.shape.as_list() for t in body(x))).get_concrete_function(spec)
    return seen


def test_shapes_built_from_dynamic_dims_keep_their_known_entries():
    def body(x):
        n = tf.shape(x)[0]
        return (tf.zeros([n, 2]), tf.ones(tf.shape(x)[1:]), tf.reshape(x, [n, -1]),
                tf.reshape(x, [-1, tf.shape(x)[1] * 2]), tf.broadcast_to(1.0, [n, 3]),
                tf.fill(tf.concat([tf.shape(x), [4]], 0), 2.0), tf.reshape(x, [n, 3, 1]),
                tf.random.normal([n, 5]), tf.zeros(tf.stack([n, 7])),
                tf.zeros([tf.cast(n, tf.int32), 2]))
    assert _shapes(body, tf.TensorSpec([None, 3])) == [
        [None, 2], [3], [None, None], [None, 6], [None, 3], [None, 3, 4], [None, 3, 1],
        [None, 5], [None, 7], [None, 2]]


def test_concrete_output_shape_and_values_of_a_partly_known_shape():
    f = tf.function(lambda x: tf.zeros([tf.shape(x)[0], 2]))
    cf = f.get_concrete_function(tf.TensorSpec([None]))
    assert cf.structured_outputs.shape.as_list() == [None, 2]
    assert f(tf.ones([3])).numpy().tolist() == [[0.0, 0.0]] * 3


def test_list_of_tensors_casts_to_a_requested_dtype():
    # TF's auto-packing: a requested dtype casts each tensor in the list; none takes the first's.
    n = tf.constant(2, tf.int64)
    assert tf.zeros([n, 2]).shape.as_list() == [2, 2]
    assert tf.zeros([n, tf.constant(1)]).shape.as_list() == [2, 1]
    packed = tf.convert_to_tensor([n, 2], dtype=tf.int32)
    assert packed.dtype == tf.int32 and packed.numpy().tolist() == [2, 2]
    assert tf.convert_to_tensor([tf.constant(1.5), 2], dtype=tf.int32).numpy().tolist() == [1, 2]
    assert tf.convert_to_tensor([n, 2]).dtype == tf.int64
    try:
        tf.convert_to_tensor([n, tf.constant(1)])
        raise AssertionError('mixed dtypes without a requested dtype must fail, as in TF')
    except tf.errors.InvalidArgumentError:
        pass
