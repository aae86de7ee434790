"""Specs for the tf.io op tables: forward against Python's own struct/csv reading, and the
registry walk's shape and dtype inference. Values and files recorded from TensorFlow are checked
in tests/io/."""
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
