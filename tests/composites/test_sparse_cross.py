"""tf.sparse.cross and cross_hashed: TF's order of crosses and TF's hashes (FingerprintCat64 over
Fingerprint64 of strings and the values of int64 features). Expected values recorded from
TensorFlow 2.21."""
import defun as tf


def _inputs():
    a = tf.sparse.from_dense(tf.constant([['a', 'b', ''], ['c', '', '']]))
    b = tf.constant([['d'], ['e']])
    c = tf.sparse.SparseTensor([[0, 0], [0, 1], [1, 0]], tf.constant([3, 4, 5], tf.int64), [2, 2])
    return a, b, c


def _parts(x):
    return (x.indices.numpy().tolist(), x.values.numpy().tolist(),
            x.dense_shape.numpy().tolist())


def test_string_crosses():
    a, b, c = _inputs()
    assert _parts(tf.sparse.cross([a, b])) == ([[0, 0], [0, 1], [1, 0]],
                                               [b'a_X_d', b'b_X_d', b'c_X_e'], [2, 2])
    assert _parts(tf.sparse.cross([a, c, b])) == (
        [[0, 0], [0, 1], [0, 2], [0, 3], [1, 0]],
        [b'a_X_3_X_d', b'a_X_4_X_d', b'b_X_3_X_d', b'b_X_4_X_d', b'c_X_5_X_e'], [2, 4])
    assert _parts(tf.sparse.cross([c, c], separator='-'))[1] == [b'3-3', b'3-4', b'4-3',
                                                                 b'4-4', b'5-5']
    assert _parts(tf.sparse.cross([tf.constant([[1]], tf.int32)])) == ([[0, 0]], [b'1'], [1, 1])


def test_hashed_crosses_are_tfs():
    a, b, c = _inputs()
    assert _parts(tf.sparse.cross_hashed([a, c, b], num_buckets=1000))[1] == [436, 237, 529,
                                                                              305, 590]
    assert _parts(tf.sparse.cross_hashed([a, c, b]))[1] == [
        1091707526958790436, 7306664024564017430, 7549710876946231722, 4563789224973394305,
        6491963378879108590]
    assert _parts(tf.sparse.cross_hashed([a, c, b], num_buckets=1000, hash_key=7))[1] == [
        736, 506, 709, 8, 695]
    assert _parts(tf.sparse.cross_hashed([c]))[1] == [1424184489956106035, 7063646998832180613,
                                                      2865384663748552660]


def test_empty_rows_and_compiled():
    _, b, c = _inputs()
    empty = tf.SparseTensor(tf.zeros([0, 2], tf.int64), tf.constant([], tf.string), [2, 3])
    assert _parts(tf.sparse.cross([empty, b])) == ([], [], [2, 0])

    @tf.function
    def f(x, y):
        return tf.sparse.cross_hashed([x, y], num_buckets=10)
    assert _parts(f(c, tf.constant([[1], [2]], tf.int64))) == ([[0, 0], [0, 1], [1, 0]],
                                                               [8, 4, 0], [2, 2])
