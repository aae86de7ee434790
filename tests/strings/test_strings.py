"""tf.strings against values recorded from TensorFlow 2.21 (hashes in tf_hashes.json, the rest
inline), in eager mode and inside tf.function, and TF's exception classes for bad input."""
import json
import pathlib

import numpy as np
import pytest

import defun as tf

HASHES = json.loads((pathlib.Path(__file__).parent / 'tf_hashes.json').read_text())
STRINGS = [bytes.fromhex(h) for h in HASHES['strings']]


def _eq(tensor, expected):
    np.testing.assert_array_equal(tensor.numpy(), np.array(expected, dtype=object)
                                  if isinstance(np.ravel(expected)[0], bytes) else expected)


@pytest.mark.parametrize('key,call', [
    ('fast', lambda t: tf.strings.to_hash_bucket_fast(t, 2 ** 62)),
    ('fast_1000', lambda t: tf.strings.to_hash_bucket_fast(t, 1000)),
    ('legacy', lambda t: tf.strings.to_hash_bucket(t, 2 ** 62)),
    ('strong', lambda t: tf.strings.to_hash_bucket_strong(t, 2 ** 62, [1, 2])),
    ('strong_big', lambda t: tf.strings.to_hash_bucket_strong(t, 2 ** 63 - 1,
                                                               [0xDEADBEEF, 12345678901234])),
])
def test_hash_buckets_match_tf(key, call):
    t = tf.constant(np.array(STRINGS, dtype=object))
    assert call(t).dtype is tf.int64
    assert call(t).numpy().tolist() == HASHES[key]
    assert tf.function(call)(t).numpy().tolist() == HASHES[key]


def test_join_and_reduce_join():
    _eq(tf.strings.join([['a', 'b'], 'x'], separator='-'), [b'a-x', b'b-x'])
    assert tf.strings.join([]).numpy() == b''
    x = [['a', 'b'], ['c', 'd']]
    _eq(tf.strings.reduce_join(x, axis=1, separator=','), [b'a,b', b'c,d'])
    assert tf.strings.reduce_join(x).numpy() == b'abcd'
    _eq(tf.strings.reduce_join(x, axis=0, keepdims=True), [[b'ac', b'bd']])
    _eq(tf.strings.reduce_join(x, axis=-1), [b'ab', b'cd'])
    _eq(tf.strings.reduce_join(tf.zeros([2, 0], tf.string), axis=1), [b'', b''])
    with pytest.raises(tf.errors.InvalidArgumentError, match='Input shapes do not match'):
        tf.strings.join([['a', 'b'], ['c', 'd', 'e']])
    with pytest.raises(tf.errors.OutOfRangeError, match='Invalid reduction dimension 2'):
        tf.strings.reduce_join(x, axis=2)
    with pytest.raises(TypeError):
        tf.strings.join([[1, 2]])


def test_length_case_strip():
    words = ['héllo', '', 'ab']
    _eq(tf.strings.length(words), [6, 0, 2])
    _eq(tf.strings.length(words, unit='UTF8_CHAR'), [5, 0, 2])
    _eq(tf.strings.lower(['HéLLO Wörld', 'ÀB']), ['héllo wörld'.encode(), 'Àb'.encode()])
    _eq(tf.strings.lower(['HéLLO Wörld', 'ÀB'], encoding='utf-8'),
        ['héllo wörld'.encode(), 'àb'.encode()])
    _eq(tf.strings.upper(['héllo ß'], encoding='utf-8'), ['HÉLLO SS'.encode()])
    _eq(tf.strings.strip([' \t a b \n\x0b', '\xa0x ']), [b'a b', b'\xc2\xa0x'])
    with pytest.raises(tf.errors.InvalidArgumentError, match="attr 'unit'"):
        tf.strings.length(['a'], unit='X')
    with pytest.raises(TypeError):
        tf.strings.lower([1])


def test_regular_expressions():
    _eq(tf.strings.regex_full_match(['abc', 'abcd', 'xab'], 'a.c'), [True, False, False])
    _eq(tf.strings.regex_replace(['aaa bab', 'cc'], 'a(b)?', r'<\1|\0>'),
        [b'<|a><|a><|a> b<b|ab>', b'cc'])
    _eq(tf.strings.regex_replace(['aaa bab'], 'a', 'X', replace_global=False), [b'Xaa bab'])
    _eq(tf.strings.regex_replace(['abc'], '', '-'), [b'-a-b-c-'])
    _eq(tf.strings.regex_replace(['abc'], tf.constant('b'), '-'), [b'a-c'])
    with pytest.raises(tf.errors.InvalidArgumentError, match='Invalid pattern: \\(a'):
        tf.strings.regex_full_match(['abc'], '(a')


def test_substr():
    _eq(tf.strings.substr(['hello', 'world'], [1, 2], [3, 10]), [b'ell', b'rld'])
    _eq(tf.strings.substr(['hello', 'world'], -3, 2), [b'll', b'rl'])
    _eq(tf.strings.substr([['ten', 'eleven', 'twelve'], ['thirteen', 'fourteen', 'fifteen']],
                          [1, 2, 3], [3, 2, 1]), [[b'en', b'ev', b'l'], [b'hir', b'ur', b't']])
    _eq(tf.strings.substr(['héllo'], 1, 2, unit='UTF8_CHAR'), ['él'.encode()])
    _eq(tf.strings.substr(['hello'], 1, -1), [b'ello'])
    for pos in (6, -6):
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=f"pos {pos} out of range for string b'hello' at index 0"):
            tf.strings.substr(['hello'], pos, 2)


