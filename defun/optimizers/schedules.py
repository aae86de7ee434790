"""`tf.keras.optimizers.schedules`: learning rates as functions of the optimizer's step, computed
in the dtype of the initial learning rate as Keras 3 computes them (formulas in each class).
"""
import math

from defun.core import unsupported
from defun.ops.math.arithmetic import minimum
from defun.ops.framework.base_ops import cast
from defun.ops.math.elementary import ceil, cos, floor, log, pow as power
from defun.ops.math.logic import equal, greater, less_equal, logical_and, where
from defun.graphs.scopes import name_scope
from defun.core.tensor import convert_to_tensor

__all__ = ['LearningRateSchedule', 'ExponentialDecay', 'PiecewiseConstantDecay', 'CosineDecay',
           'InverseTimeDecay', 'PolynomialDecay', 'CosineDecayRestarts']


class LearningRateSchedule:
    """Base class: a schedule is called with the step (a scalar integer tensor)."""

    def __call__(self, step):
        raise NotImplementedError(f"Learning rate schedule '{type(self).__name__}' must "
                                  'override `__call__(self, step)`.')

    def get_config(self):
        raise NotImplementedError(f"Learning rate schedule '{type(self).__name__}' must "
                                  'override `get_config()` in order to be serializable.')

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def _positive_steps(decay_steps):
    if decay_steps <= 0:
        raise ValueError(f'Argument `decay_steps` must be > 0. Received: decay_steps={decay_steps}')
    return decay_steps


class _RateDecay(LearningRateSchedule):
    """The decays of an initial rate by `decay_rate` over `step / decay_steps` (floored when
    staircase): subclasses give the formula in `_decay`."""

    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase, name):
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.decay_rate = decay_rate
        self.staircase = staircase
        self.name = name

    def __call__(self, step):
        with name_scope(self.name):
            initial = convert_to_tensor(self.initial_learning_rate)
            dtype = initial.dtype
            p = cast(step, dtype) / cast(self.decay_steps, dtype)
            if self.staircase:
                p = floor(p)
            return self._decay(initial, cast(self.decay_rate, dtype), p)

    def get_config(self):
        return {'initial_learning_rate': self.initial_learning_rate,
                'decay_steps': self.decay_steps, 'decay_rate': self.decay_rate,
                'staircase': self.staircase, 'name': self.name}


class ExponentialDecay(_RateDecay):
    """initial * decay_rate ** (step / decay_steps) (the exponent floored when staircase)."""

    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase=False,
                 name='ExponentialDecay'):
        super().__init__(initial_learning_rate, _positive_steps(decay_steps), decay_rate,
                         staircase, name)

    @staticmethod
    def _decay(initial, rate, p):
        return initial * power(rate, p)


class InverseTimeDecay(_RateDecay):
    """initial / (1 + decay_rate * step / decay_steps) (the ratio floored when staircase)."""

    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase=False,
                 name='InverseTimeDecay'):
        super().__init__(initial_learning_rate, decay_steps, decay_rate, staircase, name)

    @staticmethod
    def _decay(initial, rate, p):
        return initial / (1 + rate * p)


class PiecewiseConstantDecay(LearningRateSchedule):
    """values[0] while step <= boundaries[0], values[i] for boundaries[i-1] < step <=
    boundaries[i], values[-1] after the last boundary."""

    def __init__(self, boundaries, values, name='PiecewiseConstant'):
        if len(boundaries) != len(values) - 1:
            raise ValueError(
                'The length of boundaries should be 1 less than the length of values. Received: '
                f'boundaries={boundaries} of length {len(boundaries)}, and values={values} of '
                f'length {len(values)}.')
        self.boundaries = boundaries
        self.values = values
        self.name = name

    def __call__(self, step):
        with name_scope(self.name):
            step = convert_to_tensor(step)
            bounds = [cast(convert_to_tensor(b), step.dtype) for b in self.boundaries]
            values = [convert_to_tensor(v) for v in self.values]
            dtype = values[0].dtype
            # A sum of indicator * value: exactly one indicator is 1 for any step.
            result = cast(less_equal(step, bounds[0]), dtype) * values[0]
            result += cast(greater(step, bounds[-1]), dtype) * values[-1]
            for low, high, value in zip(bounds[:-1], bounds[1:], values[1:-1]):
                inside = logical_and(greater(step, low), less_equal(step, high))
                result += cast(inside, dtype) * value
            return result

    def get_config(self):
        return {'boundaries': self.boundaries, 'values': self.values, 'name': self.name}


