"""The update rules of Nadam, Adamax, Adadelta, Ftrl and Lion, written as Keras 3 computes them
(same operations, same order, so float32 results agree with TF 2.21's tf.keras), and `get`.

With g the gradient, lr the learning rate and t = iterations + 1:
- Nadam: u_t = beta_1 (1 - 0.5 * 0.96^t), and the running product U_t of the u's (a variable
  updated once per step, before the per-variable updates); m and v as Adam's;
  m_hat = u_{t+1} m / (1 - U_t u_{t+1}) + (1 - u_t) g / (1 - U_t); v_hat = v / (1 - beta_2^t);
  var -= lr m_hat / (sqrt(v_hat) + epsilon) (Dozat, "Incorporating Nesterov Momentum into Adam").
- Adamax: m += (g - m)(1 - beta_1); u = max(beta_2 u, |g|);
  var -= lr m / ((1 - beta_1^t)(u + epsilon)).
- Adadelta: A = rho A + (1 - rho) g^2; d = -sqrt(D + eps) g / sqrt(A + eps);
  D = rho D + (1 - rho) d^2; var += lr d (Zeiler 2012, with a learning rate).
- Ftrl: n' = n + g^2; z += g' - (n'^-p - n^-p) / lr * var with g' = g + 2 l2_shrinkage var
  and p = learning_rate_power; var = (clip(z, -l1, l1) - z) / (n'^-p / lr + 2 (l2 + beta /
  (2 lr))); n = n' (McMahan et al. 2013).
- Lion: var -= lr sign(beta_1 m + (1 - beta_1) g); m = beta_2 m + (1 - beta_2) g
  (Chen et al. 2023).
"""
from defun.optimizers.optimizer import Optimizer
from defun.optimizers.sgd_adam_rules import SGD, Adam, AdamW, RMSprop, Adagrad
from defun.ops.math.arithmetic import clip_by_value, maximum, square
from defun.ops.framework.base_ops import cast
from defun.ops.math.elementary import abs as absolute, pow as power, sign, sqrt

__all__ = ['Nadam', 'Adamax', 'Adadelta', 'Ftrl', 'Lion', 'get']


class Nadam(Optimizer):
    """Adam with Nesterov momentum, as `tf.keras.optimizers.Nadam`."""

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, **kwargs):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.beta_1, self.beta_2, self.epsilon = beta_1, beta_2, epsilon

    def build(self, var_list):
        if self.built:
            return
        dtype = var_list[0].dtype if var_list else None
        super().build(var_list)
        self._momentums, self._velocities = self.add_optimizer_variables(
            var_list, ['momentum', 'velocity'])
        # Keras names this unnamed variable 'variable' (uniquified by a global counter).
        self._u_product = self.new_variable(1.0, 'variable', dtype)

    def before_update_steps(self):
        dtype = self._u_product.dtype
        step = cast(self.iterations + 1, dtype)
        self._u_product.assign(self._u_product * self.beta_1 * (1.0 - 0.5 * power(
            cast(0.96, dtype), step)))

    def update_step(self, gradient, variable, learning_rate):
        dtype = variable.dtype
        lr, gradient = cast(learning_rate, dtype), cast(gradient, dtype)
        local_step, next_step = cast(self.iterations + 1, dtype), cast(self.iterations + 2, dtype)
        decay, beta_1, beta_2 = cast(0.96, dtype), cast(self.beta_1, dtype), \
            cast(self.beta_2, dtype)
        u_t = beta_1 * (1.0 - 0.5 * power(decay, local_step))
        u_t_1 = beta_1 * (1.0 - 0.5 * power(decay, next_step))
        u_product_t = cast(self._u_product, dtype)
        u_product_t_1 = u_product_t * u_t_1
        beta_2_power = power(beta_2, local_step)
        m = self.slot(self._momentums, variable)
        v = self.slot(self._velocities, variable)
        m.assign_add((gradient - m) * (1 - beta_1))
        v.assign_add((square(gradient) - v) * (1 - beta_2))
        m_hat = (u_t_1 * m) / (1 - u_product_t_1) + ((1 - u_t) * gradient) / (1 - u_product_t)
        v_hat = v / (1 - beta_2_power)
        variable.assign_sub((m_hat * lr) / (sqrt(v_hat) + self.epsilon))


class Adamax(Optimizer):
    """Adam with the infinity norm, as `tf.keras.optimizers.Adamax`."""

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, **kwargs):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.beta_1, self.beta_2, self.epsilon = beta_1, beta_2, epsilon

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self._m, self._u = self.add_optimizer_variables(var_list, ['momentum', 'norm'])

    def update_step(self, gradient, variable, learning_rate):
        dtype = variable.dtype
        lr, gradient = cast(learning_rate, dtype), cast(gradient, dtype)
        beta_1_power = power(cast(self.beta_1, dtype), cast(self.iterations + 1, dtype))
        m, u = self.slot(self._m, variable), self.slot(self._u, variable)
        m.assign_add((gradient - m) * (1 - self.beta_1))
        u.assign(maximum(self.beta_2 * u, absolute(gradient)))
        variable.assign_sub((lr * m) / ((1 - beta_1_power) * (u + self.epsilon)))


