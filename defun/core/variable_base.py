"""VariableBase and `is_variable`: the one answer to "is this a Variable?" for every layer.

Variables are defined in defun/state/variables.py, above the layers that must recognise them (tapes
record reads through their handles, tracing captures them by reference, control flow and tf.data
read their values, folding must not fold them). Those layers import this module, never the state
layer: every defun Variable derives from VariableBase, which states what they may rely on.
"""

__all__ = ['VariableBase', 'is_variable']


class VariableBase:
    """The base of every defun Variable: mutable state of one dtype and shape, held behind a
    resource tensor `handle`, read with `read_value()` and changed with `assign()` and its kin.
    The lower layers rely on exactly these names."""

    __slots__ = ()


def is_variable(value):
    """Whether `value` is a Variable (of any kind: tf.Variable, an optimizer's slot, a restored
    or argument variable)."""
    return isinstance(value, VariableBase)
