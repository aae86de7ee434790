"""Every stateless and seeded sampler against TensorFlow 2.21's own numbers (recorded from TF
2.21: dtype, shape and values), eager and inside a compiled function; tf.random.Generator's
binomial and its state advance; Generator.from_state sharing its source's state Variable."""
import numpy as np
import pytest

import defun as tf


# (name, expression, tolerance (None: exact integers), (dtype, shape, values))
STATELESS = [
    ('stateless_categorical',
     'tf.random.stateless_categorical(tf.math.log([[0.1, 0.5, 0.4], [0.3, 0.3, 0.4]]), 6, seed=[1, 2])',
     None, ('int64', [2, 6], [2, 2, 1, 2, 1, 2, 2, 0, 2, 2, 2, 1])),
    ('stateless_categorical_int32',
     'tf.random.stateless_categorical([[0.0, 1.0, -1.0, 2.0]], 9, seed=[7, 3], dtype=tf.int32)',
     None, ('int32', [1, 9], [3, 3, 3, 1, 3, 1, 3, 3, 3])),
    ('stateless_binomial',
     'tf.random.stateless_binomial([6], seed=[1, 2], counts=10., probs=0.4)',
     None, ('int32', [6], [6, 6, 6, 6, 6, 5])),
    ('stateless_binomial_large',
     'tf.random.stateless_binomial([6], seed=[1, 2], counts=1000., probs=0.4)',
     None, ('int32', [6], [419, 410, 423, 418, 385, 409])),
    ('stateless_binomial_high_p',
     'tf.random.stateless_binomial([2, 3], seed=[4, 5], counts=[5., 30., 200.], probs=[0.9, 0.7, 0.55])',
     None, ('int32', [2, 3], [5, 22, 107, 5, 22, 130])),
    ('stateless_poisson',
     'tf.random.stateless_poisson([6], seed=[1, 2], lam=3.0)',
     None, ('int32', [6], [5, 5, 4, 6, 3, 6])),
    ('stateless_poisson_large',
     'tf.random.stateless_poisson([6], seed=[1, 2], lam=30.0)',
     None, ('int32', [6], [37, 34, 38, 45, 25, 35])),
    ('stateless_poisson_rates',
     'tf.random.stateless_poisson([3, 2], seed=[1, 2], lam=[3.0, 40.0])',
     None, ('int32', [3, 2], [5, 57, 5, 34, 4, 45])),
    ('stateless_poisson_float64',
     'tf.random.stateless_poisson([3], seed=[1, 2], lam=tf.constant(3.0, tf.float64), dtype=tf.float64)',
     None, ('float64', [3], [5.0, 5.0, 4.0])),
    ('stateless_gamma',
     'tf.random.stateless_gamma([6], seed=[1, 2], alpha=2.0)',
     1e-06, ('float32', [6], [2.8172736167907715, 1.9241365194320679, 3.3360066413879395, 2.218280553817749, 2.2619924545288086, 1.4950695037841797])),
    ('stateless_gamma_small_alpha',
     'tf.random.stateless_gamma([6], seed=[1, 2], alpha=0.5)',
     1e-06, ('float32', [6], [0.0669536143541336, 0.6282354593276978, 0.18136732280254364, 0.047589920461177826, 0.1735631376504898, 0.8720741271972656])),
    ('stateless_gamma_unit_alpha',
     'tf.random.stateless_gamma([4], seed=[3, 4], alpha=1.0)',
     1e-06, ('float32', [4], [1.4411237239837646, 1.0419907569885254, 0.07935843616724014, 0.7934430241584778])),
    ('stateless_gamma_beta',
     'tf.random.stateless_gamma([3, 2], seed=[1, 2], alpha=[2.0, 0.3], beta=[1.0, 3.0])',
     1e-06, ('float32', [3, 2], [2.8172736167907715, 0.0012823862489312887, 1.9241365194320679, 0.010935072787106037, 3.3360066413879395, 0.21355952322483063])),
    ('stateless_gamma_float64',
     'tf.random.stateless_gamma([4], seed=[1, 2], alpha=2.0, dtype=tf.float64)',
     1e-12, ('float64', [4], [2.817273560438536, 1.9241365690766064, 3.336006692616804, 2.218280489673604])),
    ('stateless_gamma_tiny',
     'tf.random.stateless_gamma([4], seed=[1, 2], alpha=0.001)',
     0, ('float32', [4], [1.1754943508222875e-38, 1.1754943508222875e-38, 1.1754943508222875e-38, 1.1754943508222875e-38])),
    ('stateless_normal',
     'tf.random.stateless_normal([6], seed=[1, 2])',
     1e-07, ('float32', [6], [0.544110119342804, 0.20738030970096588, 0.0735643208026886, 0.04643455147743225, -1.301589846611023, -0.9538565278053284])),
    ('stateless_uniform',
     'tf.random.stateless_uniform([6], seed=[1, 2])',
     0, ('float32', [6], [0.8440604209899902, 0.19204533100128174, 0.9962232112884521, 0.16038739681243896, 0.27199018001556396, 0.6493459939956665])),
    ('stateless_uniform_int',
     'tf.random.stateless_uniform([6], seed=[1, 2], minval=0, maxval=10, dtype=tf.int64)',
     None, ('int64', [6], [4, 8, 7, 3, 3, 4])),
    ('stateless_truncated_normal',
     'tf.random.stateless_truncated_normal([6], seed=[1, 2])',
     1e-07, ('float32', [6], [0.544110119342804, 0.20738030970096588, 0.0735643208026886, 0.04643455147743225, 0.16820591688156128, -1.6850333213806152])),
    ('fold_in',
     'tf.random.experimental.stateless_fold_in([1, 2], 5)',
     None, ('int32', [2], [1105988140, 5])),
    ('fold_in_int64_seed',
     'tf.random.experimental.stateless_fold_in(tf.constant([1, 2], tf.int64), 5)',
     None, ('int32', [2], [1105988140, 5])),
    ('fold_in_int64_data',
     'tf.random.experimental.stateless_fold_in([1, 2], tf.constant(5, tf.int64))',
     None, ('int64', [2], [7464880146280614444, 5])),
    ('split',
     'tf.random.experimental.stateless_split(tf.constant([1, 2], tf.int64), 3)',
     None, ('int64', [3, 2], [7464880146280614444, 1591045637757961278, -1057468755545501549, 2524363516007002203, 6884554327646026923, -2336856294065325742])),
]

