"""tf.data transformations: element specs, cardinality and values; expected values recorded from
TF 2.21 (see each comment) or computed with plain Python/numpy."""
import numpy as np
import pytest

import defun as tf

D = tf.data.Dataset


def spec(shape, dtype):
    return tf.TensorSpec(shape, dtype)


def values(ds):
    return [v.tolist() if isinstance(v, np.ndarray) else v for v in ds.as_numpy_iterator()]


def card(ds):
    return int(ds.cardinality())


def test_batch_shapes_and_remainder():
    b = D.range(10).batch(3)
    assert repr(b) == ('<_BatchDataset element_spec=TensorSpec(shape=(None,), dtype=tf.int64, '
                       'name=None)>')
    assert card(b) == 4 and values(b) == [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]]
    d = D.range(10).batch(3, drop_remainder=True)
    assert d.element_spec == spec([3], tf.int64) and card(d) == 3
    assert values(d)[-1] == [6, 7, 8]
    nested = D.from_tensor_slices({'a': np.zeros((5, 2)), 'b': [1, 2, 3, 4, 5]}).batch(2)
    assert nested.element_spec == {'a': spec([None, 2], tf.float64), 'b': spec([None], tf.int32)}
    assert card(D.range(10).repeat().batch(3)) == -1


def test_unbatch_and_padded_batch():
    u = D.range(10).batch(3).unbatch()
    assert u.element_spec == spec([], tf.int64) and card(u) == -2
    assert values(u) == list(range(10))
    ragged = D.range(5).map(lambda x: tf.fill([tf.cast(x, tf.int32)], x))
    p = ragged.padded_batch(2)
    assert p.element_spec == spec([None, None], tf.int64) and card(p) == 3
    assert values(p) == [[[0], [1]], [[2, 2, 0], [3, 3, 3]], [[4, 4, 4, 4]]]
    # recorded from TF: padded_shapes [5] and padding value -1
    q = D.range(4).map(lambda x: tf.fill([tf.cast(x, tf.int32)], x)).padded_batch(
        2, padding_values=np.int64(-1), padded_shapes=[5])
    assert q.element_spec == spec([None, 5], tf.int64)
    assert values(q) == [[[-1] * 5, [1, -1, -1, -1, -1]], [[2, 2, -1, -1, -1], [3, 3, 3, -1, -1]]]
    with pytest.raises(ValueError, match='Cannot unbatch an input with scalar components'):
        D.range(3).unbatch()


def test_shuffle_semantics():
    ds = D.range(20).shuffle(5, seed=7)
    a, b = values(ds), values(ds)
    assert sorted(a) == list(range(20)) and a != b           # reshuffled each iteration
    assert values(D.range(20).shuffle(5, seed=7)) == a       # reproducible from the seed
    fixed = D.range(20).shuffle(5, seed=7, reshuffle_each_iteration=False)
    assert values(fixed) == values(fixed)
    # TF's buffer: element i can only come out after at most buffer_size - 1 later ones went in
    for i, v in enumerate(a):
        assert v <= i + 4
    assert values(D.range(3).shuffle(1)) == [0, 1, 2]
    tf.random.set_seed(3)
    g1 = values(D.range(10).shuffle(10))
    tf.random.set_seed(3)
    assert values(D.range(10).shuffle(10)) == g1
    with pytest.raises(tf.errors.InvalidArgumentError, match='buffer_size must be greater'):
        D.range(3).shuffle(0)


def test_repeat_take_skip_concatenate():
    assert card(D.range(5).repeat()) == -1 and card(D.range(5).repeat(2)) == 10
    assert values(D.range(3).repeat(2)) == [0, 1, 2, 0, 1, 2]
    assert values(D.range(3).repeat().take(7)) == [0, 1, 2, 0, 1, 2, 0]
    assert card(D.range(3).repeat().take(7)) == 7
    assert values(D.range(5).skip(2)) == [2, 3, 4] and card(D.range(5).skip(2)) == 3
    assert card(D.range(3).skip(-1)) == 0 and card(D.range(3).repeat().skip(5)) == -1
    assert values(D.range(3).take(-1)) == [0, 1, 2]
    assert card(D.range(3).repeat(0)) == 0 and values(D.range(0).repeat()) == []
    c = D.range(5).concatenate(D.range(3))
    assert card(c) == 8 and values(c) == [0, 1, 2, 3, 4, 0, 1, 2]
    with pytest.raises(TypeError, match='Incompatible dataset elements'):
        D.range(3).concatenate(D.from_tensor_slices([1.0]))


def test_enumerate_window():
    e = D.from_tensor_slices({'a': [1, 2]}).enumerate(5)
    assert e.element_spec == (spec([], tf.int64), {'a': spec([], tf.int32)})
    assert [(i, d['a']) for i, d in e.as_numpy_iterator()] == [(5, 1), (6, 2)]
    w = D.range(7).window(3, shift=2)
    assert repr(w.element_spec) == ('DatasetSpec(TensorSpec(shape=(), dtype=tf.int64, '
                                    'name=None), TensorShape([]))')
    assert [values(x) for x in w] == [[0, 1, 2], [2, 3, 4], [4, 5, 6], [6]]   # recorded from TF
    s = D.range(7).window(3, shift=1, stride=2, drop_remainder=True)
    assert [values(x) for x in s] == [[0, 2, 4], [1, 3, 5], [2, 4, 6]]
    assert [card(D.range(10).window(3, shift=2, stride=2, drop_remainder=d))
            for d in (False, True)] == [5, 3]
    windows = D.range(6).window(2).flat_map(lambda x: x.batch(2))
    assert values(windows) == [[0, 1], [2, 3], [4, 5]]


def test_cache_prefetch_apply_assert_cardinality():
    calls = []

    def gen():
        calls.append(1)
        yield from range(3)
    c = D.from_generator(gen, output_types=tf.int64).cache()
    assert repr(c).startswith('<CacheDataset')
    assert values(c) == [0, 1, 2] and values(c) == [0, 1, 2] and len(calls) == 1
    p = D.range(50).map(lambda x: x * 2).prefetch(tf.data.AUTOTUNE)
    assert values(p) == list(range(0, 100, 2)) and card(p) == 50
    assert values(D.range(3).prefetch(0)) == [0, 1, 2]
    assert values(D.range(5).apply(lambda d: d.take(1))) == [0]
    a = D.range(5).filter(lambda x: True).apply(tf.data.experimental.assert_cardinality(5))
    assert card(a) == 5 and values(a) == [0, 1, 2, 3, 4]
    with pytest.raises(tf.errors.FailedPreconditionError, match='contained at least 6'):
        list(D.range(6).apply(tf.data.experimental.assert_cardinality(5)))
    with pytest.raises(tf.errors.FailedPreconditionError, match='contained only 3'):
        list(D.range(3).apply(tf.data.experimental.assert_cardinality(5)))
    with pytest.raises(tf.errors.InvalidArgumentError, match='buffer_size must be >= 0'):
        D.range(3).prefetch(-5)


def test_options_and_len():
    o = tf.data.Options()
    o.experimental_distribute.auto_shard_policy = 0
    ds = D.range(3).with_options(o)
    assert repr(ds).startswith('<_OptionsDataset') and len(ds) == 3
    assert ds.map(lambda x: x).options().experimental_distribute.auto_shard_policy == 0
    with pytest.raises(TypeError, match='The dataset is infinite'):
        len(D.range(3).repeat())
    with pytest.raises(TypeError, match='The dataset length is unknown'):
        len(D.range(3).filter(lambda x: x > 0))
