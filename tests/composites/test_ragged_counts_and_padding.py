"""tf.math.bincount of RaggedTensors and RaggedTensor.to_tensor with a target shape inside a
function, as Keras's TextVectorization uses them; values recorded from TF 2.21."""
import defun as tf

ROWS = [[1, 6, 9, 0, 1, 3], [0, 5, 0, 2, 4], []]


def test_bincount_of_ragged_rows():
    r = tf.ragged.constant(ROWS)
    assert tf.math.bincount(r, minlength=8, maxlength=8, binary_output=True,
                            axis=-1).numpy().tolist() == [[1, 1, 0, 1, 0, 0, 1, 0],
                                                          [1, 0, 1, 0, 1, 1, 0, 0], [0] * 8]
    counts = tf.math.bincount(r, minlength=4, axis=-1)
    assert counts.dtype == tf.int32 and counts.numpy().tolist() == [
        [1, 2, 0, 1, 0, 0, 1, 0, 0, 1], [2, 0, 1, 0, 1, 1, 0, 0, 0, 0], [0] * 10]
    assert tf.math.bincount(r).numpy().tolist() == [3, 2, 1, 1, 1, 1, 1, 0, 0, 1]
    weights = tf.ragged.constant([[1., 2, 3, 4, 5, 6], [1., 1, 1, 1, 1], []])
    weighted = tf.math.bincount(r, weights=weights, axis=-1, maxlength=5, dtype=tf.float32)
    assert weighted.numpy().tolist() == [[4, 6, 0, 6, 0], [2, 0, 1, 0, 1], [0] * 5]
    traced = tf.function(lambda r: tf.math.bincount(r, minlength=4, axis=-1))
    assert traced(r).numpy().tolist() == counts.numpy().tolist()


def test_to_tensor_pads_to_a_shape_inside_a_function():
    @tf.function
    def pad(r):
        return r.to_tensor(default_value=0, shape=[None, 5])
    assert pad(tf.ragged.constant([[1], [2, 3]])).numpy().tolist() == [[1, 0, 0, 0, 0],
                                                                       [2, 3, 0, 0, 0]]
    assert pad(tf.ragged.constant([[1, 2, 3, 4, 5, 6, 7]])).numpy().tolist() == [[1, 2, 3, 4, 5]]
    fill = tf.function(lambda r: r.to_tensor(default_value=7, shape=[4, 3]))
    assert fill(tf.ragged.constant(ROWS)).numpy().tolist() == [[1, 6, 9], [0, 5, 0], [7, 7, 7],
                                                               [7, 7, 7]]


def test_bincount_counts_float_values_as_int32():
    # TF casts a non-integer arr to int32 first (Keras's CategoryEncoding of hashed crosses).
    out = tf.math.bincount(tf.constant([[1.7, 0.2], [2.0, 2.9]]), axis=-1, binary_output=True,
                           minlength=4, dtype=tf.float32)
    assert out.numpy().tolist() == [[1, 1, 0, 0], [0, 0, 1, 0]]
