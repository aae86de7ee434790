"""Devices: `tf.DeviceSpec`, TF's device-string parser, and the `tf.device` context.

defun computes everything with numpy on the CPU. `tf.device` still accepts (and validates) every
device string TF accepts and remembers the request for the block, but placement is always the
host CPU, as TF's soft placement does when the requested device does not exist. Eager tensors
therefore report TF's CPU device name wherever they were created; ops of a graph being built
record the requested device (`op.device`, '' outside any scope), as TF's graphs do.
"""
import contextlib

from defun.core import context

__all__ = ['DeviceSpec', 'device', 'CPU_DEVICE', 'parse_device']

CPU_DEVICE = '/job:localhost/replica:0/task:0/device:CPU:0'
_SHORT_TYPES = ('CPU', 'GPU')  # the types that may be written without the 'device:' prefix


class DeviceSpec:
    """A (possibly partial) device name: job, replica, task, device type and index."""

    __slots__ = ('_job', '_replica', '_task', '_device_type', '_device_index')

    def __init__(self, job=None, replica=None, task=None, device_type=None, device_index=None):
        self._job = None if job is None else str(job)
        self._replica = None if replica is None else int(replica)
        self._task = None if task is None else int(task)
        if device_type is not None:
            device_type = str(device_type)
            if device_type.upper() in _SHORT_TYPES:
                device_type = device_type.upper()
        self._device_type = device_type
        self._device_index = None if device_index is None else int(device_index)

    job = property(lambda self: self._job)
    replica = property(lambda self: self._replica)
    task = property(lambda self: self._task)
    device_type = property(lambda self: self._device_type)
    device_index = property(lambda self: self._device_index)

    @classmethod
    def from_string(cls, spec):
        return cls(**parse_device(spec))

    def to_string(self):
        parts = [f'/job:{self._job}' if self._job is not None else '',
                 f'/replica:{self._replica}' if self._replica is not None else '',
                 f'/task:{self._task}' if self._task is not None else '']
        if self._device_type is not None:
            index = '*' if self._device_index is None else self._device_index
            parts.append(f'/device:{self._device_type}:{index}')
        return ''.join(parts)

    def make_merged_spec(self, dev):
        """This spec with every field `dev` sets replaced by dev's (how nested scopes combine)."""
        fields = {'job': dev.job, 'replica': dev.replica, 'task': dev.task,
                  'device_type': dev.device_type, 'device_index': dev.device_index}
        return self.replace(**{k: v for k, v in fields.items() if v is not None})

    def replace(self, **fields):
        current = {'job': self._job, 'replica': self._replica, 'task': self._task,
                   'device_type': self._device_type, 'device_index': self._device_index}
        current.update(fields)
        return DeviceSpec(**current)

    def __eq__(self, other):
        return isinstance(other, DeviceSpec) and self.to_string() == other.to_string()

    def __hash__(self):
        return hash(self.to_string())

    def __repr__(self):
        return (f'<DeviceSpec(job={self._job}, replica={self._replica}, task={self._task}, '
                f'device_type={self._device_type}, device_index={self._device_index})>')

    __str__ = to_string


def parse_device(spec):
    """The fields of a device string ('/job:w/task:0/device:GPU:1', '/cpu:0', 'GPU', ...), or TF's
    ValueError naming the part that is not a device attribute."""
    if not isinstance(spec, str):
        raise ValueError(f'Expecting a string device name. Got {type(spec)}({spec!r})')
    fields = {}
    for part in spec.split('/'):
        pieces = part.split(':')
        head = pieces[0]
        if len(pieces) == 2 and head in ('job', 'replica', 'task'):
            fields[head] = pieces[1] if head == 'job' else _index(pieces[1], spec)
        elif len(pieces) in (1, 2) and head.upper() in _SHORT_TYPES:
            fields['device_type'] = head.upper()
            if len(pieces) == 2 and pieces[1] != '*':
                fields['device_index'] = _index(pieces[1], spec)
        elif len(pieces) == 3 and head == 'device':
            fields['device_type'] = pieces[1]
            if pieces[2] != '*':
                fields['device_index'] = _index(pieces[2], spec)
        elif head:
            raise ValueError(f"Unknown attribute '{head}' is encountered while parsing the device "
                             f"spec: '{spec}'.")
    return fields


def _index(text, spec):
    return int(text)  # Python's ValueError for a non-number, as TF's parser gives


@contextlib.contextmanager
def device(device_name):
    """Requests a device for the ops of the block (`tf.device`); they run on the CPU regardless."""
    if callable(device_name) and not isinstance(device_name, (str, DeviceSpec)):
        if context.executing_eagerly():
            raise RuntimeError('tf.device does not support functions when eager execution is '
                               'enabled.')
        name = context.requested_device()  # a graph-mode device function: placement is the CPU
    elif device_name is None:
        name = ''
    else:
        spec = device_name if isinstance(device_name, DeviceSpec) else \
            DeviceSpec.from_string(device_name)
        # A nested scope refines the enclosing one ('/job:w/GPU:1' then '/CPU:0' is
        # '/job:w/device:CPU:0'), as in TF.
        outer = context.requested_device()
        name = (DeviceSpec.from_string(outer).make_merged_spec(spec) if outer else spec).to_string()
    with context.device_scope(name):
        yield
