"""What the string op tables share: converting an argument to a string tensor (TF's TypeError for
anything else) and applying a bytes -> value function to every element of an object array."""
import functools

import numpy as np

from defun.core import dtypes, error_helpers
from defun.core.tensor import Tensor
from defun.ops.ragged.ragged_tensor import is_ragged
from defun.ops.support import validation
from defun.ops.support.helpers import to_tensor

__all__ = ['string_input', 'map_elements', 'utf8_decode', 'as_array', 'scalar_bytes',
           'ragged_elementwise']


def string_input(value, op, name='input'):
    """A tf.string tensor: Python strings convert, a tensor of another dtype is the op's refusal."""
    if isinstance(value, Tensor) and value.dtype is not dtypes.string:
        raise validation.dtype_mismatch(
            f'{op}: `{name}` must be a string tensor, got {error_helpers.describe(value)}')
    return to_tensor(value, dtype=dtypes.string, name=name, op=op)


def map_elements(fn, array, dtype=object):
    """`fn` applied to each element of `array`, in an array of the same shape."""
    out = np.empty(np.shape(array), dtype=dtype)
    flat_out = out.reshape(-1)
    for i, value in enumerate(np.asarray(array, dtype=object).reshape(-1)):
        flat_out[i] = fn(value)
    return out


def utf8_decode(value, op):
    """`value` (bytes) as text, or TF's InvalidArgumentError for bytes that are not UTF-8."""
    try:
        return value.decode('utf-8')
    except UnicodeDecodeError:
        raise validation.invalid_argument(f'{op}: Invalid UTF-8 in string: {value!r}') from None


def as_array(value):
    """A kernel's input as an array: compiled code passes a string scalar as a bare bytes object
    (and a number scalar as a numpy scalar)."""
    return value if isinstance(value, np.ndarray) else np.asarray(value, dtype=(
        object if isinstance(value, bytes) else None))


def scalar_bytes(value):
    """The bytes of a string scalar input, given as a 0-d array or a bare bytes object."""
    return value if isinstance(value, bytes) else value[()]


def ragged_elementwise(fn):
    """An elementwise op's wrapper that also takes a RaggedTensor first argument, as TF's
    dispatch does: the op runs on its flat values and the result keeps its row partitions."""
    @functools.wraps(fn)
    def wrapper(x, *args, **kwargs):
        if is_ragged(x):
            return x.with_flat_values(fn(x.flat_values, *args, **kwargs))
        return fn(x, *args, **kwargs)
    return wrapper
