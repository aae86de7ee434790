"""TFRecord files and tf.train.Example protos against TensorFlow 2.21: files TF wrote (plain, GZIP,
ZLIB; tests/io/data/) read here, records written here byte-identical to TF's, Examples and
TensorProtos serialized as TF serializes them, and parse_example's values and errors."""
import gzip
import json
import pathlib
import zlib

import numpy as np
import pytest

import defun as tf

DATA = pathlib.Path(__file__).parent / 'data'
REF = json.loads((DATA / 'io_ref.json').read_text())
SERIALIZED = [bytes.fromhex(h) for h in REF['examples_hex']]
FILES = {'': 'tf_written.tfrecord', 'GZIP': 'tf_written_gzip.tfrecord',
         'ZLIB': 'tf_written_zlib.tfrecord'}


def _example(i):
    f = tf.train
    return f.Example(features=f.Features(feature={
        'id': f.Feature(int64_list=f.Int64List(value=[i, -i, 2 ** 40])),
        'name': f.Feature(bytes_list=f.BytesList(value=[b'item%d' % i, 'é'.encode()])),
        'score': f.Feature(float_list=f.FloatList(value=[0.5 * i, 0.1])),
        'empty': f.Feature(float_list=f.FloatList()),
        'tags': f.Feature(bytes_list=f.BytesList(value=[b't'] * (i % 3))),
    }))


@pytest.mark.parametrize('compression', ['', 'GZIP', 'ZLIB'])
def test_reads_files_tf_wrote(compression):
    records = [r.numpy() for r in tf.data.TFRecordDataset(str(DATA / FILES[compression]),
                                                          compression_type=compression)]
    assert records == SERIALIZED + [b'', b'raw bytes \x00\xff']


@pytest.mark.parametrize('compression', ['', 'GZIP', 'ZLIB'])
def test_writes_files_that_read_back(tmp_path, compression):
    path = str(tmp_path / 'out.tfrecord')
    with tf.io.TFRecordWriter(path, tf.io.TFRecordOptions(compression_type=compression)) as w:
        for record in SERIALIZED + [b'', 'raw bytes \x00']:
            w.write(record)
    records = [r.numpy() for r in tf.data.TFRecordDataset([path], compression)]
    assert records == SERIALIZED + [b'', b'raw bytes \x00']
    if not compression:  # the framing and checksums are TF's byte for byte
        assert pathlib.Path(path).read_bytes()[:len(_tf_prefix())] == _tf_prefix()


def _tf_prefix():
    return (DATA / FILES['']).read_bytes()[:sum(len(s) + 16 for s in SERIALIZED)]


def test_corrupted_record_is_data_loss(tmp_path):
    data = bytearray((DATA / FILES['']).read_bytes())
    data[20] ^= 0xFF
    path = tmp_path / 'bad.tfrecord'
    path.write_bytes(bytes(data))
    with pytest.raises(tf.errors.DataLossError):
        list(tf.data.TFRecordDataset(str(path)))


def test_examples_serialize_as_tf():
    for i, expected in enumerate(SERIALIZED):
        ours = _example(i)
        theirs = tf.train.Example.FromString(expected)
        assert ours == theirs
        assert ours.SerializeToString(deterministic=True) == \
            theirs.SerializeToString(deterministic=True)
    one = tf.train.Example(features=tf.train.Features(feature={
        'x': tf.train.Feature(int64_list=tf.train.Int64List(value=[1, -1]))}))
    assert one.SerializeToString().hex() == \
        '0a160a140a0178120f1a0d0a0b01ffffffffffffffffff01'  # recorded from TF
    seq = tf.train.SequenceExample.FromString(bytes.fromhex(REF['seq_hex']))
    assert seq.SerializeToString().hex() == REF['seq_hex']
    assert str(seq) == REF['seq_text']
    assert list(seq.feature_lists.feature_list['f'].feature[0].float_list.value) == [1.0, 2.0]


def test_example_message_api():
    ex = _example(1)
    text = str(ex)
    assert 'key: "name"' in text and 'value: "\\303\\251"' in text and 'value: 0.1\n' in text
    feature = ex.features.feature['empty']
    assert feature.WhichOneof('kind') == 'float_list' and not feature.float_list.value
    fresh = tf.train.Feature()
    assert fresh.WhichOneof('kind') is None
    fresh.int64_list.value.append(3)
    assert fresh.WhichOneof('kind') == 'int64_list'
    fresh.bytes_list.value.append('x')
    assert fresh.WhichOneof('kind') == 'bytes_list' and not fresh.int64_list.value
    assert tf.train.FloatList(value=[0.1]).value[0] == np.float32(0.1)
    with pytest.raises(TypeError):
        tf.train.Int64List(value=[1.5])
    with pytest.raises(ValueError):
        tf.train.Example(feature={})


