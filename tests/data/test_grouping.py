"""group_by_window, bucket_by_sequence_length, rebatch, Dataset.random, from_list, Counter, and
padded_batch's one padding value for every component: expected values recorded with TF 2.21."""
import numpy as np
import pytest

import defun as tf


def show(ds):
    return [tuple(x.tolist() for x in e) if isinstance(e, tuple) else e.tolist()
            for e in ds.as_numpy_iterator()]


ELEMENTS = [[0], [1, 2, 3, 4], [5, 6, 7], [7, 8, 9, 10, 11], [13, 14, 15, 16, 19, 20], [21, 22]]


def sequences():
    return tf.data.Dataset.from_generator(lambda: ELEMENTS, tf.int64, output_shapes=[None])


def test_group_by_window_order_window_size_func_and_end_flush():
    ds = tf.data.Dataset.range(10).group_by_window(
        key_func=lambda x: x % 3, reduce_func=lambda k, w: w.batch(2),
        window_size_func=lambda k: k + 2)
    assert show(ds) == [[0, 3], [1, 4], [7], [6, 9], [2, 5], [8]]
    assert ds.element_spec == tf.TensorSpec([None], tf.int64)
    ds = tf.data.Dataset.range(7).group_by_window(
        lambda x: x % 2, lambda k, w: w.map(lambda v: v * 10 + k).batch(5), window_size=3)
    assert show(ds) == [[0, 20, 40], [11, 31, 51], [60]]


def test_group_by_window_checks_its_functions():
    with pytest.raises(ValueError, match='window_size'):
        tf.data.Dataset.range(3).group_by_window(lambda x: x, lambda k, w: w)
    with pytest.raises(ValueError, match='tf.int64 scalar'):
        tf.data.Dataset.range(3).group_by_window(lambda x: tf.cast(x, tf.int32),
                                                 lambda k, w: w, 2)
    with pytest.raises(TypeError, match='reduce_func'):
        tf.data.Dataset.range(3).group_by_window(lambda x: x, lambda k, w: k, 2)


def test_bucket_by_sequence_length_padding_and_drop_remainder():
    b = sequences().bucket_by_sequence_length(lambda e: tf.shape(e)[0], [3, 5], [2, 2, 2],
                                              drop_remainder=True)
    assert show(b) == [[[1, 2, 3, 4], [5, 6, 7, 0]],
                       [[7, 8, 9, 10, 11, 0], [13, 14, 15, 16, 19, 20]], [[0, 0], [21, 22]]]
    assert b.element_spec == tf.TensorSpec([None, None], tf.int64)
    b = tf.data.experimental.bucket_by_sequence_length(
        lambda e: tf.shape(e)[0], [3, 5], [1, 2, 3])(sequences())
    assert show(b) == [[[0]], [[1, 2, 3, 4], [5, 6, 7, 0]], [[21, 22]],
                       [[7, 8, 9, 10, 11, 0], [13, 14, 15, 16, 19, 20]]]


def test_bucket_by_sequence_length_pads_to_the_boundary_and_per_component():
    b = sequences().bucket_by_sequence_length(
        lambda e: tf.shape(e)[0], [4, 7], [2, 2, 2], pad_to_bucket_boundary=True,
        padding_values=tf.constant(-1, tf.int64))
    assert show(b) == [[[0, -1, -1], [5, 6, 7]],
                       [[1, 2, 3, 4, -1, -1], [7, 8, 9, 10, 11, -1]], [[21, 22, -1]],
                       [[13, 14, 15, 16, 19, 20]]]
    d = sequences()
    z = tf.data.Dataset.zip((d, d.map(lambda e: tf.size(e)))).bucket_by_sequence_length(
        lambda e, n: n, [3], [2, 2], padding_values=(tf.constant(9, tf.int64), tf.constant(0)))
    assert show(z) == [([[1, 2, 3, 4], [5, 6, 7, 9]], [4, 3]),
                       ([[7, 8, 9, 10, 11, 9], [13, 14, 15, 16, 19, 20]], [5, 6]),
                       ([[0, 9], [21, 22]], [1, 2])]


