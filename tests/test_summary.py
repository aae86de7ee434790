"""tf.summary: event files read back field by field, compared with what TF 2.21 (with tensorboard
2.21) wrote for the same calls (values recorded from TF, read with summary_iterator)."""
import glob
import os
import struct

import numpy as np
import pytest

import defun as tf
from defun.core.unsupported import NotInDefunError
from defun.ops.io import proto_wire as wire
from defun.ops.io.records import read_records
from defun.ops.io.tensor_proto import decode_tensor


def _message(data):
    out = {}
    for number, _, value in wire.fields(data):
        out.setdefault(number, []).append(value)
    return out


def _events(logdir):
    """(file_version or None, step, tag, plugin name, tensor) per event of the one event file."""
    paths = glob.glob(os.path.join(logdir, 'events.out.tfevents.*'))
    assert len(paths) == 1
    rows = []
    with open(paths[0], 'rb') as handle:
        for record in read_records(handle, '', paths[0]):
            event = _message(record)
            struct.unpack('<d', event[1][0].to_bytes(8, 'little'))  # wall_time is a double
            step = event.get(2, [0])[0]
            if 3 in event:
                rows.append(('version', event[3][0]))
                continue
            value = _message(_message(event[5][0])[1][0])
            plugin = _message(_message(value[9][0])[1][0])[1][0]
            rows.append((step, value[1][0].decode(), plugin.decode(),
                         decode_tensor(value[8][0])[1]))
    return rows


def test_eager_and_function_summaries_match_tf(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))
    assert os.path.basename(glob.glob(str(tmp_path / '*'))[0]).endswith('.v2')
    with writer.as_default(step=3):
        assert bool(tf.summary.scalar('loss', 0.5))
        with tf.name_scope('grp'):
            tf.summary.histogram('h', np.arange(10.0) ** 2)
        tf.summary.text('t', 'hello')

    @tf.function
    def f(x):
        with writer.as_default():
            tf.summary.scalar('in_fn', x * 2, step=7)
            return tf.summary.histogram('hf', [1.0, 1.0, 1.0], step=8, buckets=4)

    assert f(tf.constant(2.0)).dtype == tf.bool
    writer.close()
    rows = _events(str(tmp_path))
    assert rows[0] == ('version', b'brain.Event:2')
    assert [r[:3] for r in rows[1:]] == [
        (3, 'loss', 'scalars'), (3, 'grp/h', 'histograms'), (3, 't', 'text'),
        (7, 'in_fn', 'scalars'), (8, 'hf', 'histograms')]
    assert rows[1][3].dtype == np.float32 and rows[1][3] == 0.5
    hist = rows[2][3]
    assert hist.dtype == np.float64 and hist.shape == (30, 3)
    # TF's buckets: edges k * 2.7 over [0, 81], counts of the ten squares
    counts = [2, 1, 0, 1, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0,
              0, 1]
    np.testing.assert_array_equal(hist[:, 2], counts)
    assert hist[2].tolist() == [5.4, 8.100000000000001, 0.0]
    assert hist[-1].tolist() == [78.30000000000001, 81.0, 1.0]
    assert rows[3][3] == b'hello'
    assert rows[4][3] == 4.0
    assert rows[5][3].tolist() == [[1.0, 1.0, 0.0]] * 3 + [[1.0, 1.0, 3.0]]


def test_record_if_and_no_writer(tmp_path):
    assert not bool(tf.summary.scalar('x', 1.0, step=0))  # no default writer: False, as TF
    assert not bool(tf.summary.should_record_summaries())
    writer = tf.summary.create_file_writer(str(tmp_path), filename_suffix='.run')
    with writer.as_default():
        with pytest.raises(ValueError, match='No step set'):
            tf.summary.scalar('x', 1.0)
        with tf.summary.record_if(False):
            assert not bool(tf.summary.scalar('skipped', 1.0, step=1))
            assert not bool(tf.summary.should_record_summaries())
        tf.summary.experimental.set_step(5)
        try:
            assert tf.summary.experimental.get_step() == 5
            with tf.summary.record_if(lambda: tf.summary.experimental.get_step() % 5 == 0):
                assert bool(tf.summary.scalar('kept', 2.0))
        finally:
            tf.summary.experimental.set_step(None)
    writer.close()
    with pytest.raises(RuntimeError, match='already closed'):
        writer.set_as_default()
    rows = _events(str(tmp_path))
    assert [r[:3] for r in rows[1:]] == [(5, 'kept', 'scalars')]
    assert glob.glob(str(tmp_path / '*'))[0].endswith('.run')


def test_noop_writer_and_missing_names():
    with tf.summary.create_noop_writer().as_default(step=1):
        assert not bool(tf.summary.scalar('x', 1.0))
    with pytest.raises(ValueError, match='logdir'):
        tf.summary.create_file_writer(None)
    with pytest.raises(ValueError, match='scalar shape'):
        tf.summary.scalar('x', [1.0, 2.0], step=0)
    with pytest.raises(NotInDefunError, match='trace_export'):
        tf.summary.trace_export  # noqa: B018


def test_write_with_metadata_and_summary_scope(tmp_path):
    # What Keras's TensorBoard callback does for its model summary; TF wrote tag 'keras',
    # plugin 'graph_keras_model', content b'1' and the string tensor.
    metadata = tf.compat.v1.SummaryMetadata()
    metadata.plugin_data.plugin_name = 'graph_keras_model'
    metadata.plugin_data.content = b'1'
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default():
        with tf.summary.experimental.summary_scope('keras', 'graph_keras_model') as (tag, scope):
            assert (tag, scope) == ('keras', 'keras/')
            assert bool(tf.summary.write(tag, '{"a": 1}', step=0, metadata=metadata))
    writer.close()
    rows = _events(str(tmp_path))
    assert rows[1][:3] == (0, 'keras', 'graph_keras_model') and rows[1][3] == b'{"a": 1}'
    parsed = tf.compat.v1.SummaryMetadata.FromString(metadata.SerializeToString())
    assert (parsed.plugin_data.plugin_name, parsed.plugin_data.content) == ('graph_keras_model',
                                                                           b'1')
