"""Learning-rate schedules: values at steps 0..8 recorded from TF 2.21's tf.keras (Keras 3.15), and
the published formulas (numpy)."""
import math

import numpy as np
import pytest

import defun as tf

S = tf.optimizers.schedules

# Recorded from TF 2.21: [float(schedule(tf.constant(i))) for i in range(9)].
RECORDED = [
    (lambda: S.ExponentialDecay(0.1, 3, 0.9),
     [0.100000001, 0.0965489373, 0.093216978, 0.0899999961, 0.0868940428, 0.0838952735,
      0.0809999928, 0.0782046393, 0.0755057484]),
    (lambda: S.PiecewiseConstantDecay([2, 5], [1.0, 0.5, 0.1]),
     [1, 1, 1, 0.5, 0.5, 0.5, 0.100000001, 0.100000001, 0.100000001]),
    (lambda: S.CosineDecay(0.2, 4),
     [0.200000003, 0.170710683, 0.099999994, 0.0292893238, 0, 0, 0, 0, 0]),
    (lambda: S.CosineDecay(0.2, 4, 0.0, 'c', 0.5, 2),
     [0.200000003, 0.350000024, 0.5, 0.426776707, 0.249999985, 0.0732233077, 0, 0, 0]),
]


@pytest.mark.parametrize('make, expected', RECORDED)
def test_recorded_values(make, expected):
    schedule = make()
    got = [float(schedule(tf.constant(i))) for i in range(9)]
    np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-7)


def test_formulas_and_function_mode():
    steps = np.arange(12)
    exp = S.ExponentialDecay(0.5, 4, 0.3, staircase=True)
    inv = S.InverseTimeDecay(0.5, 4, 0.3)
    cos = S.CosineDecay(0.5, 8, alpha=0.2)
    compiled = tf.function(lambda s: (exp(s), inv(s), cos(s)))
    for step in steps:
        expected = (0.5 * 0.3 ** (step // 4), 0.5 / (1 + 0.3 * step / 4),
                    0.5 * (0.8 * 0.5 * (1 + math.cos(math.pi * min(step, 8) / 8)) + 0.2))
        for got in (compiled(tf.constant(step)), (exp(step), inv(step), cos(step))):
            np.testing.assert_allclose([float(g) for g in got], expected, rtol=1e-6)


def test_errors_and_base_class():
    with pytest.raises(ValueError, match='`decay_steps` must be > 0'):
        S.ExponentialDecay(0.1, 0, 0.5)
    with pytest.raises(ValueError, match='The length of boundaries should be 1 less'):
        S.PiecewiseConstantDecay([1, 2], [0.1])
    with pytest.raises(NotImplementedError, match='must override `__call__'):
        S.LearningRateSchedule()(0)

    class Halving(S.LearningRateSchedule):
        def __call__(self, step):
            return 1.0 / (tf.cast(step, tf.float32) + 1.0)
    opt = tf.optimizers.SGD(Halving())
    v = tf.Variable(0.0)
    for _ in range(3):
        opt.apply_gradients([(tf.constant(-1.0), v)])
    assert v.numpy() == pytest.approx(1 + 1 / 2 + 1 / 3)
    assert S.ExponentialDecay(0.1, 3, 0.9).get_config()['decay_rate'] == 0.9
