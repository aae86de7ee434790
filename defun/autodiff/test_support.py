"""What tf.test offers besides TF's unittest framework: what a program asks about the build (no
CUDA, ROCm, GPU or XLA here: defun runs numpy on the CPU) and `compute_gradient`, the theoretical
and numeric jacobians of a function.
"""
import platform

import numpy as np

from defun.core import nest
from defun.autodiff.tape import GradientTape
from defun.core.tensor import convert_to_tensor

__all__ = ['is_built_with_cuda', 'is_built_with_rocm', 'is_built_with_gpu_support',
           'is_built_with_xla', 'is_gpu_available', 'gpu_device_name', 'compute_gradient',
           'is_cpu_target_available']


def is_built_with_cuda():
    return False


def is_built_with_rocm():
    return False


def is_built_with_gpu_support():
    return False


def is_built_with_xla():
    return False  # jit_compile is accepted and ignored: there is no XLA


def is_gpu_available(cuda_only=False, min_cuda_compute_capability=None):
    return False


def gpu_device_name():
    return ''


# TF's CPU target families (the prefixes its check accepts) and the machine names of each
_CPU_TARGETS = {'arm': ('arm',), 'aarch64': ('aarch64', 'arm64'), 'ppc': ('ppc', 'powerpc'),
                'powerpc': ('ppc', 'powerpc'), 'x86': ('x86', 'amd64', 'i386', 'i686'),
                's390x': ('s390x',)}


def is_cpu_target_available(target):
    """Whether code can be compiled for CPU `target` (jit_compile compiles for this machine
    only, so: whether `target` is this machine's family). Unknown targets fail as in TF."""
    family = next((f for f in _CPU_TARGETS if target.startswith(f)), None)
    assert family is not None, 'Unknown CPU target: ' + target
    machine = platform.machine().lower()
    return machine.startswith(_CPU_TARGETS[family])


def compute_gradient(f, x, delta=None):
    """(theoretical, numeric): per argument of `f` a 2-d array of y_size rows and x_size columns,
    from the tape and from central differences of step `delta` (1/1024 by default)."""
    if not isinstance(x, (list, tuple)):
        raise ValueError(f'`x` must be a list or tuple of tensors, got {type(x).__name__}')
    xs = [convert_to_tensor(v) for v in x]
    for i, v in enumerate(xs):
        if not (v.dtype.is_floating or v.dtype.is_complex):
            raise TypeError(f'Cannot compute gradient for unsupported type {v.dtype.name} of '
                            f'argument {i}')
    delta = 1.0 / 1024 if delta is None else delta
    theoretical = tuple(_tape_jacobian(f, xs, i) for i in range(len(xs)))
    numeric = tuple(_numeric_jacobian(f, xs, i, delta) for i in range(len(xs)))
    return theoretical, numeric


def _output(f, xs):
    y = convert_to_tensor(f(*xs))
    if len(nest.flatten(y)) != 1:
        raise ValueError('compute_gradient needs `f` to return one tensor')
    return y


def _tape_jacobian(f, xs, i):
    with GradientTape() as tape:
        tape.watch(xs[i])
        y = _output(f, xs)
    jac = tape.jacobian(y, xs[i], unconnected_gradients='zero')
    return np.reshape(jac.numpy(), (int(np.prod(y.shape.as_list())), -1))


def _numeric_jacobian(f, xs, i, delta):
    base = np.array(xs[i].numpy())
    columns = []
    for k in range(base.size):
        moved = []
        for sign in (1, -1):
            probe = base.copy()
            probe.reshape(-1)[k] += sign * delta
            args = xs[:i] + [convert_to_tensor(probe)] + xs[i + 1:]
            moved.append(_output(f, args).numpy().reshape(-1))
        scale = np.asarray(2 * delta, dtype=moved[0].dtype)
        columns.append((moved[0] - moved[1]) / scale)
    y_size = columns[0].size if columns else int(np.prod(_output(f, xs).shape.as_list()))
    return np.stack(columns, axis=1) if columns else np.zeros((y_size, 0), base.dtype)
