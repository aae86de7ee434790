"""tf.keras.optimizers against the published update formulas (float64 numpy), and their behaviour:
slots created once (also inside tf.function), learning rates as float / Variable / schedule /
callable, minimize, errors. Error messages were recorded from TF 2.21's tf.keras (Keras 3.15)."""
import warnings

import numpy as np
import pytest

import defun as tf

K = tf.optimizers  # defun's own optimizers (tf.keras.optimizers when Keras is absent)
GRADS = [np.array([0.5, -1.0, 2.0]), np.array([-0.25, 0.75, 1.5]), np.array([1.0, 0.1, -3.0]),
         np.array([0.01, -0.02, 0.01])]
START = np.array([1.0, 2.0, -0.5])


def steps(opt, var_dtype=np.float32):
    v = tf.Variable(START.astype(var_dtype))
    for g in GRADS:
        opt.apply_gradients([(tf.constant(g.astype(var_dtype)), v)])
    return v.numpy()


def adam_reference(lr, b1, b2, eps, amsgrad=False, wd=0.0):
    # Kingma & Ba (2015), Algorithm 1 with the bias corrections folded into the step size and
    # "epsilon hat"; AMSGrad (Reddi et al. 2018) uses the running maximum of v; AdamW
    # (Loshchilov & Hutter 2019) first decays theta by lr * wd.
    theta, m, v, vhat = START.copy(), 0.0, 0.0, 0.0
    for t, g in enumerate(GRADS, start=1):
        theta = theta - theta * wd * lr
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        vhat = np.maximum(vhat, v)
        step = lr * np.sqrt(1 - b2 ** t) / (1 - b1 ** t)
        theta = theta - step * m / (np.sqrt(vhat if amsgrad else v) + eps)
    return theta


def sgd_reference(lr, momentum=0.0, nesterov=False):
    theta, vel = START.copy(), 0.0
    for g in GRADS:
        vel = momentum * vel - lr * g
        theta = theta + (momentum * vel - lr * g if nesterov else vel)
    return theta


def rmsprop_reference(lr, rho, eps, momentum=0.0, centered=False):
    # Hinton's RMSprop (lecture 6e); centered: Graves (2013), eq. 38-41.
    theta, ms, mg, mom = START.copy(), 0.0, 0.0, 0.0
    for g in GRADS:
        ms = rho * ms + (1 - rho) * g * g
        mg = rho * mg + (1 - rho) * g
        increment = lr * g / np.sqrt((ms - mg * mg if centered else ms) + eps)
        mom = momentum * mom + increment
        theta = theta - (mom if momentum else increment)
    return theta


def adagrad_reference(lr, initial, eps):
    # Duchi et al. (2011): accumulate squared gradients, scale each step by their root.
    theta, acc = START.copy(), initial
    for g in GRADS:
        acc = acc + g * g
        theta = theta - lr * g / np.sqrt(acc + eps)
    return theta


@pytest.mark.parametrize('make, reference', [
    (lambda: K.Adam(0.1), lambda: adam_reference(0.1, 0.9, 0.999, 1e-7)),
    (lambda: K.Adam(0.05, 0.8, 0.9, 0.1), lambda: adam_reference(0.05, 0.8, 0.9, 0.1)),
    (lambda: K.Adam(0.1, amsgrad=True), lambda: adam_reference(0.1, 0.9, 0.999, 1e-7, True)),
    (lambda: K.AdamW(0.1, weight_decay=0.05),
     lambda: adam_reference(0.1, 0.9, 0.999, 1e-7, wd=0.05)),
    (lambda: K.SGD(0.1), lambda: sgd_reference(0.1)),
    (lambda: K.SGD(0.1, momentum=0.9), lambda: sgd_reference(0.1, 0.9)),
    (lambda: K.SGD(0.1, momentum=0.9, nesterov=True), lambda: sgd_reference(0.1, 0.9, True)),
    (lambda: K.RMSprop(0.01), lambda: rmsprop_reference(0.01, 0.9, 1e-7)),
    (lambda: K.RMSprop(0.01, rho=0.8, momentum=0.5, centered=True),
     lambda: rmsprop_reference(0.01, 0.8, 1e-7, 0.5, True)),
    (lambda: K.Adagrad(0.1, initial_accumulator_value=0.5, epsilon=1e-3),
     lambda: adagrad_reference(0.1, 0.5, 1e-3)),
])
def test_published_formulas(make, reference):
    np.testing.assert_allclose(steps(make()), reference(), rtol=1e-5, atol=1e-6)
    # float64 variables: still ~1e-6 apart, because tf.cast(0.999, tf.float64) goes through
    # float32 (TF 2.21 gives 0.9990000128746033 too), so beta_2 is not exactly 0.999.
    np.testing.assert_allclose(steps(make(), np.float64), reference(), rtol=1e-5)


