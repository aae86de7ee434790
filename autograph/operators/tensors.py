"""How the runtime operators tell tensors from Python values, and shared tensor helpers.

A construct goes to a graph op only when its condition (or iterable) is a tensor *and* a graph is
being built; with eager tensors and with Python values everything runs as plain Python, which gives
the same results.
"""
import numbers

import numpy as np

from defun.core import context
from defun import control_flow as cf
from defun.core import nest
from defun.core import tensor as tensor_types
from defun.ops.array import creation


def is_tensor(value):
    """A dense tensor (or Variable): what the runtime operators stage as one value. Sparse and
    ragged values, which `tf.is_tensor` counts too, keep their own paths (a RaggedTensor's rows
    are iterated as an indexed iterable)."""
    return tensor_types.is_dense_tensor(value)


def is_tensor_array(value):
    return isinstance(value, cf.TensorArray)


def building_graph():
    return not context.executing_eagerly()


def is_range_tensor(value):
    """True for a symbolic tensor that `tf.range` made (its op is the Range op)."""
    op = getattr(value, 'op', None)
    return is_graph_tensor(value) and getattr(op, 'opdef', None) is creation.RANGE


def is_graph_tensor(value):
    """True for a symbolic tensor (or TensorArray) of a graph under construction."""
    return (is_tensor(value) or is_tensor_array(value)) and building_graph()


def is_python_scalar(value):
    return (isinstance(value, (bool, numbers.Number, np.generic, np.ndarray))
            and not is_tensor(value))


def to_tensor_leaves(structure):
    """Converts Python numbers (and numpy values) in a nested structure to tensors."""
    def convert(leaf):
        return creation.constant(leaf) if is_python_scalar(leaf) else leaf
    return nest.map_structure(convert, structure)


def shape_dims(shape):
    """A shape as a list of ints/None, or None when even the rank is unknown."""
    if shape is None:
        return None
    rank = getattr(shape, 'rank', None) if hasattr(shape, 'rank') else len(shape)
    if rank is None:
        return None
    return list(shape.as_list()) if hasattr(shape, 'as_list') else list(shape)


def is_subshape(shape, general):
    """True when `shape` is at least as specific as `general` (None dims of `general` match any)."""
    dims, general_dims = shape_dims(shape), shape_dims(general)
    if general_dims is None:
        return True
    if dims is None or len(dims) != len(general_dims):
        return False
    return all(g is None or d == g for d, g in zip(dims, general_dims))


def zeros_like_value(value):
    """A zero of the same type: a tensor of `value`'s dtype and static shape (None dims as 0), or
    the zero of a Python scalar's type. Returns (zero, shape invariant or None)."""
    if is_python_scalar(value):
        return creation.constant(type(value)()), None
    dims = shape_dims(value.shape)
    if dims is None:
        # Unknown rank: a scalar zero, with an invariant that allows any shape (as TF).
        return creation.zeros([], dtype=value.dtype), value.shape
    zeros = creation.zeros([0 if d is None else d for d in dims], dtype=value.dtype)
    return zeros, (value.shape if None in dims else None)


def zeros_like_structure(value):
    """`zeros_like_value` over a nested structure (e.g. a returned tuple): (zeros, shape invariants
    or None), or None when a leaf is not a tensor or Python number."""
    leaves = nest.flatten(value)
    if not leaves or not all(is_tensor(v) or is_python_scalar(v) for v in leaves):
        return None
    try:
        pairs = [zeros_like_value(v) for v in leaves]
    except ValueError:
        return None
    zeros = nest.pack_sequence_as(value, [z for z, _ in pairs])
    if all(i is None for _, i in pairs):
        return zeros, None
    return zeros, nest.pack_sequence_as(value, [i for _, i in pairs])
