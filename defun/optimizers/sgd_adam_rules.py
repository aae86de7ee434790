"""The update rules of SGD, Adam, AdamW, RMSprop and Adagrad, written as Keras 3 computes them
(the same operations in the same order, so float32 results agree with TF 2.21's tf.keras).

With g the gradient, lr the learning rate and t = iterations + 1:
- SGD: m = momentum*m - lr*g; var += m (nesterov: var += momentum*m - lr*g); without momentum
  var -= lr*g.
- Adam: m += (g - m)(1 - beta_1); v += (g^2 - v)(1 - beta_2); (amsgrad: v = max(v_hat, v));
  var -= m * alpha / (sqrt(v) + epsilon), alpha = lr sqrt(1 - beta_2^t) / (1 - beta_1^t): the
  bias correction is folded into the step size and epsilon is added to sqrt(v) uncorrected
  ("epsilon hat" of Kingma & Ba).
- AdamW: Adam after the decoupled decay var -= var * weight_decay * lr (done by the base class).
- RMSprop: v = rho v + (1 - rho) g^2 (centered: a = rho a + (1 - rho) g, denominator
  v - a^2 + epsilon; else v + epsilon); increment = lr g / sqrt(denominator); with momentum,
  mom = momentum*mom + increment and var -= mom, else var -= increment.
- Adagrad: acc += g^2 (acc starts at initial_accumulator_value); var -= lr g / sqrt(acc + epsilon).

A sparse gradient (IndexedSlices) takes each rule's sparse form, as Keras's TensorFlow backend
computes it (see sparse_steps.py): rows are squared and scaled as rows, and scattered into the
variable and the accumulators where the rule adds them.
"""
from defun.optimizers.optimizer import Optimizer
from defun.optimizers.sparse_steps import dense, is_sparse, over, rows
from defun.ops.math.arithmetic import maximum, square
from defun.ops.framework.base_ops import cast
from defun.ops.math.elementary import pow as power, sqrt

__all__ = ['SGD', 'Adam', 'AdamW', 'RMSprop', 'Adagrad']


class SGD(Optimizer):
    """Gradient descent with optional (Nesterov) momentum, as `tf.keras.optimizers.SGD`."""

    def __init__(self, learning_rate=0.01, momentum=0.0, nesterov=False, **kwargs):
        super().__init__(learning_rate=learning_rate, **kwargs)
        if not isinstance(momentum, float) or momentum < 0 or momentum > 1:
            raise ValueError('`momentum` must be a float between [0, 1].')
        self.momentum = momentum
        self.nesterov = nesterov
        self.momentums = []

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        if self.momentum != 0:
            self.momentums = self.add_optimizer_variables(var_list, 'momentum')

    def update_step(self, gradient, variable, learning_rate):
        if is_sparse(gradient):
            return self._sparse_step(gradient, variable, learning_rate)
        lr = cast(learning_rate, variable.dtype)
        gradient = cast(gradient, variable.dtype)
        if self.momentum == 0:
            variable.assign_sub(gradient * lr)
            return
        m = self.slot(self.momentums, variable)
        momentum = cast(self.momentum, variable.dtype)
        m.assign(m * momentum - gradient * lr)
        if self.nesterov:
            variable.assign_add(m * momentum - gradient * lr)
        else:
            variable.assign_add(m)

    def _sparse_step(self, gradient, variable, learning_rate):
        lr = cast(learning_rate, variable.dtype)
        scaled = rows(gradient, lambda v: cast(v, variable.dtype) * lr)
        if self.momentum == 0:
            variable.scatter_sub(scaled)
            return
        m = self.slot(self.momentums, variable)
        momentum = cast(self.momentum, variable.dtype)
        m.assign(m * momentum - dense(scaled))
        if self.nesterov:
            variable.assign_add(m * momentum - dense(scaled))
        else:
            variable.assign_add(m)


class Adam(Optimizer):
    """Adam (and AMSGrad), as `tf.keras.optimizers.Adam`."""

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 amsgrad=False, **kwargs):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.beta_1, self.beta_2, self.epsilon, self.amsgrad = beta_1, beta_2, epsilon, amsgrad

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self._momentums, self._velocities = self.add_optimizer_variables(
            var_list, ['momentum', 'velocity'])
        if self.amsgrad:
            self._velocity_hats = self.add_optimizer_variables(var_list, 'velocity_hat')

    def update_step(self, gradient, variable, learning_rate):
        dtype = variable.dtype
        lr = cast(learning_rate, dtype)
        if is_sparse(gradient):
            # Keras: g - m densifies g; square(g) squares its rows before they add up.
            gradient = rows(gradient, lambda v: cast(v, dtype))
            squared = dense(rows(gradient, square))
            gradient = dense(gradient)
        else:
            gradient = cast(gradient, dtype)
            squared = None
        step = cast(self.iterations + 1, dtype)
        beta_1_power = power(cast(self.beta_1, dtype), step)
        beta_2_power = power(cast(self.beta_2, dtype), step)
        m = self.slot(self._momentums, variable)
        v = self.slot(self._velocities, variable)
        alpha = lr * sqrt(1 - beta_2_power) / (1 - beta_1_power)
        m.assign_add((gradient - m) * (1 - self.beta_1))
        v.assign_add(((square(gradient) if squared is None else squared) - v) *
                     (1 - self.beta_2))
        if self.amsgrad:
            v_hat = self.slot(self._velocity_hats, variable)
            v_hat.assign(maximum(v_hat, v))
            v = v_hat
        variable.assign_sub((m * alpha) / (sqrt(v) + self.epsilon))