# (name, op-seeded expression, global-seed-only expression, tolerance,
#  [two calls after set_seed(3)] for each)
SEEDED = [
    ('shuffle',
     'tf.random.shuffle(tf.range(10), seed=7)',
     'tf.random.shuffle(tf.range(10))',
     None, [('int32', [10], [6, 2, 7, 0, 8, 5, 9, 3, 1, 4]), ('int32', [10], [5, 7, 2, 8, 9, 6, 4, 0, 1, 3])],
     [('int32', [10], [4, 1, 6, 5, 7, 9, 0, 3, 8, 2]), ('int32', [10], [7, 9, 1, 6, 3, 0, 2, 4, 5, 8])]),
    ('gamma',
     'tf.random.gamma([6], 2.0, seed=7)',
     'tf.random.gamma([6], 2.0)',
     1e-06, [('float32', [6], [2.532661199569702, 2.363537073135376, 0.28158828616142273, 1.2996970415115356, 0.7113094329833984, 0.2003020942211151]), ('float32', [6], [1.5964076519012451, 2.0669264793395996, 5.960707664489746, 1.4728988409042358, 1.2564915418624878, 0.5261437296867371])],
     [('float32', [6], [6.654798984527588, 0.48894354701042175, 3.030687093734741, 1.6853744983673096, 4.247733116149902, 1.4600164890289307]), ('float32', [6], [3.488436698913574, 4.066274642944336, 2.1098732948303223, 1.5929841995239258, 5.4453277587890625, 1.3344557285308838])]),
    ('gamma_rates',
     'tf.random.gamma([3], [0.5, 2.0], beta=[1.0, 3.0], seed=11)',
     'tf.random.gamma([3], [0.5, 2.0], beta=[1.0, 3.0])',
     1e-06, [('float32', [3, 2], [0.007853703573346138, 0.6026519536972046, 0.005789771676063538, 0.07897622138261795, 0.004098931793123484, 1.6354306936264038]), ('float32', [3, 2], [0.11471085995435715, 0.9626229405403137, 2.099290609359741, 0.9297833442687988, 0.2648387849330902, 0.7434031963348389])],
     [('float32', [3, 2], [0.007579684257507324, 0.5617914795875549, 0.0006754736532457173, 1.415911078453064, 0.026059649884700775, 0.48667216300964355]), ('float32', [3, 2], [0.9131900072097778, 0.530994713306427, 0.04708613455295563, 1.8151092529296875, 0.05349964648485184, 0.4448185861110687])]),
    ('gamma_float64',
     'tf.random.gamma([3], 2.0, seed=11, dtype=tf.float64)',
     'tf.random.gamma([3], 2.0, dtype=tf.float64)',
     1e-12, [('float64', [3], [2.8253534777184197, 1.6148162244073925, 1.2976594713060168]), ('float64', [3], [1.8079558091553098, 0.23692866212237207, 4.906291813874131])],
     [('float64', [3], [6.654798875625265, 0.4889435522864588, 3.030687165817516]), ('float64', [3], [3.4884366004810814, 4.06627443841624, 2.1098734087661315])]),
    ('poisson',
     'tf.random.poisson([6], 3.0, seed=7)',
     'tf.random.poisson([6], 3.0)',
     None, [('float32', [6], [0.0, 2.0, 1.0, 5.0, 2.0, 2.0]), ('float32', [6], [4.0, 3.0, 1.0, 3.0, 5.0, 1.0])],
     [('float32', [6], [2.0, 2.0, 1.0, 4.0, 1.0, 5.0]), ('float32', [6], [2.0, 0.0, 4.0, 3.0, 2.0, 2.0])]),
    ('poisson_rates',
     'tf.random.poisson([3], [0.5, 20.0], seed=11, dtype=tf.int32)',
     'tf.random.poisson([3], [0.5, 20.0], dtype=tf.int32)',
     None, [('int32', [3, 2], [1, 24, 0, 19, 1, 28]), ('int32', [3, 2], [2, 28, 0, 26, 1, 15])],
     [('int32', [3, 2], [1, 16, 0, 13, 0, 29]), ('int32', [3, 2], [1, 17, 0, 29, 2, 17])]),
    ('normal',
     'tf.random.normal([6], seed=7)',
     'tf.random.normal([6])',
     1e-07, [('float32', [6], [-0.4506755471229553, -0.6528815031051636, 0.3364031910896301, 1.3522493839263916, 0.7076454162597656, -0.3648128807544708]), ('float32', [6], [0.3260904848575592, 1.7564730644226074, -0.1273026317358017, 2.6161749362945557, -1.366230845451355, -0.315455824136734])],
     [('float32', [6], [-0.8296372294425964, -1.8266271352767944, 0.12519359588623047, 1.1770081520080566, -1.1696676015853882, -0.009324497543275356]), ('float32', [6], [1.6663144826889038, 0.7051974534988403, 1.8652126789093018, 0.8341089487075806, -1.0230387449264526, 0.2670431435108185])]),
    ('uniform',
     'tf.random.uniform([6], seed=7)',
     'tf.random.uniform([6])',
     0, [('float32', [6], [0.7300214767456055, 0.5961577892303467, 0.37875235080718994, 0.03880572319030762, 0.7283852100372314, 0.32575690746307373]), ('float32', [6], [0.20275306701660156, 0.02921462059020996, 0.03237760066986084, 0.9922616481781006, 0.3741682767868042, 0.7138848304748535])],
     [('float32', [6], [0.13366317749023438, 0.5678530931472778, 0.49633169174194336, 0.016865253448486328, 0.5045417547225952, 0.748731255531311]), ('float32', [6], [0.194571852684021, 0.18628203868865967, 0.12401187419891357, 0.18307268619537354, 0.5718033313751221, 0.7906373739242554])]),
    ('uniform_int',
     'tf.random.uniform([6], maxval=10, dtype=tf.int32, seed=7)',
     'tf.random.uniform([6], maxval=10, dtype=tf.int32)',
     None, [('int32', [6], [6, 6, 3, 0, 4, 5]), ('int32', [6], [8, 0, 5, 8, 3, 2])],
     [('int32', [6], [4, 7, 4, 2, 9, 9]), ('int32', [6], [7, 3, 9, 9, 0, 7])]),
    ('truncated_normal',
     'tf.random.truncated_normal([6], seed=7)',
     'tf.random.truncated_normal([6])',
     1e-07, [('float32', [6], [-0.4506755471229553, -0.6528815031051636, 0.3364031910896301, 1.3522493839263916, 1.3565424680709839, 0.6383048892021179]), ('float32', [6], [0.3260904848575592, 1.7564730644226074, -0.1273026317358017, -1.366230845451355, 0.07093005627393723, -0.1344592571258545])],
     [('float32', [6], [-0.8296372294425964, -1.8266271352767944, 0.12519359588623047, 1.1770081520080566, -0.2871948480606079, -0.8956450819969177]), ('float32', [6], [1.6663144826889038, 0.7051974534988403, 1.8652126789093018, 0.8341089487075806, 0.30094876885414124, 0.938205361366272])]),
    ('categorical',
     'tf.random.categorical(tf.math.log([[0.1, 0.5, 0.4], [0.3, 0.3, 0.4]]), 6, seed=7)',
     'tf.random.categorical(tf.math.log([[0.1, 0.5, 0.4], [0.3, 0.3, 0.4]]), 6)',
     None, [('int64', [2, 6], [2, 0, 2, 1, 2, 1, 0, 1, 1, 1, 2, 0]), ('int64', [2, 6], [2, 2, 2, 1, 1, 1, 1, 0, 2, 1, 1, 2])],
     [('int64', [2, 6], [0, 2, 0, 0, 1, 2, 1, 2, 0, 1, 0, 0]), ('int64', [2, 6], [1, 2, 1, 0, 1, 2, 2, 0, 2, 1, 0, 2])]),
]