def test_to_number():
    np.testing.assert_array_equal(
        tf.strings.to_number(['1.5', '-3', ' 2', '1e3', 'inf', 'nan']).numpy(),
        np.array([1.5, -3., 2., 1000., np.inf, np.nan], np.float32))
    _eq(tf.strings.to_number(['1', '-3', '007'], tf.int32), np.array([1, -3, 7], np.int32))
    _eq(tf.strings.to_number(['9223372036854775807'], tf.int64), [9223372036854775807])
    _eq(tf.strings.to_number(['0x10', '+5']), np.array([16., 5.], np.float32))
    _eq(tf.strings.to_number([' 5 '], tf.int32), np.array([5], np.int32))
    assert tf.strings.to_number(['0.1'], tf.float64).numpy()[0] == 0.1
    for text, dtype in [('1.5x', tf.float32), ('1.5', tf.int32), ('3000000000', tf.int32),
                        ('0x10', tf.int32)]:
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=f'could not correctly convert string: {text}'):
            tf.strings.to_number([text], dtype)


def test_as_string():
    cases = [
        (([3.14159, 1e10, -0.5, float('nan'), float('inf')],), {},
         [b'3.141590', b'10000000000.000000', b'-0.500000', b'nan', b'inf']),
        (([3.14159],), {'precision': 2}, [b'3.14']),
        (([3.14159],), {'scientific': True}, [b'3.141590e+00']),
        (([3.14159, 1e10, 0.1],), {'shortest': True}, [b'3.14159', b'1e+10', b'0.1']),
        (([3, 12345],), {'width': 4}, [b'   3', b'12345']),
        (([3, -12],), {'width': 4, 'fill': '0'}, [b'0003', b'-012']),
        (([True, False],), {}, [b'true', b'false']),
        ((tf.constant([2 ** 40], tf.int64),), {}, [b'1099511627776']),
        ((tf.constant([1 + 2j], tf.complex64),), {}, [b'(1.000000,2.000000)']),
        ((tf.constant([200], tf.uint8),), {}, [b'200']),
        ((tf.constant([0.1], tf.float16),), {}, [b'0.099976']),
    ]
    for args, kwargs, expected in cases:
        _eq(tf.strings.as_string(*args, **kwargs), expected)
    with pytest.raises(tf.errors.InvalidArgumentError, match='precision not supported'):
        tf.strings.as_string([1], precision=2)
    with pytest.raises(tf.errors.InvalidArgumentError, match='one or fewer characters'):
        tf.strings.as_string([1], fill='ab')


def test_format():
    assert tf.strings.format('x={} y={}', (tf.constant([1, 2, 3]), 'hi')).numpy() == \
        b'x=[1 2 3] y="hi"'
    assert tf.strings.format('{}', tf.range(10)).numpy() == b'[0 1 2 ... 7 8 9]'
    assert tf.strings.format('{}', tf.reshape(tf.range(6.0), [2, 3])).numpy() == \
        b'[[0 1 2]\n [3 4 5]]'
    assert tf.strings.format('{}', tf.range(10), summarize=2).numpy() == b'[0 1 ... 8 9]'
    assert tf.strings.format('[{}]', tf.constant(['a', 'b'])).numpy() == b'[["a" "b"]]'
    assert tf.strings.format('a%b', [1], placeholder='%').numpy() == b'a1b'
    with pytest.raises(ValueError, match='template expects 2 tensors'):
        tf.strings.format('{} {}', [1])


def test_hash_bad_input():
    with pytest.raises(TypeError):
        tf.strings.to_hash_bucket_fast([1], 10)
    with pytest.raises(tf.errors.InvalidArgumentError, match='at least minimum 1'):
        tf.strings.to_hash_bucket_fast(['a'], 0)
    with pytest.raises(tf.errors.InvalidArgumentError, match='Key must have 2 elements'):
        tf.strings.to_hash_bucket_strong(['a'], 10, [1])


def test_string_ops_in_a_function():
    @tf.function
    def f(x):
        return tf.strings.join([tf.strings.upper(x), tf.strings.as_string(tf.strings.length(x))],
                               '-')
    _eq(f(tf.constant(['ab', 'cde'])), [b'AB-2', b'CDE-3'])


def test_unsorted_segment_join():
    _eq(tf.strings.unsorted_segment_join(['a', 'b'], [1, 1], 3), [b'', b'ab', b''])
    _eq(tf.strings.unsorted_segment_join([['Y', 'q', 'c'], ['Y', '6', '6'], ['p', 'G', 'a']],
                                         [1, 0, 1], 2, separator=':'),
        [[b'Y', b'6', b'6'], [b'Y:p', b'q:G', b'c:a']])
    for ids in ([1, 5], [1, -1]):
        with pytest.raises(tf.errors.InvalidArgumentError, match='not allowed to exceed'):
            tf.strings.unsorted_segment_join(['a', 'b'], ids, 3)
