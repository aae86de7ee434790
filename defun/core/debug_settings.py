"""tf.debugging's settings: whether tracebacks hide defun's own frames, and device-placement logging
(recorded only: every op runs on the CPU). The state lives in context.py."""
from defun.core import context

__all__ = ['enable_traceback_filtering', 'disable_traceback_filtering',
           'is_traceback_filtering_enabled', 'set_log_device_placement', 'get_log_device_placement']


def enable_traceback_filtering():
    """Tracebacks of errors from compiled functions and tapes show the user's frames only (the
    default, as TF)."""
    context.set_traceback_filtering(True)


def disable_traceback_filtering():
    """Tracebacks show defun's own frames too (for debugging defun itself)."""
    context.set_traceback_filtering(False)


def is_traceback_filtering_enabled():
    """Returns whether tracebacks hide defun's own frames (`enable_traceback_filtering`)."""
    return context.traceback_filtering_enabled()


def set_log_device_placement(enabled):
    """Recorded only: TF logs each op's device to stderr; in defun every op runs on the CPU."""
    context.set_config_value('log_device_placement', bool(enabled))


def get_log_device_placement():
    """Returns whether device placement logging is on (`set_log_device_placement`)."""
    return context.config_value('log_device_placement')
