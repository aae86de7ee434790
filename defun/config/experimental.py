"""`tf.config.experimental`: op determinism and the device queries TF also keeps here."""
from defun import context
from defun.config.devices import (list_physical_devices, list_logical_devices,  # noqa: F401
                                  get_visible_devices, set_visible_devices,
                                  LogicalDeviceConfiguration as VirtualDeviceConfiguration,
                                  get_logical_device_configuration as
                                  get_virtual_device_configuration,
                                  set_logical_device_configuration as
                                  set_virtual_device_configuration)

__all__ = ['enable_op_determinism', 'list_physical_devices', 'list_logical_devices',
           'get_visible_devices', 'set_visible_devices', 'get_memory_growth', 'set_memory_growth',
           'VirtualDeviceConfiguration', 'get_virtual_device_configuration',
           'set_virtual_device_configuration']


def enable_op_determinism():
    """numpy kernels are deterministic already; as in TF, random ops then need a seed."""
    context.set_config_value('op_determinism', True)


def get_memory_growth(device):
    raise ValueError('Cannot get memory growth on non-GPU and non-Pluggable devices')


def set_memory_growth(device, enable):
    raise ValueError('Cannot set memory growth on non-GPU and non-Pluggable devices')