def test_rebatch_cycles_sizes():
    r = tf.data.Dataset.range(10).batch(3).rebatch([2, 5], drop_remainder=True)
    assert show(r) == [[0, 1], [2, 3, 4, 5, 6], [7, 8]]
    r = tf.data.Dataset.range(8).batch(4).rebatch([2, 1, 1])
    assert show(r) == [[0, 1], [2], [3], [4, 5], [6], [7]]
    assert r.element_spec == tf.TensorSpec([None], tf.int64) and r.cardinality() == -2
    fixed = tf.data.Dataset.range(8).batch(4, drop_remainder=True).rebatch(2, drop_remainder=True)
    assert fixed.element_spec == tf.TensorSpec([2], tf.int64)


def test_random_dataset_gives_tfs_words():
    ds = tf.data.Dataset.random(seed=4)
    assert ds.element_spec == tf.TensorSpec([], tf.int64) and ds.cardinality() == -1
    assert show(ds.take(6)) == [3128586565, 2023892699, 452966358, 4293674553, 1485036815,
                                119868753]
    tf.random.set_seed(1)
    try:
        assert show(tf.data.Dataset.random(seed=4).take(3)) == [3140572256, 1890473413,
                                                                1605976525]
    finally:
        tf.random.set_seed(None)
    again = tf.data.Dataset.random(seed=4, rerandomize_each_iteration=True).take(5)
    assert show(again) != show(again)


def test_from_list_counter_get_structure():
    f = tf.data.experimental.from_list([(1, 'a'), (2, 'bc')])
    assert f.element_spec == (tf.TensorSpec([], tf.int32), tf.TensorSpec([], tf.string))
    assert f.cardinality() == 2 and list(f.as_numpy_iterator()) == [(1, b'a'), (2, b'bc')]
    g = tf.data.experimental.from_list([[1], [2, 3]])
    assert g.element_spec == tf.TensorSpec([None], tf.int32)
    with pytest.raises(TypeError):
        tf.data.experimental.from_list([1, 'a'])
    c = tf.data.experimental.Counter(start=2, step=-1, dtype=tf.int32).take(3)
    assert show(c) == [2, 1, 0] and c.element_spec == tf.TensorSpec([], tf.int32)
    it = iter(tf.data.Dataset.range(2))
    assert tf.data.experimental.get_structure(it) == tf.TensorSpec([], tf.int64)
    assert repr(tf.data.DatasetSpec.from_value(tf.data.Dataset.range(3))) == (
        'DatasetSpec(TensorSpec(shape=(), dtype=tf.int64, name=None), TensorShape([]))')


def test_shuffle_and_repeat_is_shuffle_then_repeat():
    d = tf.data.Dataset.range(5).apply(tf.data.experimental.shuffle_and_repeat(3, 2, seed=7))
    expected = tf.data.Dataset.range(5).shuffle(3, seed=7).repeat(2)
    assert show(d) == show(expected) and sorted(show(d)) == sorted(list(range(5)) * 2)


def test_filter_cardinality_is_unknown_and_one_padding_value_pads_every_component():
    assert tf.data.Dataset.range(5).repeat().filter(lambda x: x > 1).cardinality() == -2
    a = tf.data.Dataset.range(1, 4).map(lambda x: tf.fill([x], x))
    e = tf.data.Dataset.zip((a, {'b': a})).padded_batch(2, padding_values=tf.constant(-1, tf.int64))
    got = [(x.tolist(), y['b'].tolist()) for x, y in e.as_numpy_iterator()]
    assert got == [([[1, -1], [2, 2]], [[1, -1], [2, 2]]), ([[3, 3, 3]], [[3, 3, 3]])]
    np.testing.assert_array_equal(
        next(iter(tf.data.Dataset.zip((a, a)).padded_batch(2, padding_values=np.int64(7))))[1],
        [[1, 7], [2, 2]])
