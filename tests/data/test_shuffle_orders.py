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


def test_an_iterator_draws_its_shuffle_seeds_when_it_is_made():
    # TF makes the whole chain of iterators at iter(): an iterator made first and read second
    # has the first seeds, through batch, prefetch, map, repeat (each pass when it starts) and zip.
    def orders(ds, read):
        first = iter(ds)
        second = [read(b) for b in iter(ds)]
        return second, [read(b) for b in first]

    def as_list(b):
        return b.numpy().tolist()

    tf.random.set_seed(3)
    try:
        ds = tf.data.Dataset.range(6).shuffle(6).batch(3)
        assert orders(ds, as_list) == ([[4, 0, 2], [3, 5, 1]], [[3, 4, 0], [5, 1, 2]])
        ds = tf.data.Dataset.range(6).shuffle(6).batch(3).prefetch(1)
        assert orders(ds, as_list) == ([[3, 0, 4], [2, 5, 1]], [[5, 1, 0], [4, 2, 3]])
        ds = tf.data.Dataset.range(4).shuffle(4).repeat(2).map(lambda x: x * 2).batch(4)
        assert orders(ds, as_list) == ([[0, 6, 4, 2], [4, 2, 0, 6]],
                                       [[6, 0, 2, 4], [2, 6, 4, 0]])
        ds = tf.data.Dataset.zip((tf.data.Dataset.range(4).shuffle(4),
                                  tf.data.Dataset.range(4).shuffle(4))).take(3)
        pairs = orders(ds, lambda b: tuple(int(v) for v in b))
        assert pairs == ([(2, 1), (1, 2), (3, 3)], [(3, 1), (2, 0), (1, 2)])
    finally:
        tf.random.set_seed(None)
