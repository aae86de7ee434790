"""tf.summary's writers and ops: `create_file_writer` (a SummaryWriter on an event file),
`create_noop_writer`, `write`, `scalar`, `histogram` (TensorBoard's 30-bucket layout), `text`,
`record_if`, `should_record_summaries`, `flush`, and the default step (`get_step`/`set_step`).

A summary is one stateful op, WriteSummary: its inputs are the record_if condition, the step and
the data; the writer, tag, metadata and kind are attributes, so inside a tf.function the default
writer and step at trace time are the ones used, and the event is written when (and each time) the
op runs, in program order. It returns the condition as a bool tensor, as TF's summary ops do.
"""
import contextlib
import re

import numpy as np

from defun.core import context, dtypes
from defun.core.dispatch import apply_op
from defun.core.registry import define_op
from defun.core.tensor import is_tensor
from defun.ops.framework.base_ops import cast
from defun.ops.summary.event_files import EventFileWriter, summary_metadata
from defun.ops.support.helpers import to_tensor

__all__ = ['SummaryWriter', 'create_file_writer', 'create_noop_writer', 'write', 'scalar',
           'histogram', 'text', 'record_if', 'should_record_summaries', 'flush', 'get_step',
           'set_step', 'summary_scope']

_INVALID_SCOPE_CHARACTERS = re.compile(r'[^-_/.A-Za-z0-9]')

DEFAULT_BUCKET_COUNT = 30


def _histogram_buckets(data, count):
    """TensorBoard's histogram tensor: [count, 3] float64 rows (left edge, right edge, count)."""
    data = np.asarray(data, dtype=np.float64).reshape(-1)
    count = max(0, count)
    if data.size == 0 or count == 0:
        return np.zeros((count, 3))
    low, high = data.min(), data.max()
    if high - low == 0:  # one value: every edge is it, all points in the last bucket
        counts = np.zeros(count)
        counts[-1] = data.size
        return np.stack([np.full(count, high), np.full(count, high), counts], axis=1)
    width = (high - low) / count
    index = np.minimum(np.floor((data - low) / width).astype(np.int32), count - 1)
    counts = np.bincount(index, minlength=count).astype(np.float64)
    edges = np.linspace(low, high, count + 1)
    edges[-1] = high
    return np.stack([edges[:-1], edges[1:], counts], axis=1)


def _write_kernel(condition, step, data, *, writer, tag, metadata, kind, buckets):
    if not bool(condition):
        return np.array(False)
    array = np.asarray(data)
    if kind == 'histogram':
        array, dtype = _histogram_buckets(array, buckets), dtypes.float64
    elif kind == 'scalar':
        array, dtype = array.astype(np.float32), dtypes.float32
    else:
        dtype = dtypes.string if array.dtype == object or array.dtype.kind == 'S' \
            else dtypes.as_dtype(array.dtype)
    writer.events.write(int(step), tag, metadata, array, dtype)
    return np.array(True)


WRITE_SUMMARY = define_op('WriteSummary', _write_kernel, lambda *inputs, **attrs: (dtypes.bool, ()),
                          None, stateful=True, inputs=(), attrs=())  # the writer is an attribute


def _flush_kernel(*, writer):
    writer.events.flush()
    return ()


FLUSH_WRITER = define_op('FlushSummaryWriter', _flush_kernel, lambda **attrs: [], None,
                         num_outputs=0, stateful=True, inputs=(), attrs=())


class SummaryWriter:
    """A writer of summaries to one event file; `as_default()` makes it the one summaries use."""

    def __init__(self, events):
        self.events = events
        self._closed = False

    def _check_open(self):
        if self._closed:
            raise RuntimeError('SummaryWriter is already closed')

    def set_as_default(self, step=None):
        """Makes this the default writer (and `step` the default step, if given) for good."""
        self._check_open()
        settings = context.summary_settings()
        settings.summary_writer = self
        if step is not None:
            settings.summary_step = step

    @contextlib.contextmanager
    def as_default(self, step=None):
        """The default writer (and step, if given) inside the block; flushed on leaving it."""
        self._check_open()
        changes = {'writer': self} if step is None else {'writer': self, 'step': step}
        try:
            with context.summary_defaults(**changes):
                yield self
        finally:
            self.flush()

    def init(self):
        """Creates the event file (done by the first summary otherwise)."""
        self._check_open()
        if self.events is not None:
            self.events.open()

    def flush(self):
        """Writes the queued events to the file."""
        if self.events is None or self._closed:
            return None
        return apply_op(FLUSH_WRITER, (), {'writer': self}, None)

    def close(self):
        """Flushes and closes the file; the writer cannot be used after."""
        if self.events is not None and not self._closed:
            self.events.close()
        self._closed = True


