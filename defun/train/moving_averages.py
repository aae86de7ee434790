"""`tf.train.ExponentialMovingAverage`: shadow Variables that follow others with a decay.

`apply(var_list)` creates one shadow per Variable on first use (a copy of its value, not
trainable, named `<variable>/ExponentialMovingAverage` as in TF) and then moves each shadow toward
its Variable: `shadow -= (shadow - value) * (1 - decay)`, where with `num_updates` the decay is
`min(decay, (1 + num_updates) / (10 + num_updates))`. The shadows are keyed by the Variable's
`ref()`, held by this object only.
"""
from defun.core import context, errors
from defun.ops.math.arithmetic import minimum
from defun.ops.framework.base_ops import cast
from defun.state.variables import Variable

__all__ = ['ExponentialMovingAverage']


class ExponentialMovingAverage:
    """Maintains moving averages of Variables (and returns them with `average`)."""

    def __init__(self, decay, num_updates=None, zero_debias=False,
                 name='ExponentialMovingAverage'):
        if zero_debias:
            raise errors.UnimplementedError('ExponentialMovingAverage(zero_debias=True) is not '
                                            'supported by defun.')
        self._decay = decay
        self._num_updates = num_updates
        self._name = name
        self._averages = {}

    @property
    def name(self):
        return self._name

    def average_name(self, var):
        """The name the shadow of `var` has (or would have)."""
        return f'{var.name.split(":")[0]}/{self._name}'

    def average(self, var):
        """The shadow Variable of `var`, or None if `apply` has not seen it."""
        return self._averages.get(var.ref())

    def _decay_value(self, dtype):
        decay = cast(self._decay, dtype)
        if self._num_updates is None:
            return decay
        n = cast(self._num_updates, dtype)
        return minimum(decay, (1.0 + n) / (10.0 + n))

    def apply(self, var_list=None):
        """Creates the missing shadows, then moves every shadow toward its Variable."""
        var_list = list(var_list or ())
        for var in var_list:
            if not isinstance(var, Variable) or not var.dtype.is_floating:
                raise TypeError(f'The variables must be half, float, or double: {var!r}')
        for var in var_list:
            if var.ref() not in self._averages:
                with context.init_scope():
                    self._averages[var.ref()] = Variable(
                        var.numpy(), trainable=False, name=self.average_name(var))
        for var in var_list:
            shadow = self._averages[var.ref()]
            decay = self._decay_value(var.dtype)
            shadow.assign_sub((shadow - var) * (1.0 - decay))
        return None
