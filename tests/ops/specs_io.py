"""Specs for the tf.io op tables: forward against Python's own struct/csv reading, and the
registry walk's shape and dtype inference. Values and files recorded from TensorFlow are checked
in tests/io/."""
import zlib

import numpy as np

import defun as tf
from tests.ops.spec import Spec


def _s(*values):
    out = np.empty(len(values), dtype=object)
    out[:] = list(values)
    return out


def _example(value):
    return tf.train.Example(features=tf.train.Features(feature={'v': tf.train.Feature(
        int64_list=tf.train.Int64List(value=[value]))})).SerializeToString()


SPECS = [
    Spec('EncodeBase64', tf.io.encode_base64, [_s(b'ab?', b'')],
         lambda s: np.array([b'YWI_', b''], dtype=object), grad=False),
    Spec('DecodeBase64', tf.io.decode_base64, [_s(b'YWI_', b'')],
         lambda s: np.array([b'ab?', b''], dtype=object), grad=False),
    Spec('DecodeCompressed', lambda s: tf.io.decode_compressed(s, 'ZLIB'),
         [_s(zlib.compress(b'abc'))], lambda s: np.array([b'abc'], dtype=object), grad=False),
    Spec('MatchingFiles', tf.io.matching_files, [np.array(b'/nonexistent-dir/*', dtype=object)],
         lambda s: np.zeros([0], dtype=object), grad=False),
    Spec('SerializeTensor', lambda x: tf.io.parse_tensor(tf.io.serialize_tensor(x), tf.float64),
         [np.array([[1.5, 2.0]])], lambda x: x, grad=False),
    Spec('ParseTensor', lambda x: tf.io.parse_tensor(tf.io.serialize_tensor(x), tf.int32),
         [np.array([1, 2, 3], np.int32)], lambda x: x, grad=False),
    Spec('DecodeRaw', lambda s: tf.io.decode_raw(s, tf.int16), [_s(b'\x01\x00\x02\x00')],
         lambda s: np.array([[1, 2]], np.int16), grad=False),
    Spec('DecodeCSV', lambda s: tf.io.decode_csv(s, [[0], [0.0]]), [_s(b'1,2.5', b'3,4')],
         lambda s: [np.array([1, 3], np.int32), np.array([2.5, 4.0], np.float32)], grad=False),
    Spec('ParseExample', lambda s: tf.io.parse_example(s, {'v': tf.io.FixedLenFeature(
        [], tf.int64)})['v'], [_s(_example(4), _example(-1))],
         lambda s: np.array([4, -1], np.int64), grad=False),
]
