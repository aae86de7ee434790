"""tf.lookup.experimental.MutableHashTable and DenseHashTable: eagerly, in a tf.function and
through a checkpoint; DenseHashTable's buckets as TF lays them out. Expected values recorded with
TF 2.21."""
import numpy as np
import pytest

import defun as tf

experimental = tf.lookup.experimental


def test_mutable_hash_table():
    t = experimental.MutableHashTable(tf.string, tf.int64, -1)
    assert t.size().numpy() == 0 and t.key_dtype == tf.string and t.value_dtype == tf.int64
    t.insert(['a', 'b', 'a'], [1, 2, 3])
    assert t.lookup(['a', 'b', 'z']).numpy().tolist() == [3, 2, -1] and t.size().numpy() == 2
    assert t.lookup(tf.constant([['a', 'z']])).numpy().tolist() == [[3, -1]]
    assert t.lookup(['a', 'z'], dynamic_default_values=tf.constant([10, 20], tf.int64)) \
        .numpy().tolist() == [3, 20]
    t.remove(tf.constant(['a', 'q']))
    assert sorted(t.export()[0].numpy().tolist()) == [b'b'] and t.size().numpy() == 1
    v = experimental.MutableHashTable(tf.int64, tf.float32, [0.0, -1.0])
    v.insert([3, 4], [[1., 2.], [3., 4.]])
    assert v.lookup([3, 5]).numpy().tolist() == [[1., 2.], [0., -1.]]
    assert v.export()[1].shape == (2, 2)
    w = experimental.MutableHashTable(tf.int64, tf.string, 'none')
    w.insert([[1, 2], [3, 4]], [['a', 'b'], ['c', 'd']])
    assert w.lookup([[4, 9]]).numpy().tolist() == [[b'd', b'none']]


def test_mutable_hash_table_in_a_function():
    t = experimental.MutableHashTable(tf.string, tf.int64, -1)

    @tf.function
    def f(k, x):
        t.insert(k, x)
        return t.lookup(k) + 1, t.size()

    out, size = f(tf.constant(['m']), tf.constant([7], tf.int64))
    assert out.numpy().tolist() == [8] and size.numpy() == 1
    assert t.lookup(['m']).numpy().tolist() == [7]


def test_mutable_hash_table_bad_input():
    t = experimental.MutableHashTable(tf.string, tf.int64, -1)
    v = experimental.MutableHashTable(tf.int64, tf.float32, [0.0, -1.0])
    with pytest.raises(TypeError):
        t.insert([1], [2])
    with pytest.raises(TypeError):
        t.insert(['x'], [1.5])
    with pytest.raises(TypeError):
        t.lookup([1])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r'Expected shape \[2\] for value, '
                                                            r'got \[1\]'):
        t.insert(['x', 'y'], [1])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r'Expected shape \[1,2\] for value'):
        v.insert([3], [1.])
    assert t.size().numpy() == 0 and v.size().numpy() == 0


