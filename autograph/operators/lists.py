"""List operations that also work on the TensorArray-backed lists of tensor loops.

`list_append` appends in place to a Python list (returning it, so `xs = list_append(xs, v)` keeps
aliasing) and writes at the end of a TensorArray. `stack` gives a tensor from either.
"""
from defun.ops.array import joining as array_ops

from autograph.operators import tensors

__all__ = ['list_append', 'stack']  # the `ag__` names (see __init__.py)


def list_append(target, value):
    if tensors.is_tensor_array(target):
        return target.write(target.size(), value)
    target.append(value)
    return target


def stack(values, *args, **kwargs):
    """`defun.stack`, accepting a TensorArray-backed list as well."""
    if tensors.is_tensor_array(values) and not args and not kwargs.get('axis'):
        return values.stack()
    return array_ops.stack(values, *args, **kwargs)
