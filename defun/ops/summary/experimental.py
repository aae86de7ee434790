"""tf.summary.experimental: the default step."""
from defun.core import unsupported
from defun.ops.summary.summary_ops import get_step, set_step, summary_scope  # noqa: F401

__getattr__ = unsupported.missing_names(__name__, 'tf.summary.experimental', {
    'write_raw_pb': 'raw summary protos'})
