"""OptimizerVariable: the Variables an optimizer owns (its step counter, learning rate and slots).

They are ordinary defun Variables (so tapes, compiled functions and a checkpoint writer treat them
like any other) that carry Keras 3's naming: `name` is the short name ('iteration',
'w_0_momentum') and `path` prefixes the optimizer's name ('adam/iteration'), and their repr is
Keras's.
"""
import numpy as np

from defun.core import context
from defun.state.variables import Variable

__all__ = ['OptimizerVariable', 'slot_name']


def slot_name(reference, kind):
    """Keras's name for the `kind` slot of model variable `reference` ('dense/w:0' ->
    'dense_w_0_kind')."""
    return f"{str(reference.name).replace('/', '_').replace(':', '_')}_{kind}"


class OptimizerVariable(Variable):
    """A non-trainable Variable of an optimizer, named as Keras names it."""

    def __init__(self, initial_value, name, optimizer_name, dtype=None):
        super().__init__(initial_value, trainable=False, name=name, dtype=dtype)
        self._short_name = name
        self._path = f'{optimizer_name}/{name}'

    @property
    def name(self):
        return self._short_name

    @property
    def path(self):
        return self._path

    def __bool__(self):
        raise TypeError('A Keras Variable cannot be used as a boolean.')  # as Keras 3's

    def __repr__(self):
        if context.current_graph() is not None:
            value = '<symbolic>'
        else:
            array = np.asarray(self.numpy())
            value = repr(array.item()) if array.ndim == 0 else str(array)
        return (f'<Variable path={self._path}, shape={self.shape}, dtype={self.dtype.name}, '
                f'value={value}>')

    __str__ = __repr__
