"""The bad-argument cases of benchmarks/fuzz_errors.py: each case is `(label, build)` where
`build(tf, np)` returns `(callable, args, kwargs)`. The same table runs under TensorFlow and defun
(both are passed in as `tf`), so a case may only use names both libraries have."""


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


def _c(fn):
    """A case whose build is fn(tf, np) -> (callable, args, kwargs)."""
    return fn


STRUCTURAL = {
    # concat / stack / add_n
    'concat/empty': lambda tf, np: (tf.concat, [[]], {'axis': 0}),
    'concat/one_tensor': lambda tf, np: (tf.concat, [tf.ones([2, 2])], {'axis': 0}),
    'concat/one_list': lambda tf, np: (tf.concat, [[tf.ones([2, 2])]], {'axis': 0}),
    'concat/shapes': lambda tf, np: (tf.concat, [[tf.ones([2, 2]), tf.ones([2, 3])]], {'axis': 0}),
    'concat/ranks': lambda tf, np: (tf.concat, [[tf.ones([2, 2]), tf.ones([2])]], {'axis': 0}),
    'concat/dtypes': lambda tf, np: (tf.concat, [[tf.ones([2]), tf.constant([1, 2])]],
                                     {'axis': 0}),
    'concat/axis': lambda tf, np: (tf.concat, [[tf.ones([2]), tf.ones([2])]], {'axis': 3}),
    'concat/axis_float': lambda tf, np: (tf.concat, [[tf.ones([2]), tf.ones([2])]],
                                         {'axis': 0.5}),
    'concat/None': lambda tf, np: (tf.concat, [[tf.ones([2]), None]], {'axis': 0}),
    'stack/empty': lambda tf, np: (tf.stack, [[]], {}),
    'stack/one_tensor': lambda tf, np: (tf.stack, [tf.ones([2, 2])], {}),
    'stack/shapes': lambda tf, np: (tf.stack, [[tf.ones([2]), tf.ones([3])]], {}),
    'stack/dtypes': lambda tf, np: (tf.stack, [[tf.ones([2]), tf.constant([1, 2])]], {}),
    'stack/axis': lambda tf, np: (tf.stack, [[tf.ones([2]), tf.ones([2])]], {'axis': 3}),
    'stack/axis_str': lambda tf, np: (tf.stack, [[tf.ones([2]), tf.ones([2])]], {'axis': 'a'}),
    'add_n/shapes': lambda tf, np: (tf.add_n, [[tf.ones([2]), tf.ones([3])]], {}),
    'add_n/bcast': lambda tf, np: (tf.add_n, [[tf.ones([2, 2]), tf.ones([2])]], {}),
    'add_n/empty': lambda tf, np: (tf.add_n, [[]], {}),
    'add_n/dtypes': lambda tf, np: (tf.add_n, [[tf.ones([2]), tf.constant([1, 2])]], {}),
    'add_n/None': lambda tf, np: (tf.add_n, [None], {}),
    'add_n/tensor': lambda tf, np: (tf.add_n, [tf.ones([2])], {}),
    # split / unstack
    'split/sizes_sum': lambda tf, np: (tf.split, [tf.ones([6]), [2, 2]], {}),
    'split/zero': lambda tf, np: (tf.split, [tf.ones([6]), 0], {}),
    'split/nondiv': lambda tf, np: (tf.split, [tf.ones([6]), 4], {}),
    'split/neg': lambda tf, np: (tf.split, [tf.ones([6]), [7, -1]], {}),
    'split/two_neg': lambda tf, np: (tf.split, [tf.ones([6]), [-1, -1]], {}),
    'split/axis': lambda tf, np: (tf.split, [tf.ones([6]), 2], {'axis': 2}),
    'split/float': lambda tf, np: (tf.split, [tf.ones([6]), 2.5], {}),
    'split/num': lambda tf, np: (tf.split, [tf.ones([6]), [3, 3]], {'num': 3}),
    'unstack/num': lambda tf, np: (tf.unstack, [tf.ones([3, 2])], {'num': 2}),
    'unstack/scalar': lambda tf, np: (tf.unstack, [tf.constant(1.0)], {}),
    'unstack/axis': lambda tf, np: (tf.unstack, [tf.ones([3, 2])], {'axis': 2}),
    # one_hot
    'one_hot/neg_depth': lambda tf, np: (tf.one_hot, [tf.constant([0, 1]), -1], {}),
    'one_hot/float_depth': lambda tf, np: (tf.one_hot, [tf.constant([0, 1]), 2.5], {}),
    'one_hot/str_depth': lambda tf, np: (tf.one_hot, [tf.constant([0, 1]), 'a'], {}),
    'one_hot/float_idx': lambda tf, np: (tf.one_hot, [tf.constant([0.0, 1.0]), 3], {}),
    'one_hot/axis': lambda tf, np: (tf.one_hot, [tf.constant([0, 1]), 3], {'axis': 5}),
    'one_hot/None': lambda tf, np: (tf.one_hot, [None, 3], {}),
    # reshape / transpose / tile / pad / broadcast
    'reshape/size': lambda tf, np: (tf.reshape, [tf.ones([6]), [4, 2]], {}),
    'reshape/two_neg': lambda tf, np: (tf.reshape, [tf.ones([6]), [-1, -1]], {}),
    'reshape/neg2': lambda tf, np: (tf.reshape, [tf.ones([6]), [-2, 3]], {}),
    'reshape/float': lambda tf, np: (tf.reshape, [tf.ones([6]), [2.0, 3.0]], {}),
    'reshape/string': lambda tf, np: (tf.reshape, [tf.ones([6]), 'ab'], {}),
    'reshape/None': lambda tf, np: (tf.reshape, [tf.ones([6]), None], {}),
    'reshape/nondiv': lambda tf, np: (tf.reshape, [tf.ones([6]), [4, -1]], {}),
    'transpose/dup': lambda tf, np: (tf.transpose, [tf.ones([2, 3])], {'perm': [0, 0]}),
    'transpose/len': lambda tf, np: (tf.transpose, [tf.ones([2, 3])], {'perm': [0, 1, 2]}),
    'transpose/range': lambda tf, np: (tf.transpose, [tf.ones([2, 3])], {'perm': [0, 5]}),
    'transpose/float': lambda tf, np: (tf.transpose, [tf.ones([2, 3])], {'perm': [0.0, 1.0]}),
    'tile/len': lambda tf, np: (tf.tile, [tf.ones([2, 3]), [2]], {}),
    'tile/neg': lambda tf, np: (tf.tile, [tf.ones([2, 3]), [2, -1]], {}),
    'tile/float': lambda tf, np: (tf.tile, [tf.ones([2, 3]), [2.0, 1.0]], {}),
    'pad/shape': lambda tf, np: (tf.pad, [tf.ones([2, 3]), [[1, 1]]], {}),
    'pad/neg': lambda tf, np: (tf.pad, [tf.ones([2, 3]), [[1, 1], [-1, 0]]], {}),
    'pad/mode': lambda tf, np: (tf.pad, [tf.ones([2, 3]), [[1, 1], [1, 1]]], {'mode': 'FOO'}),
    'pad/reflect_big': lambda tf, np: (tf.pad, [tf.ones([2, 3]), [[2, 2], [0, 0]]],
                                       {'mode': 'REFLECT'}),
    'pad/float': lambda tf, np: (tf.pad, [tf.ones([2, 3]), [[1.0, 1.0], [1.0, 1.0]]], {}),
    'broadcast_to/bad': lambda tf, np: (tf.broadcast_to, [tf.ones([3]), [2, 2]], {}),
    'broadcast_to/neg': lambda tf, np: (tf.broadcast_to, [tf.ones([3]), [-1, 3]], {}),
    'broadcast_to/rank': lambda tf, np: (tf.broadcast_to, [tf.ones([2, 3]), [3]], {}),
    'expand_dims/None': lambda tf, np: (tf.expand_dims, [tf.ones([2])], {'axis': None}),
    'squeeze/not1': lambda tf, np: (tf.squeeze, [tf.ones([2, 1])], {'axis': 0}),
    # gather family
    'gather/oob': lambda tf, np: (tf.gather, [tf.ones([3]), tf.constant([5])], {}),
    'gather/neg': lambda tf, np: (tf.gather, [tf.ones([3]), tf.constant([-1])], {}),
    'gather/float': lambda tf, np: (tf.gather, [tf.ones([3]), tf.constant([1.0])], {}),
    'gather/axis': lambda tf, np: (tf.gather, [tf.ones([3]), tf.constant([1])], {'axis': 2}),
    'gather/batch_dims': lambda tf, np: (tf.gather, [tf.ones([3]), tf.constant([1])],
                                         {'batch_dims': 2}),
    'gather_nd/oob': lambda tf, np: (tf.gather_nd, [tf.ones([3, 2]), tf.constant([[5, 0]])], {}),
    'gather_nd/deep': lambda tf, np: (tf.gather_nd, [tf.ones([3, 2]),
                                                     tf.constant([[0, 0, 0]])], {}),
    'gather_nd/float': lambda tf, np: (tf.gather_nd, [tf.ones([3, 2]), tf.constant([[0.0]])],
                                       {}),
    'boolean_mask/shape': lambda tf, np: (tf.boolean_mask, [tf.ones([3]),
                                                            tf.constant([True, False])], {}),
    'boolean_mask/float': lambda tf, np: (tf.boolean_mask, [tf.ones([3]), tf.ones([3])], {}),
    'boolean_mask/scalar': lambda tf, np: (tf.boolean_mask, [tf.ones([3]), tf.constant(True)],
                                           {}),
    'where/shapes': lambda tf, np: (tf.where, [tf.constant([True, False]), tf.ones([3]),
                                               tf.ones([3])], {}),
    'where/dtypes': lambda tf, np: (tf.where, [tf.constant([True]), tf.ones([1]),
                                               tf.constant([1])], {}),
    'where/float_cond': lambda tf, np: (tf.where, [tf.ones([2]), tf.ones([2]), tf.ones([2])],
                                        {}),
    'slice/oob': lambda tf, np: (tf.slice, [tf.ones([3]), [2], [3]], {}),
    'slice/len': lambda tf, np: (tf.slice, [tf.ones([3, 3]), [0], [1]], {}),
    'slice/neg_begin': lambda tf, np: (tf.slice, [tf.ones([3]), [-1], [1]], {}),
    'scatter_nd/oob': lambda tf, np: (tf.scatter_nd, [tf.constant([[5]]), tf.ones([1]), [3]],
                                      {}),
    'scatter_nd/shape': lambda tf, np: (tf.scatter_nd, [tf.constant([[1]]), tf.ones([2]), [3]],
                                        {}),
    'tensor_scatter_nd_update/oob': lambda tf, np: (
        tf.tensor_scatter_nd_update, [tf.ones([3]), tf.constant([[5]]), tf.ones([1])], {}),
    'tensor_scatter_nd_add/dtype': lambda tf, np: (
        tf.tensor_scatter_nd_add, [tf.ones([3]), tf.constant([[1]]), tf.constant([1])], {}),
    'tensor_scatter_nd_sub/shape': lambda tf, np: (
        tf.tensor_scatter_nd_sub, [tf.ones([3]), tf.constant([[1]]), tf.ones([2])], {}),
    # sorting
    'sort/direction': lambda tf, np: (tf.sort, [tf.ones([3])], {'direction': 'UP'}),
    'argsort/direction': lambda tf, np: (tf.argsort, [tf.ones([3])], {'direction': 'UP'}),
    'top_k/big': lambda tf, np: (tf.math.top_k, [tf.ones([3]), 5], {}),
    'top_k/neg': lambda tf, np: (tf.math.top_k, [tf.ones([3]), -1], {}),
    'top_k/float': lambda tf, np: (tf.math.top_k, [tf.ones([3]), 1.5], {}),
    'top_k/scalar': lambda tf, np: (tf.math.top_k, [tf.constant(1.0), 1], {}),
    'top_k/complex': lambda tf, np: (tf.math.top_k, [tf.constant([1j, 2j]), 1], {}),
    # matmul / einsum / tensordot / linalg
    'matmul/inner': lambda tf, np: (tf.matmul, [tf.ones([2, 3]), tf.ones([2, 3])], {}),
    'matmul/rank1': lambda tf, np: (tf.matmul, [tf.ones([3]), tf.ones([3])], {}),
    'matmul/batch': lambda tf, np: (tf.matmul, [tf.ones([2, 2, 3]), tf.ones([3, 3, 2])], {}),
    'matmul/int8': lambda tf, np: (tf.matmul, [tf.ones([2, 2], tf.int8), tf.ones([2, 2],
                                                                                tf.int8)], {}),
    'matmul/bool': lambda tf, np: (tf.matmul, [tf.ones([2, 2], tf.bool), tf.ones([2, 2],
                                                                                tf.bool)], {}),
    'einsum/bad_eq': lambda tf, np: (tf.einsum, ['ij,jk', tf.ones([2, 3])], {}),
    'einsum/dims': lambda tf, np: (tf.einsum, ['ij,jk->ik', tf.ones([2, 3]), tf.ones([4, 5])],
                                   {}),
    'einsum/chars': lambda tf, np: (tf.einsum, ['i!->i', tf.ones([2, 3])], {}),
    'einsum/rank': lambda tf, np: (tf.einsum, ['ijk->i', tf.ones([2, 3])], {}),
    'tensordot/axes': lambda tf, np: (tf.tensordot, [tf.ones([2, 3]), tf.ones([4, 5])],
                                      {'axes': 1}),
    'tensordot/neg': lambda tf, np: (tf.tensordot, [tf.ones([2, 3]), tf.ones([3, 5])],
                                     {'axes': -1}),
    'tensordot/big': lambda tf, np: (tf.tensordot, [tf.ones([2, 3]), tf.ones([3, 5])],
                                     {'axes': 3}),
    'linalg.inv/nonsquare': lambda tf, np: (tf.linalg.inv, [tf.ones([2, 3])], {}),
    'linalg.inv/singular': lambda tf, np: (tf.linalg.inv, [tf.ones([2, 2])], {}),
    'linalg.inv/int': lambda tf, np: (tf.linalg.inv, [tf.constant([[1, 0], [0, 1]])], {}),
    'linalg.inv/rank1': lambda tf, np: (tf.linalg.inv, [tf.ones([2])], {}),
    'linalg.det/nonsquare': lambda tf, np: (tf.linalg.det, [tf.ones([2, 3])], {}),
    'linalg.det/int': lambda tf, np: (tf.linalg.det, [tf.constant([[1, 0], [0, 1]])], {}),
    'linalg.solve/shapes': lambda tf, np: (tf.linalg.solve, [tf.eye(2), tf.ones([3, 1])], {}),
    'linalg.solve/singular': lambda tf, np: (tf.linalg.solve, [tf.ones([2, 2]), tf.ones([2, 1])],
                                             {}),
    'norm/ord': lambda tf, np: (tf.norm, [tf.ones([3])], {'ord': -1}),
    'norm/ord_str': lambda tf, np: (tf.norm, [tf.ones([3])], {'ord': 'foo'}),
    'norm/int': lambda tf, np: (tf.norm, [tf.constant([1, 2])], {}),
    # creation
    'zeros/neg': lambda tf, np: (tf.zeros, [[-1, 2]], {}),
    'zeros/float': lambda tf, np: (tf.zeros, [[1.5, 2]], {}),
    'zeros/dtype': lambda tf, np: (tf.zeros, [[2]], {'dtype': 'foo'}),
    'zeros/None': lambda tf, np: (tf.zeros, [None], {}),
    'ones/neg': lambda tf, np: (tf.ones, [[-1]], {}),
    'ones/string': lambda tf, np: (tf.ones, ['ab'], {}),
    'fill/neg': lambda tf, np: (tf.fill, [[-1], 1.0], {}),
    'fill/value_shape': lambda tf, np: (tf.fill, [[2], [1.0, 2.0]], {}),
    'fill/None': lambda tf, np: (tf.fill, [[2], None], {}),
    'eye/neg': lambda tf, np: (tf.eye, [-1], {}),
    'eye/float': lambda tf, np: (tf.eye, [2.5], {}),
    'range/delta0': lambda tf, np: (tf.range, [0, 10, 0], {}),
    'range/string': lambda tf, np: (tf.range, ['a'], {}),
    'range/None': lambda tf, np: (tf.range, [None], {}),
    'range/dir': lambda tf, np: (tf.range, [10, 0, 1], {}),
    'range/mixed': lambda tf, np: (tf.range, [tf.constant(1), tf.constant(5.0)], {}),
    'linspace/num0': lambda tf, np: (tf.linspace, [0.0, 1.0, 0], {}),
    'linspace/numneg': lambda tf, np: (tf.linspace, [0.0, 1.0, -1], {}),
    'linspace/int': lambda tf, np: (tf.linspace, [0, 1, 3], {}),
    'linspace/float_num': lambda tf, np: (tf.linspace, [0.0, 1.0, 2.5], {}),
    'constant/None': lambda tf, np: (tf.constant, [None], {}),
    'constant/object': lambda tf, np: (tf.constant, [object()], {}),
    'constant/dict': lambda tf, np: (tf.constant, [{'a': 1}], {}),
    'constant/ragged': lambda tf, np: (tf.constant, [[[1], [1, 2]]], {}),
    'constant/objarray': lambda tf, np: (tf.constant, [np.array([object()])], {}),
    'constant/bigint': lambda tf, np: (tf.constant, [2 ** 70], {}),
    'constant/bigint_dtype': lambda tf, np: (tf.constant, [300], {'dtype': tf.int8}),
    'constant/float_to_int': lambda tf, np: (tf.constant, [1.5], {'dtype': tf.int32}),
    'constant/shape': lambda tf, np: (tf.constant, [[1.0, 2.0]], {'shape': [3]}),
    'constant/badname': lambda tf, np: (tf.constant, [1.0], {'name': 'a b'}),
    'constant/dtype': lambda tf, np: (tf.constant, [1.0], {'dtype': 'foo'}),
    'convert_to_tensor/None': lambda tf, np: (tf.convert_to_tensor, [None], {}),
    'convert_to_tensor/object': lambda tf, np: (tf.convert_to_tensor, [object()], {}),
    'convert_to_tensor/dict': lambda tf, np: (tf.convert_to_tensor, [{'a': 1}], {}),
    'convert_to_tensor/set': lambda tf, np: (tf.convert_to_tensor, [{1, 2}], {}),
    'convert_to_tensor/dtype': lambda tf, np: (tf.convert_to_tensor, [tf.ones([2])],
                                               {'dtype': tf.int32}),
    'convert_to_tensor/list_none': lambda tf, np: (tf.convert_to_tensor, [[1.0, None]], {}),
    'cast/dtype': lambda tf, np: (tf.cast, [tf.ones([2]), 'foo'], {}),
    'cast/None': lambda tf, np: (tf.cast, [None, tf.float32], {}),
    'cast/string': lambda tf, np: (tf.cast, [tf.constant(['a']), tf.float32], {}),
    'clip_by_value/shape': lambda tf, np: (tf.clip_by_value, [tf.ones([3]), tf.zeros([2]), 1.0],
                                           {}),
    'clip_by_value/dtype': lambda tf, np: (tf.clip_by_value, [tf.ones([3]), 0, 1], {}),
    'clip_by_value/None': lambda tf, np: (tf.clip_by_value, [tf.ones([3]), None, 1.0], {}),
    'math.scalar_mul/nonscalar': lambda tf, np: (tf.math.scalar_mul, [tf.ones([2]),
                                                                      tf.ones([2])], {}),
    'math.complex/dtypes': lambda tf, np: (tf.complex, [tf.ones([2]), tf.ones([2], tf.float64)],
                                           {}),
    'math.complex/int': lambda tf, np: (tf.complex, [tf.constant([1]), tf.constant([1])], {}),
    # nn
    'nn.conv2d/rank': lambda tf, np: (tf.nn.conv2d, [tf.ones([4, 4]), tf.ones([2, 2, 1, 1]), 1,
                                                     'VALID'], {}),
    'nn.conv2d/channels': lambda tf, np: (tf.nn.conv2d, [tf.ones([1, 4, 4, 2]),
                                                         tf.ones([2, 2, 3, 1]), 1, 'VALID'], {}),
    'nn.conv2d/big_kernel': lambda tf, np: (tf.nn.conv2d, [tf.ones([1, 2, 2, 1]),
                                                           tf.ones([3, 3, 1, 1]), 1, 'VALID'],
                                            {}),
    'nn.conv2d/stride0': lambda tf, np: (tf.nn.conv2d, [tf.ones([1, 4, 4, 1]),
                                                        tf.ones([2, 2, 1, 1]), 0, 'VALID'], {}),
    'nn.conv2d/padding': lambda tf, np: (tf.nn.conv2d, [tf.ones([1, 4, 4, 1]),
                                                        tf.ones([2, 2, 1, 1]), 1, 'FOO'], {}),
    'nn.conv2d/int': lambda tf, np: (tf.nn.conv2d, [tf.ones([1, 4, 4, 1], tf.int32),
                                                    tf.ones([2, 2, 1, 1], tf.int32), 1, 'VALID'],
                                     {}),
    'nn.conv2d/dtypes': lambda tf, np: (tf.nn.conv2d, [tf.ones([1, 4, 4, 1]),
                                                       tf.ones([2, 2, 1, 1], tf.float64), 1,
                                                       'VALID'], {}),
    'nn.max_pool2d/ksize0': lambda tf, np: (tf.nn.max_pool2d, [tf.ones([1, 4, 4, 1]), 0, 1,
                                                               'VALID'], {}),
    'nn.max_pool2d/stride0': lambda tf, np: (tf.nn.max_pool2d, [tf.ones([1, 4, 4, 1]), 2, 0,
                                                                'VALID'], {}),
    'nn.max_pool2d/big': lambda tf, np: (tf.nn.max_pool2d, [tf.ones([1, 2, 2, 1]), 3, 1,
                                                            'VALID'], {}),
    'nn.max_pool2d/rank': lambda tf, np: (tf.nn.max_pool2d, [tf.ones([4, 4]), 2, 1, 'VALID'],
                                          {}),
    'nn.max_pool2d/padding': lambda tf, np: (tf.nn.max_pool2d, [tf.ones([1, 4, 4, 1]), 2, 1,
                                                                'FOO'], {}),
    'nn.avg_pool2d/ksize0': lambda tf, np: (tf.nn.avg_pool2d, [tf.ones([1, 4, 4, 1]), 0, 1,
                                                               'VALID'], {}),
    'nn.avg_pool2d/stride0': lambda tf, np: (tf.nn.avg_pool2d, [tf.ones([1, 4, 4, 1]), 2, 0,
                                                                'VALID'], {}),
    'nn.avg_pool2d/big': lambda tf, np: (tf.nn.avg_pool2d, [tf.ones([1, 2, 2, 1]), 3, 1,
                                                            'VALID'], {}),
    'nn.avg_pool2d/int': lambda tf, np: (tf.nn.avg_pool2d, [tf.ones([1, 4, 4, 1], tf.int32), 2,
                                                            1, 'VALID'], {}),
    'nn.bias_add/shape': lambda tf, np: (tf.nn.bias_add, [tf.ones([2, 3]), tf.ones([2])], {}),
    'nn.bias_add/rank': lambda tf, np: (tf.nn.bias_add, [tf.ones([2, 3]), tf.ones([1, 3])], {}),
    'nn.bias_add/dtype': lambda tf, np: (tf.nn.bias_add, [tf.ones([2, 3]), tf.ones([3],
                                                                                 tf.float64)],
                                         {}),
    'nn.moments/axes': lambda tf, np: (tf.nn.moments, [tf.ones([2, 3]), [5]], {}),
    'nn.moments/axes_float': lambda tf, np: (tf.nn.moments, [tf.ones([2, 3]), [0.5]], {}),
    'nn.moments/int': lambda tf, np: (tf.nn.moments, [tf.constant([1, 2]), [0]], {}),
    'nn.softmax_cross_entropy_with_logits/shape': lambda tf, np: (
        tf.nn.softmax_cross_entropy_with_logits, [], {'labels': tf.ones([2, 3]),
                                                      'logits': tf.ones([2, 4])}),
    'nn.softmax_cross_entropy_with_logits/dtype': lambda tf, np: (
        tf.nn.softmax_cross_entropy_with_logits, [], {'labels': tf.ones([2, 3], tf.float64),
                                                      'logits': tf.ones([2, 3])}),
    'nn.sparse_softmax_cross_entropy_with_logits/rank': lambda tf, np: (
        tf.nn.sparse_softmax_cross_entropy_with_logits, [],
        {'labels': tf.constant([[0, 1]]), 'logits': tf.ones([2, 3])}),
    'nn.sparse_softmax_cross_entropy_with_logits/oob': lambda tf, np: (
        tf.nn.sparse_softmax_cross_entropy_with_logits, [],
        {'labels': tf.constant([0, 7]), 'logits': tf.ones([2, 3])}),
    'nn.sparse_softmax_cross_entropy_with_logits/float': lambda tf, np: (
        tf.nn.sparse_softmax_cross_entropy_with_logits, [],
        {'labels': tf.constant([0.0, 1.0]), 'logits': tf.ones([2, 3])}),
    'nn.sigmoid_cross_entropy_with_logits/shape': lambda tf, np: (
        tf.nn.sigmoid_cross_entropy_with_logits, [], {'labels': tf.ones([2]),
                                                      'logits': tf.ones([3])}),
    'nn.sigmoid_cross_entropy_with_logits/dtype': lambda tf, np: (
        tf.nn.sigmoid_cross_entropy_with_logits, [], {'labels': tf.ones([2], tf.float64),
                                                      'logits': tf.ones([2])}),
    'nn.leaky_relu/alpha': lambda tf, np: (tf.nn.leaky_relu, [tf.ones([2])], {'alpha': 'a'}),
    'nn.softmax/scalar': lambda tf, np: (tf.nn.softmax, [tf.constant(1.0)], {}),
    # random
    'random.normal/neg': lambda tf, np: (tf.random.normal, [[-1, 2]], {}),
    'random.normal/int': lambda tf, np: (tf.random.normal, [[2]], {'dtype': tf.int32}),
    'random.normal/float_shape': lambda tf, np: (tf.random.normal, [[2.5]], {}),
    'random.normal/None': lambda tf, np: (tf.random.normal, [None], {}),
    'random.uniform/int_nomax': lambda tf, np: (tf.random.uniform, [[2]], {'dtype': tf.int32}),
    'random.uniform/neg': lambda tf, np: (tf.random.uniform, [[-2]], {}),
    'random.uniform/bool': lambda tf, np: (tf.random.uniform, [[2]], {'dtype': tf.bool}),
    'random.shuffle/scalar': lambda tf, np: (tf.random.shuffle, [tf.constant(1.0)], {}),
    'random.shuffle/None': lambda tf, np: (tf.random.shuffle, [None], {}),
    # debugging
    'debugging.check_numerics/nan': lambda tf, np: (
        tf.debugging.check_numerics, [tf.constant([np.nan]), 'msg'], {}),
    'debugging.check_numerics/int': lambda tf, np: (
        tf.debugging.check_numerics, [tf.constant([1]), 'msg'], {}),
    'debugging.assert_equal/fail': lambda tf, np: (
        tf.debugging.assert_equal, [tf.constant([1]), tf.constant([2])], {}),
    'debugging.assert_equal/shape': lambda tf, np: (
        tf.debugging.assert_equal, [tf.ones([2]), tf.ones([3])], {}),
    'debugging.assert_greater/fail': lambda tf, np: (
        tf.debugging.assert_greater, [tf.constant([1]), tf.constant([2])], {}),
    'debugging.Assert/fail': lambda tf, np: (tf.debugging.Assert, [tf.constant(False), ['x']],
                                             {}),
    'debugging.Assert/nonbool': lambda tf, np: (tf.debugging.Assert, [tf.constant(1.0), ['x']],
                                                {}),
    # control flow and functional
    'cond/nonbool': lambda tf, np: (tf.cond, [tf.constant(1.0), lambda: 1.0, lambda: 2.0], {}),
    'cond/shape': lambda tf, np: (tf.cond, [tf.constant([True, False]), lambda: 1.0,
                                            lambda: 2.0], {}),
    'cond/not_callable': lambda tf, np: (tf.cond, [tf.constant(True), 1.0, 2.0], {}),
    'while_loop/not_callable': lambda tf, np: (tf.while_loop, [1, lambda i: i + 1, [0]], {}),
    'while_loop/structure': lambda tf, np: (tf.while_loop, [lambda i: i < 3, lambda i: (i, i),
                                                            [tf.constant(0)]], {}),
    'while_loop/dtype': lambda tf, np: (tf.while_loop, [lambda i: i < 3, lambda i: i + 1.5,
                                                        [tf.constant(0.0, tf.float64)]], {}),
    'map_fn/scalar': lambda tf, np: (tf.map_fn, [lambda x: x, tf.constant(1.0)], {}),
    'map_fn/not_callable': lambda tf, np: (tf.map_fn, [1, tf.ones([2])], {}),
    'scan/scalar': lambda tf, np: (tf.scan, [lambda a, x: a + x, tf.constant(1.0)], {}),
    'foldl/scalar': lambda tf, np: (tf.foldl, [lambda a, x: a + x, tf.constant(1.0)], {}),
    'switch_case/float': lambda tf, np: (tf.switch_case, [tf.constant(1.0),
                                                          [lambda: 1.0, lambda: 2.0]], {}),
    'switch_case/empty': lambda tf, np: (tf.switch_case, [tf.constant(0), []], {}),
    'case/empty_no_default': lambda tf, np: (tf.case, [[]], {}),
    'TensorArray/bad_dtype': lambda tf, np: (tf.TensorArray, ['foo'], {'size': 2}),
    'TensorArray/neg_size': lambda tf, np: (tf.TensorArray, [tf.float32], {'size': -1}),
    # names, variables, scopes
    'Variable/None': lambda tf, np: (tf.Variable, [None], {}),
    'Variable/badname': lambda tf, np: (tf.Variable, [1.0], {'name': 'a b'}),
    'Variable/badname2': lambda tf, np: (tf.Variable, [1.0], {'name': '-x'}),
    'Variable/object': lambda tf, np: (tf.Variable, [object()], {}),
    'Variable/dtype': lambda tf, np: (tf.Variable, [1.5], {'dtype': tf.int32}),
    'name_scope/space': lambda tf, np: (lambda: tf.name_scope('a b').__enter__(), [], {}),
    'name_scope/int': lambda tf, np: (lambda: tf.name_scope(3).__enter__(), [], {}),
    'name_scope/dash': lambda tf, np: (lambda: tf.name_scope('-a').__enter__(), [], {}),
    'identity/badname_colon': lambda tf, np: (tf.identity, [tf.ones([2])], {'name': 'a:0'}),
    'identity/badname_start': lambda tf, np: (tf.identity, [tf.ones([2])], {'name': '_a'}),
    'TensorShape/bad': lambda tf, np: (tf.TensorShape, [['a']], {}),
    'TensorSpec/bad_dtype': lambda tf, np: (tf.TensorSpec, [[2]], {'dtype': 'foo'}),
    'as_dtype/bad': lambda tf, np: (tf.as_dtype, ['foo'], {}),
    'get_static_value/None': lambda tf, np: (tf.get_static_value, [object()], {}),
}


def cases():
    """Every (label, build) pair."""
    yield from _unary_cases()
    yield from _binary_cases()
    yield from _reduce_cases()
    yield from STRUCTURAL.items()
