"""VariableBase, `is_variable` and `read_variable`: the one answer to "is this a Variable?" for
every layer, and the one way to read one.

Variables are defined in defun/state/variables.py, above the layers that must recognise them (tapes
record reads through their handles, tracing captures them by reference, control flow and tf.data
read their values, folding must not fold them). Those layers import this module, never the state
layer. Every defun Variable derives from VariableBase. As in TF (`is_resource_variable`), a class of
another library that wraps one, such as Keras 3's variables, says so with the class attribute
`_should_act_as_resource_variable`; it exposes the wrapped variable's `handle` and converts to a
tensor through `__tf_tensor__`.
"""

__all__ = ['VariableBase', 'is_variable', 'read_variable']


class VariableBase:
    """The base of every defun Variable: mutable state of one dtype and shape, held behind a
    resource tensor `handle`, read with `read_value()` and changed with `assign()` and its kin.
    The lower layers rely on exactly these names."""

    __slots__ = ()


def is_variable(value):
    """Whether `value` is a Variable: one of defun's (tf.Variable, an optimizer's slot, a restored
    or argument variable) or a wrapper that acts as one (TF's rule)."""
    return isinstance(value, VariableBase) or hasattr(value, '_should_act_as_resource_variable')


def read_variable(variable):
    """The current value of a Variable (`is_variable`) as a tensor."""
    if isinstance(variable, VariableBase):
        return variable.read_value()
    return variable.__tf_tensor__()