GENERATOR_BINOMIAL = [('int32', [6], [4, 4, 6, 2, 1, 7]), ('int32', [6], [4, 6, 7, 4, 5, 4]), ('int32', [2, 3], [35, 4, 19, 23, 5, 14]), ('int64', [3], [422401, 0, 0]), ('float32', [3], [-0.9655309319496155, 0.04655911400914192, 0.3693959712982178])]


def _check(result, expected, tol):
    dtype, shape, values = expected
    array = result.numpy()
    assert array.dtype.name == dtype and list(array.shape) == shape
    if tol is None or tol == 0:
        np.testing.assert_array_equal(array.ravel(), values)
    else:
        np.testing.assert_allclose(array.ravel(), values, rtol=tol, atol=1e-30)


@pytest.mark.parametrize('name, expr, tol, expected', STATELESS, ids=[c[0] for c in STATELESS])
def test_stateless_samplers_give_tf_bits(name, expr, tol, expected):
    _check(eval(expr), expected, tol)
    _check(tf.function(lambda: eval(expr))(), expected, tol)


@pytest.mark.parametrize('name, op_expr, global_expr, tol, op_calls, global_calls', SEEDED,
                         ids=[c[0] for c in SEEDED])
def test_seeded_samplers_give_tf_bits(name, op_expr, global_expr, tol, op_calls, global_calls):
    for expr, calls in ((op_expr, op_calls), (global_expr, global_calls)):
        tf.random.set_seed(3)
        for expected in calls:
            _check(eval(expr), expected, tol)


