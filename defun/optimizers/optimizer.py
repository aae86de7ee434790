"""Optimizer: the base of `tf.keras.optimizers`, following Keras 3 (TF 2.21's tf.keras) step by
step.

One step (`apply_gradients` / `apply`) builds the slots on first use (creating Variables, which
inside a `tf.function` is allowed on the first trace only, as for any Variable), drops `None`
gradients with Keras's warning, clips (clipnorm / clipvalue / global_clipnorm), applies decoupled
weight decay (`var -= var * weight_decay * lr`), runs the subclass's `update_step` for each
variable, and increments `iterations`. The learning rate is read once per step: a float becomes a
float32 Variable, a Variable is read as is, a schedule is called with `iterations`, another
callable is called with no arguments.

Subclasses are written as for Keras 3: `build` adds slots with `add_variable_from_reference` /
`add_optimizer_variables` / `add_variable`, and `update_step(gradient, variable, learning_rate)`
finds them with `_get_variable_index` and updates with `assign` / `assign_add` / `assign_sub`.

All state is in OptimizerVariables, listed by `variables` in creation order (iteration, learning
rate, then each slot kind per model variable); `named_variables()` gives each with a name relative
to the optimizer ('iteration', 'w_0_momentum'), stable across runs for a checkpoint writer.
"""
import re
import warnings

import numpy as np

from defun.core import context
from defun.optimizers.schedules import LearningRateSchedule
from defun.optimizers.slots import OptimizerVariable, slot_name
from defun.ops.math.arithmetic import clip_by_value, maximum, minimum, square
from defun.ops.array.joining import stack
from defun.ops.framework.base_ops import cast
from defun.ops.math.elementary import sqrt
from defun.ops.math.reductions import reduce_sum
from defun.graphs.scopes import name_scope
from defun.autodiff.tape import GradientTape
from defun.state.trackable import AutoTrackable
from defun.core import dtypes
from defun.state.variables import Variable

__all__ = ['Optimizer']

_WORD = (re.compile(r'(.)([A-Z][a-z]+)'), re.compile(r'([a-z])([A-Z])'))


def _snake(name):
    return _WORD[1].sub(r'\1_\2', _WORD[0].sub(r'\1_\2', name)).lower()


