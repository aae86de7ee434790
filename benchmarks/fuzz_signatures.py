"""Families of bad-argument cases for benchmarks/fuzz_errors.py that walk TF's op signatures (see
fuzz_cases.py for the format): input dtypes an op's signature refuses, or that no CPU kernel of
TF's runs (sorting bool, string or complex tensors, pooling ints, half rint...), for ops of one
and two inputs and for matrix ops, window attributes of the wrong kind (nested lists, tensors,
values beyond int32, empty lists), and the argument rules of py_function / numpy_function."""

# Ops of one tensor input whose TF signature limits its dtype.
DTYPE_OPS = {
    'sort': lambda tf, x: (tf.sort, [x]),
    'argsort': lambda tf, x: (tf.argsort, [x]),
    'math.top_k': lambda tf, x: (tf.math.top_k, [x]),
    'math.cumsum': lambda tf, x: (tf.math.cumsum, [x]),
    'math.floor': lambda tf, x: (tf.math.floor, [x]),
    'math.round': lambda tf, x: (tf.math.round, [x]),
    'math.square': lambda tf, x: (tf.math.square, [x]),
    'math.negative': lambda tf, x: (tf.math.negative, [x]),
    'math.reciprocal': lambda tf, x: (tf.math.reciprocal, [x]),
    'nn.selu': lambda tf, x: (tf.nn.selu, [x]),
    'nn.softsign': lambda tf, x: (tf.nn.softsign, [x]),
    'nn.relu': lambda tf, x: (tf.nn.relu, [x]),
    'debugging.check_numerics': lambda tf, x: (tf.debugging.check_numerics, [x, 'm']),
    'argmax': lambda tf, x: (tf.argmax, [x]),
    'reduce_max': lambda tf, x: (tf.reduce_max, [x]),
}

# More ops of one tensor input whose signature limits its dtype (checks that used to be each op's).
DTYPE_OPS.update({
    'math.rint': lambda tf, x: (tf.math.rint, [x]),
    'math.is_finite': lambda tf, x: (tf.math.is_finite, [x]),
    'math.is_nan': lambda tf, x: (tf.math.is_nan, [x]),
    'math.logical_not': lambda tf, x: (tf.math.logical_not, [x]),
    'bitwise.invert': lambda tf, x: (tf.bitwise.invert, [x]),
    'math.lgamma': lambda tf, x: (tf.math.lgamma, [x]),
    'math.digamma': lambda tf, x: (tf.math.digamma, [x]),
    'math.erfinv': lambda tf, x: (tf.math.erfinv, [x]),
    'math.ndtri': lambda tf, x: (tf.math.ndtri, [x]),
    'math.asinh': lambda tf, x: (tf.math.asinh, [x]),
    'math.atanh': lambda tf, x: (tf.math.atanh, [x]),
    'math.reduce_euclidean_norm': lambda tf, x: (tf.math.reduce_euclidean_norm, [x]),
    'math.exp': lambda tf, x: (tf.math.exp, [x]),
    'nn.elu': lambda tf, x: (tf.nn.elu, [x]),
    'nn.softmax': lambda tf, x: (tf.nn.softmax, [x]),
    'nn.l2_loss': lambda tf, x: (tf.nn.l2_loss, [x]),
    'math.cumprod': lambda tf, x: (tf.math.cumprod, [x]),
    'reverse': lambda tf, x: (tf.reverse, [x, [0]]),
})

# Ops of two tensor inputs of one dtype (x, x), whose signature limits it.
BINARY_DTYPE_OPS = {
    name: (lambda tf, x, name=name: (_lookup(tf, name), [x, x]))
    for name in ['truncatediv', 'truncatemod', 'math.floordiv', 'math.floormod', 'maximum',
                 'minimum', 'subtract', 'multiply', 'math.logical_and', 'bitwise.bitwise_and',
                 'bitwise.left_shift', 'math.multiply_no_nan', 'math.polygamma', 'complex',
                 'math.xlogy', 'math.divide_no_nan', 'math.nextafter', 'math.less',
                 'math.squared_difference', 'math.atan2']}

# Matrix ops, given a [2, 2] matrix of each refused dtype (or (matrix, matrix)).
MATRIX_OPS = {
    name: (lambda tf, m, name=name, n=n: (_lookup(tf, name), [m] * n))
    for name, n in [('linalg.inv', 1), ('linalg.det', 1), ('linalg.slogdet', 1),
                    ('linalg.cholesky', 1), ('linalg.qr', 1), ('linalg.eigh', 1),
                    ('linalg.svd', 1), ('linalg.solve', 2), ('linalg.triangular_solve', 2),
                    ('matmul', 2), ('linalg.matrix_transpose', 1), ('linalg.band_part', 1)]}
MATRIX_OPS['linalg.band_part'] = lambda tf, m: (tf.linalg.band_part, [m, 0, -1])

