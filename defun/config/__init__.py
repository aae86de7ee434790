"""`tf.config`: the devices defun has (one CPU), which of them are visible, whether compiled
functions run their Python eagerly, and the `experimental` and `threading` settings.

Every setting is process-wide as in TF, and stored in `defun.core.context` (the only mutable state).
"""
from defun.core import context
from defun.config import experimental, optimizer, threading  # noqa: F401
from defun.config.devices import *  # noqa: F401,F403

__all__ = ['PhysicalDevice', 'LogicalDevice', 'list_physical_devices', 'list_logical_devices',
           'get_visible_devices', 'set_visible_devices', 'run_functions_eagerly',
           'functions_run_eagerly', 'experimental_run_functions_eagerly',
           'experimental_functions_run_eagerly', 'get_soft_device_placement',
           'set_soft_device_placement', 'experimental', 'optimizer', 'threading',
           'LogicalDeviceConfiguration', 'get_logical_device_configuration',
           'set_logical_device_configuration']


def run_functions_eagerly(run_eagerly):
    """With True, every `tf.function` runs its Python body on each call instead of a trace."""
    context.set_config_value('run_functions_eagerly', bool(run_eagerly))


def functions_run_eagerly():
    """Returns whether `tf.function`s run their Python eagerly (set by `run_functions_eagerly`)."""
    return context.functions_run_eagerly()


experimental_run_functions_eagerly = run_functions_eagerly
experimental_functions_run_eagerly = functions_run_eagerly