def test_parse_example_dense_matches_tf():
    features = {'id': tf.io.FixedLenFeature([3], tf.int64),
                'score': tf.io.FixedLenFeature([2], tf.float32),
                'name': tf.io.FixedLenFeature([2], tf.string),
                'missing': tf.io.FixedLenFeature([], tf.float32, default_value=-1.0)}
    parsed = tf.io.parse_example(tf.constant(SERIALIZED), features)
    for key, value in parsed.items():
        got = value.numpy().tolist()
        if value.dtype is tf.string:
            got = [[x.hex() for x in row] for row in got]
        assert got == REF['parse_dense'][key], key
    single = tf.io.parse_single_example(SERIALIZED[2], {'id': tf.io.FixedLenFeature([3], tf.int64)})
    assert single['id'].numpy().tolist() == [2, -2, 1099511627776]
    tags = tf.io.parse_example(SERIALIZED, {'tags': tf.io.FixedLenSequenceFeature(
        [], tf.string, allow_missing=True)})['tags']
    assert tags.numpy().tolist() == [[b'', b''], [b't', b''], [b't', b't'], [b'', b'']]
    empty = tf.io.parse_example(SERIALIZED, {'empty': tf.io.FixedLenSequenceFeature(
        [], tf.float32, allow_missing=True)})['empty']
    assert empty.shape == (4, 0) and empty.dtype is tf.float32


def test_parse_example_errors_are_tfs():
    cases = [({'nope': tf.io.FixedLenFeature([], tf.int64)},
              'Feature: nope \\(data type: int64\\) is required but could not be found'),
             ({'id': tf.io.FixedLenFeature([3], tf.float32)},
              "Data types don't match. Data type: int64 but expected type: float"),
             ({'id': tf.io.FixedLenFeature([2], tf.int64)},
              'Values size: 3 but output shape: \\[2\\]')]
    for features, message in cases:
        with pytest.raises(tf.errors.InvalidArgumentError, match=message):
            tf.io.parse_example(SERIALIZED, features)


def test_parse_in_a_dataset_pipeline_and_function():
    ds = tf.data.TFRecordDataset(str(DATA / FILES['GZIP']), 'GZIP').take(4).batch(2).map(
        lambda s: tf.io.parse_example(s, {'id': tf.io.FixedLenFeature([3], tf.int64)})['id'])
    assert [b.numpy()[:, 0].tolist() for b in ds] == [[0, 1], [2, 3]]


_TENSORS = {
    'f32': tf.constant([[1.5, -2.0], [0.0, 3.25]]), 'i32': tf.constant([1, 2, 3]),
    'i64': tf.constant([7], tf.int64), 'scalar': tf.constant(3.0),
    'str': tf.constant(['ab', '', 'xyz']), 'bool': tf.constant([True, False]),
    'u8': tf.constant([1, 255], tf.uint8), 'f64': tf.constant(2.5, tf.float64),
    'empty': tf.zeros([0, 3]), 'strscalar': tf.constant('hello'),
    'c64': tf.constant([1 + 2j], tf.complex64), 'f16': tf.constant([0.5], tf.float16)}


@pytest.mark.parametrize('key', sorted(_TENSORS))
def test_serialize_tensor_bytes_match_tf(key):
    tensor = _TENSORS[key]
    assert tf.io.serialize_tensor(tensor).numpy().hex() == REF['serialize_tensor'][key]
    back = tf.io.parse_tensor(bytes.fromhex(REF['serialize_tensor'][key]), tensor.dtype)
    np.testing.assert_array_equal(back.numpy(), tensor.numpy())
    assert back.dtype is tensor.dtype


def test_parse_tensor_type_mismatch():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match='Type mismatch between parsed tensor \\(float\\) and dtype \\(int32\\)'):
        tf.io.parse_tensor(tf.io.serialize_tensor(tf.constant([1.0])), tf.int32)


def test_large_records_checksums_match_tf(tmp_path):
    # Records past the short-message path of the checksum (its block-wise numpy form).
    expected = [bytes(range(256)) * 40 + b'tail', bytes(range(255, -1, -1)) * 20]
    tf_file = DATA / 'tf_written_large.tfrecord'
    assert [r.numpy() for r in tf.data.TFRecordDataset(str(tf_file))] == expected
    path = tmp_path / 'large.tfrecord'
    with tf.io.TFRecordWriter(str(path)) as writer:
        for record in expected:
            writer.write(record)
    assert path.read_bytes() == tf_file.read_bytes()


@pytest.mark.parametrize('compression,module', [('GZIP', gzip), ('ZLIB', zlib)])
def test_compressed_text_lines(tmp_path, compression, module):
    path = tmp_path / 'lines.txt'
    path.write_bytes(module.compress(b'line1\nline2\r\nline3'))
    lines = [x.numpy() for x in tf.data.TextLineDataset(str(path), compression)]
    assert lines == [b'line1', b'line2', b'line3']   # what TF reads from the same file
