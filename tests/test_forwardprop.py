"""tf.autodiff.ForwardAccumulator: JVPs with values recorded from TF 2.21, and finite-difference
checks of the double-VJP construction over a set of registered ops."""
import logging

import numpy as np
import pytest

import defun as tf
from defun.core import dispatch, registry

X = [1.0, 2.0]
T = [0.5, -1.0]


def test_jvp_of_an_eager_computation_and_of_the_primal_itself():
    x, t = tf.constant(X), tf.constant(T)
    with tf.autodiff.ForwardAccumulator(x, t) as acc:
        y = tf.sin(x) * x
        np.testing.assert_allclose(acc.jvp(x).numpy(), T)
    np.testing.assert_allclose(acc.jvp(y).numpy(), [0.6908866, -0.07700372], rtol=1e-5)


def test_unconnected_values_give_none_or_zeros():
    x, t = tf.constant(X), tf.constant(T)
    with tf.autodiff.ForwardAccumulator(x, t) as acc:
        y = tf.constant(3.0)
    outside = x * 2.0   # computed after the block: not recorded
    assert acc.jvp(y) is None
    zero = acc.jvp(y, unconnected_gradients='zero')
    assert zero.numpy() == 0.0 and zero.dtype == tf.float32
    assert acc.jvp([y, outside]) == [None, None]
    assert acc.jvp(tf.constant([1, 2])) is None
    with pytest.raises(ValueError):
        acc.jvp(y, unconnected_gradients='bogus')


def test_variables_and_nested_structures():
    v = tf.Variable(X)
    with tf.autodiff.ForwardAccumulator(v, tf.constant([1.0, 3.0])) as acc:
        y = v * v
        np.testing.assert_allclose(acc.jvp(v).numpy(), [1.0, 3.0])
    np.testing.assert_allclose(acc.jvp(y).numpy(), [2.0, 12.0])
    x, b = tf.constant(X), tf.constant(2.0)
    primals = {'a': x, 'b': [b]}
    with tf.autodiff.ForwardAccumulator(primals, {'a': tf.constant(T), 'b': [3.0]}) as acc:
        y = tf.reduce_sum(x) * b
    out = acc.jvp({'y': y, 'z': b})
    assert out['y'].numpy() == 8.0 and out['z'].numpy() == 3.0


def test_tangent_errors_and_non_float_primals(caplog):
    x = tf.constant(X)
    with pytest.raises(ValueError, match='float32.*float64'):
        tf.autodiff.ForwardAccumulator(x, tf.constant(X, tf.float64))
    with pytest.raises(ValueError, match='same nested structure'):
        tf.autodiff.ForwardAccumulator([x], tf.constant(T))
    ints = tf.constant([1, 2])
    with caplog.at_level(logging.WARNING):
        with tf.autodiff.ForwardAccumulator(ints, tf.constant([1, 2])) as acc:
            y = ints * 2
    assert 'must be floating' in caplog.text
    assert acc.jvp(y) is None


def _cube_sum(x):
    return tf.reduce_sum(x ** 3)


def test_hessian_vector_products_both_ways():
    x, t = tf.constant(X), tf.constant(T)
    with tf.autodiff.ForwardAccumulator(x, t) as acc:    # forward-over-backward (TF's guide)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = _cube_sum(x)
        backward = tape.gradient(y, x)
    np.testing.assert_allclose(acc.jvp(backward).numpy(), [3.0, -12.0])
    with tf.GradientTape() as tape:                       # backward-over-forward
        tape.watch(x)
        with tf.autodiff.ForwardAccumulator(x, t) as acc:
            y = _cube_sum(x)
        jvp = acc.jvp(y)
    np.testing.assert_allclose(tape.gradient(jvp, x).numpy(), [3.0, -12.0])


def test_nested_accumulators_give_second_directional_derivatives():
    x = tf.constant(X)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(T)) as outer:
        with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as inner:
            y = _cube_sum(x)
        jvp = inner.jvp(y)
    assert outer.jvp(jvp).numpy() == -9.0


def test_inside_and_around_tf_function():
    x, t = tf.constant(X), tf.constant(T)

    @tf.function
    def inside(x):
        with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as acc:
            y = tf.exp(x) * 2.0
        return acc.jvp(y)

    np.testing.assert_allclose(inside(x).numpy(), [5.4365635, 14.778112], rtol=1e-6)

    @tf.function
    def compiled(x):
        return tf.tanh(x) * x

    with tf.autodiff.ForwardAccumulator(x, t) as acc:
        y = compiled(x)
    np.testing.assert_allclose(acc.jvp(y).numpy(), [0.59078425, -1.1053293], rtol=1e-6)


def test_reentering_an_active_accumulator_is_refused():
    acc = tf.autodiff.ForwardAccumulator(tf.constant(1.0), 1.0)
    with acc:
        with pytest.raises(ValueError, match='already recording'):
            acc.__enter__()


UNARY = ['Sin', 'Cos', 'Tan', 'Exp', 'Expm1', 'Log', 'Log1p', 'Tanh', 'Sigmoid', 'Sqrt', 'Rsqrt',
         'Square', 'Reciprocal', 'Softplus', 'Atan', 'Asinh', 'Sinh', 'Cosh', 'Erf', 'Relu', 'Elu',
         'Selu', 'Neg', 'Abs', 'Softmax', 'LogSoftmax']
BINARY = ['AddV2', 'Sub', 'Mul', 'RealDiv', 'Pow', 'Maximum', 'Minimum', 'Atan2', 'DivNoNan',
          'MatMul']
ATTRS = {'MatMul': {'transpose_a': False, 'transpose_b': False}, 'Softmax': {'axis': -1},
         'LogSoftmax': {'axis': -1}}


def _check_jvp_against_differences(opdef, arrays, attrs, rng):
    """The accumulator's JVP against central differences along a random tangent, in float64."""
    tangents = [rng.uniform(-1, 1, a.shape) for a in arrays]
    primals = [tf.constant(a) for a in arrays]
    with tf.autodiff.ForwardAccumulator(primals, [tf.constant(t) for t in tangents]) as acc:
        out = dispatch.apply_op(opdef, primals, attrs)
    delta = 1e-6

    def at(sign):
        moved = [tf.constant(a + sign * delta * t) for a, t in zip(arrays, tangents)]
        return dispatch.apply_op(opdef, moved, attrs).numpy()

    np.testing.assert_allclose(acc.jvp(out).numpy(), (at(1) - at(-1)) / (2 * delta),
                               rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize('op_type', UNARY + BINARY)
def test_registered_gradients_give_jvps_matching_finite_differences(op_type):
    opdef = registry.get_op(op_type)
    assert opdef.grad is not None, f'{op_type} has no registered gradient'
    rng = np.random.default_rng(0)
    shape = [(3, 2), (2, 4)] if op_type == 'MatMul' else [(3, 4)] * (2 if op_type in BINARY else 1)
    # Positive inputs away from kinks keep every op in its smooth domain (log, sqrt, pow, ...).
    arrays = [rng.uniform(0.3, 0.9, s) for s in shape]
    if op_type in ('Maximum', 'Minimum', 'Sub', 'Atan2'):
        arrays[1] = arrays[1] + 0.05   # no ties between the arguments
    _check_jvp_against_differences(opdef, arrays, ATTRS.get(op_type), rng)