class CosineDecay(LearningRateSchedule):
    """Cosine decay from the initial rate (after an optional linear warmup to warmup_target) to
    alpha times it over decay_steps: lr * ((1 - alpha) * 0.5 (1 + cos(pi * s / decay_steps)) +
    alpha), with s clipped at decay_steps."""

    def __init__(self, initial_learning_rate, decay_steps, alpha=0.0, name='CosineDecay',
                 warmup_target=None, warmup_steps=0):
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = _positive_steps(decay_steps)
        self.alpha = alpha
        self.name = name
        self.warmup_target = warmup_target
        self.warmup_steps = warmup_steps

    def _decay(self, step, decay_steps, start, dtype):
        fraction = step / decay_steps
        cosine = 0.5 * (1.0 + cos(cast(math.pi, dtype) * fraction))
        return start * ((1 - self.alpha) * cosine + self.alpha)

    def __call__(self, step):
        with name_scope(self.name):
            initial = convert_to_tensor(self.initial_learning_rate)
            dtype = initial.dtype
            decay_steps = cast(self.decay_steps, dtype)
            step = cast(step, dtype)
            if self.warmup_target is None:
                return self._decay(minimum(step, decay_steps), decay_steps, initial, dtype)
            target = cast(self.warmup_target, dtype)
            warmup_steps = cast(self.warmup_steps, dtype)
            step = minimum(step, decay_steps + warmup_steps)
            warm = (target - initial) * (step / warmup_steps) + initial
            decayed = self._decay(step - warmup_steps, decay_steps, target, dtype)
            # Both branches are cheap scalars, so a select replaces Keras's cond.
            return where(step < warmup_steps, warm, decayed)

    def get_config(self):
        return {'initial_learning_rate': self.initial_learning_rate,
                'decay_steps': self.decay_steps, 'alpha': self.alpha, 'name': self.name,
                'warmup_target': self.warmup_target, 'warmup_steps': self.warmup_steps}


class PolynomialDecay(LearningRateSchedule):
    """(initial - end) * (1 - s / decay_steps) ** power + end, with s = min(step, decay_steps);
    with cycle, decay_steps is stretched to the next multiple of itself past the step instead."""

    def __init__(self, initial_learning_rate, decay_steps, end_learning_rate=0.0001, power=1.0,
                 cycle=False, name='PolynomialDecay'):
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = _positive_steps(decay_steps)
        self.end_learning_rate = end_learning_rate
        self.power = power
        self.cycle = cycle
        self.name = name

    def __call__(self, step):
        with name_scope(self.name):
            initial = convert_to_tensor(self.initial_learning_rate)
            dtype = initial.dtype
            end = cast(self.end_learning_rate, dtype)
            step = cast(step, dtype)
            decay_steps = cast(self.decay_steps, dtype)
            if self.cycle:
                multiplier = where(equal(step, 0), cast(1.0, dtype),
                                   ceil(step / self.decay_steps))
                decay_steps = decay_steps * multiplier
            else:
                step = minimum(step, decay_steps)
            p = step / decay_steps
            return (initial - end) * power(1 - p, cast(self.power, dtype)) + end

    def get_config(self):
        return {'initial_learning_rate': self.initial_learning_rate,
                'decay_steps': self.decay_steps, 'end_learning_rate': self.end_learning_rate,
                'power': self.power, 'cycle': self.cycle, 'name': self.name}


class CosineDecayRestarts(LearningRateSchedule):
    """Cosine decay with warm restarts (SGDR, Loshchilov & Hutter): the i-th period lasts
    first_decay_steps * t_mul**i steps and starts from initial * m_mul**i; within a period the
    rate is initial * m_mul**i * ((1 - alpha) 0.5 (1 + cos(pi f)) + alpha), f the fraction done."""

    def __init__(self, initial_learning_rate, first_decay_steps, t_mul=2.0, m_mul=1.0, alpha=0.0,
                 name='SGDRDecay'):
        if first_decay_steps <= 0:
            raise ValueError('Argument `first_decay_steps` must be > 0. Received: '
                             f'first_decay_steps={first_decay_steps}')
        self.initial_learning_rate = initial_learning_rate
        self.first_decay_steps = first_decay_steps
        self._t_mul = t_mul
        self._m_mul = m_mul
        self.alpha = alpha
        self.name = name

    def _restart(self, fraction, t_mul, dtype):
        """(index of the current period, fraction of it done); t_mul is a Python constant, so
        Keras's cond on t_mul == 1 is decided here."""
        if dtype.as_numpy_dtype(self._t_mul) == 1.0:
            i_restart = floor(fraction)
            return i_restart, fraction - i_restart
        i_restart = floor(log(cast(1.0 - fraction * (1.0 - t_mul), dtype)) / log(t_mul))
        sum_r = (1.0 - power(t_mul, i_restart)) / (1.0 - t_mul)
        return i_restart, (fraction - sum_r) / power(t_mul, i_restart)

    def __call__(self, step):
        with name_scope(self.name):
            initial = convert_to_tensor(self.initial_learning_rate)
            dtype = initial.dtype
            first = cast(self.first_decay_steps, dtype)
            alpha, t_mul = cast(self.alpha, dtype), cast(self._t_mul, dtype)
            m_mul = cast(self._m_mul, dtype)
            i_restart, fraction = self._restart(cast(step, dtype) / first, t_mul, dtype)
            m_fac = power(m_mul, i_restart)
            cosine = 0.5 * m_fac * (1.0 + cos(cast(math.pi, dtype) * fraction))
            return initial * ((1 - alpha) * cosine + alpha)

    def get_config(self):
        return {'initial_learning_rate': self.initial_learning_rate,
                'first_decay_steps': self.first_decay_steps, 't_mul': self._t_mul,
                'm_mul': self._m_mul, 'alpha': self.alpha, 'name': self.name}


__getattr__ = unsupported.missing_names(__name__, 'tf.keras.optimizers.schedules')


def __dir__():
    # The ops imported above are this module's helpers, not part of tf.keras.optimizers.schedules.
    return sorted(__all__)