class Adadelta(Optimizer):
    """Adadelta, as `tf.keras.optimizers.Adadelta`."""

    def __init__(self, learning_rate=0.001, rho=0.95, epsilon=1e-7, **kwargs):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.rho, self.epsilon = rho, epsilon

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self._accumulated_grads, self._accumulated_delta_vars = self.add_optimizer_variables(
            var_list, ['accumulated_grad', 'accumulated_delta_var'])

    def update_step(self, gradient, variable, learning_rate):
        lr, grad = cast(learning_rate, variable.dtype), cast(gradient, variable.dtype)
        rho = self.rho
        acc_grad = self.slot(self._accumulated_grads, variable)
        acc_delta = self.slot(self._accumulated_delta_vars, variable)
        acc_grad.assign(rho * acc_grad + (1 - rho) * square(grad))
        delta = -((sqrt(acc_delta + self.epsilon) * grad) / sqrt(acc_grad + self.epsilon))
        acc_delta.assign(rho * acc_delta + (1 - rho) * square(delta))
        variable.assign_add(lr * delta)


def _non_negative(value, name, article='needs to be positive or zero'):
    if value < 0.0:
        raise ValueError(f'`{name}` {article}. Received: {name}={value}.')


class Ftrl(Optimizer):
    """Follow The Regularized Leader, as `tf.keras.optimizers.Ftrl`."""

    def __init__(self, learning_rate=0.001, learning_rate_power=-0.5,
                 initial_accumulator_value=0.1, l1_regularization_strength=0.0,
                 l2_regularization_strength=0.0, l2_shrinkage_regularization_strength=0.0,
                 beta=0.0, **kwargs):
        super().__init__(learning_rate=learning_rate, **kwargs)
        _non_negative(initial_accumulator_value, 'initial_accumulator_value')
        if learning_rate_power > 0.0:
            raise ValueError('`learning_rate_power` needs to be negative or zero. Received: '
                             f'learning_rate_power={learning_rate_power}.')
        _non_negative(l1_regularization_strength, 'l1_regularization_strength')
        _non_negative(l2_regularization_strength, 'l2_regularization_strength')
        if l2_shrinkage_regularization_strength < 0.0:
            raise ValueError('`l2_shrinkage_regularization_strength` needs to be positive or '
                             'zero. Received: l2_shrinkage_regularization_strength='
                             f'{l2_shrinkage_regularization_strength}.')
        self.learning_rate_power = learning_rate_power
        self.initial_accumulator_value = initial_accumulator_value
        self.l1_regularization_strength = l1_regularization_strength
        self.l2_regularization_strength = l2_regularization_strength
        self.l2_shrinkage_regularization_strength = l2_shrinkage_regularization_strength
        self.beta = beta

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self._accumulators, self._linears = self.add_optimizer_variables(
            var_list, ['accumulator', 'linear'],
            initializer=[self.initial_accumulator_value, 'zeros'])

    def update_step(self, gradient, variable, learning_rate):
        lr, gradient = cast(learning_rate, variable.dtype), cast(gradient, variable.dtype)
        accum = self.slot(self._accumulators, variable)
        linear = self.slot(self._linears, variable)
        p = self.learning_rate_power
        l2_reg = self.l2_regularization_strength + self.beta / (2.0 * lr)
        grad_to_use = gradient + 2 * self.l2_shrinkage_regularization_strength * variable
        new_accum = accum + square(gradient)
        linear.assign_add(grad_to_use - ((power(new_accum, -p) - power(accum, -p)) / lr)
                          * variable)
        quadratic = power(new_accum, -p) / lr + 2 * l2_reg
        l1 = self.l1_regularization_strength
        clipped = clip_by_value(linear, -l1, l1)
        variable.assign((clipped - linear) / quadratic)
        accum.assign(new_accum)


class Lion(Optimizer):
    """The Lion optimizer (sign of an interpolated momentum), as `tf.keras.optimizers.Lion`."""

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.99, **kwargs):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.beta_1, self.beta_2 = beta_1, beta_2
        if beta_1 <= 0 or beta_1 > 1:
            raise ValueError('Argument `beta_1` must be in the [0, 1] range. Otherwise, the '
                             f'optimizer degenerates to SignSGD. Received: beta_1={beta_1}.')

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self._momentums = self.add_optimizer_variables(var_list, 'momentum')

    def update_step(self, gradient, variable, learning_rate):
        dtype = variable.dtype
        lr, gradient = cast(learning_rate, dtype), cast(gradient, dtype)
        beta_1, beta_2 = cast(self.beta_1, dtype), cast(self.beta_2, dtype)
        m = self.slot(self._momentums, variable)
        variable.assign_sub(lr * sign(m * beta_1 + gradient * (1.0 - beta_1)))
        m.assign(m * beta_2 + gradient * (1.0 - beta_2))


_BY_NAME = {cls.__name__.lower(): cls for cls in (SGD, Adam, AdamW, RMSprop, Adagrad, Nadam,
                                                   Adamax, Adadelta, Ftrl, Lion)}


def get(identifier):
    """An optimizer from a name ('adam'), a {'class_name', 'config'} dict, or an optimizer."""
    if identifier is None:
        return None
    obj = identifier
    if isinstance(identifier, str):
        identifier_dict = {'class_name': identifier, 'config': {}}
    else:
        identifier_dict = identifier if isinstance(identifier, dict) else None
    if identifier_dict is not None:
        cls = _BY_NAME.get(str(identifier_dict.get('class_name', '')).lower())
        obj = cls(**identifier_dict.get('config', {})) if cls is not None else None
    if isinstance(obj, Optimizer):
        return obj
    raise ValueError(f'Could not interpret optimizer identifier: {identifier}')
