"""`tf.type_spec_from_value`: the TypeSpec describing a value (what an input signature takes)."""
from defun.core import composite
from defun.core.shapes import TensorSpec
from defun.core.tensor import convert_to_tensor
from defun.core.variable_base import is_variable
from defun.functions.trace_types import VariableSpec

__all__ = ['type_spec_from_value']


def type_spec_from_value(value):
    """A composite's (or dataset's) own spec, a VariableSpec for a Variable, else the TensorSpec
    of the value converted to a tensor; TypeError for anything else, as TF."""
    if composite.is_composite(value) or hasattr(type(value), '_type_spec'):
        return composite.spec_of(value)
    if is_variable(value):
        return VariableSpec(value.shape, value.dtype, value.trainable)
    try:
        tensor = convert_to_tensor(value)
    except (TypeError, ValueError):
        raise TypeError(f'Could not build a TypeSpec for {value!r} of unsupported type '
                        f'{type(value)}. (type_spec_from_value)') from None
    return TensorSpec(tensor.shape, tensor.dtype)
