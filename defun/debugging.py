"""The `tf.debugging` namespace."""
from defun import context
from defun.ops.debug import (Assert, assert_equal, assert_greater, assert_greater_equal,  # noqa: F401
                             assert_less, assert_less_equal, assert_negative, assert_non_negative,
                             assert_non_positive, assert_none_equal, assert_positive, assert_rank,
                             check_numerics)


def set_log_device_placement(enabled):
    """Recorded only: TF logs each op's device to stderr; in defun every op runs on the CPU."""
    context.set_config_value('log_device_placement', bool(enabled))


def get_log_device_placement():
    """Returns whether device placement logging is on (`set_log_device_placement`)."""
    return context.config_value('log_device_placement')