def test_clipping_formulas():
    g = np.array([3.0, 4.0])  # norm 5
    for opt, expected in [(K.SGD(1.0, clipnorm=1.0), g / 5), (K.SGD(1.0, clipvalue=3.5),
                                                              np.clip(g, -3.5, 3.5)),
                          (K.SGD(1.0, global_clipnorm=10.0), g)]:
        v = tf.Variable([0.0, 0.0])
        opt.apply_gradients([(tf.constant(g), v)])
        np.testing.assert_allclose(-v.numpy(), expected, rtol=1e-6)
    a, b = tf.Variable([0.0, 0.0]), tf.Variable(0.0)
    K.SGD(1.0, global_clipnorm=1.3).apply_gradients([(tf.constant([3.0, 4.0]), a),
                                                     (tf.constant(12.0), b)])  # global norm 13
    np.testing.assert_allclose([-a.numpy()[0], -a.numpy()[1], -b.numpy()], [0.3, 0.4, 1.2],
                               rtol=1e-6)


def test_slots_created_once_inside_function():
    v = tf.Variable([1.0, 2.0], name='w')
    opt = K.Adam(0.1)

    @tf.function
    def train(g):
        opt.apply_gradients([(g, v)])
    train(tf.constant([0.1, 0.2]))
    created = list(opt.variables)
    train(tf.constant([0.3, 0.4]))
    assert [x is y for x, y in zip(opt.variables, created)] == [True] * 4
    assert train.experimental_get_tracing_count() == 2  # the first call traces twice, as TF
    assert opt.iterations.numpy() == 2 and opt.built
    assert [n for n, _ in opt.named_variables()] == ['iteration', 'learning_rate',
                                                     'w_0_momentum', 'w_0_velocity']
    assert opt.variables[2].path == f'{opt.name}/w_0_momentum'


def test_variable_learning_rate_and_setter():
    lr = tf.Variable(0.5)
    opt = K.SGD(lr)
    v = tf.Variable(1.0)
    opt.apply_gradients([(tf.constant(1.0), v)])
    lr.assign(0.25)
    opt.apply_gradients([(tf.constant(1.0), v)])
    assert v.numpy() == pytest.approx(0.25)
    plain = K.SGD(0.1)
    plain.learning_rate = 0.5
    assert plain.learning_rate.numpy() == pytest.approx(0.5)
    scheduled = K.SGD(K.schedules.ExponentialDecay(0.1, 2, 0.5))
    with pytest.raises(TypeError, match='not settable'):
        scheduled.learning_rate = 0.5


def test_minimize_with_callable_and_tape():
    v = tf.Variable(3.0)
    opt = K.SGD(0.1)
    opt.minimize(lambda: v * v, [v])
    assert v.numpy() == pytest.approx(3.0 - 0.1 * 6.0)
    with tf.GradientTape() as tape:
        loss = v * v
    opt.minimize(loss, [v], tape=tape)
    assert v.numpy() == pytest.approx(2.4 - 0.1 * 4.8)
    with pytest.raises(ValueError, match='`tape` is required'):
        opt.minimize(loss, [v])


