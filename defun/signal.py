"""The `tf.signal` namespace: re-exports only (framing; the transforms are not part of defun)."""
from defun.core import unsupported
from defun.ops.signal.framing import frame  # noqa: F401

__getattr__ = unsupported.missing_names(__name__, 'tf.signal')
