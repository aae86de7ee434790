"""Specs for the math tables: logic.py, arithmetic.py, elementary.py, complex_numbers.py and reductions.py.

Float64 specs are checked against finite differences (first and second order); float32, integer and
bool specs check the forward result and its dtype (TF's dtype rules) and skip the gradient check."""
import math

import numpy as np

import defun as tf
from defun.core.dispatch import apply_op
from defun.ops.math import elementary
from tests.ops.spec import Spec, ints, positive, rand

_erf = np.vectorize(math.erf)


def _away_from_integers(*shape, seed=0):
    """Values whose fractional part stays away from 0 and .5 (rounding/floor boundaries)."""
    rng = np.random.default_rng(seed)
    return (rng.integers(-3, 4, size=shape) + rng.uniform(0.1, 0.4, size=shape)
            * rng.choice([-1, 1], size=shape)).astype(np.float64)


def _distinct(*shape, seed=0):
    n = int(np.prod(shape))
    rng = np.random.default_rng(seed)
    return (rng.permutation(n).reshape(shape) * 0.37 - 1.0).astype(np.float64)


def _with_zero(n):
    values = rand(n)
    values[0] = 0.0
    return values


def _grad_op(opdef):
    return lambda y, dy: apply_op(opdef, (y, dy))


def _bools(*shape, seed=0):
    return np.random.default_rng(seed).integers(0, 2, size=shape).astype(bool)