def test_gradient_tape_training_loop_with_module():
    class Linear(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = tf.Variable(0.0)
            self.b = tf.Variable(0.0)

        def __call__(self, x):
            return self.w * x + self.b

    x = tf.constant([0.0, 1.0, 2.0, 3.0])
    y = 2.0 * x + 1.0
    model, opt = Linear(), K.Adam(0.1)

    @tf.function
    def train_step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((model(x) - y) ** 2)
        opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables),
                                model.trainable_variables))
        return loss
    for _ in range(300):
        loss = train_step()
    assert float(loss) < 1e-3
    assert model.w.numpy() == pytest.approx(2.0, abs=0.05)


@pytest.mark.parametrize('make, error, message', [
    (lambda: K.SGD(learning_rate=1), ValueError, 'Argument `learning_rate` should be float'),
    (lambda: K.SGD(momentum=1), ValueError, r'`momentum` must be a float between \[0, 1\].'),
    (lambda: K.SGD(foo=1), ValueError, r"Argument\(s\) not recognized: \{'foo': 1\}"),
    (lambda: K.AdamW(weight_decay=None), ValueError, 'weight_decay=None'),
    (lambda: K.SGD(clipnorm=1.0, clipvalue=1.0), ValueError,
     'Only one of `clipnorm`, `clipvalue` and `global_clipnorm` can be set'),
    (lambda: K.Adam(use_ema=True), NotImplementedError, 'use_ema'),
])
def test_constructor_errors(make, error, message):
    with pytest.raises(error, match=message):
        make()


def test_step_errors_leave_state_unchanged():
    v = tf.Variable([1.0, 2.0])
    opt = K.Adam(0.1)
    opt.apply_gradients([(tf.constant([1.0, 1.0]), v)])
    with pytest.raises(ValueError, match='Unknown variable'):
        opt.apply_gradients([(tf.constant([1.0, 1.0]), tf.Variable([1.0, 2.0]))])
    with pytest.raises(ValueError, match='No gradients provided for any variable.'):
        opt.apply_gradients([(None, v)])
    with pytest.raises(ValueError, match='not enough values to unpack'):
        opt.apply_gradients([])
    assert opt.iterations.numpy() == 1
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        w2 = tf.Variable(1.0, name='unused')
        opt2 = K.SGD(0.1)
        opt2.apply_gradients([(tf.constant([1.0, 1.0]), v), (None, w2)])
    assert any('Gradients do not exist for variables' in str(c.message) for c in caught)


def test_automatic_names_count_per_class():
    first, second = K.RMSprop(), K.RMSprop()
    assert first.name.startswith('rm_sprop') and second.name != first.name
    assert K.AdamW().name.startswith('adam_w')
    assert K.SGD(name='mine').name == 'mine'


def test_optimizer_variable_repr_is_keras():
    opt = K.SGD(0.1, name='opt_repr')
    assert repr(opt.iterations) == '<Variable path=opt_repr/iteration, shape=(), dtype=int64, ' \
        'value=0>'
    assert repr(opt.variables[1]) == '<Variable path=opt_repr/learning_rate, shape=(), ' \
        'dtype=float32, value=0.10000000149011612>'


def test_weight_decay_exclusion():
    a, b = tf.Variable(1.0, name='kernel'), tf.Variable(1.0, name='bias')
    opt = K.SGD(0.1, weight_decay=0.5)
    opt.exclude_from_weight_decay(var_names=['bias'])
    opt.apply_gradients([(tf.constant(0.0), a), (tf.constant(0.0), b)])
    assert a.numpy() == pytest.approx(1 - 0.5 * 0.1) and b.numpy() == 1.0
    with pytest.raises(ValueError, match='before the optimizer is built'):
        opt.exclude_from_weight_decay(var_names=['x'])


