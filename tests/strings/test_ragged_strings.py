"""tf.strings ops with ragged results or inputs, and parse_example's VarLenFeature (SparseTensor)
and RaggedFeature (RaggedTensor), against values recorded from TensorFlow 2.21."""
import json
import pathlib

import numpy as np
import pytest

import defun as tf

U = 'héllo'.encode()


def _rows(value):
    assert isinstance(value, tf.RaggedTensor)
    return value.to_list()


def test_split():
    out = tf.strings.split(['hello world', 'a  b', ''])
    assert out.row_splits.dtype is tf.int64
    assert _rows(out) == [[b'hello', b'world'], [b'a', b'b'], []]
    assert _rows(tf.strings.split(['a,b,,c', 'd'], sep=',')) == [[b'a', b'b', b'', b'c'], [b'd']]
    assert _rows(tf.strings.split(['a b c d'], maxsplit=2)) == [[b'a', b'b', b'c d']]
    assert _rows(tf.strings.split(['a,b,c,d'], sep=',', maxsplit=1)) == [[b'a', b'b,c,d']]
    assert tf.strings.split('a b').numpy().tolist() == [b'a', b'b']
    assert _rows(tf.strings.split([['a b', 'c'], ['d e f', '']])) == \
        [[[b'a', b'b'], [b'c']], [[b'd', b'e', b'f'], []]]
    assert _rows(tf.strings.split(['a<>b<>c'], sep='<>')) == [[b'a', b'b', b'c']]
    assert _rows(tf.strings.split([' \ta\nb  '])) == [[b'a', b'b']]
    assert _rows(tf.strings.split(tf.ragged.constant([['a b', 'c'], ['d']]))) == \
        [[[b'a', b'b'], [b'c']], [[b'd']]]


def test_bytes_split_and_unicode():
    assert _rows(tf.strings.bytes_split(['ab', '', 'héllo'])) == \
        [[b'a', b'b'], [], [b'h', b'\xc3', b'\xa9', b'l', b'l', b'o']]
    assert tf.strings.bytes_split('abc').numpy().tolist() == [b'a', b'b', b'c']
    decoded = tf.strings.unicode_decode(['héllo', 'wörld!', ''], 'UTF-8')
    assert decoded.dtype is tf.int32
    assert _rows(decoded) == [[104, 233, 108, 108, 111], [119, 246, 114, 108, 100, 33], []]
    assert tf.strings.unicode_decode('héllo', 'UTF-8').numpy().tolist() == [104, 233, 108, 108, 111]
    assert _rows(tf.strings.unicode_decode([b'a\xffb'], 'UTF-8')) == [[97, 65533, 98]]
    assert _rows(tf.strings.unicode_decode([b'a\xffb'], 'UTF-8', errors='ignore')) == [[97, 98]]
    with pytest.raises(tf.errors.InvalidArgumentError, match='Invalid formatting on input string'):
        tf.strings.unicode_decode([b'a\xffb'], 'UTF-8', errors='strict')
    assert _rows(tf.strings.unicode_decode(['hé'.encode('utf-16-be')], 'UTF-16-BE')) == [[104, 233]]
    assert tf.strings.unicode_encode(tf.ragged.constant([[104, 233], [119]]), 'UTF-8').numpy(
        ).tolist() == [b'h\xc3\xa9', b'w']
    assert tf.strings.unicode_encode([[104, 233], [119, 120]], 'UTF-8').numpy().tolist() == \
        [b'h\xc3\xa9', b'wx']
    assert tf.strings.unicode_encode([104, 233], 'UTF-8').numpy() == b'h\xc3\xa9'
    assert tf.strings.unicode_encode([104, 0x110000], 'UTF-8').numpy() == b'h\xef\xbf\xbd'
    with pytest.raises(tf.errors.InvalidArgumentError, match='out of range for Unicode'):
        tf.strings.unicode_encode([104, 0x110000], 'UTF-8', errors='strict')
    assert _rows(tf.strings.unicode_split(['héllo', 'ab'], 'UTF-8')) == \
        [[b'h', b'\xc3\xa9', b'l', b'l', b'o'], [b'a', b'b']]
    assert tf.strings.unicode_transcode(['héllo'], 'UTF-8', 'UTF-16-BE').numpy().tolist() == \
        [b'\x00h\x00\xe9\x00l\x00l\x00o']


