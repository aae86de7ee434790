"""tf.lookup tables against values recorded from TensorFlow 2.21."""
import numpy as np
import pytest

import defun as tf


def _fruit():
    return tf.lookup.KeyValueTensorInitializer(['apple', 'banana', 'cherry'],
                                               tf.constant([0, 1, 2], tf.int64))


def test_static_hash_table():
    table = tf.lookup.StaticHashTable(_fruit(), -1)
    out = table.lookup(tf.constant([['apple', 'x'], ['cherry', 'banana']]))
    assert out.dtype is tf.int64
    np.testing.assert_array_equal(out.numpy(), [[0, -1], [2, 1]])
    assert table.size().numpy() == 3 and table.size().dtype is tf.int64
    assert table[tf.constant('banana')].numpy() == 1
    floats = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer([1, 2], [0.5, 1.5]), 9.0)
    out = floats.lookup(tf.constant([2, 3]))
    assert out.dtype is tf.float32
    np.testing.assert_array_equal(out.numpy(), [1.5, 9.0])


def test_static_vocabulary_table_oov_buckets_match_tf():
    table = tf.lookup.StaticVocabularyTable(_fruit(), 5)
    words = tf.constant(['apple', 'zzz', 'hello', 'cherry', 'banana', 'qq'])
    np.testing.assert_array_equal(table.lookup(words).numpy(), [0, 3, 4, 2, 1, 4])
    assert table.size().numpy() == 8
    ints = tf.lookup.KeyValueTensorInitializer(tf.constant([10, 20], tf.int64),
                                               tf.constant([0, 1], tf.int64))
    np.testing.assert_array_equal(tf.lookup.StaticVocabularyTable(ints, 3).lookup(
        tf.constant([10, 11, 20, 12345], tf.int64)).numpy(), [0, 3, 1, 3])
    hashed_only = tf.lookup.StaticVocabularyTable(None, 7, lookup_key_dtype=tf.string)
    np.testing.assert_array_equal(hashed_only.lookup(tf.constant(['a', 'b', 'c'])).numpy(),
                                  [5, 2, 5])


def test_tables_inside_a_function():
    table = tf.lookup.StaticHashTable(_fruit(), -1)
    vocab = tf.lookup.StaticVocabularyTable(_fruit(), 5)

    @tf.function
    def f(x):
        return table.lookup(x), vocab.lookup(x)
    found, ids = f(tf.constant(['banana', 'nope']))
    np.testing.assert_array_equal(found.numpy(), [1, -1])
    np.testing.assert_array_equal(ids.numpy(), [1, 5])


def test_bad_input():
    table = tf.lookup.StaticHashTable(_fruit(), -1)
    with pytest.raises(TypeError, match='Dtype of argument `keys` must be'):
        table.lookup(tf.constant([1]))
    with pytest.raises(tf.errors.FailedPreconditionError, match='different value for same key'):
        tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(['a', 'a'], [1, 2]), 0)
    with pytest.raises(TypeError):
        tf.lookup.StaticHashTable(_fruit(), 'x')
    with pytest.raises(ValueError, match='must be > 0'):
        tf.lookup.StaticVocabularyTable(_fruit(), 0)


def test_text_file_initializer(tmp_path):
    vocab = tmp_path / 'vocab.tsv'
    vocab.write_text('apple\t7\nbanana\t8\ncherry\t9\n')
    words = tmp_path / 'words.txt'
    words.write_text('x\ny\nz\n')
    table = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
        str(vocab), tf.string, 0, tf.int64, 1, delimiter='\t'), -1)
    assert table.lookup(tf.constant(['banana', 'zz', 'apple'])).numpy().tolist() == [8, -1, 7]
    by_line = tf.lookup.TextFileInitializer(str(words), tf.string, tf.lookup.TextFileIndex.WHOLE_LINE,
                                            tf.int64, tf.lookup.TextFileIndex.LINE_NUMBER)
    assert tf.lookup.StaticHashTable(by_line, -1).lookup(tf.constant(['y', 'q', 'z'])).numpy(
        ).tolist() == [1, -1, 2]
    assert tf.lookup.StaticVocabularyTable(by_line, 2).lookup(tf.constant(['y', 'q', 'z'])).numpy(
        ).tolist() == [1, 4, 2]   # TF's out-of-vocabulary bucket for 'q'
    with pytest.raises(tf.errors.NotFoundError):
        tf.lookup.TextFileInitializer(str(tmp_path / 'missing'), tf.string, 0, tf.int64, 1)


def test_table_filled_by_its_initializer():
    # TF 2.21: a table asks its initializer to fill it (initialize(table)); an initializer that
    # does nothing (Keras's placeholder for a vocabulary set later) leaves it empty.
    class Nothing(tf.lookup.KeyValueTensorInitializer):
        def __init__(self):
            pass

        @property
        def key_dtype(self):
            return tf.string

        @property
        def value_dtype(self):
            return tf.int64

        def initialize(self, table):
            pass

    empty = tf.lookup.StaticHashTable(Nothing(), -1)
    assert int(empty.size()) == 0
    assert empty.lookup(tf.constant(['a'])).numpy().tolist() == [-1]
    keys, values = empty.export()
    assert keys.dtype == tf.string and values.dtype == tf.int64 and keys.shape == [0]
