"""Generated families of bad-argument cases for benchmarks/fuzz_errors.py (see fuzz_cases.py for
the format): each family crosses a list of ops with a table of bad values of one kind of argument
(axes, sizes and counts, dtypes, values that are no tensor, names, empty lists), so that a kind the
held-out harness uses is tried on every op that takes it."""

# Ops taking an `axis` keyword, with their other arguments (x is a float32 [2, 4] tensor).
AXIS_OPS = {
    'concat': lambda tf, x: (tf.concat, [[x, x]]),
    'stack': lambda tf, x: (tf.stack, [[x, x]]),
    'unstack': lambda tf, x: (tf.unstack, [x]),
    'split': lambda tf, x: (tf.split, [x, 2]),
    'gather': lambda tf, x: (tf.gather, [x, tf.constant([0])]),
    'expand_dims': lambda tf, x: (tf.expand_dims, [x]),
    'one_hot': lambda tf, x: (tf.one_hot, [tf.constant([[0, 1]]), 3]),
    'roll': lambda tf, x: (tf.roll, [x, 1]),
    'repeat': lambda tf, x: (tf.repeat, [x, 2]),
    'boolean_mask': lambda tf, x: (tf.boolean_mask, [x, tf.constant([True, False])]),
    'math.reduce_euclidean_norm': lambda tf, x: (tf.math.reduce_euclidean_norm, [x]),
    'math.count_nonzero': lambda tf, x: (tf.math.count_nonzero, [x]),
    'math.cumulative_logsumexp': lambda tf, x: (tf.math.cumulative_logsumexp, [x]),
    'nn.l2_normalize': lambda tf, x: (tf.nn.l2_normalize, [x]),
    'linalg.norm': lambda tf, x: (tf.linalg.norm, [x]),
    'math.reduce_sum': lambda tf, x: (tf.math.reduce_sum, [x]),
    'math.argmax': lambda tf, x: (tf.math.argmax, [x]),
    'math.cumsum': lambda tf, x: (tf.math.cumsum, [x]),
    'nn.softmax': lambda tf, x: (tf.nn.softmax, [x]),
    'reverse': lambda tf, x: (tf.reverse, [x]),
    'squeeze': lambda tf, x: (tf.squeeze, [tf.ones([2, 1])]),
}

BAD_AXES = {
    'bool': lambda tf, np: True,
    'none_list': lambda tf, np: [None],
    'itensor2d': lambda tf, np: tf.constant([[0]]),
    'np_float': lambda tf, np: np.float32(1.0),
    'huge': lambda tf, np: 2 ** 63,
    'dict': lambda tf, np: {'a': 0},
    'object': lambda tf, np: object(),
    'neg_dup': lambda tf, np: [0, -2],
    'empty': lambda tf, np: [],
    'str_list': lambda tf, np: ['a'],
    'float': lambda tf, np: 1.5,
    'big': lambda tf, np: 5,
    'nested': lambda tf, np: [[0]],
    'ftensor': lambda tf, np: tf.constant(1.0),
}

# Ops taking a count or a shape: (build of the call for a bad count/size value).
SIZE_OPS = {
    'zeros': lambda tf, v: (tf.zeros, [[2, v]]),
    'ones': lambda tf, v: (tf.ones, [[v]]),
    'fill': lambda tf, v: (tf.fill, [[v, 2], 1.0]),
    'random.normal': lambda tf, v: (tf.random.normal, [[v]]),
    'random.uniform': lambda tf, v: (tf.random.uniform, [[2, v]]),
    'reshape': lambda tf, v: (tf.reshape, [tf.ones([6]), [v, 3]]),
    'broadcast_to': lambda tf, v: (tf.broadcast_to, [tf.ones([3]), [v, 3]]),
    'tile': lambda tf, v: (tf.tile, [tf.ones([2, 3]), [v, 1]]),
    'eye': lambda tf, v: (tf.eye, [v]),
    'range': lambda tf, v: (tf.range, [v]),
    'linspace': lambda tf, v: (tf.linspace, [0.0, 1.0, v]),
    'one_hot': lambda tf, v: (tf.one_hot, [tf.constant([0, 1]), v]),
    'math.top_k': lambda tf, v: (tf.math.top_k, [tf.ones([4]), v]),
    'split': lambda tf, v: (tf.split, [tf.ones([6]), v]),
    'split_sizes': lambda tf, v: (tf.split, [tf.ones([6]), [v, 3]]),
    'repeat': lambda tf, v: (tf.repeat, [tf.ones([3]), v]),
    'slice': lambda tf, v: (tf.slice, [tf.ones([4]), [0], [v]]),
    'pad': lambda tf, v: (tf.pad, [tf.ones([2]), [[v, 1]]]),
    'random.categorical': lambda tf, v: (tf.random.categorical, [tf.zeros([1, 3]), v]),
    'sequence_mask': lambda tf, v: (tf.sequence_mask, [tf.constant([1, 2]), v]),
}