def test_variables_passed_to_a_function_as_arguments():
    # The function guide's example: TF 2.21 updates w, refuses a second optimizer (its slots
    # would be created on a non-first trace) and reuses the trace for another variable.
    opt1, opt2 = K.Adam(learning_rate=1e-2), K.Adam(learning_rate=1e-3)

    @tf.function
    def train_step(w, x, y, optimizer):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.square(w * x - y))
        optimizer.apply_gradients(zip(tape.gradient(loss, [w]), [w]))

    w, x, y = tf.Variable(2.), tf.constant([-1.]), tf.constant([2.])
    train_step(w, x, y, opt1)
    assert w.numpy() == pytest.approx(1.99)  # recorded from TF 2.21: 1.9900001
    with pytest.raises(ValueError, match='singleton tf.Variables'):
        train_step(w, x, y, opt2)
    w2 = tf.Variable(3.)
    train_step(w2, x, y, opt1)
    assert w2.numpy() == pytest.approx(2.9900036, rel=1e-6)  # recorded from TF 2.21
    with pytest.raises(TypeError, match='can only update Variables'):
        opt1.apply_gradients([(tf.constant(1.0), tf.constant(2.0))])


def test_get_by_name_dict_or_instance():
    assert type(K.get('adam')) is K.Adam and type(K.get('RMSprop')) is K.RMSprop
    assert K.get({'class_name': 'SGD', 'config': {'learning_rate': 0.5}}).learning_rate.numpy() \
        == 0.5
    opt = K.SGD()
    assert K.get(opt) is opt and K.get(None) is None
    for bad in ['nope', 3]:  # TF 2.21's message
        with pytest.raises(ValueError, match=f'Could not interpret optimizer identifier: {bad}'):
            K.get(bad)


def test_custom_optimizer_subclass_as_keras():
    # A Keras-3-style custom optimizer; the result and variable paths were recorded from TF 2.21.
    class MomentumSign(K.Optimizer):
        def __init__(self, learning_rate=0.1, beta=0.5, name='momentum_sign', **kw):
            super().__init__(learning_rate=learning_rate, name=name, **kw)
            self.beta = beta

        def build(self, var_list):
            if self.built:
                return
            super().build(var_list)
            self.ms = [self.add_variable_from_reference(v, 'm') for v in var_list]
            self.count = self.add_variable(shape=(), initializer='ones', name='count')

        def update_step(self, gradient, variable, learning_rate):
            lr = tf.cast(learning_rate, variable.dtype)
            m = self.ms[self._get_variable_index(variable)]
            self.assign(m, self.beta * m + (1 - self.beta) * gradient)
            self.assign_sub(variable, lr * tf.sign(m))
            self.assign_add(self.count, 1.0)

    v = tf.Variable([1.0, -2.0], name='v')
    opt = MomentumSign()
    for g in [[0.5, -1.0], [-2.0, 0.1], [0.3, 0.3]]:
        opt.apply_gradients([(tf.constant(g), v)])
    np.testing.assert_allclose(v.numpy(), [1.1, -1.9], rtol=1e-6)
    assert [x.path for x in opt.variables] == ['momentum_sign/iteration',
                                               'momentum_sign/learning_rate',
                                               'momentum_sign/v_0_m', 'momentum_sign/count']
    assert opt.count.numpy() == 4.0 and opt.iterations.numpy() == 3
    with pytest.raises(ValueError, match='unsupported initializer'):
        opt.add_variable((2,), initializer='glorot_uniform')


def test_bad_gradients_raise_tf_errors():
    v = tf.Variable([1.0, 2.0])
    # Recorded from TF 2.21: the kernel's InvalidArgumentError for a gradient of the wrong shape.
    with pytest.raises(tf.errors.InvalidArgumentError, match='Cannot update variable with shape'):
        K.SGD(0.1).apply_gradients([(tf.constant([1.0, 2.0, 3.0]), v)])
    with pytest.raises(tf.errors.InvalidArgumentError, match='Incompatible shapes'):
        K.Adam(0.1).apply_gradients([(tf.constant([1.0, 2.0, 3.0]), v)])
    opt = K.SGD(0.1)
    with pytest.raises(TypeError, match='A Keras Variable cannot be used as a boolean'):
        bool(opt.apply_gradients([(tf.constant([1.0, 1.0]), v)]))