def _int_mean(x, axis=None):
    total = x.sum(axis=axis)
    count = x.size // np.size(total)
    return (np.sign(total) * (np.abs(total) // count)).astype(x.dtype)


def _cumulative(fn, x, axis, exclusive, reverse, identity):
    if reverse:
        x = np.flip(x, axis)
    out = fn(x, axis=axis)
    if exclusive:
        out = np.moveaxis(out, axis, 0)
        out = np.concatenate([np.full_like(out[:1], identity), out[:-1]], axis=0)
        out = np.moveaxis(out, 0, axis)
    return np.flip(out, axis) if reverse else out


_MOD_X = np.array([[0.3, 1.7, -0.6], [2.45, -1.9, 0.8]])
_MOD_Y = np.array([0.7, -0.9, 1.3])

LOGIC = [
    Spec('Less', tf.less, [rand(2, 3), rand(3)], np.less),
    Spec('Less', lambda x: tf.less(x, 2), [ints(4)], lambda x: x < 2, id='int-scalar'),
    Spec('LessEqual', tf.less_equal, [ints(2, 3), ints(2, 3)], np.less_equal),
    Spec('Greater', lambda x, y: x > y, [rand(2, 1), rand(3)], np.greater, id='operator'),
    Spec('GreaterEqual', lambda x, y: x >= y, [ints(3), ints(3)], np.greater_equal),
    Spec('Equal', tf.equal, [ints(2, 3, high=2), ints(3, high=2)], np.equal),
    Spec('Equal', tf.equal, [_bools(4), _bools(4, seed=1)], np.equal, id='bool'),
    Spec('NotEqual', tf.not_equal, [ints(4, high=2), ints(4, high=2)], np.not_equal),
    Spec('NotEqual', tf.not_equal, [rand(2, 2), rand(2, 2)], np.not_equal, id='float'),
    Spec('LogicalAnd', tf.logical_and, [_bools(2, 3), _bools(3, seed=1)], np.logical_and),
    Spec('LogicalOr', lambda x, y: x | y, [_bools(4), _bools(4, seed=1)], np.logical_or),
    Spec('LogicalNot', lambda x: ~x, [_bools(4)], np.logical_not),
    Spec('LogicalAnd', tf.math.logical_xor, [_bools(4), _bools(4, seed=1)], np.logical_xor,
         id='xor'),
    Spec('BitwiseAnd', lambda x, y: x & y, [ints(4, high=9), ints(4, high=9)], np.bitwise_and),
    Spec('BitwiseOr', lambda x, y: x | y, [ints(4, high=9), ints(4, high=9)], np.bitwise_or),
    Spec('BitwiseXor', lambda x, y: x ^ y, [ints(4, high=9), ints(4, high=9)], np.bitwise_xor),
    Spec('Invert', lambda x: ~x, [ints(4, dtype=np.int64)], np.invert),
    Spec('LeftShift', tf.bitwise.left_shift, [ints(4, high=9), ints(4, low=0, high=5)], np.left_shift),
    Spec('RightShift', tf.bitwise.right_shift, [ints(4, high=99), ints(4, low=0, high=5)],
         np.right_shift),
    Spec('Bitcast', lambda x: tf.bitcast(x, tf.uint8), [ints(3, dtype=np.int32)],
         lambda x: x.reshape(3, 1).view(np.uint8)),
    Spec('SelectV2', tf.where, [_bools(2, 3), rand(2, 3), rand(3)], np.where),
    Spec('SelectV2', lambda c, x: tf.where(c, x, 0.0), [_bools(3, 1), rand(1, 4)],
         lambda c, x: np.where(c, x, 0.0), id='scalar'),
    Spec('Where', tf.where, [_bools(3, 4)], lambda c: np.argwhere(c).astype(np.int64)),
    Spec('IsFinite', tf.math.is_finite, [np.array([1.0, np.inf, -np.inf, np.nan])], np.isfinite),
    Spec('IsNan', tf.math.is_nan, [np.array([1.0, np.inf, np.nan], np.float32)], np.isnan),
    Spec('IsInf', tf.math.is_inf, [np.array([1.0, np.inf, -np.inf, np.nan])], np.isinf),
]

ARITHMETIC = [
    Spec('FloorDiv', tf.math.floordiv, [ints(2, 3), ints(3, low=1)], np.floor_divide),
    Spec('FloorDiv', lambda x, y: x // y, [_MOD_X, _MOD_Y], lambda x, y: np.floor(x / y),
         id='float'),
    Spec('FloorMod', tf.math.floormod, [_MOD_X, _MOD_Y], np.mod),
    Spec('FloorMod', lambda x, y: x % y, [ints(2, 3), ints(3, low=1)], np.mod, id='int'),
    Spec('FloorMod', lambda x: tf.math.mod(x, -3), [ints(5)], lambda x: np.mod(x, -3),
         id='negative-divisor'),
    Spec('Maximum', tf.maximum, [rand(2, 3), rand(3)], np.maximum),
    Spec('Maximum', tf.maximum, [ints(4), ints(4)], np.maximum, id='int'),
    Spec('Minimum', tf.minimum, [rand(2, 1), rand(1, 3)], np.minimum),
    Spec('Minimum', lambda x: tf.clip_by_value(x, -0.5, 0.5), [rand(2, 3)],
         lambda x: np.clip(x, -0.5, 0.5), id='clip_by_value'),
    Spec('DivNoNan', tf.math.divide_no_nan, [rand(2, 3), positive(3)], np.divide),
    Spec('DivNoNan', tf.math.divide_no_nan, [rand(4), np.array([1.0, 0.0, -2.0, 0.0])],
         lambda x, y: np.where(y == 0, 0.0, x / np.where(y == 0, 1, y)), grad=False, id='zero'),
]

ELEMENTARY = [
    Spec('Pow', tf.pow, [positive(2, 3), rand(3)], np.power),
    Spec('Pow', lambda x: x ** 3, [rand(4)], lambda x: x ** 3, id='operator'),
    Spec('Pow', lambda x: 2.0 ** x, [rand(4)], lambda x: 2.0 ** x, id='rpow'),
    Spec('Pow', tf.pow, [ints(4, low=0), ints(4, low=0, high=4)], np.power, id='int'),
    Spec('Reciprocal', tf.math.reciprocal, [positive(4)], np.reciprocal),
    Spec('Sqrt', tf.sqrt, [positive(2, 3)], np.sqrt),
    Spec('Sqrt', tf.sqrt, [positive(3, dtype=np.float32)], np.sqrt, grad=False,
         id='f32'),
    Spec('Rsqrt', tf.math.rsqrt, [positive(4)], lambda x: 1 / np.sqrt(x)),
    # The gradient ops take (y, dy): the op's output and its gradient; 0 wherever dy is 0.
    Spec('ReciprocalGrad', _grad_op(elementary.RECIPROCAL_GRAD), [positive(4), _with_zero(4)],
         lambda y, dy: -dy * y * y),
    Spec('SqrtGrad', _grad_op(elementary.SQRT_GRAD), [positive(4), _with_zero(4)],
         lambda y, dy: 0.5 * dy / y),
    Spec('SqrtGrad', _grad_op(elementary.SQRT_GRAD), [np.array([0.0, np.inf, 1.0]),
                                                     np.zeros(3)],
         lambda y, dy: np.zeros(3), grad=False, id='nan-trap'),
    Spec('RsqrtGrad', _grad_op(elementary.RSQRT_GRAD), [positive(4), _with_zero(4)],
         lambda y, dy: -0.5 * dy * y ** 3),
    Spec('Log', tf.math.log, [positive(2, 3)], np.log),
    Spec('Log1p', tf.math.log1p, [positive(4)], np.log1p),
    Spec('Expm1', tf.math.expm1, [rand(4)], np.expm1),
    Spec('Tan', tf.tan, [rand(4, low=-1.2, high=1.2)], np.tan),
    Spec('Asin', tf.asin, [rand(4, low=-0.9, high=0.9)], np.arcsin),
    Spec('Acos', tf.acos, [rand(4, low=-0.9, high=0.9)], np.arccos),
    Spec('Atan', tf.atan, [rand(4)], np.arctan),
    Spec('Atan2', tf.atan2, [rand(2, 3), positive(3)], np.arctan2),
    Spec('Atan2', tf.math.atan2, [rand(4), -positive(4)], np.arctan2, id='left-half'),
    Spec('Sinh', tf.sinh, [rand(4)], np.sinh),
    Spec('Cosh', tf.cosh, [rand(4)], np.cosh),
    Spec('Tanh', tf.tanh, [rand(2, 3)], np.tanh),
    Spec('Sigmoid', tf.sigmoid, [rand(2, 3) * 3], lambda x: 1 / (1 + np.exp(-x))),
    Spec('Sigmoid', tf.math.sigmoid, [np.array([-800.0, -30.0, 0.0, 30.0, 800.0], np.float32)],
         lambda x: np.array([0.0, math.exp(-30) / (1 + math.exp(-30)), 0.5, 1.0, 1.0],
                            np.float32), atol=0,
         rtol=1e-6, grad=False, id='extremes'),
    Spec('Softplus', tf.math.softplus, [rand(2, 3) * 3], lambda x: np.log1p(np.exp(x))),
    Spec('Softplus', tf.math.softplus, [np.array([-100.0, 100.0], np.float32)],
         lambda x: np.array([np.exp(-100.0), 100.0], np.float32), grad=False,
         id='no-overflow'),
    Spec('Erf', tf.math.erf, [rand(2, 3)], _erf),
    Spec('Erfc', tf.math.erfc, [rand(2, 3)], np.vectorize(math.erfc)),
    Spec('Abs', tf.abs, [rand(2, 3)], np.abs),
    Spec('Abs', abs, [ints(4)], np.abs, id='int-operator'),
    Spec('ComplexAbs', tf.abs, [np.array([3 + 4j, -1j, 0j])], np.abs, grad=False),
    Spec('Sign', tf.sign, [rand(2, 3)], np.sign),
    Spec('Sign', tf.sign, [ints(5)], np.sign, id='int'),
    Spec('Round', tf.round, [_away_from_integers(2, 3)], np.round),
    Spec('Round', tf.round, [np.array([0.5, 1.5, 2.5, -0.5, -1.5, 2.4], np.float32)],
         lambda x: np.array([0, 2, 2, -0.0, -2, 2], np.float32), grad=False,
         id='half-to-even'),
    Spec('Floor', tf.floor, [_away_from_integers(2, 3)], np.floor),
    Spec('Ceil', tf.math.ceil, [_away_from_integers(4)], np.ceil),
    Spec('Complex', tf.complex, [rand(3), rand(3)], lambda re, im: re + 1j * im),
    Spec('Complex', tf.complex, [rand(3, dtype=np.float32), rand(3, dtype=np.float32)],
         lambda re, im: (re + 1j * im).astype(np.complex64), id='c64'),
    Spec('Real', tf.math.real, [np.array([1 + 2j, -3 - 4j])], np.real),
    Spec('Real', lambda re, im: tf.math.real(tf.complex(re, im) * tf.complex(im, re)),
         [rand(3), rand(3)], lambda re, im: np.real((re + 1j * im) * (im + 1j * re)),
         id='roundtrip'),
    Spec('Imag', lambda re, im: tf.math.imag(tf.complex(re, im) * tf.complex(re, re)),
         [rand(3), rand(3)], lambda re, im: np.imag((re + 1j * im) * (re + 1j * re))),
    Spec('Conj', lambda re, im: tf.math.real(tf.math.conj(tf.complex(re, im)) * tf.complex(im, im)),
         [rand(3), rand(3)], lambda re, im: np.real((re - 1j * im) * (im + 1j * im))),
    Spec('ComplexAbs', lambda re, im: tf.abs(tf.complex(re, im)), [positive(3), rand(3)],
         lambda re, im: np.abs(re + 1j * im), id='grad'),
]

REDUCTIONS = [
    Spec('Sum', lambda x: tf.reduce_sum(x, axis=-1), [rand(2, 3)], lambda x: x.sum(axis=-1),
         id='negative-axis'),
    Spec('Sum', lambda x: tf.reduce_sum(x), [ints(2, 3)], lambda x: x.sum(dtype=np.int32),
         id='int'),
    Spec('Mean', lambda x: tf.reduce_mean(x, axis=0), [rand(2, 3)], lambda x: x.mean(axis=0)),
    Spec('Mean', lambda x: tf.reduce_mean(x, axis=[0, 2], keepdims=True), [rand(2, 3, 2)],
         lambda x: x.mean(axis=(0, 2), keepdims=True), id='keepdims'),
    Spec('Mean', tf.reduce_mean, [np.array([[-1, -2, 4], [3, 3, 5]], np.int32)],
         _int_mean, id='int-truncates'),
    Spec('Mean', lambda x: tf.reduce_mean(x, 1), [np.array([[-1, -2], [1, 2]], np.int64)],
         lambda x: _int_mean(x, 1), id='int-negative'),
    Spec('Max', lambda x: tf.reduce_max(x, axis=1), [_distinct(3, 4)], lambda x: x.max(axis=1)),
    Spec('Max', tf.reduce_max, [np.array([1.0, 3.0, 3.0, 2.0])], lambda x: x.max(),
         grad=False, id='tie'),
    Spec('Max', tf.reduce_max, [ints(2, 3)], lambda x: x.max(), id='int'),
    Spec('Min', lambda x: tf.reduce_min(x, axis=[0, 1], keepdims=True), [_distinct(2, 3)],
         lambda x: x.min(axis=(0, 1), keepdims=True)),
    Spec('Prod', lambda x: tf.reduce_prod(x, axis=1), [rand(2, 3)], lambda x: x.prod(axis=1)),
    Spec('Prod', tf.reduce_prod, [rand(2, 3)], lambda x: x.prod(), id='all'),
    Spec('Prod', lambda x: tf.reduce_prod(x, axis=[0, 2]), [rand(2, 2, 3)],
         lambda x: x.prod(axis=(0, 2)), id='two-axes'),
    Spec('Prod', lambda x: tf.reduce_prod(x, axis=0),
         [np.array([[0.0, 2.0, 0.0], [3.0, 0.5, 0.0], [1.5, -1.0, 2.0]])],
         # TF's cumprod gradient divides by the input, so only the first order is exact at zeros.
         lambda x: x.prod(axis=0), second_order=False, id='zeros'),
    Spec('Any', lambda x: tf.reduce_any(x, axis=1), [_bools(3, 4)], lambda x: x.any(axis=1)),
    Spec('All', tf.reduce_all, [_bools(3, 4)], lambda x: x.all()),
    Spec('Max', lambda x: tf.reduce_logsumexp(x, axis=1), [rand(2, 3)],
         lambda x: np.log(np.exp(x).sum(axis=1)), id='logsumexp'),
    Spec('Max', tf.reduce_logsumexp, [np.array([1000.0, 1000.0], np.float32)],
         lambda x: np.float32(1000 + np.log(2)), grad=False, id='logsumexp-big'),
    Spec('Mean', lambda x: tf.math.reduce_variance(x, axis=0), [rand(3, 2)],
         lambda x: x.var(axis=0), id='variance'),
    Spec('Mean', lambda x: tf.math.reduce_std(x, axis=1, keepdims=True), [rand(2, 4)],
         lambda x: x.std(axis=1, keepdims=True), id='std'),
    Spec('ArgMax', lambda x: tf.argmax(x), [_distinct(3, 4)],
         lambda x: x.argmax(axis=0).astype(np.int64)),
    Spec('ArgMax', lambda x: tf.argmax(x, axis=1, output_type=tf.int32), [ints(3, 4)],
         lambda x: x.argmax(axis=1).astype(np.int32), id='int32'),
    Spec('ArgMin', lambda x: tf.math.argmin(x, axis=-1), [_distinct(3, 4)],
         lambda x: x.argmin(axis=-1).astype(np.int64)),
    Spec('Cumsum', lambda x: tf.cumsum(x, axis=1), [rand(2, 3)], lambda x: x.cumsum(axis=1)),
    Spec('Cumsum', lambda x: tf.cumsum(x, exclusive=True, reverse=True), [rand(4, 2)],
         lambda x: _cumulative(np.cumsum, x, 0, True, True, 0), id='exclusive-reverse'),
    Spec('Cumsum', lambda x: tf.cumsum(x, exclusive=True), [ints(4)],
         lambda x: _cumulative(np.cumsum, x, 0, True, False, 0).astype(np.int32), id='int'),
    Spec('Cumprod', lambda x: tf.math.cumprod(x, axis=1), [positive(2, 3)],
         lambda x: x.cumprod(axis=1)),
    Spec('Cumprod', lambda x: tf.math.cumprod(x, exclusive=True, reverse=True), [positive(4)],
         lambda x: _cumulative(np.cumprod, x, 0, True, True, 1), id='exclusive-reverse'),
]

SPECS = LOGIC + ARITHMETIC + ELEMENTARY + REDUCTIONS
