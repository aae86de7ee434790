"""Dataset.shuffle gives TensorFlow's orders exactly: its seeds, Philox stream and buffer.
Every expected order below was recorded with TensorFlow 2.21."""
import defun as tf


def test_seeded_shuffle_orders_are_tfs():
    d = tf.data.Dataset.range(1000).shuffle(100, seed=7)
    assert [int(x) for x in d.take(12)] == [72, 4, 82, 43, 53, 58, 74, 25, 28, 108, 12, 64]
    batches = [b.numpy().tolist() for b in tf.data.Dataset.range(6).shuffle(2, seed=3).batch(3)]
    assert batches == [[0, 1, 2], [3, 4, 5]]


def test_reshuffle_each_iteration_and_repeat():
    e = tf.data.Dataset.range(10).shuffle(10, seed=3).repeat(2)
    assert [int(x) for x in e] == [4, 7, 2, 6, 8, 0, 3, 1, 5, 9, 8, 6, 4, 1, 7, 9, 3, 0, 5, 2]
    fixed = tf.data.Dataset.range(6).shuffle(6, seed=1, reshuffle_each_iteration=False).repeat(2)
    assert [int(x) for x in fixed] == [3, 5, 0, 4, 1, 2, 3, 5, 0, 4, 1, 2]
    small = tf.data.Dataset.range(6).repeat(2).shuffle(3, seed=2)
    assert [int(x) for x in small] == [2, 3, 4, 5, 0, 0, 1, 1, 4, 5, 2, 3]


def test_global_seed_and_shuffle_in_a_function():
    tf.random.set_seed(9)
    try:
        d = tf.data.Dataset.range(6).shuffle(6, seed=5)
        # The dataset keeps one seed stream: each iteration takes the next seeds from it.
        assert [int(x) for x in d] == [2, 1, 0, 4, 5, 3]
        assert [int(x) for x in d] == [4, 3, 1, 0, 2, 5]
        tf.random.set_seed(5)
        assert [int(x) for x in tf.data.Dataset.range(8).shuffle(4)] == [1, 0, 4, 6, 5, 3, 2, 7]
        shuffled = tf.data.Dataset.range(6).shuffle(6, seed=11)
    finally:
        tf.random.set_seed(None)

    @tf.function
    def weighted(ds):
        total, k = tf.constant(0, tf.int64), tf.constant(1, tf.int64)
        for x in ds:
            total += x * k
            k *= 3
        return total
    assert int(weighted(shuffled)) == 1097
