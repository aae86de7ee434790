"""The devices defun has (the host CPU, nothing else) and which of them are visible."""
import collections

from defun import context

__all__ = ['PhysicalDevice', 'LogicalDevice', 'list_physical_devices', 'list_logical_devices',
           'get_visible_devices', 'set_visible_devices', 'get_soft_device_placement',
           'set_soft_device_placement']

PhysicalDevice = collections.namedtuple('PhysicalDevice', ['name', 'device_type'])
LogicalDevice = collections.namedtuple('LogicalDevice', ['name', 'device_type'])

_CPU = PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')
_LOGICAL_CPU = LogicalDevice(name='/device:CPU:0', device_type='CPU')


def _matching(devices, device_type):
    if device_type is None:
        return list(devices)
    return [d for d in devices if d.device_type == device_type]  # case-sensitive, as TF


def list_physical_devices(device_type=None):
    """The host CPU (defun has no accelerators): a list of PhysicalDevice, filtered by type."""
    return _matching([_CPU], device_type)


def list_logical_devices(device_type=None):
    return _matching([_LOGICAL_CPU], device_type)


def get_visible_devices(device_type=None):
    visible = context.config_value('visible_devices')
    return _matching([_CPU] if visible is None else visible, device_type)


def set_visible_devices(devices, device_type=None):
    """Records which physical devices the program may use; computation stays on the host CPU."""
    if isinstance(devices, PhysicalDevice):
        devices = [devices]
    devices = list(devices)
    for d in devices:
        if d not in list_physical_devices():
            raise ValueError(f'Unrecognized device: {d!r}')
    current = get_visible_devices()
    if device_type is not None:
        kept = [d for d in current if d.device_type != device_type]
        devices = kept + [d for d in devices if d.device_type == device_type]
    context.set_config_value('visible_devices', devices)


def get_soft_device_placement():
    return context.config_value('soft_placement')


def set_soft_device_placement(enabled):
    """Recorded only: defun always places on the CPU, whatever device was asked for."""
    context.set_config_value('soft_placement', bool(enabled))