BAD_SIZES = {
    'neg2': lambda tf, np: -2,
    'float': lambda tf, np: 2.5,
    'bool': lambda tf, np: True,
    'None': lambda tf, np: None,
    'string': lambda tf, np: 'a',
    'nested': lambda tf, np: [2],
    'ftensor': lambda tf, np: tf.constant(2.0),
    'vector': lambda tf, np: tf.constant([2, 2]),
    'huge': lambda tf, np: 2 ** 63,
    'object': lambda tf, np: object(),
}

BINARY_OPS = ['add', 'subtract', 'multiply', 'divide', 'math.floordiv', 'math.floormod', 'pow',
              'maximum', 'minimum', 'equal', 'less', 'greater_equal', 'math.atan2',
              'math.logical_and', 'math.divide_no_nan', 'math.squared_difference', 'math.xlogy',
              'matmul', 'math.truediv', 'math.not_equal']

BAD_PAIRS = {
    'u8': lambda tf, np: (tf.constant([1, 2], tf.uint8), tf.constant([3, 4], tf.uint8)),
    'f16': lambda tf, np: (tf.ones([2], tf.float16), tf.ones([2], tf.float16)),
    'i64_i32': lambda tf, np: (tf.constant([1], tf.int64), tf.constant([1])),
    'c64': lambda tf, np: (tf.constant([1j, 2j]), tf.constant([1j, 1j])),
    'np_f64': lambda tf, np: (tf.ones([2]), np.ones(2)),
    'bigint_f32': lambda tf, np: (tf.ones([2]), 2 ** 70),
    'over_i32': lambda tf, np: (tf.constant([1]), 2 ** 31),
    'u8_over': lambda tf, np: (tf.constant([1], tf.uint8), 300),
    'u8_neg': lambda tf, np: (tf.constant([1], tf.uint8), -1),
    'None2': lambda tf, np: (tf.ones([2]), None),
    'dict': lambda tf, np: (tf.ones([2]), {'a': 1}),
    'objarr': lambda tf, np: (tf.ones([2]), np.array([object(), object()])),
    'empty_list': lambda tf, np: (tf.ones([2]), []),
    'f32_c64': lambda tf, np: (tf.ones([1]), tf.constant([1j])),
    'strs': lambda tf, np: (tf.constant(['a']), 'b'),
}

UNARY_OPS = ['abs', 'math.exp', 'math.log', 'math.sqrt', 'math.sigmoid', 'math.tanh',
             'math.square', 'math.negative', 'math.sign', 'math.round', 'math.floor',
             'math.reciprocal', 'math.softplus', 'math.erf', 'math.is_nan', 'math.log_sigmoid',
             'math.reduce_sum', 'math.reduce_max', 'math.argmax', 'math.cumsum', 'nn.relu',
             'nn.relu6', 'nn.elu', 'nn.selu', 'nn.gelu', 'nn.softmax', 'nn.l2_loss',
             'nn.l2_normalize', 'identity', 'zeros_like', 'ones_like', 'shape', 'size', 'rank',
             'transpose', 'reverse', 'sort', 'unstack', 'math.real', 'math.conj',
             'math.reduce_variance', 'linalg.norm', 'math.logical_not', 'math.cos',
             'math.rsqrt', 'math.expm1', 'math.asinh', 'math.lgamma', 'math.bessel_i0e',
             'math.digamma']

BAD_UNARY = {
    'u8': lambda tf, np: tf.constant([1, 2], tf.uint8),
    'f16': lambda tf, np: tf.constant([0.5, 0.25], tf.float16),
    'i64': lambda tf, np: tf.constant([1, 2], tf.int64),
    'empty_list': lambda tf, np: [],
    'nested_empty': lambda tf, np: [[]],
    'bytes': lambda tf, np: b'abc',
    'set': lambda tf, np: {1, 2},
    'list_none': lambda tf, np: [1.0, None],
    'bigint_list': lambda tf, np: [1, 2 ** 70],
    'tuple_mixed': lambda tf, np: (1.0, 'a'),
}

