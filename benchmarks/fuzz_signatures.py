"""Families of bad-argument cases for benchmarks/fuzz_errors.py that walk TF's op signatures (see
fuzz_cases.py for the format): input dtypes an op's signature refuses (sorting bool, string or
complex tensors, pooling ints...), window attributes of the wrong kind (nested lists, tensors,
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
    for op, make in WINDOW_OPS.items():
        for kind, value in BAD_WINDOWS.items():
            yield (f's/{op}_{kind}', lambda tf, np, make=make, value=value: (
                *make(tf, value(tf)), {}))
    for label, build in PY_FUNCTIONS.items():
        yield f's/{label}', build
