"""The bad-argument cases of benchmarks/fuzz_errors.py: each case is `(label, build)` where
`build(tf, np)` returns `(callable, args, kwargs)`. The same table runs under TensorFlow and defun
(both are passed in as `tf`), so a case may only use names both libraries have."""
import fuzz_kinds
import fuzz_signatures
from fuzz_structural import STRUCTURAL


def _unary_names():
    return ['abs', 'math.acos', 'math.asin', 'math.atan', 'math.ceil', 'math.cos', 'math.cosh',
            'math.exp', 'math.expm1', 'math.floor', 'math.log', 'math.log1p', 'math.negative',
            'math.reciprocal', 'math.round', 'math.rsqrt', 'math.sigmoid', 'math.sign',
            'math.sin', 'math.sinh', 'math.sqrt', 'math.square', 'math.tan', 'math.tanh',
            'math.erf', 'math.softplus', 'math.is_finite', 'math.is_inf', 'math.is_nan',
            'nn.relu', 'nn.relu6', 'nn.elu', 'nn.gelu', 'nn.silu', 'nn.leaky_relu', 'nn.softmax',
            'nn.log_softmax', 'nn.l2_loss', 'identity', 'zeros_like', 'ones_like', 'math.real',
            'math.imag', 'math.conj', 'shape', 'size', 'rank', 'stop_gradient', 'transpose',
            'squeeze', 'math.logical_not', 'debugging.check_numerics']


def _binary_names():
    return ['add', 'subtract', 'multiply', 'divide', 'truediv', 'math.floordiv', 'math.floormod',
            'math.mod', 'pow', 'maximum', 'minimum', 'equal', 'not_equal', 'less', 'less_equal',
            'greater', 'greater_equal', 'math.atan2', 'math.logical_and', 'math.logical_or',
            'math.logical_xor', 'math.divide_no_nan', 'matmul']


def _reduce_names():
    return ['reduce_sum', 'reduce_mean', 'reduce_max', 'reduce_min', 'reduce_prod', 'reduce_any',
            'reduce_all', 'math.reduce_logsumexp', 'math.reduce_std', 'math.reduce_variance',
            'argmax', 'argmin', 'math.cumsum', 'math.cumprod', 'nn.softmax', 'nn.log_softmax',
            'reverse', 'sort', 'argsort', 'expand_dims', 'squeeze', 'unstack', 'norm']


def lookup(tf, dotted):
    obj = tf
    for part in dotted.split('.'):
        obj = getattr(obj, part)
    return obj


def _unary_cases():
    bad = {
        'None': lambda tf, np: None,
        'object': lambda tf, np: object(),
        'dict': lambda tf, np: {'a': 1},
        'string': lambda tf, np: 'abc',
        'ragged': lambda tf, np: [[1.0, 2.0], [3.0]],
        'objarray': lambda tf, np: np.array([object(), object()]),
        'int32': lambda tf, np: tf.constant([1, 2]),
        'bool': lambda tf, np: tf.constant([True, False]),
        'strtensor': lambda tf, np: tf.constant(['a', 'b']),
        'complex': lambda tf, np: tf.constant([1 + 2j]),
        'bigint': lambda tf, np: 2 ** 70,
    }
    for name in _unary_names():
        for kind, make in bad.items():
            yield (f'{name}/{kind}',
                   lambda tf, np, name=name, make=make: (lookup(tf, name), [make(tf, np)], {}))
        yield (f'{name}/badname', lambda tf, np, name=name: (
            lookup(tf, name), [tf.constant([0.5, 0.25])], {'name': 'bad name!'}))


def _binary_cases():
    bad = {
        'shapes': lambda tf, np: (tf.ones([2]), tf.ones([3])),
        'f32_i32': lambda tf, np: (tf.ones([2]), tf.constant([1, 2])),
        'f32_f64': lambda tf, np: (tf.ones([2]), tf.ones([2], tf.float64)),
        'bigint': lambda tf, np: (2 ** 70, 1.0),
        'bigint_t': lambda tf, np: (tf.constant([1, 2]), 2 ** 40),
        'None': lambda tf, np: (None, tf.ones([2])),
        'string': lambda tf, np: (tf.ones([2]), 'a'),
        'bools': lambda tf, np: (tf.constant([True]), tf.constant([False])),
        'strtensors': lambda tf, np: (tf.constant(['a']), tf.constant(['b'])),
        'object': lambda tf, np: (tf.ones([2]), object()),
        'ranks': lambda tf, np: (tf.ones([2, 3]), tf.ones([4, 3, 2])),
    }
    for name in _binary_names():
        for kind, make in bad.items():
            yield (f'{name}/{kind}', lambda tf, np, name=name, make=make: (
                lookup(tf, name), list(make(tf, np)), {}))


def _reduce_cases():
    bad = {
        'float': 1.5, 'string': 'a', 'big': 5, 'negbig': -5, 'dup': [0, 0], 'nested': [[0]],
        'list': [0, 1], 'tuplebig': (0, 7),
    }
    for name in _reduce_names():
        for kind, axis in bad.items():
            yield (f'{name}/axis_{kind}', lambda tf, np, name=name, axis=axis: (
                lookup(tf, name), [tf.ones([2, 3])], {'axis': axis}))
        yield (f'{name}/axis_ftensor', lambda tf, np, name=name: (
            lookup(tf, name), [tf.ones([2, 3])], {'axis': tf.constant(1.0)}))


def cases():
    """Every (label, build) pair."""
    yield from _unary_cases()
    yield from _binary_cases()
    yield from _reduce_cases()
    yield from STRUCTURAL.items()
    yield from fuzz_kinds.cases(lookup)
    yield from fuzz_signatures.cases()