# Ops given a name while a graph is built (eagerly TF ignores names).
NAMED_OPS = {
    'concat': lambda tf, x: (tf.concat, [[x, x], 0]),
    'stack': lambda tf, x: (tf.stack, [[x, x]]),
    'split': lambda tf, x: (tf.split, [x, 2]),
    'gather': lambda tf, x: (tf.gather, [x, [0]]),
    'reshape': lambda tf, x: (tf.reshape, [x, [-1]]),
    'one_hot': lambda tf, x: (tf.one_hot, [[0, 1], 3]),
    'tile': lambda tf, x: (tf.tile, [x, [1, 2]]),
    'pad': lambda tf, x: (tf.pad, [x, [[1, 1], [0, 0]]]),
    'where': lambda tf, x: (tf.where, [x > 0, x, x]),
    'transpose': lambda tf, x: (tf.transpose, [x]),
    'reduce_sum': lambda tf, x: (tf.reduce_sum, [x]),
    'matmul': lambda tf, x: (tf.matmul, [x, x, False, True]),
    'cast': lambda tf, x: (tf.cast, [x, tf.int32]),
    'zeros': lambda tf, x: (tf.zeros, [[2]]),
    'fill': lambda tf, x: (tf.fill, [[2], 1.0]),
    'range': lambda tf, x: (tf.range, [3]),
    'add_n': lambda tf, x: (tf.add_n, [[x, x]]),
    'clip_by_value': lambda tf, x: (tf.clip_by_value, [x, 0.0, 1.0]),
    'nn.softmax': lambda tf, x: (tf.nn.softmax, [x]),
    'nn.dropout': lambda tf, x: (tf.nn.dropout, [x, 0.5]),
    'nn.bias_add': lambda tf, x: (tf.nn.bias_add, [x, tf.ones([4])]),
    'nn.moments': lambda tf, x: (tf.nn.moments, [x, [0]]),
    'linalg.matvec': lambda tf, x: (tf.linalg.matvec, [x, tf.ones([4])]),
    'linalg.diag_part': lambda tf, x: (tf.linalg.diag_part, [x]),
    'math.top_k': lambda tf, x: (tf.math.top_k, [x, 1]),
    'math.reduce_std': lambda tf, x: (tf.math.reduce_std, [x]),
    'random.normal': lambda tf, x: (tf.random.normal, [[2]]),
    'random.uniform': lambda tf, x: (tf.random.uniform, [[2]]),
    'expand_dims': lambda tf, x: (tf.expand_dims, [x, 0]),
    'squeeze': lambda tf, x: (tf.squeeze, [tf.ones([2, 1])]),
    'boolean_mask': lambda tf, x: (tf.boolean_mask, [x, [True, False]]),
    'unstack': lambda tf, x: (tf.unstack, [x]),
    'einsum': lambda tf, x: (tf.einsum, ['ij->ji', x]),
    'tensordot': lambda tf, x: (tf.tensordot, [x, x, [[1], [1]]]),
    'identity': lambda tf, x: (tf.identity, [x]),
    'stop_gradient': lambda tf, x: (tf.stop_gradient, [x]),
    'math.cumsum': lambda tf, x: (tf.math.cumsum, [x]),
    'sort': lambda tf, x: (tf.sort, [x]),
    'argsort': lambda tf, x: (tf.argsort, [x]),
}

BAD_NAMES = {'space': 'a b', 'colon': 'a:0', 'int': 3, 'bang': 'x!', 'underscore': '_x'}