def test_generator_binomial_and_its_state_advance():
    g = tf.random.Generator.from_seed(1)
    results = [g.binomial([6], counts=10., probs=0.4), g.binomial([6], counts=10., probs=0.4),
               g.binomial([2, 3], counts=[100., 5., 30.], probs=[0.3, 0.9, 0.6]),
               tf.identity(g.state),
               g.normal([3])]
    for result, expected in zip(results, GENERATOR_BINOMIAL):
        _check(tf.convert_to_tensor(result), expected, 1e-7 if expected[0] == 'float32' else None)


def test_from_state_shares_the_variable_as_tf():
    g1 = tf.random.Generator.from_seed(5)
    g2 = tf.random.Generator.from_state(g1.state, g1.algorithm)
    assert g2.state is g1.state
    np.testing.assert_allclose(g2.normal([2]), [1.0278524, 0.27974114], rtol=1e-6)
    assert g1.state.numpy().tolist() == [517, 0, 0]   # TF's: the draw advanced g1 too
    np.testing.assert_allclose(g1.normal([2]), [-0.60377395, 0.08436535], rtol=1e-6)
    assert tf.random.Generator(state=g1.state, alg=g1.algorithm).state is g1.state
    assert tf.random.Generator(copy_from=g1).state is not g1.state
    assert tf.random.Generator.from_state(g1.state.numpy(), g1.algorithm).state is not g1.state


def test_sampler_shape_errors_as_tf():
    with pytest.raises(tf.errors.InvalidArgumentError, match='must end with broadcasted shape'):
        tf.random.stateless_binomial([2, 3], seed=[1, 2], counts=[10., 20.], probs=[[0.4], [0.9]])
    with pytest.raises(tf.errors.InvalidArgumentError, match='must end with broadcasted shape'):
        tf.random.stateless_gamma([3], seed=[1, 2], alpha=[1.0, 2.0])