class Optimizer(AutoTrackable):
    """Base class of the optimizers: subclasses define `build` (their slots) and `update_step`."""

    def __init__(self, learning_rate, weight_decay=None, clipnorm=None, clipvalue=None,
                 global_clipnorm=None, use_ema=False, ema_momentum=0.99,
                 ema_overwrite_frequency=None, loss_scale_factor=None,
                 gradient_accumulation_steps=None, name=None, **kwargs):
        if kwargs.pop('decay', None) is not None:
            warnings.warn('Argument `decay` is no longer supported and will be ignored.')
        if kwargs:
            raise ValueError(f'Argument(s) not recognized: {kwargs}')
        self.name = name if name is not None else context.unique_object_name(
            _snake(type(self).__name__))
        if use_ema or gradient_accumulation_steps:
            raise NotImplementedError(
                'defun optimizers do not support use_ema or gradient_accumulation_steps.')
        self.weight_decay, self.loss_scale_factor = weight_decay, loss_scale_factor
        self.clipnorm, self.clipvalue, self.global_clipnorm = clipnorm, clipvalue, global_clipnorm
        if sum(a is not None for a in (clipnorm, clipvalue, global_clipnorm)) > 1:
            raise ValueError(
                'Only one of `clipnorm`, `clipvalue` and `global_clipnorm` can be set. Received: '
                f'clipnorm={clipnorm}, clipvalue={clipvalue}, global_clipnorm={global_clipnorm}')
        self.built = False
        self._variables = []
        self._trainable_variables = []
        self._indices = {}  # model variable's unique_id -> its index in the built list
        self._exclude_ids, self._exclude_pattern = set(), None
        self._iterations = self.new_variable(0, 'iteration', dtypes.int64)
        self._learning_rate = self._learning_rate_from(learning_rate)

    # -- variables
    def new_variable(self, initial_value, name, dtype=None):
        """Creates (and tracks) one optimizer variable."""
        variable = OptimizerVariable(initial_value, name, self.name, dtype=dtype)
        self._variables.append(variable)
        return variable

    def add_variable(self, shape, initializer='zeros', dtype=None, aggregation='none',
                     layout=None, name=None):
        """Keras's way to add an optimizer variable: `initializer` is 'zeros', 'ones', a number,
        or a callable (shape, dtype) -> value."""
        dtype = dtypes.as_dtype(dtype or dtypes.float32)
        shape = tuple(shape)
        if callable(initializer):
            return self.new_variable(lambda: initializer(shape, dtype), name, dtype)
        fill = {'zeros': 0, 'ones': 1}.get(initializer, initializer)
        if isinstance(fill, str):
            raise ValueError(f'{self.name}.add_variable: unsupported initializer {fill!r} (use '
                             "'zeros', 'ones', a number or a callable)")
        # A callable initial value is evaluated eagerly (init_scope), also when the variable is
        # created while a tf.function is being traced.
        return self.new_variable(lambda: np.full(shape, fill, dtype.np_dtype), name, dtype)

    def add_variable_from_reference(self, reference_variable, name=None, initializer='zeros'):
        """A slot shaped and typed like `reference_variable`, named '<its name>_<name>'."""
        return self.add_variable(reference_variable.shape.as_list(), initializer,
                                 reference_variable.dtype,
                                 name=slot_name(reference_variable, name or 'var'))

    def add_optimizer_variables(self, var_list, names, initializer='zeros'):
        """One slot per model variable per name (per variable, then per name, as Keras orders
        them); returns a list per name (just the list when `names` is one string).
        `initializer` is one for all names or a list, one per name."""
        kinds = [names] if isinstance(names, str) else list(names)
        inits = list(initializer) if isinstance(initializer, (list, tuple)) else \
            [initializer] * len(kinds)
        if len(inits) != len(kinds):
            raise ValueError(f'{self.name}.add_optimizer_variables: {len(inits)} initializers '
                             f'for {len(kinds)} names')
        slots = tuple([] for _ in kinds)
        for variable in var_list:
            for i, kind in enumerate(kinds):
                slots[i].append(self.add_variable_from_reference(variable, kind, inits[i]))
        return slots[0] if isinstance(names, str) else slots

    @property
    def variables(self):
        return list(self._variables)

    def named_variables(self):
        """(name relative to this optimizer, variable) for every variable, in creation order."""
        return [(v.name, v) for v in self._variables]

    @property
    def iterations(self):
        return self._iterations

    def build(self, var_list):
        """Records the model variables; subclasses then create their slots."""
        var_list = list(var_list)
        for i, variable in enumerate(var_list):
            self._indices[variable.unique_id] = i
        self._trainable_variables = var_list
        self.built = True

    def slot(self, slots, variable):
        """The slot of `variable` in the per-variable list `slots`."""
        return slots[self._indices[variable.unique_id]]

    def _get_variable_index(self, variable):
        # Keras's (semi-private) name, which custom optimizers' update_step calls.
        return self._indices[variable.unique_id]

    # Keras's helpers for update_step; plain Variable assignments here.
    def assign(self, variable, value):
        variable.assign(value)

    def assign_add(self, variable, value):
        variable.assign_add(value)

    def assign_sub(self, variable, value):
        variable.assign_sub(value)

    # -- learning rate
    def _learning_rate_from(self, value):
        if isinstance(value, (LearningRateSchedule, Variable)) or callable(value):
            return value
        if not isinstance(value, float):
            raise ValueError(
                'Argument `learning_rate` should be float, or an instance of '
                'LearningRateSchedule, or a callable (that takes in the current iteration value '
                'and returns the corresponding learning rate value). Received instead: '
                f'learning_rate={value}')
        return self.new_variable(value, 'learning_rate', dtypes.float32)

    @property
    def learning_rate(self):
        """The learning rate of the coming step (a schedule is evaluated at `iterations`)."""
        lr = self._learning_rate
        if isinstance(lr, LearningRateSchedule):
            return lr(self._iterations)
        if isinstance(lr, Variable):
            return lr
        return lr() if callable(lr) else lr

    @learning_rate.setter
    def learning_rate(self, value):
        current = self._learning_rate
        if isinstance(value, LearningRateSchedule) or callable(value) and \
                not isinstance(value, Variable):
            self._learning_rate = value
        elif isinstance(current, LearningRateSchedule):
            raise TypeError(
                'This optimizer was created with a `LearningRateSchedule` object as its '
                '`learning_rate` constructor argument, hence its learning rate is not settable. '
                'If you need the learning rate to be settable, you should instantiate the '
                'optimizer with a float `learning_rate` argument.')
        elif isinstance(current, Variable):
            current.assign(value)
        else:
            self._learning_rate = self._learning_rate_from(value)
        if isinstance(current, OptimizerVariable) and self._learning_rate is not current:
            self._variables.remove(current)

    # -- steps
    def apply_gradients(self, grads_and_vars):
        """Applies one step for (gradient, variable) pairs; returns `iterations`."""
        pairs = list(grads_and_vars)
        grads, variables = zip(*pairs) if pairs else ((), ())
        if not pairs:
            raise ValueError('not enough values to unpack (expected 2, got 0)')
        self.apply(grads, variables)
        return self._iterations

    def apply(self, grads, trainable_variables=None):
        """Updates `trainable_variables` (the built list when None) with `grads`."""
        grads = list(grads)
        if not grads:
            return
        variables = self._variables_for(grads, trainable_variables)
        with name_scope(self.name):
            grads, variables = self._filter_empty_gradients(grads, variables)
            if self.loss_scale_factor is not None:
                grads = [g / self.loss_scale_factor for g in grads]
            grads = self._clip_gradients(grads)
            lr = self.learning_rate
            self._apply_weight_decay(variables, lr)
            grads = _all_reduce_sum(grads)
            self.before_update_steps()
            for grad, variable in zip(grads, variables):
                self.update_step(grad, variable, lr)
        self._iterations.assign_add(1)

    def _variables_for(self, grads, trainable_variables):
        if trainable_variables is None:
            if not self.built:
                raise ValueError(
                    'When passing `grads` without `variables`, the optimizer must already be '
                    'built on a list of variables. Call `optimizer.build(trainable_variables)` '
                    'first. ')
            if len(grads) != len(self._indices):
                raise ValueError(
                    'When passing `grads` as a list of gradient tensors, the gradients must '
                    f'match `optimizer.variables` one-to-on. Received a list of {len(grads)} '
                    f'gradients, but the optimizer is tracking {len(self._trainable_variables)} '
                    'trainable variables.')
            return list(self._trainable_variables)
        variables = list(trainable_variables)
        for variable in variables:
            if not isinstance(variable, Variable):
                raise TypeError(f'{self.name}: can only update Variables, got '
                                f'{type(variable).__name__} {variable!r}')
        if not self.built:
            with name_scope(self.name):
                self.build(variables)
        for variable in variables:
            if variable.unique_id not in self._indices:
                raise ValueError(
                    f'Unknown variable: {variable!r}. This optimizer can only be called for the '
                    'variables it was originally built with. When working with a new set of '
                    'variables, you should recreate a new optimizer instance.')
        return variables

    def minimize(self, loss, var_list, tape=None):
        """Computes gradients of `loss` (a callable, or a tensor recorded on `tape`) with respect
        to `var_list` and applies them (Keras 2's method; TF 2.21's Keras 3 dropped it)."""
        if not callable(loss) and tape is None:
            raise ValueError('`tape` is required when a `Tensor` loss is passed. '
                             f'Received: loss={loss}, tape={tape}.')
        if callable(loss):
            with GradientTape() as tape:
                loss = loss()
        var_list = list(var_list() if callable(var_list) else var_list)
        grads = tape.gradient(loss, var_list)
        return self.apply_gradients(zip(grads, var_list))

    def update_step(self, gradient, variable, learning_rate):
        raise NotImplementedError(f'{type(self).__name__} must define update_step')

    def before_update_steps(self):
        """Runs once per step before the per-variable updates (Nadam's running product);
        nothing by default."""
        return None

    # -- the parts of a step
    @staticmethod
    def _filter_empty_gradients(grads, variables):
        kept = [(g, v) for g, v in zip(grads, variables) if g is not None]
        if not kept:
            raise ValueError('No gradients provided for any variable.')
        missing = [v.name for g, v in zip(grads, variables) if g is None]
        if missing:
            warnings.warn(f'Gradients do not exist for variables {missing} when minimizing the '
                          'loss. If using `model.compile()`, did you forget to provide a `loss` '
                          'argument?')
        return [g for g, _ in kept], [v for _, v in kept]

    def _clip_gradients(self, grads):
        if self.clipnorm and self.clipnorm > 0:
            return [self._clip_by_norm(g) for g in grads]
        if self.global_clipnorm and self.global_clipnorm > 0:
            return clip_by_global_norm(grads, self.global_clipnorm)
        if self.clipvalue and self.clipvalue > 0:
            return [clip_by_value(g, -self.clipvalue, self.clipvalue) for g in grads]
        return grads

    def _clip_by_norm(self, grad):
        # g * clipnorm / max(||g||, clipnorm): unchanged when the norm is within the bound.
        norm = sqrt(reduce_sum(square(grad)))
        return grad * cast(self.clipnorm, grad.dtype) / maximum(norm, cast(self.clipnorm,
                                                                            grad.dtype))

    def exclude_from_weight_decay(self, var_list=None, var_names=None):
        """Variables (or names matching any of `var_names`) that weight decay leaves alone."""
        if self.built:
            raise ValueError('`exclude_from_weight_decay()` can only be configured before the '
                             'optimizer is built.')
        self._exclude_ids = {v.unique_id for v in var_list or ()}
        self._exclude_pattern = re.compile('|'.join(set(var_names))) if var_names else None

    def _use_weight_decay(self, variable):
        if variable.unique_id in self._exclude_ids:
            return False
        return not (self._exclude_pattern is not None and
                    self._exclude_pattern.search(variable.name))

    def _apply_weight_decay(self, variables, lr):
        if self.weight_decay is None:
            return
        for variable in variables:
            if self._use_weight_decay(variable):
                decay, rate = cast(self.weight_decay, variable.dtype), cast(lr, variable.dtype)
                variable.assign_sub(variable * decay * rate)

    def __repr__(self):
        return f'<{type(self).__module__}.{type(self).__name__} object at {id(self):#x}>'


def _all_reduce_sum(grads):
    """Inside a tf.distribute strategy's `run`, the gradients summed over the replicas (Keras 3's
    rule: each replica's loss is already divided by the global batch size), in one exchange."""
    current = context.current_distribution()
    if current is None or current[1] is None:
        return grads
    return list(current[1].all_reduce('SUM', list(grads)))


def global_norm(values):
    """sqrt of the sum of squares of every element of every (non-None) tensor."""
    return sqrt(reduce_sum(stack([reduce_sum(square(v)) for v in values if v is not None])))


def clip_by_global_norm(values, clip_norm):
    """Scales every tensor by clip_norm / max(global norm, clip_norm); NaN when the norm is not
    finite (Keras's rule)."""
    norm = global_norm(values)
    scale = clip_norm * minimum(1.0 / norm, 1.0 / clip_norm)
    scale = scale + (norm - norm)
    return [v * cast(scale, v.dtype) if v is not None else v for v in values]