def test_ngrams():
    words = tf.ragged.constant([['a', 'b', 'c'], ['d']])
    assert _rows(tf.strings.ngrams(words, 2)) == [[b'a b', b'b c'], []]
    assert tf.strings.ngrams([['a', 'b', 'c'], ['d', 'e', 'f']], 2, separator='_').numpy(
        ).tolist() == [[b'a_b', b'b_c'], [b'd_e', b'e_f']]
    assert tf.strings.ngrams(['a', 'b', 'c', 'd'], (2, 3)).numpy().tolist() == \
        [b'a b', b'b c', b'c d', b'a b c', b'b c d']
    assert _rows(tf.strings.ngrams(words, 3, pad_values=('<s>', '</s>'))) == \
        [[b'<s> <s> a', b'<s> a b', b'a b c', b'b c </s>', b'c </s> </s>'],
         [b'<s> <s> d', b'<s> d </s>', b'd </s> </s>']]
    assert _rows(tf.strings.ngrams(words, 3, pad_values='#', padding_width=1)) == \
        [[b'# a b', b'a b c', b'b c #'], [b'# d #']]
    assert _rows(tf.strings.ngrams(words, 3, preserve_short_sequences=True)) == \
        [[b'a b c'], [b'd']]


def test_elementwise_ops_and_tables_on_ragged_input():
    words = tf.ragged.constant([['a b', 'c'], ['d']])
    assert _rows(tf.strings.upper(words)) == [[b'A B', b'C'], [b'D']]
    assert _rows(tf.strings.length(tf.ragged.constant([['ab', 'c'], ['d']]))) == [[2, 1], [1]]
    letters = tf.ragged.constant([['a', 'b'], ['c']])
    assert tf.strings.reduce_join(letters, axis=1, separator='-').numpy().tolist() == \
        [b'a-b', b'c']
    assert _rows(tf.strings.to_hash_bucket_fast(letters, 10)) == [[9, 2], [2]]
    table = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(['a', 'b'], [1, 2]), 0)
    assert _rows(table.lookup(letters)) == [[1, 2], [0]]


def test_ragged_string_ops_in_a_function():
    @tf.function
    def f(x):
        return tf.strings.split(x).to_tensor('')
    out = f(tf.constant(['a b', 'c']))
    assert out.numpy().tolist() == [[b'a', b'b'], [b'c', b'']]


DATA = pathlib.Path(__file__).parent.parent / 'io' / 'data'
SERIALIZED = [bytes.fromhex(h) for h in json.loads((DATA / 'io_ref.json').read_text())[
    'examples_hex']]


def test_parse_example_var_len_and_ragged():
    tags = tf.io.parse_example(SERIALIZED, {'tags': tf.io.VarLenFeature(tf.string)})['tags']
    assert isinstance(tags, tf.SparseTensor)
    np.testing.assert_array_equal(tags.indices.numpy(), [[1, 0], [2, 0], [2, 1]])
    assert tags.values.numpy().tolist() == [b't', b't', b't']
    assert tags.dense_shape.numpy().tolist() == [4, 2]
    ragged = tf.io.parse_example(SERIALIZED, {'tags': tf.io.RaggedFeature(tf.string)})['tags']
    assert _rows(ragged) == [[], [b't'], [b't', b't'], []]
    one = tf.io.parse_single_example(SERIALIZED[2], {
        'tags': tf.io.VarLenFeature(tf.string), 'r': tf.io.RaggedFeature(tf.int64, value_key='id')})
    assert one['tags'].indices.numpy().tolist() == [[0], [1]]
    assert one['r'].numpy().tolist() == [2, -2, 1099511627776]


def test_offsets_and_other_encodings():
    text = [s.encode('utf8') for s in ('G\xf6\xf6dnight', '\U0001f60a')]
    chars, offsets = tf.strings.unicode_split_with_offsets(text, 'UTF-8')
    assert chars.to_list() == [[b'G', b'\xc3\xb6', b'\xc3\xb6', b'd', b'n', b'i', b'g', b'h', b't'],
                               [b'\xf0\x9f\x98\x8a']]
    assert offsets.to_list() == [[0, 1, 3, 5, 6, 7, 8, 9, 10], [0]]
    points, offsets = tf.strings.unicode_decode_with_offsets(text, 'UTF-8')
    assert points.to_list() == [[71, 246, 246, 100, 110, 105, 103, 104, 116], [128522]]
    assert offsets.to_list() == [[0, 1, 3, 5, 6, 7, 8, 9, 10], [0]]
    assert tf.strings.unicode_transcode(['A', 'B', 'C'], 'US ASCII', 'UTF-8').numpy().tolist() == \
        [b'A', b'B', b'C']
