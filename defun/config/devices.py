"""The devices defun has (the host CPU, nothing else), which of them are visible, and how the CPU
is split into logical devices (recorded and listed; computation still runs on the one CPU, and
tensors report CPU:0)."""
import collections

from defun.core import context, errors

__all__ = ['PhysicalDevice', 'LogicalDevice', 'list_physical_devices', 'list_logical_devices',
           'get_visible_devices', 'set_visible_devices', 'get_soft_device_placement',
           'set_soft_device_placement', 'LogicalDeviceConfiguration',
           'get_logical_device_configuration', 'set_logical_device_configuration']

PhysicalDevice = collections.namedtuple('PhysicalDevice', ['name', 'device_type'])
LogicalDevice = collections.namedtuple('LogicalDevice', ['name', 'device_type'])

LogicalDeviceConfiguration = collections.namedtuple(
    'LogicalDeviceConfiguration', ['memory_limit', 'experimental_priority',
                                   'experimental_device_ordinal'], defaults=(None, None, None))

_CPU = PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')


def _matching(devices, device_type):
    if device_type is None:
        return list(devices)
    return [d for d in devices if d.device_type == device_type]  # case-sensitive, as TF


def list_physical_devices(device_type=None):
    """The host CPU (defun has no accelerators): a list of PhysicalDevice, filtered by type."""
    return _matching([_CPU], device_type)


def list_logical_devices(device_type=None):
    """One CPU, or as many as set_logical_device_configuration asked for."""
    configured = context.config_value('logical_devices')
    count = 1 if configured is None else len(configured)
    if count == 0:
        raise errors.NotFoundError('No CPU devices are available in this process')
    cpus = [LogicalDevice(name=f'/device:CPU:{i}', device_type='CPU') for i in range(count)]
    return _matching(cpus, device_type)


def _known(device):
    if device not in list_physical_devices():
        raise ValueError(f'Unrecognized device: {device!r}')


def get_logical_device_configuration(device):
    """The list set for `device` (None when it was never split)."""
    _known(device)
    configured = context.config_value('logical_devices')
    return None if configured is None else list(configured)


def set_logical_device_configuration(device, logical_devices):
    """Splits the CPU into len(logical_devices) logical CPUs (listed by list_logical_devices);
    they all compute on the host CPU."""
    _known(device)
    context.set_config_value('logical_devices', list(logical_devices))


def get_visible_devices(device_type=None):
    """Returns the visible PhysicalDevices (of `device_type`, e.g. 'CPU', if given)."""
    visible = context.config_value('visible_devices')
    return _matching([_CPU] if visible is None else visible, device_type)


def set_visible_devices(devices, device_type=None):
    """Records which physical devices the program may use; computation stays on the host CPU."""
    if isinstance(devices, PhysicalDevice):
        devices = [devices]
    devices = list(devices)
    for d in devices:
        _known(d)
    current = get_visible_devices()
    if device_type is not None:
        kept = [d for d in current if d.device_type != device_type]
        devices = kept + [d for d in devices if d.device_type == device_type]
    context.set_config_value('visible_devices', devices)


def get_soft_device_placement():
    """Returns whether ops fall back to an available device when the requested one is missing."""
    return context.config_value('soft_placement')


def set_soft_device_placement(enabled):
    """Recorded only: defun always places on the CPU, whatever device was asked for."""
    context.set_config_value('soft_placement', bool(enabled))
