"""Specs for the tf.strings and tf.lookup op tables: forward against Python's own string
handling, and the registry walk's shape and dtype inference. Values recorded from TensorFlow are
checked in tests/strings/."""
import numpy as np

import defun as tf
from tests.ops.spec import Spec


def _s(*values):
    out = np.empty(len(values), dtype=object)
    out[:] = [v.encode() if isinstance(v, str) else v for v in values]
    return out


_WORDS = _s('Hello', ' wörld ', '', 'abc')
_BYTES = np.vectorize(lambda v: v, otypes=[object])


def _map(fn, dtype=object):
    return lambda a: np.array([fn(v) for v in a], dtype=dtype)


def _offsets(value):
    text, starts, at = value.decode(), [], 0
    for c in text:
        starts.append(at)
        at += len(c.encode())
    return starts


SPECS = [
    Spec('StringJoin', lambda a, b: tf.strings.join([a, b], separator='+'), [_WORDS, _WORDS[::-1].copy()],
         lambda a, b: np.array([x + b'+' + y for x, y in zip(a, b)], dtype=object), grad=False),
    Spec('ReduceJoin', lambda a: tf.strings.reduce_join(a, axis=0, separator=','), [_WORDS],
         lambda a: np.array(b','.join(a), dtype=object), grad=False),
    Spec('StringLength', lambda a: tf.strings.length(a, unit='UTF8_CHAR'), [_WORDS],
         _map(lambda v: len(v.decode()), np.int32), grad=False),
    Spec('StringCase', tf.strings.upper, [_WORDS], _map(bytes.upper), grad=False),
    Spec('StringStrip', tf.strings.strip, [_WORDS], _map(bytes.strip), grad=False),
    Spec('RegexFullMatch', lambda a: tf.strings.regex_full_match(a, '[a-z]+'), [_WORDS],
         _map(lambda v: v.isalpha() and v.islower(), np.bool_), grad=False),
    Spec('RegexReplace', lambda a: tf.strings.regex_replace(a, 'l+', '_'), [_WORDS],
         _map(lambda v: v.replace(b'll', b'_').replace(b'l', b'_')), grad=False),
    Spec('Substr', lambda a: tf.strings.substr(a, 0, 2), [_WORDS], _map(lambda v: v[:2]),
         grad=False),
    Spec('StringToNumber', lambda a: tf.strings.to_number(a, tf.float64), [_s('1.5', '-2', '1e3')],
         _map(float, np.float64), grad=False),
    Spec('AsString', tf.strings.as_string, [np.array([1, -20, 300], np.int64)],
         _map(lambda v: str(v).encode()), grad=False),
    Spec('StringFormat', lambda a: tf.strings.format('v={}', [a]), [np.array([1, 2], np.int32)],
         lambda a: np.array(b'v=[1 2]', dtype=object), grad=False),
    Spec('StringToHashBucketFast', lambda a: tf.strings.to_hash_bucket_fast(a, 5), [_WORDS],
         None, grad=False),
    Spec('StringToHashBucket', lambda a: tf.strings.to_hash_bucket(a, 5), [_WORDS], None,
         grad=False),
    Spec('StringToHashBucketStrong', lambda a: tf.strings.to_hash_bucket_strong(a, 5, [1, 2]),
         [_WORDS], None, grad=False),
    Spec('UnsortedSegmentJoin', lambda a: tf.strings.unsorted_segment_join(a, [1, 0, 1, 0], 2),
         [_WORDS], lambda a: np.array([a[1] + a[3], a[0] + a[2]], dtype=object), grad=False),
    Spec('RaggedStringSplit', lambda a: tf.strings.split(a).values, [_WORDS],
         lambda a: np.array([w for v in a for w in v.split()], dtype=object), grad=False),
    Spec('StringBytesSplit', lambda a: tf.strings.bytes_split(a).values, [_s('ab', 'c')],
         lambda a: np.array([b'a', b'b', b'c'], dtype=object), grad=False),
    Spec('UnicodeDecode', lambda a: tf.strings.unicode_decode(a, 'UTF-8').values, [_WORDS],
         lambda a: np.array([ord(c) for v in a for c in v.decode()], np.int32), grad=False),
    Spec('UnicodeEncode', lambda a: tf.strings.unicode_encode(a, 'UTF-8'),
         [np.array([[104, 233], [119, 120]], np.int32)],
         lambda a: np.array(['hé'.encode(), b'wx'], dtype=object), grad=False),
    Spec('UnicodeTranscode', lambda a: tf.strings.unicode_transcode(a, 'UTF-8', 'UTF-16-BE'),
         [_WORDS], _map(lambda v: v.decode().encode('utf-16-be')), grad=False),
    Spec('StringNGrams', lambda a: tf.strings.ngrams(a, 2), [_s('a', 'b', 'c')],
         lambda a: np.array([b'a b', b'b c'], dtype=object), grad=False),
    Spec('UnicodeDecodeWithOffsets',
         lambda a: tf.strings.unicode_decode_with_offsets(a, 'UTF-8')[1].values, [_WORDS],
         lambda a: np.array([o for v in a for o in _offsets(v)], np.int64), grad=False),
    Spec('LookupTableFind', lambda a: tf.lookup.StaticHashTable(
        tf.lookup.KeyValueTensorInitializer(['abc', 'Hello'], [7, 8]), -1).lookup(a), [_WORDS],
         _map(lambda v: {b'abc': 7, b'Hello': 8}.get(v, -1), np.int32), grad=False),
]