class AdamW(Adam):
    """Adam with decoupled weight decay, as `tf.keras.optimizers.AdamW`."""

    def __init__(self, learning_rate=0.001, weight_decay=0.004, beta_1=0.9, beta_2=0.999,
                 epsilon=1e-7, amsgrad=False, **kwargs):
        super().__init__(learning_rate=learning_rate, beta_1=beta_1, beta_2=beta_2,
                         epsilon=epsilon, amsgrad=amsgrad, weight_decay=weight_decay, **kwargs)
        if self.weight_decay is None:
            raise ValueError('Argument `weight_decay` must be a float. Received: '
                             'weight_decay=None')


class RMSprop(Optimizer):
    """RMSprop with optional momentum and centering, as `tf.keras.optimizers.RMSprop`."""

    def __init__(self, learning_rate=0.001, rho=0.9, momentum=0.0, epsilon=1e-7,
                 centered=False, **kwargs):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.rho, self.momentum, self.epsilon, self.centered = rho, momentum, epsilon, centered

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self._velocities = self.add_optimizer_variables(var_list, 'velocity')
        self._momentums = []
        if self.momentum > 0:
            self._momentums = self.add_optimizer_variables(var_list, 'momentum')
        self._average_gradients = []
        if self.centered:
            self._average_gradients = self.add_optimizer_variables(var_list, 'average_gradient')

    def update_step(self, gradient, variable, learning_rate):
        if is_sparse(gradient):
            return self._sparse_step(gradient, variable, learning_rate)
        lr = cast(learning_rate, variable.dtype)
        gradient = cast(gradient, variable.dtype)
        velocity = self.slot(self._velocities, variable)
        rho = self.rho
        velocity.assign(rho * velocity + (1 - rho) * square(gradient))
        if self.centered:
            average = self.slot(self._average_gradients, variable)
            average.assign(rho * average + (1 - rho) * gradient)
            denominator = velocity - square(average) + self.epsilon
        else:
            denominator = velocity + self.epsilon
        increment = (lr * gradient) / sqrt(denominator)
        if self.momentum > 0:
            momentum = self.slot(self._momentums, variable)
            momentum.assign(self.momentum * momentum + increment)
            variable.assign_sub(momentum)
        else:
            variable.assign_sub(increment)

    def _sparse_step(self, gradient, variable, learning_rate):
        lr = cast(learning_rate, variable.dtype)
        g = rows(gradient, lambda v: cast(v, variable.dtype))
        velocity = self.slot(self._velocities, variable)
        rho = self.rho
        velocity.assign(rho * velocity + dense(rows(g, lambda v: (1 - rho) * square(v))))
        if self.centered:
            average = self.slot(self._average_gradients, variable)
            average.assign(rho * average + dense(rows(g, lambda v: (1 - rho) * v)))
            denominator = velocity - square(average) + self.epsilon
        else:
            denominator = velocity + self.epsilon
        increment = over(rows(g, lambda v: lr * v), sqrt(denominator))
        if self.momentum > 0:
            momentum = self.slot(self._momentums, variable)
            momentum.assign(self.momentum * momentum + dense(increment))
            variable.assign_sub(momentum)
        else:
            variable.scatter_sub(increment)


class Adagrad(Optimizer):
    """Adagrad, as `tf.keras.optimizers.Adagrad`."""

    def __init__(self, learning_rate=0.001, initial_accumulator_value=0.1, epsilon=1e-7,
                 **kwargs):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.initial_accumulator_value = initial_accumulator_value
        self.epsilon = epsilon

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self._accumulators = self.add_optimizer_variables(
            var_list, 'accumulator', initializer=self.initial_accumulator_value)

    def update_step(self, gradient, variable, learning_rate):
        lr = cast(learning_rate, variable.dtype)
        accumulator = self.slot(self._accumulators, variable)
        if is_sparse(gradient):
            g = rows(gradient, lambda v: cast(v, variable.dtype))
            accumulator.scatter_add(rows(g, square))
            variable.scatter_sub(over(rows(g, lambda v: lr * v), sqrt(accumulator + self.epsilon)))
            return
        gradient = cast(gradient, variable.dtype)
        accumulator.assign_add(square(gradient))
        variable.assign_sub((lr * gradient) / sqrt(accumulator + self.epsilon))
