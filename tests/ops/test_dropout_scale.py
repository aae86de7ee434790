"""dropout's scale as TF computes it (1 / (1 - rate) in Python, rounded to x's dtype, for a number;
x / (1 - rate) in x's dtype for a tensor) and general_dropout's sampler called by keyword: values
recorded with TF 2.21."""
import defun as tf

FIVES = [[5.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 5.0], [0.0, 0.0, 0.0, 0.0, 5.0]]


def test_number_rate_scales_exactly_as_tf():
    x = tf.ones([3, 5])
    tf.random.set_seed(0)
    try:
        assert tf.nn.dropout(x, rate=0.8, seed=1).numpy().tolist() == [
            [0.0, 0.0, 0.0, 5.0, 5.0], [0.0, 5.0, 0.0, 5.0, 0.0], [5.0, 0.0, 5.0, 0.0, 5.0]]
    finally:
        tf.random.set_seed(None)
    assert tf.nn.experimental.stateless_dropout(x, rate=0.8, seed=[1, 0]).numpy().tolist() == \
        FIVES
    double = tf.nn.experimental.stateless_dropout(tf.ones([4], tf.float64), rate=0.3, seed=[1, 0])
    assert double.numpy().tolist() == [0.0, 1.4285714285714286, 0.0, 1.4285714285714286]


def test_tensor_rate_divides_in_x_dtype():
    got = tf.nn.experimental.stateless_dropout(tf.ones([3, 5]), rate=tf.constant(0.8),
                                               seed=[1, 0]).numpy().tolist()
    assert got == [[v and 5.000000476837158 for v in row] for row in FIVES]


def test_general_dropout_calls_its_sampler_by_keyword():
    def sampler(*, shape, dtype):
        return tf.random.stateless_uniform(shape, seed=[1, 0], dtype=dtype)
    assert tf.nn.experimental.general_dropout(tf.ones([3, 5]), 0.5, sampler).numpy().tolist() == [
        [2.0, 0.0, 2.0, 0.0, 0.0], [0.0, 0.0, 2.0, 0.0, 2.0], [0.0, 0.0, 0.0, 0.0, 2.0]]
