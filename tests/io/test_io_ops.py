"""decode_raw, decode_csv, read_file/write_file, base64, decode_compressed, matching_files and
tf.io.gfile against TensorFlow 2.21's values and exception classes."""
import gzip
import zlib

import numpy as np
import pytest

import defun as tf


def test_decode_raw():
    out = tf.io.decode_raw([b'\x01\x00\x02\x00', b'\x03\x00\x04\x00'], tf.int16)
    assert out.dtype is tf.int16 and out.numpy().tolist() == [[1, 2], [3, 4]]
    assert tf.io.decode_raw([b'\x01\x00\x02\x00'], tf.int16, little_endian=False).numpy().tolist() \
        == [[256, 512]]
    assert tf.io.decode_raw(b'\x00\x00\xc0\x3f', tf.float32).numpy().tolist() == [1.5]
    assert tf.io.decode_raw([b'\x01\x02', b'\x03'], tf.uint8, fixed_length=4).numpy().tolist() == \
        [[1, 2, 0, 0], [3, 0, 0, 0]]
    with pytest.raises(tf.errors.InvalidArgumentError, match='element 1 has size 3 != 4'):
        tf.io.decode_raw([b'\x01\x00\x02', b'\x03\x00\x04\x00'], tf.int16)


def _values(columns):
    return [c.numpy().tolist() for c in columns]


def test_decode_csv():
    cols = tf.io.decode_csv(['1,2.5,a', '3,,"b,c"'], [[0], [1.0], ['z']])
    assert [c.dtype for c in cols] == [tf.int32, tf.float32, tf.string]
    assert _values(cols) == [[1, 3], [2.5, 1.0], [b'a', b'b,c']]
    assert _values(tf.io.decode_csv(['1;2'], [[0], [0]], field_delim=';')) == [[1], [2]]
    assert _values(tf.io.decode_csv(['1,2,3'], [[0], [0]], select_cols=[0, 2])) == [[1], [3]]
    assert _values(tf.io.decode_csv(['"a""b",1'], [[''], [0]])) == [[b'a"b'], [1]]
    assert _values(tf.io.decode_csv(['"a",1'], [[''], [0]], use_quote_delim=False)) == \
        [[b'"a"'], [1]]
    assert _values(tf.io.decode_csv(['NA,1'], [[5], [0]], na_value='NA')) == [[5], [1]]
    assert _values(tf.io.decode_csv(['12345678901'], [tf.constant([0], tf.int64)])) == \
        [[12345678901]]
    assert _values(tf.io.decode_csv([['1,2'], ['3,4']], [[0], [0]])) == [[[1], [3]], [[2], [4]]]
    assert _values(tf.io.decode_csv([' 1, 2'], [[0], [0.0]])) == [[1], [2.0]]
    for records, message in [(['1,2'], 'Expect 3 fields but have 2 in record 0'),
                             (['x,2,a'], 'Field 0 in record 0 is not a valid int32: x')]:
        with pytest.raises(tf.errors.InvalidArgumentError, match=message):
            tf.io.decode_csv(records, [[0], [1.0], ['z']])
    with pytest.raises(tf.errors.InvalidArgumentError, match='Field 0 is required'):
        tf.io.decode_csv([',1'], [tf.constant([], tf.int32), [0]])


def test_read_and_write_file(tmp_path):
    path = str(tmp_path / 'sub' / 'f.bin')
    tf.io.write_file(path, b'\x00hello')
    assert tf.io.read_file(path).numpy() == b'\x00hello'

    @tf.function
    def roundtrip(p):
        return tf.io.parse_tensor(tf.io.read_file(p), tf.float32) * 2.0
    tf.io.write_file(path, tf.io.serialize_tensor(tf.constant([1.0, 2.0])))
    np.testing.assert_array_equal(roundtrip(tf.constant(path)).numpy(), [2.0, 4.0])
    with pytest.raises(tf.errors.NotFoundError):
        tf.io.read_file(str(tmp_path / 'missing'))


def test_gfile(tmp_path):
    gfile = tf.io.gfile
    root = str(tmp_path)
    gfile.makedirs(gfile.join(root, 'a', 'b'))
    with gfile.GFile(gfile.join(root, 'a', 'x.txt'), 'w') as f:
        f.write('line1\nline2\n')
    with gfile.GFile(gfile.join(root, 'a', 'x.txt')) as f:
        assert f.readlines() == ['line1\n', 'line2\n']
    with gfile.GFile(gfile.join(root, 'a', 'x.txt'), 'rb') as f:
        assert f.read() == b'line1\nline2\n'
    assert gfile.exists(gfile.join(root, 'a')) and gfile.isdir(gfile.join(root, 'a', 'b'))
    assert gfile.listdir(gfile.join(root, 'a')) == ['b', 'x.txt']
    assert gfile.glob(gfile.join(root, 'a', '*.txt')) == [gfile.join(root, 'a', 'x.txt')]
    assert gfile.stat(gfile.join(root, 'a', 'x.txt')).length == 12
    gfile.copy(gfile.join(root, 'a', 'x.txt'), gfile.join(root, 'y.txt'))
    with pytest.raises(tf.errors.AlreadyExistsError):
        gfile.copy(gfile.join(root, 'a', 'x.txt'), gfile.join(root, 'y.txt'))
    gfile.rename(gfile.join(root, 'y.txt'), gfile.join(root, 'z.txt'))
    assert [w[0] for w in gfile.walk(root)] == [root, gfile.join(root, 'a'),
                                                 gfile.join(root, 'a', 'b')]
    gfile.remove(gfile.join(root, 'z.txt'))
    gfile.rmtree(gfile.join(root, 'a'))
    assert gfile.listdir(root) == []
    with pytest.raises(tf.errors.NotFoundError):
        gfile.GFile(gfile.join(root, 'missing')).read()
    with pytest.raises(tf.errors.NotFoundError):
        gfile.remove(gfile.join(root, 'missing'))


def test_base64_compression_and_matching_files(tmp_path):
    assert tf.io.encode_base64([b'hello?>', b'', b'\xff\xfe\xfd']).numpy().tolist() == \
        [b'aGVsbG8_Pg', b'', b'__79']
    assert tf.io.encode_base64([b'hello?>', b'a'], pad=True).numpy().tolist() == \
        [b'aGVsbG8_Pg==', b'YQ==']
    assert tf.io.decode_base64([b'aGVsbG8_Pg', b'YQ==', b'YQ']).numpy().tolist() == \
        [b'hello?>', b'a', b'a']
    with pytest.raises(tf.errors.InvalidArgumentError, match='Invalid character found in base64'):
        tf.io.decode_base64([b'a$b'])
    assert tf.io.decode_compressed([gzip.compress(b'abc'), gzip.compress(b'')], 'GZIP').numpy(
        ).tolist() == [b'abc', b'']
    assert tf.io.decode_compressed(zlib.compress(b'xyz'), 'ZLIB').numpy() == b'xyz'
    assert tf.io.decode_compressed(b'xyz').numpy() == b'xyz'
    for name in ('b.txt', 'a.tsv', 'c.bin'):
        (tmp_path / name).write_bytes(b'')
    assert tf.io.matching_files(str(tmp_path / '*.t*')).numpy().tolist() == \
        [str(tmp_path / 'a.tsv').encode(), str(tmp_path / 'b.txt').encode()]