def test_dense_hash_table_buckets_match_tf():
    s = experimental.DenseHashTable(tf.string, tf.int64, -1, empty_key='', deleted_key='$',
                                    initial_num_buckets=16)
    s.insert(['a', 'b', 'c', 'hello', 'xyz'], [1, 2, 3, 4, 5])
    s.remove(tf.constant(['b']))
    keys, values = s.export()
    assert keys.numpy().ravel().tolist() == [b'', b'', b'', b'', b'', b'c', b'', b'', b'xyz',
                                             b'', b'$', b'hello', b'a', b'', b'', b'']
    assert values.numpy().ravel().tolist() == [0, 0, 0, 0, 0, 3, 0, 0, 5, 0, 2, 4, 1, 0, 0, 0]
    assert s.size().numpy() == 4
    s.insert(['q'], [9])
    assert s.export()[0].numpy().ravel()[3] == b'q'
    e = experimental.DenseHashTable(tf.int64, tf.int64, -1, empty_key=0, deleted_key=-1,
                                    initial_num_buckets=4)
    e.insert([5, 6, 7, 8, 9], [1, 2, 3, 4, 5])   # grows to 8 buckets first
    assert e.export()[0].numpy().ravel().tolist() == [8, 9, 0, 0, 0, 5, 6, 7]
    assert e.export()[1].numpy().ravel().tolist() == [4, 5, 0, 0, 0, 1, 2, 3]
    i32 = experimental.DenseHashTable(tf.int32, tf.float32, -1.0, empty_key=0, deleted_key=-1,
                                      initial_num_buckets=8)
    i32.insert(tf.constant([5, 300, -7]), [1., 2., 3.])
    assert i32.export()[0].numpy().ravel().tolist() == [0, -7, 0, 0, 300, 5, 0, 0]
    vec = experimental.DenseHashTable(tf.int64, tf.float32, [0., 0.], empty_key=[0, 0],
                                      deleted_key=[-1, -1], initial_num_buckets=8)
    vec.insert(tf.constant([[1, 2], [3, 4]], tf.int64), [[1., 2.], [3., 4.]])
    assert vec.export()[0].numpy().tolist() == [[0, 0], [0, 0], [0, 0], [1, 2], [0, 0], [0, 0],
                                                [0, 0], [3, 4]]
    assert vec.lookup(tf.constant([[1, 2], [5, 5]], tf.int64)).numpy().tolist() == \
        [[1.0, 2.0], [0.0, 0.0]]
    assert experimental.DenseHashTable(tf.int64, tf.int64, -1, empty_key=0, deleted_key=1) \
        .export()[0].shape == (131072, 1)


def test_dense_hash_table_in_a_function_and_checkpoint(tmp_path):
    d = experimental.DenseHashTable(tf.int64, tf.float32, -1.0, empty_key=-1, deleted_key=-2,
                                    initial_num_buckets=4)

    @tf.function
    def step(k, v):
        d.insert(k, v)
        d.remove(tf.constant([1], tf.int64))
        return d.lookup(tf.constant([1, 2, 3, 9], tf.int64)), d.size()

    found, size = step(tf.constant([1, 2, 3, 4], tf.int64), tf.constant([1., 2., 3., 4.]))
    assert found.numpy().tolist() == [-1., 2., 3., -1.] and size.numpy() == 3
    assert d.export()[0].numpy().ravel().tolist() == [-1, -2, 2, 3, 4, -1, -1, -1]
    ck = tf.train.Checkpoint(t=d)
    path = ck.write(str(tmp_path / 'ck'))
    d.insert(tf.constant([7], tf.int64), tf.constant([7.]))
    ck.read(path)
    assert d.size().numpy() == 3 and d.lookup(tf.constant([7, 2], tf.int64)).numpy().tolist() \
        == [-1., 2.]


def test_dense_hash_table_bad_input():
    d = experimental.DenseHashTable(tf.string, tf.int64, -1, empty_key='', deleted_key='$')
    for bad in ([''], ['$']):
        with pytest.raises(tf.errors.InvalidArgumentError, match='as a table key is not allowed'):
            d.insert(bad, [1])
    with pytest.raises(tf.errors.InvalidArgumentError, match='Using the empty_key'):
        d.lookup([''])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r'Expected key shape \[2\] got '
                                                            r'\[2,2\]'):
        d.lookup([['a', 'b'], ['c', 'd']])
    with pytest.raises(tf.errors.InvalidArgumentError, match='Empty and deleted keys cannot be'):
        experimental.DenseHashTable(tf.int64, tf.int64, -1, empty_key=0, deleted_key=0)
    with pytest.raises(tf.errors.InvalidArgumentError, match='at least 4 and a power of 2, got: 6'):
        experimental.DenseHashTable(tf.int64, tf.int64, -1, empty_key=0, deleted_key=1,
                                    initial_num_buckets=6)
    with pytest.raises(tf.errors.NotFoundError):
        experimental.DenseHashTable(tf.float32, tf.int64, -1, empty_key=0, deleted_key=1)
    assert d.size().numpy() == 0 and np.all(d.export()[0].numpy() == b'')
