"""The executor: pruning, program order of stateful ops, optimisations preserving results on random
graphs, generated source, the interpreted first call of big graphs, and errors naming user lines."""
import numpy as np
import pytest

import defun as tf
from defun.core import errors
from defun.compiler import executor
from defun.compiler.executor import Optimizations

NO_OPT = Optimizations(prune=False, fold_constants=False, cse=False, remove_identity=False)


def test_generated_source_names_ops_and_prunes_dead_nodes():
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [3], name='x')
        y = tf.exp(x, name='wanted')
        tf.sin(x, name='dead')
    fn = executor.compile_graph(g, [x], [y])
    assert 'wanted = k_Exp(x)' in fn.source
    assert 'dead' not in fn.source
    np.testing.assert_allclose(fn(np.zeros(3, np.float32))[0], np.ones(3))


def test_stateful_ops_run_in_program_order_and_are_never_pruned():
    v = tf.Variable(1.0)

    @tf.function
    def f():
        v.assign(2.0)
        a = v.read_value()
        v.assign_add(3.0)      # result unused: must still run
        b = v.read_value()
        v.assign(v * 10.0)     # nothing reads this afterwards: must still run
        return a, b
    a, b = f()
    assert (float(a), float(b), float(v.numpy())) == (2.0, 5.0, 50.0)


def test_constant_folding_cse_and_identity_removal_show_in_source():
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [], name='x')
        k = tf.constant(2.0) * tf.constant(3.0)          # folded
        a = tf.sin(x)
        b = tf.sin(x)                                    # same as a: eliminated
        y = tf.identity(tf.identity(a + b)) * k          # identities removed
    fn = executor.compile_graph(g, [x], [y])
    assert fn.source.count('k_Sin') == 1
    assert 'k_Identity' not in fn.source
    assert fn.source.count(' * ') == 1   # the folded constant multiply is gone
    assert 'x * y' not in fn.source
    plain = executor.compile_graph(g, [x], [y], optimizations=NO_OPT)
    assert plain.source.count('k_Sin') == 2
    assert fn(np.float32(0.3))[0] == plain(np.float32(0.3))[0]


def _random_graph(rng, n_ops):
    g = tf.Graph()
    unary = [tf.sin, tf.cos, tf.exp, tf.identity, tf.square, lambda t: t * 0.5]
    binary = [tf.add, tf.subtract, tf.multiply]
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float64, [4], name='x')
        pool = [x, tf.constant(rng.normal(size=4)), tf.constant(rng.normal(size=4))]
        for _ in range(n_ops):
            if rng.random() < 0.5:
                pool.append(unary[rng.integers(len(unary))](pool[rng.integers(len(pool))]))
            else:
                a, b = rng.integers(len(pool), size=2)
                pool.append(binary[rng.integers(len(binary))](pool[a], pool[b]))
    outputs = [pool[i] for i in rng.choice(len(pool), size=3, replace=False)]
    return g, x, outputs


@pytest.mark.parametrize('seed', range(25))
def test_optimisations_keep_results_bit_identical(seed):
    rng = np.random.default_rng(seed)
    g, x, outputs = _random_graph(rng, 30)
    data = rng.uniform(-1, 1, size=4)
    optimised = executor.compile_graph(g, [x], outputs)(data)
    plain = executor.compile_graph(g, [x], outputs, optimizations=NO_OPT)(data)
    for a, b in zip(optimised, plain):
        assert np.array_equal(np.asarray(a), np.asarray(b))


def test_big_graph_interpreted_once_then_compiled_same_results(monkeypatch):
    monkeypatch.setattr(executor, 'COMPILE_EAGERLY_UP_TO', 10)
    rng = np.random.default_rng(7)
    g, x, outputs = _random_graph(rng, 60)
    fn = executor.compile_graph(g, [x], outputs)
    data = rng.uniform(-1, 1, size=4)
    first = fn(data)          # interpreted
    second = fn(data)         # compiled on this call
    assert fn.fn.__name__ == 'graph_fn'
    for a, b in zip(first, second):
        assert np.array_equal(np.asarray(a), np.asarray(b))


def test_missing_placeholder_is_reported():
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [], name='x')
        z = tf.compat.v1.placeholder(tf.float32, [], name='z')
        y = x + z
    with pytest.raises(errors.InvalidArgumentError, match="placeholder 'z'"):
        executor.compile_graph(g, [x], [y])


def test_runtime_error_names_op_and_user_line():
    @tf.function
    def f(x, n):
        return tf.reshape(x, tf.stack([n, -1]))   # fails at run time for bad n
    with pytest.raises(errors.InvalidArgumentError) as info:
        f(tf.constant([1.0, 2.0, 3.0]), tf.constant(2))
    message = str(info.value)
    assert 'Reshape' in message
    assert 'test_executor.py' in message and 'tf.reshape(x, tf.stack([n, -1]))' in message


@pytest.mark.parametrize('eager_limit', [1000, 1])
def test_runtime_error_in_both_tiers(monkeypatch, eager_limit):
    monkeypatch.setattr(executor, 'COMPILE_EAGERLY_UP_TO', eager_limit)
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [None], name='x')
        y = tf.reshape(x, [2, 2])
    fn = executor.compile_graph(g, [x], [y])
    with pytest.raises(errors.InvalidArgumentError, match='Reshape'):
        fn(np.zeros(3, np.float32))


def test_large_intermediates_are_freed_after_their_last_use():
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [256, 256], name='x')
        big = tf.exp(x, name='big')            # last used by `total`
        total = tf.reduce_sum(big, name='total')
        small = tf.compat.v1.placeholder(tf.float32, [3], name='s')
        tiny = tf.sin(small, name='tiny')
        y = total + tf.reduce_sum(tiny)
    fn = executor.compile_graph(g, [x, small], [y])
    lines = fn.source.splitlines()
    total_line = next(i for i, line in enumerate(lines) if line.strip().startswith('total ='))
    assert lines[total_line + 1].strip() == 'del big'
    assert 'del tiny' not in fn.source          # small values are not worth a `del`
    out = fn(np.zeros((256, 256), np.float32), np.zeros(3, np.float32))[0]
    assert out == 256 * 256
