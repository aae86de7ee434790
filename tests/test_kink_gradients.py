"""Gradients at kinks and NaN traps, op by op, as TensorFlow computes them.

Every expected value below was recorded from TensorFlow 2.21 (eager GradientTape, float32): the
first-order gradient of each function with respect to each input, and the gradient of the sum of
those gradients (second order). They pin down TF's choices where a function has no derivative
(relu, abs, maximum/minimum ties, clip_by_value at its bounds, reduce_max ties, ...) and where a
naive formula gives NaN (sqrt/rsqrt/reciprocal gradients fed zeros through `where`, TF's where-based
sigmoid cross entropy, pow at 0, norm at 0, ...). Each runs eagerly and inside a tf.function.
"""
import warnings

import numpy as np
import pytest

import defun as tf

NAN, INF = float('nan'), float('inf')
Z = [-1.0, 0.0, 1.0]


def C(*values):
    return [np.array(v, dtype=np.float32) for v in values]


CASES = [
    ('relu', lambda x: tf.nn.relu(x), C(Z),
     [[0.0, 0.0, 1.0]],
     [[0.0, 0.0, 0.0]]),
    ('relu6', lambda x: tf.nn.relu6(x), C([-1., 0., 3., 6., 7.]),
     [[0.0, 0.0, 1.0, 0.0, 0.0]],
     [[0.0, 0.0, 0.0, 0.0, 0.0]]),
    ('elu', lambda x: tf.nn.elu(x), C(Z),
     [[0.3678794503211975, 1.0, 1.0]],
     [[0.3678794503211975, 0.0, 0.0]]),
    ('leaky_relu', lambda x: tf.nn.leaky_relu(x), C(Z),
     [[0.20000000298023224, 0.20000000298023224, 1.0]],
     [[0.0, 0.0, 0.0]]),
    ('abs', lambda x: tf.abs(x), C(Z),
     [[-1.0, 0.0, 1.0]],
     [[0.0, 0.0, 0.0]]),
    ('sign', lambda x: tf.sign(x), C(Z),
     [[0.0, 0.0, 0.0]],
     [None]),
    ('maximum_tie', lambda x, y: tf.maximum(x, y), C([1., 2., 3.], [1., 1., 4.]),
     [[1.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
     [None, None]),
    ('minimum_tie', lambda x, y: tf.minimum(x, y), C([1., 2., 3.], [1., 1., 4.]),
     [[1.0, 0.0, 1.0], [0.0, 1.0, 0.0]],
     [None, None]),
    ('clip_bounds', lambda x, a, b: tf.clip_by_value(x, a, b), C([-1., 0., 0.5, 1., 2.], 0., 1.),
     [[0.0, 1.0, 1.0, 1.0, 0.0], 1.0, 1.0],
     [None, None, None]),
    ('clip_bounds_vec', lambda x, a, b: tf.clip_by_value(x, a, b), C([-1., 0., 0.5, 1., 2.], [0.]*5, [1.]*5),
     [[0.0, 1.0, 1.0, 1.0, 0.0], [1.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 1.0]],
     [None, None, None]),
    ('reduce_max_tie', lambda x: tf.reduce_max(x), C([1., 3., 3., 2.]),
     [[0.0, 0.5, 0.5, 0.0]],
     [None]),
    ('reduce_min_tie', lambda x: tf.reduce_min(x), C([1., 1., 3., 2.]),
     [[0.5, 0.5, 0.0, 0.0]],
     [None]),
    ('reduce_max_axis_tie', lambda x: tf.reduce_max(x, axis=1), C([[1., 3., 3.], [2., 2., 2.]]),
     [[[0.0, 0.5, 0.5], [0.3333333432674408, 0.3333333432674408, 0.3333333432674408]]],
     [None]),
    ('sqrt0', lambda x: tf.sqrt(x), C([0., 1., 4.]),
     [[INF, 0.5, 0.25]],
     [[-INF, -0.25, -0.03125]]),
    ('sqrt_neg', lambda x: tf.sqrt(x), C([-1., 1.]),
     [[NAN, 0.5]],
     [[NAN, -0.25]]),
    ('where_sqrt', lambda x: tf.where(x > 0, tf.sqrt(x), 0.), C([-1., 0., 4.]),
     [[0.0, 0.0, 0.25]],
     [[NAN, NAN, -0.03125]]),
    ('rsqrt', lambda x: tf.math.rsqrt(x), C([-1., 0., 4.]),
     [[NAN, -INF, -0.0625]],
     [[NAN, INF, 0.0234375]]),
    ('where_rsqrt', lambda x: tf.where(x > 0, tf.math.rsqrt(x), 0.), C([-1., 0., 4.]),
     [[0.0, 0.0, -0.0625]],
     [[NAN, NAN, 0.0234375]]),
    ('pow_0_2', lambda x, y: tf.pow(x, y), C([0., 0., -2.], [2., 2., 2.]),
     [[0.0, 0.0, -4.0], [0.0, 0.0, 0.0]],
     [[2.0, 2.0, 2.0], [0.0, 0.0, -2.0]]),
    ('pow_0_0', lambda x, y: tf.pow(x, y), C([0.], [0.]),
     [[NAN], [0.0]],
     [[NAN], [NAN]]),
    ('pow_0_half', lambda x, y: tf.pow(x, y), C([0.], [0.5]),
     [[INF], [0.0]],
     [[NAN], [NAN]]),
    ('pow_neg_y', lambda x, y: tf.pow(x, y), C([0.], [-1.]),
     [[-INF], [NAN]],
     [[NAN], [NAN]]),
    ('pow_scalar_y', lambda x, y: x ** y, C([0., 1., -1.], 3.),
     [[0.0, 3.0, 3.0], 0.0],
     [[0.0, 7.0, -6.0], 2.0]),
    ('norm0', lambda x: tf.norm(x), C([0., 0., 0.]),
     [[NAN, NAN, NAN]],
     [[NAN, NAN, NAN]]),
    ('norm_axis0', lambda x: tf.norm(x, axis=1), C([[0., 0.], [3., 4.]]),
     [[[NAN, NAN], [0.6000000238418579, 0.800000011920929]]],
     [[[NAN, NAN], [0.031999990344047546, -0.024000003933906555]]]),
    ('norm_ord1_0', lambda x: tf.norm(x, ord=1), C([0., 0., 1.]),
     [[0.0, 0.0, 1.0]],
     [[0.0, 0.0, 0.0]]),
    ('sce_logits0', lambda l, z: tf.nn.sigmoid_cross_entropy_with_logits(labels=l, logits=z), C([0., 1., 0.3, 0.5, 1.], [0., 0., 0., 100., -100.]),
     [[-0.0, -0.0, -0.0, -100.0, 100.0], [0.5, -0.5, 0.19999998807907104, 0.5, -1.0]],
     [[-1.0, -1.0, -1.0, -1.0, -1.0], [-0.75, -0.75, -0.75, -1.0, -1.0]]),
    ('softmax_ce', lambda l, z: tf.nn.softmax_cross_entropy_with_logits(labels=l, logits=z), C([[0., 1., 0.]], [[0., 0., 0.]]),
     [[[1.0986123085021973, 1.0986123085021973, 1.0986123085021973]], [[0.3333333432674408, -0.6666666269302368, 0.3333333432674408]]],
     [[[0.0, 0.0, 0.0]], [[-5.960464477539063e-08, -5.960464477539063e-08, -5.960464477539063e-08]]]),
    ('sparse_softmax_ce', lambda z: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.constant([1]), logits=z), C([[0., 0., 0.]]),
     [[[0.3333333432674408, -0.6666666269302368, 0.3333333432674408]]],
     [[[0.0, 0.0, 0.0]]]),
    ('div_no_nan', lambda x, y: tf.math.divide_no_nan(x, y), C([1., 0., 2.], [0., 0., 2.]),
     [[0.0, 0.0, 0.5], [0.0, 0.0, -0.5]],
     [[-0.0, -0.0, -0.25], [0.0, 0.0, 0.25]]),
    ('log0', lambda x: tf.math.log(x), C([0., 1.]),
     [[INF, 1.0]],
     [[-INF, -1.0]]),
    ('reciprocal0', lambda x: tf.math.reciprocal(x), C([0., 1.]),
     [[-INF, -1.0]],
     [[INF, 2.0]]),
    ('div0', lambda x, y: x / y, C([0., 1.], [0., 0.]),
     [[INF, INF], [NAN, -INF]],
     [[-INF, -INF], [NAN, NAN]]),
    ('atan2_00', lambda y, x: tf.math.atan2(y, x), C([0., 1.], [0., 0.]),
     [[NAN, 0.0], [NAN, -1.0]],
     [[NAN, 1.0], [NAN, 1.0]]),
    ('asin1', lambda x: tf.asin(x), C([1., -1., 0.]),
     [[INF, INF, 1.0]],
     [[INF, -INF, 0.0]]),
    ('acos1', lambda x: tf.acos(x), C([1., -1., 0.]),
     [[-INF, -INF, -1.0]],
     [[-INF, INF, -0.0]]),
    ('reduce_prod0', lambda x: tf.reduce_prod(x), C([0., 2., 3.]),
     [[6.0, 0.0, 0.0]],
     [[0.0, 3.0, 2.0]]),
    ('reduce_prod00', lambda x: tf.reduce_prod(x), C([0., 0., 3.]),
     [[0.0, 0.0, 0.0]],
     [[0.0, 0.0, 0.0]]),
    ('cumprod0', lambda x: tf.math.cumprod(x), C([2., 0., 3.]),
     [[1.0, 0.0, 0.0]],
     [[0.0, 0.0, 0.0]]),
    ('sigmoid_big', lambda x: tf.sigmoid(x), C([-100., 0., 100.]),
     [[0.0, 0.25, 0.0]],
     [[0.0, 0.0, -0.0]]),
    ('tanh_big', lambda x: tf.tanh(x), C([-100., 0., 100.]),
     [[0.0, 1.0, 0.0]],
     [[0.0, -0.0, -0.0]]),
    ('logsumexp_inf', lambda x: tf.reduce_logsumexp(x), C([float('-inf'), 0.]),
     [[0.0, 1.0]],
     [[0.0, 0.0]]),
    ('logsumexp_allinf', lambda x: tf.reduce_logsumexp(x), C([float('-inf'), float('-inf')]),
     [[NAN, NAN]],
     [[NAN, NAN]]),
    ('log_softmax', lambda x: tf.nn.log_softmax(x), C([0., 0., 1000.]),
     [[1.0, 1.0, -2.0]],
     [[0.0, 0.0, 0.0]]),
    ('softmax', lambda x: tf.nn.softmax(x), C([0., 0., 1000.]),
     [[0.0, 0.0, 0.0]],
     [[0.0, 0.0, 0.0]]),
    ('floormod', lambda x, y: tf.math.floormod(x, y), C([5., -5.], [3., 3.]),
     [[1.0, 1.0], [-1.0, 2.0]],
     [None, None]),
    ('floordiv', lambda x, y: tf.math.floordiv(x, y), C([5., -5.], [3., 3.]),
     [None, None],
     'ERR ValueError: Inputs must be an iterable of at least one Tensor/IndexedSlices with the same dtype and shape.'),
    ('reduce_std_const', lambda x: tf.math.reduce_std(x), C([1., 1., 1.]),
     [[NAN, NAN, NAN]],
     [[NAN, NAN, NAN]]),
    ('reduce_variance', lambda x: tf.math.reduce_variance(x), C([1., 1., 1.]),
     [[0.0, 0.0, 0.0]],
     [[0.0, 0.0, 0.0]]),
    ('top_k_tie', lambda x: tf.math.top_k(x, 2).values, C([1., 3., 3., 2.]),
     [[0.0, 1.0, 1.0, 0.0]],
     [None]),
    ('sort_tie', lambda x: tf.sort(x), C([1., 3., 3., 2.]),
     [[1.0, 1.0, 1.0, 1.0]],
     [None]),
    ('l2_loss', lambda x: tf.nn.l2_loss(x), C([0., 1.]),
     [[0.0, 1.0]],
     [[1.0, 1.0]]),
    ('huber_like', lambda x: tf.where(tf.abs(x) < 1., 0.5 * x * x, tf.abs(x) - 0.5), C([-1., 0., 1., 2.]),
     [[-1.0, 0.0, 1.0, 1.0]],
     [[0.0, 1.0, 0.0, 0.0]]),
    ('erf', lambda x: tf.math.erf(x), C([0.]),
     [[1.128379225730896]],
     [[-0.0]]),
    ('exp_big', lambda x: tf.exp(x), C([100.]),
     [[INF]],
     [[INF]]),
    ('log1p_m1', lambda x: tf.math.log1p(x), C([-1., 0.]),
     [[INF, 1.0]],
     [[-INF, -1.0]]),
    ('expm1', lambda x: tf.math.expm1(x), C([0.]),
     [[1.0]],
     [[1.0]]),
    ('square0', lambda x: tf.square(x), C([0.]),
     [[0.0]],
     [[2.0]]),
    ('tan_pi2', lambda x: tf.tan(x), C([0.]),
     [[1.0]],
     [[0.0]]),
    ('max_pool_tie', lambda x: tf.nn.max_pool2d(x, 2, 2, 'VALID'), [np.ones((1, 2, 2, 1), np.float32)],
     [[[[[1.0], [0.0]], [[0.0], [0.0]]]]],
     [[[[[0.0], [0.0]], [[0.0], [0.0]]]]]),
    ('reduce_max_neg_inf', lambda x: tf.reduce_max(x), C([float('-inf'), float('-inf')]),
     [[0.5, 0.5]],
     [None]),
    ('abs_sqrt', lambda x: tf.sqrt(tf.abs(x)), C([0.]),
     [[NAN]],
     [[NAN]]),
    ('bias_relu', lambda x: tf.nn.relu(x - 1.), C([1.]),
     [[0.0]],
     [[0.0]]),
    ('reduce_logsumexp_axis', lambda x: tf.reduce_logsumexp(x, axis=0), C([[0., 0.], [0., 0.]]),
     [[[0.5, 0.5], [0.5, 0.5]]],
     [[[0.0, 0.0], [0.0, 0.0]]]),
    ('matrix_norm_fro0', lambda x: tf.norm(x, ord='fro', axis=[0, 1]), C([[0., 0.], [0., 0.]]),
     [[[NAN, NAN], [NAN, NAN]]],
     [[[NAN, NAN], [NAN, NAN]]]),
    ('norm_inf', lambda x: tf.norm(x, ord=np.inf), C([1., -1., 0.5]),
     [[0.5, -0.5, 0.0]],
     [[0.0, 0.0, 0.0]]),
    ('nan_to_where', lambda x: tf.where(tf.math.is_nan(x), tf.zeros_like(x), x), C([1.]),
     [[1.0]],
     [None]),
    ('log_where', lambda x: tf.where(x > 0, tf.math.log(x), 0.), C([0., -1., 1.]),
     [[NAN, -0.0, 1.0]],
     [[0.0, 0.0, -1.0]]),
    ('div_where', lambda x: tf.where(x != 0, 1. / x, 0.), C([0., 2.]),
     [[NAN, -0.25]],
     [[NAN, 0.25]]),
    ('lrelu_alpha', lambda x: tf.nn.leaky_relu(x, 0.3), C([0.]),
     [[0.30000001192092896]],
     [[0.0]]),
    ('gelu0', lambda x: tf.nn.gelu(x), C([0., -10.]),
     [[0.5, -7.618400084582658e-22]],
     [[0.7978845834732056, -7.540706903210545e-21]]),
    ('swish0', lambda x: tf.nn.silu(x), C([0.]),
     [[0.5]],
     [[0.5]]),
    ('relu_grad_of_grad', lambda x: tf.nn.relu(x) * x, C([0.]),
     [[0.0]],
     [[0.0]]),
    ('selu', lambda x: tf.nn.selu(x), C(Z),
     [[0.6467685699462891, 1.0507010221481323, 1.0507010221481323]],
     [[0.6467685699462891, 0.0, 0.0]]),
    ('softplus', lambda x: tf.nn.softplus(x), C([-100., -20., 0., 20., 100.]),
     [[0.0, 2.06115369216775e-09, 0.5, 1.0, 1.0]],
     [[0.0, 2.06115369216775e-09, 0.25, 0.0, 0.0]]),
    ('softsign', lambda x: tf.nn.softsign(x), C(Z),
     [[0.25, 1.0, 0.25]],
     'ERR LookupError: gradient registry has no entry for: SoftsignGrad'),
    ('euclid0', lambda x: tf.math.reduce_euclidean_norm(x), C([0., 0.]),
     [[NAN, NAN]],
     [[NAN, NAN]]),
    ('l2_normalize0', lambda x: tf.math.l2_normalize(x), C([0., 0.]),
     [[1000000.0, 1000000.0]],
     [[0.0, 0.0]]),
    ('mul_no_nan', lambda x, y: tf.math.multiply_no_nan(x, y), C([1., 0., float('inf')], [0., 0., 2.]),
     [[0.0, 0.0, 2.0], [1.0, 0.0, INF]],
     [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]),
    ('xlogy', lambda x, y: tf.math.xlogy(x, y), C([0., 0., 1., 2.], [0., 1., 0., 2.]),
     [[0.0, 0.0, -INF, 0.6931471824645996], [0.0, 0.0, INF, 1.0]],
     [[0.0, 0.0, INF, 0.5], [0.0, 0.0, NAN, 0.0]]),
    ('xdivy', lambda x, y: tf.math.xdivy(x, y), C([0., 0., 1., 2.], [0., 1., 0., 2.]),
     [[0.0, 0.0, INF, 0.5], [0.0, 0.0, -INF, -0.5]],
     [[-0.0, -0.0, -INF, -0.25], [0.0, 0.0, NAN, 0.25]]),
    ('xlog1py', lambda x, y: tf.math.xlog1py(x, y), C([0., 0., 1.], [-1., 0., 0.]),
     [[0.0, 0.0, 0.0], [0.0, 0.0, 1.0]],
     [[0.0, 0.0, 1.0], [0.0, 0.0, 0.0]]),
    ('log_sigmoid', lambda x: tf.math.log_sigmoid(x), C([-100., 0., 100.]),
     [[1.0, 0.5, 0.0]],
     [[-0.0, -0.25, -0.0]]),
    ('squared_diff', lambda x, y: tf.math.squared_difference(x, y), C([1., 2.], [1., 0.]),
     [[0.0, 4.0], [-0.0, -4.0]],
     [[0.0, 0.0], [-0.0, -0.0]]),
    ('segment_max_tie', lambda x: tf.math.segment_max(x, tf.constant([0, 0, 1])), C([3., 3., 1.]),
     [[0.5, 0.5, 1.0]],
     [None]),
    ('unsorted_segment_max_tie', lambda x: tf.math.unsorted_segment_max(x, tf.constant([0, 0, 1]), 2), C([3., 3., 1.]),
     [[0.5, 0.5, 1.0]],
     [None]),
    ('sigmoid_ce_manual', lambda z: tf.nn.weighted_cross_entropy_with_logits(labels=tf.constant([1., 0.]), logits=z, pos_weight=2.), C([0., 0.]),
     [[0.0, 1.0]],
     [[0.0, 0.0]]),
    ('cosine_zero', lambda x, y: tf.reduce_sum(tf.math.l2_normalize(x) * tf.math.l2_normalize(y)), C([0., 0.], [1., 0.]),
     [[1000000.0, 0.0], [0.0, 0.0]],
     [[0.0, 1000000.0], [0.0, 1000000.0]]),
    ('clip_by_norm0', lambda x: tf.clip_by_norm(x, 1.), C([0., 0.]),
     [[1.0, 1.0]],
     [[0.0, 0.0]]),
    ('clip_by_norm_big', lambda x: tf.clip_by_norm(x, 1.), C([3., 4.]),
     [[0.031999990344047546, -0.024000003933906555]],
     [[-0.018879994750022888, 0.012160003185272217]]),
    ('clip_by_global_norm0', lambda x: tf.clip_by_global_norm([x], 1.)[0][0], C([0., 0.]),
     [[NAN, NAN]],
     [[NAN, NAN]]),
    ('crelu', lambda x: tf.nn.crelu(x), C([0., 1.]),
     [[0.0, 1.0]],
     [[0.0, 0.0]]),
]


def _first_order(fn, args):
    ts = [tf.convert_to_tensor(a) for a in args]
    with tf.GradientTape() as tape:
        tape.watch(ts)
        y = fn(*ts)
    return tape.gradient(y, ts)


def _second_order(fn, args):
    ts = [tf.constant(a) for a in args]
    with tf.GradientTape() as outer:
        outer.watch(ts)
        with tf.GradientTape() as inner:
            inner.watch(ts)
            y = fn(*ts)
        grads = inner.gradient(y, ts)
        total = tf.add_n([tf.reduce_sum(g) for g in grads if g is not None])
    return outer.gradient(total, ts)


def _check(got, expected):
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        if e is None:
            assert g is None
        else:
            np.testing.assert_allclose(g.numpy(), np.array(e, np.float32), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize('name,fn,args,first,second', CASES, ids=[c[0] for c in CASES])
def test_first_order_as_tf(name, fn, args, first, second):
    _check(_first_order(fn, args), first)


@pytest.mark.parametrize('name,fn,args,first,second', CASES, ids=[c[0] for c in CASES])
def test_first_order_compiled_as_tf(name, fn, args, first, second):
    compiled = tf.function(lambda *ts: _first_order(fn, ts))
    _check(compiled(*[tf.constant(a) for a in args]), first)


@pytest.mark.parametrize('name,fn,args,first,second', CASES, ids=[c[0] for c in CASES])
def test_second_order_as_tf(name, fn, args, first, second):
    if isinstance(second, str) and 'LookupError' in second:
        pytest.skip('TF has no second-order gradient here (defun computes one)')
    if isinstance(second, str):  # TF refuses: no op on the gradient path has a gradient
        with pytest.raises(ValueError):
            _second_order(fn, args)
        return
    _check(_second_order(fn, args), second)


def test_compiled_nan_traps_are_silent():
    """TF computes 1/0 and sqrt(-1) silently; so does generated code (no numpy RuntimeWarning)."""
    def f(x):
        return tf.sqrt(x), 1.0 / x, tf.math.log(x)

    with warnings.catch_warnings(record=True) as caught:
        # defun's own filter (dtype_checks), which pytest's per-test reset of filters drops.
        warnings.filterwarnings('ignore', category=RuntimeWarning, module=r'defun(\.|$)')
        tf.function(f)(tf.constant([-1.0, 0.0]))
    assert not [w for w in caught if issubclass(w.category, RuntimeWarning)]
