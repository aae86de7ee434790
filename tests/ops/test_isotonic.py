"""tf.nn.isotonic_regression: solutions, segments, dtypes, axes and gradient recorded with TF 2.21."""
import defun as tf


def test_solutions_and_segments_as_tf():
    y, s = tf.nn.isotonic_regression(tf.constant([[3., 1, 2], [1, 3, 4]]), axis=1)
    assert y.numpy().tolist() == [[3.0, 1.5, 1.5], [2.6666667461395264] * 3]
    assert s.dtype == tf.int32 and s.numpy().tolist() == [[0, 1, 1], [0, 0, 0]]
    y, s = tf.nn.isotonic_regression(tf.constant([[2., 2., 1., 1.]]))
    assert s.numpy().tolist() == [[0, 1, 2, 3]]          # equal means stay apart
    y, s = tf.nn.isotonic_regression(tf.constant([[3., 1, 2], [1, 3, 4]]), decreasing=False)
    assert y.numpy().tolist() == [[2.0, 2.0, 2.0], [1.0, 3.0, 4.0]]
    assert s.numpy().tolist() == [[0, 0, 1], [0, 1, 2]]


def test_axis_dtypes_and_gradient():
    y, s = tf.nn.isotonic_regression(tf.constant([[3., 1], [1, 3], [4, 0]], tf.float64), axis=0)
    assert y.dtype == tf.float64 and y.numpy().tolist() == [[3.0, 2.0], [2.5, 2.0], [2.5, 0.0]]
    assert s.numpy().tolist() == [[0, 0], [1, 0], [1, 1]]
    assert tf.nn.isotonic_regression(tf.constant([3, 1, 2]))[0].dtype == tf.float64
    x = tf.constant([[3., 1, 2, 5.], [1, 3, 4, 0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y, _ = tf.nn.isotonic_regression(x)
        loss = tf.reduce_sum(y * tf.constant([[1., 2, 3, 4], [5, 6, 7, 8]]))
    assert tape.gradient(loss, x).numpy().tolist() == [[1.0, 3.0, 3.0, 3.0], [6.0, 6.0, 6.0, 8.0]]
