"""The `tf.summary` namespace: event files for TensorBoard (defun/ops/summary/)."""
from defun.core import unsupported
from defun.ops.summary import experimental  # noqa: F401
from defun.ops.summary.summary_ops import (SummaryWriter, create_file_writer,  # noqa: F401
                                           create_noop_writer, flush, histogram, record_if, scalar,
                                           should_record_summaries, text, write)

__getattr__ = unsupported.missing_names(__name__, 'tf.summary', {
    'image': 'image summaries', 'audio': 'audio summaries', 'graph': 'graph summaries',
    'trace_on': 'graph and profiler traces', 'trace_export': 'graph and profiler traces',
    'trace_off': 'graph and profiler traces'})
