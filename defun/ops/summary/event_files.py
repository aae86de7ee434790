"""TensorBoard's event files: a TFRecord file `events.out.tfevents.<seconds>.<host>.<pid>.<n><suffix>`
of `Event` protocol buffers, the first saying `file_version: "brain.Event:2"`, then one per summary
value (wall_time, step, and a Summary.Value holding the tag, its SummaryMetadata and a TensorProto),
as TF2's summary file writer writes them.

`EventFileWriter` queues events and writes them when `max_queue` are waiting, when `flush_millis`
have passed since the last flush, on `flush()` and on `close()`.
"""
import itertools
import os
import socket
import struct
import time

from defun.ops.io import proto_wire as wire
from defun.ops.io.records import RecordWriter
from defun.ops.io.tensor_proto import encode_tensor

__all__ = ['EventFileWriter', 'summary_metadata']

_file_numbers = itertools.count()  # TF's per-process counter in event file names


def summary_metadata(plugin_name, description='', content=b''):
    """A serialized SummaryMetadata: plugin_data {plugin_name, content} and summary_description
    (no data_class: TF's files leave it unset)."""
    plugin = wire.length_delimited(1, plugin_name.encode())
    if content:
        plugin += wire.length_delimited(2, content)
    out = wire.length_delimited(1, plugin)
    if description:
        out += wire.length_delimited(3, description.encode())
    return out


def _event(wall_time, step, body):
    out = wire.tag(1, wire.FIXED64) + struct.pack('<d', wall_time)
    if step:
        out += wire.tag(2, wire.VARINT) + wire.varint(step)
    return out + body


def _summary_value(tag, metadata, array, dtype):
    value = wire.length_delimited(1, tag.encode())
    value += wire.length_delimited(8, encode_tensor(array, dtype))
    value += wire.length_delimited(9, metadata)
    return wire.length_delimited(5, wire.length_delimited(1, value))


class EventFileWriter:
    """One event file in `logdir`, created (with its directory) when opened."""

    def __init__(self, logdir, max_queue, flush_millis, filename_suffix):
        self.logdir = logdir
        self.max_queue = max_queue
        self.flush_seconds = flush_millis / 1000.0
        self.suffix = filename_suffix
        self.path = None
        self._records = None
        self._queue = []
        self._last_flush = time.time()

    def open(self):
        """Creates the file and writes its first event (idempotent while open)."""
        if self._records is not None:
            return
        os.makedirs(self.logdir, exist_ok=True)
        now = time.time()
        name = (f'events.out.tfevents.{int(now):010d}.{socket.gethostname()}.{os.getpid()}.'
                f'{next(_file_numbers)}{self.suffix}')
        self.path = os.path.join(self.logdir, name)
        self._records = RecordWriter(self.path)
        self._records.write(_event(now, 0, wire.length_delimited(3, b'brain.Event:2')))
        self._records.flush()
        self._last_flush = now

    def write(self, step, tag, metadata, array, dtype):
        """Queues the event of one summary value (the file opened first if it is not)."""
        self.open()
        now = time.time()
        self._queue.append(_event(now, int(step), _summary_value(tag, metadata, array, dtype)))
        if len(self._queue) > self.max_queue or now - self._last_flush > self.flush_seconds:
            self.flush()

    def flush(self):
        if self._records is None:
            return
        for record in self._queue:
            self._records.write(record)
        self._queue = []
        self._records.flush()
        self._last_flush = time.time()

    def close(self):
        if self._records is None:
            return
        self.flush()
        self._records.close()
        self._records = None