def create_file_writer(logdir, max_queue=None, flush_millis=None, filename_suffix=None,
                       name=None, experimental_trackable=False, experimental_mesh=None):
    """A SummaryWriter on a new event file in `logdir` (created, with the directory, now)."""
    if logdir is None:
        raise ValueError('Argument `logdir` cannot be None')
    logdir = logdir.decode() if isinstance(logdir, bytes) else str(
        logdir.numpy().decode() if is_tensor(logdir) else logdir)
    events = EventFileWriter(logdir, 10 if max_queue is None else int(max_queue),
                             120000 if flush_millis is None else int(flush_millis),
                             '.v2' if filename_suffix is None else str(filename_suffix))
    writer = SummaryWriter(events)
    with context.init_scope():
        writer.init()
    return writer


def create_noop_writer():
    """A SummaryWriter that writes nothing (summaries under it return False)."""
    return SummaryWriter(None)


@contextlib.contextmanager
def record_if(condition):
    """Summaries inside the block are written only when `condition` (a bool, a bool tensor, or a
    callable returning one, called at each summary) holds."""
    with context.summary_defaults(recording=condition):
        yield


def _condition():
    condition = context.summary_settings().summary_recording
    return condition() if callable(condition) else condition


def should_record_summaries():
    """Whether summaries would be written here: a default writer exists and record_if holds."""
    writer = context.summary_settings().summary_writer
    if writer is None or writer.events is None:
        return to_tensor(False)
    return cast(to_tensor(_condition(), op='should_record_summaries'), dtypes.bool)


def get_step():
    """The default step (set by set_step or a writer's as_default), or None."""
    return context.summary_settings().summary_step


def set_step(step):
    """Sets the default step for summaries (an int, tensor or Variable, read when used)."""
    context.summary_settings().summary_step = step


def flush(writer=None, name=None):
    """Flushes `writer` (the default writer when None)."""
    writer = writer if writer is not None else context.summary_settings().summary_writer
    return None if writer is None else writer.flush()


@contextlib.contextmanager
def summary_scope(name, default_name=None, values=None):
    """Yields (tag, scope) for a summary op: the tag is `name` under the current name scope, the
    scope a new name scope named by `name` cleaned of characters scopes refuse."""
    name = name or default_name
    tag = _tag(name)
    with context.name_scope(_INVALID_SCOPE_CHARACTERS.sub('', name) or default_name) as scope:
        yield tag, scope


def _tag(name):
    return context.current_frame().scope + name


def _write(tag, data, step, metadata, kind, buckets=0, name=None):
    writer = context.summary_settings().summary_writer
    if writer is None or writer.events is None:
        return to_tensor(False)
    step = get_step() if step is None else step
    if step is None:
        raise ValueError('No step set. Please specify one either through the `step` argument '
                         'or through tf.summary.experimental.set_step()')
    inputs = (cast(to_tensor(_condition(), op='write'), dtypes.bool),
              cast(to_tensor(step, op='write'), dtypes.int64), data)
    attrs = {'writer': writer, 'tag': tag, 'metadata': metadata, 'kind': kind,
             'buckets': int(buckets)}
    return apply_op(WRITE_SUMMARY, inputs, attrs, name)


def write(tag, tensor, step=None, metadata=None, name=None):
    """Writes `tensor` under `tag` with serialized SummaryMetadata `metadata` (bytes)."""
    metadata = metadata.SerializeToString() if hasattr(metadata, 'SerializeToString') else \
        (metadata or b'')
    tensor = tensor() if callable(tensor) else tensor
    return _write(str(tag), to_tensor(tensor, op='write'), step, bytes(metadata), 'tensor', 0,
                  name)


def scalar(name, data, step=None, description=None):
    """Writes the scalar `data` (as float32) under `name`, TensorBoard's scalars plugin."""
    data = to_tensor(data, op='scalar')
    if data.shape.rank is not None and data.shape.rank != 0:
        raise ValueError(f'Expected scalar shape for {name}, saw shape: {data.shape}.')
    metadata = summary_metadata('scalars', description or '')
    return _write(_tag(name), data, step, metadata, 'scalar')


def histogram(name, data, step=None, buckets=None, description=None):
    """Writes a histogram of `data` (`buckets`, 30 by default, equal-width buckets over its range)
    under `name`, TensorBoard's histograms plugin."""
    data = to_tensor(data, op='histogram')
    metadata = summary_metadata('histograms', description or '')
    count = DEFAULT_BUCKET_COUNT if buckets is None else buckets
    return _write(_tag(name), data, step, metadata, 'histogram', count)


def text(name, data, step=None, description=None):
    """Writes the string tensor `data` under `name`, TensorBoard's text plugin."""
    data = to_tensor(data, op='text')
    if data.dtype is not dtypes.string:
        raise ValueError(f'Tensor type must be string, got {data.dtype.name}')
    metadata = summary_metadata('text', description or '')
    return _write(_tag(name), data, step, metadata, 'text')
