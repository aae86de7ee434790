"""tf.io.parse_sequence_example and parse_single_sequence_example: context features, feature
lists as dense (with their lengths), sparse and ragged tensors, one example and a batch, in a
tf.function, and TF's errors. Expected values recorded with TF 2.21."""
import pytest

import defun as tf


def _feature(values, kind=None):
    kind = kind or ('float' if values and isinstance(values[0], float) else
                    'bytes' if values and isinstance(values[0], bytes) else 'int64')
    if kind == 'float':
        return tf.train.Feature(float_list=tf.train.FloatList(value=values))
    if kind == 'bytes':
        return tf.train.Feature(bytes_list=tf.train.BytesList(value=values))
    return tf.train.Feature(int64_list=tf.train.Int64List(value=values))


def _sequence_example(context, lists):
    return tf.train.SequenceExample(
        context=tf.train.Features(feature={k: _feature(v) for k, v in context.items()}),
        feature_lists=tf.train.FeatureLists(feature_list={
            k: tf.train.FeatureList(feature=[_feature(x) for x in v])
            for k, v in lists.items()})).SerializeToString()


A = _sequence_example({'id': [7], 'tags': [b'x', b'y'], 'lab': [b'p']},
                      {'tok': [[1, 2], [3, 4], [5, 6]], 'w': [[0.5], [1.5]],
                       'var': [[1], [2, 3], [4, 5, 6]], 'rag': [[1.0], [6.0], [2.0, 3.0]]})
B = _sequence_example({'id': [8], 'tags': [b'z'], 'lab': [b'q', b'r']},
                      {'tok': [[9, 9]], 'w': [[2.5], [3.5], [4.5], [5.5]], 'var': [[], [7]],
                       'rag': [[4.0, 5.0]]})
CONTEXT = {'id': tf.io.FixedLenFeature([], tf.int64), 'tags': tf.io.VarLenFeature(tf.string),
           'rt': tf.io.RaggedFeature(tf.string, value_key='lab'),
           'miss': tf.io.FixedLenFeature([2], tf.float32, default_value=[1., 2.])}
SEQUENCE = {'tok': tf.io.FixedLenSequenceFeature([2], tf.int64),
            'w': tf.io.FixedLenSequenceFeature([], tf.float32),
            'var': tf.io.VarLenFeature(tf.int64),
            'rv': tf.io.RaggedFeature(tf.float32, value_key='rag'),
            'none': tf.io.FixedLenSequenceFeature([], tf.int64, allow_missing=True)}


def _plain(d):
    out = {}
    for k, v in d.items():
        if isinstance(v, tf.SparseTensor):
            out[k] = (v.indices.numpy().tolist(), v.values.numpy().tolist(),
                      v.dense_shape.numpy().tolist())
        elif isinstance(v, tf.RaggedTensor):
            out[k] = (v.to_list(), v.ragged_rank)
        else:
            out[k] = v.numpy().tolist()
    return out


ONE_CONTEXT = {'id': 7, 'miss': [1.0, 2.0], 'rt': [b'p'], 'tags': ([[0], [1]], [b'x', b'y'], [2])}
ONE_LISTS = {'none': [], 'rv': ([[1.0], [6.0], [2.0, 3.0]], 1), 'tok': [[1, 2], [3, 4], [5, 6]],
             'var': ([[0, 0], [1, 0], [1, 1], [2, 0], [2, 1], [2, 2]], [1, 2, 3, 4, 5, 6],
                     [3, 3]),
             'w': [0.5, 1.5]}


def test_one_sequence_example():
    context, lists = tf.io.parse_single_sequence_example(A, CONTEXT, SEQUENCE)
    assert _plain(context) == ONE_CONTEXT and _plain(lists) == ONE_LISTS
    context, lists, lengths = tf.io.parse_sequence_example(A, CONTEXT, SEQUENCE)
    assert _plain(context) == ONE_CONTEXT and _plain(lists) == ONE_LISTS
    assert _plain(lengths) == {'none': 0, 'tok': 3, 'w': 2}
    assert list(lists) == ['none', 'rv', 'tok', 'var', 'w']


