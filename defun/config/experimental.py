"""`tf.config.experimental`: op determinism and the device queries TF also keeps here."""
from defun.core import context
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
           'set_virtual_device_configuration', 'get_device_details',
           'enable_tensor_float_32_execution', 'tensor_float_32_execution_enabled']


def enable_op_determinism():
    """numpy kernels are deterministic already; as in TF, random ops then need a seed."""
    context.set_config_value('op_determinism', True)


def get_memory_growth(device):
    raise ValueError('Cannot get memory growth on non-GPU and non-Pluggable devices')


def set_memory_growth(device, enable):
    raise ValueError('Cannot set memory growth on non-GPU and non-Pluggable devices')


def get_device_details(device):
    """TF's details of a physical device: none for the CPU."""
    if device not in list_physical_devices():
        raise ValueError(f'Unrecognized device: {device!r}')
    return {}


def enable_tensor_float_32_execution(enabled):
    """Recorded: TensorFloat-32 is a GPU matmul mode; numpy's float32 matmuls are full precision."""
    context.set_config_value('tensor_float_32', bool(enabled))


def tensor_float_32_execution_enabled():
    return context.config_value('tensor_float_32')
