"""`tensorflow.python.eager.context`: the eager runtime's handle, as far as Keras reaches into it.

defun runs every eager op synchronously on numpy and keeps no per-op kernel cache, so waiting for
pending ops and clearing the kernel cache have nothing to act on: they return at once, which is
what TF's do when nothing is pending or cached.
"""
from defun.core import context as _defun_context

__all__ = ['context', 'executing_eagerly', 'async_wait', 'Context', '_reset_context']


class Context:
    """The eager context (TF's `context.context()`)."""

    def executing_eagerly(self):
        return _defun_context.executing_eagerly()

    def clear_kernel_cache(self):
        """No kernel cache exists: defun calls numpy directly."""

    def async_wait(self):
        """No op is ever pending: eager ops finish before they return."""


_CONTEXT = Context()


def context():
    """The process's eager context."""
    return _CONTEXT


def executing_eagerly():
    return _defun_context.executing_eagerly()


def async_wait():
    """Returns once every pending eager op has finished (always at once in defun)."""
    _CONTEXT.async_wait()


def _reset_context():
    """Starts the eager context afresh, as TF's (for tests): device configuration (logical and
    visible devices, soft placement, device-placement logging), thread pool sizes, jit and
    optimizer options return to their defaults; process-wide flags (run_functions_eagerly, op
    determinism) stay."""
    _defun_context.reset_context_settings()