# Empty lists where the op needs elements (or where TF accepts them, which is checked too).
EMPTY = {
    'concat/empties': lambda tf, np: (tf.concat, [[[], []], 0], {}),
    'stack/of_empty': lambda tf, np: (tf.stack, [[[]]], {}),
    'add_n/of_empty': lambda tf, np: (tf.add_n, [[[]]], {}),
    'reduce_max/empty': lambda tf, np: (tf.reduce_max, [[]], {}),
    'argmax/empty': lambda tf, np: (tf.argmax, [tf.zeros([0])], {}),
    'argmin/empty': lambda tf, np: (tf.argmin, [tf.zeros([0, 2])], {}),
    'math.top_k/empty': lambda tf, np: (tf.math.top_k, [tf.zeros([0]), 1], {}),
    'split/empty_sizes': lambda tf, np: (tf.split, [tf.ones([2]), []], {}),
    'unstack/empty_num': lambda tf, np: (tf.unstack, [tf.zeros([0, 2])], {'num': 1}),
    'gather/empty_params': lambda tf, np: (tf.gather, [tf.zeros([0]), [0]], {}),
    'reshape/empty_shape': lambda tf, np: (tf.reshape, [tf.ones([2]), []], {}),
    'tile/empty_multiples': lambda tf, np: (tf.tile, [tf.ones([2]), []], {}),
    'pad/empty': lambda tf, np: (tf.pad, [tf.ones([2]), []], {}),
    'transpose/empty_perm': lambda tf, np: (tf.transpose, [tf.ones([2, 2]), []], {}),
    'einsum/no_operands': lambda tf, np: (tf.einsum, ['->'], {}),
    'meshgrid/none': lambda tf, np: (tf.meshgrid, [], {}),
    'linalg.inv/empty': lambda tf, np: (tf.linalg.inv, [tf.zeros([0, 0])], {}),
    'linalg.det/empty_batch': lambda tf, np: (tf.linalg.det, [tf.zeros([0, 2, 2])], {}),
    'matmul/empty_inner': lambda tf, np: (tf.matmul, [tf.zeros([2, 0]), tf.zeros([0, 3])], {}),
    'nn.softmax/empty': lambda tf, np: (tf.nn.softmax, [tf.zeros([0])], {}),
    'broadcast_to/empty_shape': lambda tf, np: (tf.broadcast_to, [tf.ones([2]), []], {}),
    'one_hot/empty_indices': lambda tf, np: (tf.one_hot, [[], 3], {}),
    'scatter_nd/empty_shape': lambda tf, np: (tf.scatter_nd, [[[0]], [1.0], []], {}),
    'where/empty_cond': lambda tf, np: (tf.where, [[]], {}),
    'boolean_mask/empty_mask': lambda tf, np: (tf.boolean_mask, [tf.ones([2]), []], {}),
    'random.shuffle/empty': lambda tf, np: (tf.random.shuffle, [[]], {}),
    'clip_by_global_norm/empty': lambda tf, np: (tf.clip_by_global_norm, [[], 1.0], {}),
    'linalg.global_norm/empty': lambda tf, np: (tf.linalg.global_norm, [[]], {}),
    'math.reduce_logsumexp/empty': lambda tf, np: (tf.math.reduce_logsumexp, [[]], {}),
    'sort/empty': lambda tf, np: (tf.sort, [[]], {}),
}


def cases(lookup):
    """Every generated (label, build) pair; `lookup(tf, dotted_name)` finds an op."""
    for op, make in AXIS_OPS.items():
        for kind, axis in BAD_AXES.items():
            yield (f'k/{op}/axis_{kind}', lambda tf, np, make=make, axis=axis: (
                make(tf, tf.ones([2, 4]))[0], make(tf, tf.ones([2, 4]))[1],
                {'axis': axis(tf, np)}))
    for op, make in SIZE_OPS.items():
        for kind, value in BAD_SIZES.items():
            yield (f'k/{op}/size_{kind}', lambda tf, np, make=make, value=value: (
                *make(tf, value(tf, np)), {}))
    for op in BINARY_OPS:
        for kind, pair in BAD_PAIRS.items():
            yield (f'k/{op}/{kind}', lambda tf, np, op=op, pair=pair: (
                lookup(tf, op), list(pair(tf, np)), {}))
    for op in UNARY_OPS:
        for kind, value in BAD_UNARY.items():
            yield (f'k/{op}/{kind}', lambda tf, np, op=op, value=value: (
                lookup(tf, op), [value(tf, np)], {}))
    for op, make in NAMED_OPS.items():
        for kind, name in BAD_NAMES.items():
            yield (f'k/{op}/name_{kind}', lambda tf, np, make=make, name=name: (
                *make(tf, tf.ones([2, 4])), {'name': name}))
    for label, build in EMPTY.items():
        yield f'k/{label}', build
