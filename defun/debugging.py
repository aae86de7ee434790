"""The `tf.debugging` namespace."""
from defun import context
from defun.ops.debug import Assert, check_numerics  # noqa: F401
from defun.ops.asserts import *  # noqa: F401,F403
from defun.ops.check_ops import *  # noqa: F401,F403


def set_log_device_placement(enabled):
    """Recorded only: TF logs each op's device to stderr; in defun every op runs on the CPU."""
    context.set_config_value('log_device_placement', bool(enabled))


def get_log_device_placement():
    return context.config_value('log_device_placement')