def test_batch_of_sequence_examples():
    context, lists, lengths = tf.io.parse_sequence_example([A, B], CONTEXT, SEQUENCE)
    assert _plain(context) == {
        'id': [7, 8], 'miss': [[1.0, 2.0], [1.0, 2.0]], 'rt': ([[b'p'], [b'q', b'r']], 1),
        'tags': ([[0, 0], [0, 1], [1, 0]], [b'x', b'y', b'z'], [2, 2])}
    assert _plain(lists) == {
        'none': [[], []], 'rv': ([[[1.0], [6.0], [2.0, 3.0]], [[4.0, 5.0]]], 2),
        'tok': [[[1, 2], [3, 4], [5, 6]], [[9, 9], [0, 0], [0, 0]]],
        'var': ([[0, 0, 0], [0, 1, 0], [0, 1, 1], [0, 2, 0], [0, 2, 1], [0, 2, 2], [1, 1, 0]],
                [1, 2, 3, 4, 5, 6, 7], [2, 3, 3]),
        'w': [[0.5, 1.5, 0.0, 0.0], [2.5, 3.5, 4.5, 5.5]]}
    assert _plain(lengths) == {'none': [0, 0], 'tok': [3, 1], 'w': [2, 4]}
    assert lengths['tok'].dtype == tf.int64 and lists['rv'].row_splits.dtype == tf.int32


def test_in_a_function():
    f = tf.function(lambda s: tf.io.parse_sequence_example(s, None, {'w': SEQUENCE['w']}))
    _, lists, lengths = f(tf.constant([A, B]))
    assert lists['w'].numpy().tolist() == [[0.5, 1.5, 0.0, 0.0], [2.5, 3.5, 4.5, 5.5]]
    assert lengths['w'].numpy().tolist() == [2, 4]


def test_bad_input():
    parse = tf.io.parse_sequence_example
    with pytest.raises(tf.errors.InvalidArgumentError, match="Feature list 'q' is required but "
                                                            "could not be found"):
        parse([A], None, {'q': tf.io.FixedLenSequenceFeature([], tf.int64)})
    with pytest.raises(tf.errors.InvalidArgumentError, match='values size: 2 but output shape: '
                                                            r'\[3\]'):
        parse([A], None, {'tok': tf.io.FixedLenSequenceFeature([3], tf.int64)})
    with pytest.raises(ValueError, match='at least one should have values'):
        parse([A], None, None)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Feature list: tok, Index: 0.  "
                                                            "Data types don't match"):
        parse([A], None, {'tok': tf.io.FixedLenSequenceFeature([], tf.float32)})
    with pytest.raises(ValueError, match=r'feature_list.dense_defaults\[w\] must be None'):
        parse([A, B], None, {'w': tf.io.FixedLenSequenceFeature([], tf.float32,
                                                                 default_value=-1.)})


def test_decode_json_example_writes_tf_bytes():
    examples = [
        '{"features": {"feature": {"a": {"int64List": {"value": ["1", 2, "-3"]}}, '
        '"b": {"floatList": {"value": [1.5, "NaN", 2]}}, '
        '"c": {"bytes_list": {"value": ["aGVsbG8=", ""]}}}}}',
        '{}', '{"features": {}}', '{"features": {"feature": {"e": {}}}}']
    out = tf.io.decode_json_example(examples)
    assert [o.hex() for o in out.numpy().tolist()] == [
        '0a420a160a016112111a0f0801080208fdffffffffffffffff010a160a01621211120f0d0000c03f0d0000c0'
        '7f0d000000400a100a0163120b0a090a0568656c6c6f0a00', '', '0a00', '0a070a050a01651200']
    assert tf.io.decode_json_example([[examples[1]]]).shape == (1, 1)
    parsed = tf.io.parse_single_example(out[0], {'a': tf.io.VarLenFeature(tf.int64)})
    assert parsed['a'].values.numpy().tolist() == [1, 2, -3]


@pytest.mark.parametrize('text', ['{"features": 3}', 'not json', '{"foo": 1}',
                                  '{"features": {"feature": {"a": {"int64List": '
                                  '{"value": [1.5]}}}}}'])
def test_decode_json_example_bad_input(text):
    with pytest.raises(tf.errors.InvalidArgumentError, match='Error while parsing JSON'):
        tf.io.decode_json_example(text)
