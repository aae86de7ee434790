"""tf.io.SparseFeature and tf.io.RaggedFeature partitions (RowSplits, RowLengths, RowStarts,
RowLimits, ValueRowIds), for one Example and for a batch, and their type conflicts. Expected
values recorded with TF 2.21."""
import pytest

import defun as tf

R = tf.io.RaggedFeature


def _example(**features):
    f = {}
    for key, values in features.items():
        if isinstance(values[0], float):
            f[key] = tf.train.Feature(float_list=tf.train.FloatList(value=values))
        else:
            f[key] = tf.train.Feature(int64_list=tf.train.Int64List(value=values))
    return tf.train.Example(features=tf.train.Features(feature=f)).SerializeToString()


BATCH = [_example(v=[3, 1, 4, 1, 5, 9], s1=[0, 2, 3, 3, 6], s2=[0, 2, 3, 4], l=[2, 1, 0, 3],
                  st=[0, 2, 3, 3], ids=[0, 0, 1, 3, 3, 3], ix=[2, 0], iy=[1, 4], val=[1.5, 2.5]),
         _example(v=[2, 7, 1, 8, 2, 8, 1], s1=[0, 3, 4, 5, 7], s2=[0, 1, 1, 4], l=[3, 4],
                  st=[0, 5, 7, 7], ids=[1, 1, 1, 1, 2, 2, 4], ix=[1], iy=[0], val=[7.0])]
FEATURES = {
    'f1': R(value_key='v', dtype=tf.int64),
    'f2': R(value_key='v', dtype=tf.int64, partitions=[R.RowSplits('s1')]),
    'f3': R(value_key='v', dtype=tf.int64, partitions=[R.RowSplits('s2'), R.RowSplits('s1')]),
    'f4': R(value_key='v', dtype=tf.int64, partitions=[R.RowLengths('l')]),
    'f5': R(value_key='v', dtype=tf.int64, partitions=[R.RowStarts('st')]),
    'f6': R(value_key='v', dtype=tf.int64, partitions=[R.ValueRowIds('ids')]),
    'f7': R(value_key='v', dtype=tf.int64, partitions=[R.RowLimits('s1')]),
    'sp': tf.io.SparseFeature(index_key='ix', value_key='val', dtype=tf.float32, size=5),
    'sp2': tf.io.SparseFeature(index_key=['ix', 'iy'], value_key='val', dtype=tf.float32,
                               size=[3, 6]),
}


def _plain(value):
    if isinstance(value, tf.SparseTensor):
        return (value.indices.numpy().tolist(), value.values.numpy().tolist(),
                value.dense_shape.numpy().tolist())
    return value.to_list() if isinstance(value, tf.RaggedTensor) else value.numpy().tolist()


def test_one_example():
    got = tf.io.parse_single_example(BATCH[0], {k: FEATURES[k] for k in
                                                ('f1', 'f2', 'f3', 'f6', 'sp', 'sp2')})
    assert list(got) == ['f1', 'f2', 'f3', 'f6', 'sp', 'sp2']
    assert {k: _plain(v) for k, v in got.items()} == {
        'f1': [3, 1, 4, 1, 5, 9], 'f2': [[3, 1], [4], [], [1, 5, 9]],
        'f3': [[[3, 1], [4]], [[]], [[1, 5, 9]]], 'f6': [[3, 1], [4], [], [1, 5, 9]],
        'sp': ([[0], [2]], [2.5, 1.5], [5]), 'sp2': ([[0, 4], [2, 1]], [2.5, 1.5], [3, 6])}
    assert got['f2'].row_splits.dtype == tf.int32


def test_batch():
    got = {k: _plain(v) for k, v in tf.io.parse_example(BATCH, FEATURES).items()}
    assert got == {
        'f1': [[3, 1, 4, 1, 5, 9], [2, 7, 1, 8, 2, 8, 1]],
        'f2': [[[3, 1], [4], [], [1, 5, 9]], [[2, 7, 1], [8], [2], [8, 1]]],
        'f3': [[[[3, 1], [4]], [[]], [[1, 5, 9]]], [[[2, 7, 1]], [], [[8], [2], [8, 1]]]],
        'f4': [[[3, 1], [4], [], [1, 5, 9]], [[2, 7, 1], [8, 2, 8, 1]]],
        'f5': [[[3, 1], [4], [], [1, 5, 9]], [[2, 7, 1, 8, 2], [8, 1], [], []]],
        'f6': [[[3, 1], [4], [], [1, 5, 9]], [[], [2, 7, 1, 8], [2, 8], [], [1]]],
        'f7': [[[], [3, 1], [4], [], [1, 5, 9]], [[], [2, 7, 1], [8], [2], [8, 1]]],
        'sp': ([[0, 0], [0, 2], [1, 1]], [2.5, 1.5, 7.0], [2, 5]),
        'sp2': ([[0, 0, 4], [0, 2, 1], [1, 1, 0]], [2.5, 1.5, 7.0], [2, 3, 6])}
    one = tf.io.parse_example(BATCH[1:], {'g': R(value_key='v', dtype=tf.int64, partitions=[
        R.ValueRowIds('ids')], row_splits_dtype=tf.int64)})['g']
    assert one.to_list() == [[[], [2, 7, 1, 8], [2, 8], [], [1]]]
    assert one.row_splits.dtype == tf.int64


def test_in_a_function():
    f = tf.function(lambda s: tf.io.parse_example(s, {'f2': FEATURES['f2'],
                                                      'sp': FEATURES['sp']}))
    got = f(tf.constant(BATCH))
    assert got['f2'].to_list() == [[[3, 1], [4], [], [1, 5, 9]], [[2, 7, 1], [8], [2], [8, 1]]]
    assert got['sp'].values.numpy().tolist() == [2.5, 1.5, 7.0]


def test_conflicts_and_bad_specs():
    with pytest.raises(ValueError, match="Conflicting type <dtype: 'float32'> vs <dtype: "
                                         "'int64'> for feature a."):
        tf.io.parse_example(BATCH, {'a': tf.io.VarLenFeature(tf.float32),
                                    'b': tf.io.SparseFeature('a', 'v', tf.int64, 3)})
    with pytest.raises(ValueError, match="Conflicting partition type <dtype: 'int64'> vs "
                                         "<dtype: 'int32'> for feature v."):
        tf.io.parse_example(BATCH, {'a': R(tf.int64, value_key='v', row_splits_dtype=tf.int64),
                                    'b': R(tf.int64, value_key='v')})
    with pytest.raises(TypeError, match='cannot be cast to any of the partition types'):
        R(tf.int64, partitions=['x'])
    with pytest.raises(ValueError, match='must be int64, float32, or bytes'):
        R(tf.int32)
    assert repr(R.RowSplits('a')) == "RowSplits(key='a')"
