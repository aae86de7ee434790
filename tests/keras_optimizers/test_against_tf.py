"""tf.keras.optimizers against TensorFlow: the values after four steps of each optimizer were
recorded by running this same program (same gradients, eager and inside tf.function, which agree
there) under TensorFlow 2.21 with Keras 3.15 (/work/tfenv); slot names likewise."""
import numpy as np
import pytest

import defun as tf

K = tf.optimizers  # defun's own optimizers (tf.keras.optimizers when Keras is absent)
S = K.schedules

GRADS = [np.array([0.5, -1.0, 2.0], np.float32), np.array([-0.25, 0.75, 1.5], np.float32),
         np.array([1.0, 0.1, -3.0], np.float32), np.array([0.01, -0.02, 0.01], np.float32)]

CASES = {
    'sgd': lambda: K.SGD(0.1),
    'sgd_momentum': lambda: K.SGD(0.1, momentum=0.9),
    'sgd_nesterov': lambda: K.SGD(0.1, momentum=0.9, nesterov=True),
    'adam': lambda: K.Adam(0.1),
    'adam_amsgrad': lambda: K.Adam(0.1, amsgrad=True),
    'adam_eps': lambda: K.Adam(0.05, beta_1=0.8, beta_2=0.9, epsilon=0.1),
    'adamw': lambda: K.AdamW(0.1, weight_decay=0.05),
    'rmsprop': lambda: K.RMSprop(0.01),
    'rmsprop_momentum_centered': lambda: K.RMSprop(0.01, momentum=0.5, centered=True),
    'adagrad': lambda: K.Adagrad(0.1, initial_accumulator_value=0.5, epsilon=1e-3),
    'sgd_clipnorm': lambda: K.SGD(0.1, clipnorm=0.5),
    'sgd_clipvalue': lambda: K.SGD(0.1, clipvalue=0.3),
    'adam_global_clipnorm': lambda: K.Adam(0.1, global_clipnorm=1.0),
    'sgd_weight_decay': lambda: K.SGD(0.1, weight_decay=0.1),
    'sgd_exponential_staircase': lambda: K.SGD(S.ExponentialDecay(0.1, 2, 0.5, staircase=True)),
    'sgd_piecewise': lambda: K.SGD(S.PiecewiseConstantDecay([1, 2], [0.1, 0.05, 0.01])),
    'sgd_cosine': lambda: K.SGD(S.CosineDecay(0.1, 3, alpha=0.1)),
}

# Recorded from TF 2.21 (tf.keras = Keras 3.15): final variable value, optimizer variable names.
RECORDED = {
    'sgd': ([0.8739999532699585, 2.0169999599456787, -0.5509999990463257],
        ['iteration', 'learning_rate']),
    'sgd_momentum': ([0.704800009727478, 2.123650074005127, -1.0252999067306519],
        ['iteration', 'learning_rate', 'v_0_momentum']),
    'sgd_nesterov': ([0.6083199977874756, 2.1282849311828613, -1.0237699747085571],
        ['iteration', 'learning_rate', 'v_0_momentum']),
    'adam': ([0.7531439065933228, 2.113105058670044, -0.6975114941596985],
        ['iteration', 'learning_rate', 'v_0_momentum', 'v_0_velocity']),
    'adam_amsgrad': ([0.753169059753418, 2.1131041049957275, -0.697511613368988],
        ['iteration', 'learning_rate', 'v_0_momentum', 'v_0_velocity', 'v_0_velocity_hat']),
    'adam_eps': ([0.9157509207725525, 2.037238836288452, -0.5790179967880249],
        ['iteration', 'learning_rate', 'v_0_momentum', 'v_0_velocity']),
    'adamw': ([0.7353805899620056, 2.0718135833740234, -0.6851160526275635],
        ['iteration', 'learning_rate', 'v_0_momentum', 'v_0_velocity']),
    'rmsprop': ([0.9546386003494263, 2.0098440647125244, -0.5262046456336975],
        ['iteration', 'learning_rate', 'v_0_velocity']),
    'rmsprop_momentum_centered': ([0.9183395504951477, 2.02461314201355, -0.5629544854164124],
        ['iteration', 'learning_rate', 'v_0_velocity', 'v_0_momentum', 'v_0_average_gradient']),
    'adagrad': ([0.8950211405754089, 2.0238559246063232, -0.5766626000404358],
        ['iteration', 'learning_rate', 'v_0_accumulator']),
    'sgd_clipnorm': ([0.9796577095985413, 2.0001251697540283, -0.541465699672699],
        ['iteration', 'learning_rate']),
    'sgd_clipvalue': ([0.9640000462532043, 1.9919999837875366, -0.5309999585151672],
        ['iteration', 'learning_rate']),
    'adam_global_clipnorm': ([0.7830080986022949, 2.081697940826416, -0.7416803240776062],
        ['iteration', 'learning_rate', 'v_0_momentum', 'v_0_velocity']),
    'sgd_weight_decay': ([0.8365834951400757, 1.9368141889572144, -0.5253728032112122],
        ['iteration', 'learning_rate']),
    'sgd_exponential_staircase': ([0.9244999289512634, 2.0209996700286865, -0.7005000710487366],
        ['iteration']),
    'sgd_piecewise': ([0.9248999357223511, 2.020199775695801, -0.7001000642776489],
        ['iteration']),
    'sgd_cosine': ([0.9367750287055969, 2.038825035095215, -0.7188500165939331],
        ['iteration']),
}


def run(make, compiled):
    v = tf.Variable([1.0, 2.0, -0.5], name='v')
    opt = make()

    def step(g):
        opt.apply_gradients([(g, v)])
    if compiled:
        step = tf.function(step)
    for g in GRADS:
        step(tf.constant(g))
    return v.numpy(), opt


@pytest.mark.parametrize('compiled', [False, True], ids=['eager', 'function'])
@pytest.mark.parametrize('case', sorted(CASES))
def test_matches_tensorflow(case, compiled):
    value, opt = run(CASES[case], compiled)
    expected, names = RECORDED[case]
    np.testing.assert_allclose(value, expected, rtol=2e-6, atol=1e-7)
    assert [v.name for v in opt.variables] == names
    assert opt.iterations.numpy() == len(GRADS) and opt.iterations.dtype == tf.int64