MATRIX_DTYPES = {
    'bool': lambda tf: tf.constant([[True, False], [False, True]]),
    'string': lambda tf: tf.constant([['a', 'b'], ['c', 'd']]),
    'int32': lambda tf: tf.constant([[2, 1], [1, 2]]),
    'float16': lambda tf: tf.constant([[2.0, 1.0], [1.0, 2.0]], tf.float16),
    'complex': lambda tf: tf.constant([[2 + 0j, 1j], [-1j, 2 + 0j]]),
}


def _lookup(tf, dotted):
    obj = tf
    for part in dotted.split('.'):
        obj = getattr(obj, part)
    return obj


BAD_DTYPES = {
    'bool': lambda tf: tf.constant([True, False]),
    'string': lambda tf: tf.constant(['b', 'a']),
    'complex': lambda tf: tf.constant([1 + 2j, 3j]),
    'int32': lambda tf: tf.constant([2, 1]),
    'uint8': lambda tf: tf.constant([2, 1], tf.uint8),
    'float16': lambda tf: tf.constant([2.0, 1.0], tf.float16),
}

# Pool and conv calls with one window argument replaced (x is a [1, 4, 4, 1] float32 tensor).
WINDOW_OPS = {
    'max_pool2d/ksize': lambda tf, v: (tf.nn.max_pool2d, [tf.ones([1, 4, 4, 1]), v, 1, 'VALID']),
    'max_pool2d/strides': lambda tf, v: (tf.nn.max_pool2d, [tf.ones([1, 4, 4, 1]), 2, v, 'VALID']),
    'avg_pool2d/ksize': lambda tf, v: (tf.nn.avg_pool2d, [tf.ones([1, 4, 4, 1]), v, 1, 'VALID']),
    'conv2d/strides': lambda tf, v: (tf.nn.conv2d, [tf.ones([1, 4, 4, 1]), tf.ones([2, 2, 1, 1]),
                                                    v, 'VALID']),
    'depthwise_conv2d/strides': lambda tf, v: (
        tf.nn.depthwise_conv2d, [tf.ones([1, 4, 4, 1]), tf.ones([2, 2, 1, 1]), v, 'VALID']),
}

BAD_WINDOWS = {
    'nested': lambda tf: [[2], [2]],
    'nested4': lambda tf: [[1, 2, 2, 1]],
    'float': lambda tf: 1.5,
    'string': lambda tf: 'a',
    'None_list': lambda tf: [None, 2],
    'zero': lambda tf: 0,
    'negative': lambda tf: -1,
    'length3': lambda tf: [1, 2, 2],
}

PY_FUNCTIONS = {
    'py_function/Tout_float': lambda tf, np: (
        tf.py_function, [lambda x: x, [tf.constant(1.0)]], {'Tout': 3.5}),
    'py_function/inp_tensor': lambda tf, np: (
        tf.py_function, [lambda x: x, tf.constant(1.0)], {'Tout': tf.float32}),
    'py_function/func_None': lambda tf, np: (
        tf.py_function, [None, [tf.constant(1.0)]], {'Tout': tf.float32}),
    'py_function/Tout_string': lambda tf, np: (
        tf.py_function, [lambda x: x, [tf.constant(1.0)]], {'Tout': 'float33'}),
    'numpy_function/inp_None': lambda tf, np: (
        tf.numpy_function, [lambda x: x, None], {'Tout': tf.float32}),
    'numpy_function/func_int': lambda tf, np: (
        tf.numpy_function, [3, [1.0]], {'Tout': tf.float32}),
    'numpy_function/inp_dict': lambda tf, np: (
        tf.numpy_function, [lambda x: x, {'a': 1.0}], {'Tout': tf.float32}),
}


def cases():
    """Every generated (label, build) pair."""
    for op, make in DTYPE_OPS.items():
        for kind, value in BAD_DTYPES.items():
            yield (f's/{op}/dtype_{kind}', lambda tf, np, make=make, value=value: (
                *make(tf, value(tf)), {}))
    for op, make in BINARY_DTYPE_OPS.items():
        for kind, value in BAD_DTYPES.items():
            yield (f's/{op}/dtypes_{kind}', lambda tf, np, make=make, value=value: (
                *make(tf, value(tf)), {}))
    for op, make in MATRIX_OPS.items():
        for kind, value in MATRIX_DTYPES.items():
            yield (f's/{op}/matrix_{kind}', lambda tf, np, make=make, value=value: (
                *make(tf, value(tf)), {}))
    for op, make in WINDOW_OPS.items():
        for kind, value in BAD_WINDOWS.items():
            yield (f's/{op}_{kind}', lambda tf, np, make=make, value=value: (
                *make(tf, value(tf)), {}))
    for label, build in PY_FUNCTIONS.items():
        yield f's/{label}', build
