"""tf.signal.frame: values, padding, axes, static shapes and gradient recorded with TF 2.21."""
import defun as tf

X = tf.reshape(tf.range(20.), [2, 10])


def test_frames_that_fit_and_padded_end():
    assert tf.signal.frame(X, 4, 3).numpy().tolist() == [
        [[0.0, 1.0, 2.0, 3.0], [3.0, 4.0, 5.0, 6.0], [6.0, 7.0, 8.0, 9.0]],
        [[10.0, 11.0, 12.0, 13.0], [13.0, 14.0, 15.0, 16.0], [16.0, 17.0, 18.0, 19.0]]]
    padded = tf.signal.frame(X, 4, 3, pad_end=True, pad_value=-1.).numpy().tolist()
    assert padded[0] == [[0.0, 1.0, 2.0, 3.0], [3.0, 4.0, 5.0, 6.0], [6.0, 7.0, 8.0, 9.0],
                         [9.0, -1.0, -1.0, -1.0]]
    assert tf.signal.frame(tf.range(7), 3, 2, axis=0).numpy().tolist() == [
        [0, 1, 2], [2, 3, 4], [4, 5, 6]]
    assert tf.signal.frame(X, 3, 5, axis=0, pad_end=True).shape == (1, 3, 10)
    assert tf.signal.frame(tf.range(3), 5, 1).shape == (0, 5)


def test_static_shape_in_a_function_and_gradient():
    @tf.function(input_signature=[tf.TensorSpec([None, None])])
    def f(s):
        out = tf.signal.frame(s, 4, 2)
        assert out.shape.as_list() == [None, None, 4]
        return out
    assert f(X).shape == (2, 4, 4)
    with tf.GradientTape() as tape:
        tape.watch(X)
        y = tf.reduce_sum(tf.signal.frame(X, 4, 3) * 2.)
    assert tape.gradient(y, X).numpy().tolist()[0] == [2.0, 2.0, 2.0, 4.0, 2.0, 2.0, 4.0, 2.0,
                                                        2.0, 2.0]
