"""shard, scan, unique, counter, get_single_element, choose/sample_from_datasets; values and
reprs recorded from TF 2.21."""
import numpy as np
import pytest

import defun as tf

D = tf.data.Dataset


def values(ds):
    return list(ds.as_numpy_iterator())


def test_shard():
    s = D.range(10).shard(3, 1)
    assert repr(s).startswith('<_ShardDataset') and values(s) == [1, 4, 7]
    assert int(s.cardinality()) == 3
    with pytest.raises(tf.errors.InvalidArgumentError, match='Index must be between 0 and 2'):
        D.range(10).shard(3, 3)


def test_scan_and_counter():
    s = D.range(5).scan(np.int64(0), lambda st, x: (st + x, st * 2))
    assert repr(s).startswith('<_ScanDataset') and values(s) == [0, 0, 2, 6, 12]
    assert int(s.cardinality()) == 5
    grown = D.range(3).scan(tf.zeros([0], tf.int64),
                            lambda st, x: (tf.concat([st, [x]], 0), tf.size(st)))
    assert values(grown) == [0, 1, 2]
    c = D.counter(3, 2)
    assert repr(c).startswith('<_ScanDataset') and int(c.cardinality()) == -1
    assert values(c.take(3)) == [3, 5, 7]
    assert values(D.range(4).apply(tf.data.experimental.scan(np.int64(10),
                                                             lambda st, x: (st + x, st)))) == \
        [10, 10, 11, 13]


def test_unique():
    u = D.from_tensor_slices([1, 2, 1, 3, 2]).unique()
    assert repr(u).startswith('<_UniqueDataset') and values(u) == [1, 2, 3]
    assert int(u.cardinality()) == -2
    with pytest.raises(TypeError, match='does not support type'):
        D.range(3).map(lambda x: tf.cast(x, tf.float32)).unique()


def test_get_single_element():
    assert int(D.range(1).get_single_element()) == 0
    assert int(tf.data.experimental.get_single_element(D.range(1))) == 0
    with pytest.raises(tf.errors.InvalidArgumentError, match='more than one element'):
        D.range(2).get_single_element()
    with pytest.raises(tf.errors.InvalidArgumentError, match='Dataset was empty'):
        D.range(0).get_single_element()


def test_choose_and_sample_from_datasets():
    choice = D.from_tensor_slices(np.array([0, 1, 1, 0], np.int64))
    c = D.choose_from_datasets([D.range(3), D.range(10, 13)], choice)
    assert repr(c).startswith('<_DirectedInterleaveDataset') and values(c) == [0, 10, 11, 1]
    s = D.sample_from_datasets([D.range(3), D.range(10, 13)], seed=1)
    assert sorted(values(s)) == [0, 1, 2, 10, 11, 12]
    assert values(s) == values(D.sample_from_datasets([D.range(3), D.range(10, 13)], seed=1))
    only_first = D.sample_from_datasets([D.range(3), D.range(10, 13)], weights=[1.0, 0.0])
    assert values(only_first) == [0, 1, 2]


def test_missing_methods_say_so():
    with pytest.raises(AttributeError, match='snapshot is not part of defun'):
        D.range(3).snapshot
    with pytest.raises(AttributeError, match="has no attribute 'nope'"):
        D.range(3).nope
