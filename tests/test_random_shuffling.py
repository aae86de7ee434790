"""tf.random.experimental.index_shuffle and stateless_shuffle give TF's permutations (recorded
with TF 2.21)."""
import defun as tf

SHUFFLE = tf.random.experimental.stateless_shuffle
INDEX = tf.random.experimental.index_shuffle


def test_stateless_shuffle_as_tf():
    assert SHUFFLE(tf.range(10), seed=[1, 2]).numpy().tolist() == [0, 3, 8, 1, 5, 4, 9, 7, 6, 2]
    assert SHUFFLE(tf.reshape(tf.range(12), [4, 3]), seed=[3, 4]).numpy().tolist() == [
        [9, 10, 11], [6, 7, 8], [3, 4, 5], [0, 1, 2]]
    assert SHUFFLE([[1, 2], [3, 4], [5, 6]], seed=[8, 9]).numpy().tolist() == [
        [5, 6], [1, 2], [3, 4]]
    assert SHUFFLE([7.], seed=[1, 1]).numpy().tolist() == [7.0]


def test_index_shuffle_as_tf():
    assert INDEX(tf.range(4), seed=[5, 9], max_index=3).numpy().tolist() == [2, 0, 1, 3]
    assert INDEX(tf.range(10, dtype=tf.int64), [5, 8], 9).numpy().tolist() == [
        3, 8, 0, 1, 2, 7, 6, 9, 4, 5]
    assert int(INDEX(7, [1, 2], 100000)) == 2725
    assert int(INDEX(tf.constant(3, tf.int64), [1, 2], tf.constant(2 ** 40, tf.int64))) == \
        560501708753
    ds = tf.data.Dataset.range(10).map(lambda i: INDEX(i, [5, 8], 9))
    assert [a.item() for a in ds.as_numpy_iterator()] == [3, 8, 0, 1, 2, 7, 6, 9, 4, 5]
