"""The native tier (tf.function(jit_compile=True), defun/compiler/jit/): every op with a lowering
agrees with the numpy tier on its registry specs (forward and gradient), the reference corpus's
loops and branches agree with plain Python when jit-compiled, ops without a lowering fall back,
and without numba the numpy tier runs after one warning naming the extra."""
import gc
import subprocess
import sys
import textwrap
import threading
import weakref

import numpy as np
import pytest

import defun as tf
from defun.compiler.jit import lowerer, native_math, partition
from defun.core import registry
from tests.ops.test_registry import SPECS
from tests.reference import test_corpus

pytest.importorskip('numba')

LOWERED = [pytest.param(s, id=s.label()) for s in SPECS
           if registry.get_op(s.op_type).lowering is not None]


@pytest.fixture
def every_op_native(monkeypatch):
    """Lowers even a lone op, and transcendental functions on any array: the specs are small."""
    monkeypatch.setattr(partition, 'MIN_CLUSTER_OPS', 1)
    monkeypatch.setattr(lowerer, 'VECTOR_MATH_UP_TO', 1 << 30)


def _report(fn, *args):
    return fn.experimental_get_compiler_ir(*args)()


def _native_ops(report):
    return ' '.join(line for line in report.splitlines() if line.startswith('  ops: '))


def _assert_same(got, expected):
    got, expected = np.asarray(got), np.asarray(expected)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    if got.dtype.kind == 'f':
        # numba's libm and numpy's SIMD loops may round the last bit differently.
        rtol = 4 * np.finfo(got.dtype).eps
        np.testing.assert_allclose(got, expected, rtol=rtol, atol=rtol)
    else:
        np.testing.assert_array_equal(got, expected)


def _flat(result):
    return list(result) if isinstance(result, (list, tuple)) else [result]


@pytest.mark.parametrize('spec', LOWERED)
def test_lowered_op_matches_numpy_tier(spec, every_op_native):
    args = [tf.constant(a) for a in spec.inputs]
    jitted = tf.function(spec.call, jit_compile=True)
    expected = _flat(tf.function(spec.call)(*args))
    for g, e in zip(_flat(jitted(*args)), expected):
        _assert_same(g.numpy(), e.numpy())


def test_lowered_ops_run_natively(every_op_native):
    """Each op type with a lowering ran natively on at least one of its specs."""
    native = set()
    for spec in SPECS:
        if registry.get_op(spec.op_type).lowering is None:
            continue
        args = [tf.constant(a) for a in spec.inputs]
        jitted = tf.function(spec.call, jit_compile=True)
        jitted(*args)
        if f'{spec.op_type}(' in _native_ops(_report(jitted, *args)):
            native.add(spec.op_type)
    lowered = {s.op_type for s in SPECS if registry.get_op(s.op_type).lowering is not None}
    assert lowered - native - set(LOWERED_ELSEWHERE) == set()


# Ops whose specs exercise only cases their lowering leaves to numpy; the test running them natively.
LOWERED_ELSEWHERE = {'GatherV2': 'test_rnn_gradient_loops_run_natively (one row per iteration)'}


def test_rnn_gradient_loops_run_natively():
    rng = np.random.default_rng(1)
    w_init = (rng.standard_normal((8, 8)) * 0.3).astype(np.float32)
    xs = tf.constant(rng.standard_normal((6, 8, 1)).astype(np.float32))
    h0 = tf.constant(np.zeros((8, 1), np.float32))
    results = []
    for jit in (True, None):
        w = tf.Variable(w_init)

        @tf.function(jit_compile=jit)
        def rnn_grad(xs, h0):
            with tf.GradientTape() as tape:
                h = h0
                for t in tf.range(6):
                    h = tf.tanh(tf.matmul(w, h) + xs[t])
                loss = tf.reduce_sum(h)
            return loss, tape.gradient(loss, w)
        results.append([r.numpy() for r in rnn_grad(xs, h0)])
        if jit:
            report = _report(rnn_grad, xs, h0)
            native = _native_ops(report)
            assert 'While(' in native and 'StatelessWhile(' in native   # forward and backward
            # the loss's sum and the seed gradient between them too: the loops share one call
            assert '1 native cluster(s)' in report and 'Sum(' in native
    for got, expected in zip(*results):
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


def _numba_helper(name):
    """native_math's function `name`, compiled here (without numba's disk cache)."""
    import numba
    namespace = {'numba': numba, 'np': np}
    exec(native_math.SOURCES[name].replace('cache=True', 'cache=False'), namespace)
    return namespace[name]


def test_tanh_f32_is_tanh_rounded_once():
    import numba
    tanh_f32 = _numba_helper('tanh_f32')

    @numba.njit
    def apply(x, out):
        for i in range(x.shape[0]):
            out[i] = tanh_f32(x[i])
    # every 97th float32 of [0, 10], both signs, and the special values
    x = np.arange(0, 0x41200000, 97, dtype=np.uint32).view(np.float32)
    x = np.concatenate([x, -x, np.float32([np.inf, -np.inf, np.nan, 1e30, -1e30, 1e-40])])
    out = np.empty_like(x)
    apply(x, out)
    expected = np.tanh(x.astype(np.float64)).astype(np.float32)
    nan = np.isnan(expected)
    assert np.array_equal(np.isnan(out), nan)
    assert out[~nan].tobytes() == expected[~nan].tobytes()   # signed zeros included


@pytest.mark.parametrize('shape, axis', [((7,), None), ((64, 1), None), ((300,), None),
                                         ((3, 1000), 1), ((5, 200), 0), ((4, 3, 50), [1, 2]),
                                         ((129, 2), [0])])
def test_sum_is_numpys_bit_for_bit(shape, axis, every_op_native):
    x = tf.constant(np.random.default_rng(3).standard_normal(shape).astype(np.float32) * 100)
    f = tf.function(lambda x: tf.reduce_sum(x * 1.5 - 0.25, axis=axis), jit_compile=True)
    got, expected = f(x), tf.function(f.python_function)(x)
    assert 'Sum(' in _native_ops(_report(f, x))
    assert got.numpy().tobytes() == expected.numpy().tobytes()


@pytest.mark.parametrize('spec', [p for p in LOWERED if p.values[0].grad])
def test_lowered_op_gradient_matches_numpy_tier(spec, every_op_native):
    inputs = [tf.constant(np.asarray(a, np.float64) if np.asarray(a).dtype.kind == 'f' else a)
              for a in spec.inputs]
    floats = [i for i, t in enumerate(inputs) if t.dtype.is_floating]

    def grads(*args):
        with tf.GradientTape() as tape:
            for i in floats:
                tape.watch(args[i])
            out = tf.add_n([tf.reduce_sum(tf.cast(o, tf.float64)) for o in _flat(spec.call(*args))])
        return tape.gradient(out, [args[i] for i in floats])

    expected = tf.function(grads)(*inputs)
    got = tf.function(grads, jit_compile=True)(*inputs)
    for g, e in zip(got, expected):
        if e is None:
            assert g is None
        else:
            # a gather's gradient is an IndexedSlices in both tiers: compare their dense values
            _assert_same(tf.convert_to_tensor(g).numpy(), tf.convert_to_tensor(e).numpy())


@pytest.mark.parametrize('fn, args, tf_raises', test_corpus.COMPILED)
def test_corpus_jit_compiled_matches_native(fn, args, tf_raises):
    expected, _, error = test_corpus.run(fn, args)
    compiled = tf.function(fn, jit_compile=True,
                           experimental_autograph_options=test_corpus.EXTENSIONS)
    result, _, compiled_error = test_corpus.run(compiled, [test_corpus._as_tensor(a) for a in args])
    if tf_raises is not None and tf_raises.applies_to(args):
        assert compiled_error is tf_raises.error, tf_raises.reason
        return
    assert compiled_error == error
    if error is None:
        test_corpus._assert_close(result, expected)


def _newton(a, n):
    x = a
    i = tf.constant(0)
    while i < n:
        x = 0.5 * (x + a / x)
        i += 1
    return x


def test_while_loop_is_native_and_bit_equal():
    a, n = tf.constant(np.float32(3.0)), tf.constant(50)
    jitted = tf.function(_newton, jit_compile=True)
    got, expected = jitted(a, n), tf.function(_newton)(a, n)
    assert got.dtype == tf.float32
    assert got.numpy().tobytes() == expected.numpy().tobytes()
    report = _report(jitted, a, n)
    assert '1 native cluster(s), 0 op(s) in the numpy tier' in report
    assert 'While(' in _native_ops(report)
    assert '@numba.njit' in jitted.experimental_get_compiler_ir(a, n)(stage='source')


def test_cond_in_loop_and_loop_counter_dtypes():
    @tf.function(jit_compile=True)
    def collatz(n):
        steps = tf.constant(0)
        while n > 1:
            if n % 2 == 0:
                n = n // 2
            else:
                n = 3 * n + 1
            steps += 1
        return steps, n

    steps, last = collatz(tf.constant(27))
    assert (steps.numpy(), last.numpy()) == (111, 1)
    assert steps.dtype == tf.int32


def test_fused_elementwise_chain_matches_numpy_tier():
    def chain(x, y):
        return tf.maximum(x * y - 1.5, y / (x + 3.0)) + tf.abs(x) * 0.25
    x = tf.constant(np.linspace(-2, 2, 3000, dtype=np.float32).reshape(30, 100))
    y = tf.constant(np.linspace(1, 2, 3000, dtype=np.float32).reshape(30, 100))
    jitted = tf.function(chain, jit_compile=True)
    _assert_same(jitted(x, y).numpy(), tf.function(chain)(x, y).numpy())
    source = jitted.experimental_get_compiler_ir(x, y)('source')
    assert source.count('for i in range(3000):') == 1   # one loop, no temporaries


def test_ops_without_lowering_fall_back_with_reasons():
    @tf.function(jit_compile=True)
    def f(x, n):
        i = tf.constant(0)
        while i < n:
            x = tf.math.cumsum(x) * 0.5 + 1.0
            i += 1
        return tf.reduce_sum(x * x + 1.0)

    x, n = tf.constant(np.arange(4, dtype=np.float32)), tf.constant(3)
    _assert_same(f(x, n).numpy(), tf.function(f.python_function)(x, n).numpy())
    report = _report(f, x, n)
    assert 'numpy tier StatelessWhile(' in report and 'Cumsum: no lowering' in report
    assert 'numpy tier Sum(' in report


def test_gradient_of_jit_function_through_a_loop():
    def loss(w, x):
        i = tf.constant(0)
        while i < 5:
            x = tf.tanh(w * x + 0.1)
            i += 1
        return tf.reduce_sum(x)

    w, x = tf.constant(np.float32(0.7)), tf.constant(np.linspace(-1, 1, 8, dtype=np.float32))
    results = []
    for jit in (True, None):
        f = tf.function(loss, jit_compile=jit)
        with tf.GradientTape() as tape:
            tape.watch(w)
            y = f(w, x)
        results.append((y.numpy(), tape.gradient(y, w).numpy()))
    for got, expected in zip(*results):
        _assert_same(got, expected)


def test_backward_graph_is_jit_compiled():
    from defun.autodiff.gradient_graph import GradientGraph
    g = tf.function(lambda x: x * x, jit_compile=True).get_concrete_function(tf.constant(1.0)).graph
    backward = GradientGraph(g, g.outputs, g.inputs, 'backward')
    assert backward.graph.jit_compile


def test_jit_function_and_its_graphs_are_freed():
    f = tf.function(_newton, jit_compile=True)
    f(tf.constant(np.float32(2.0)), tf.constant(3))
    graph = weakref.ref(f.get_concrete_function(tf.constant(np.float32(2.0)), tf.constant(3)).graph)
    del f
    gc.collect()
    assert graph() is None


def test_threads_compile_once_and_agree():
    f = tf.function(_newton, jit_compile=True)
    a, n = tf.constant(np.float32(5.0)), tf.constant(20)
    f.get_concrete_function(a, n)
    results = []
    threads = [threading.Thread(target=lambda: results.append(f(a, n).numpy())) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 4 and len({r.tobytes() for r in results}) == 1


def test_unknown_stage_and_non_jit_function():
    f = tf.function(_newton)
    a, n = tf.constant(np.float32(2.0)), tf.constant(3)
    with pytest.raises(tf.errors.InvalidArgumentError, match='jit_compile=True'):
        f.experimental_get_compiler_ir(a, n)()
    with pytest.raises(ValueError, match='Unknown stage'):
        tf.function(_newton, jit_compile=True).experimental_get_compiler_ir(a, n)('llvm')


def test_without_numba_runs_numpy_tier_and_warns_once():
    # A fresh process: the warning is once per process.
    code = textwrap.dedent('''
        import warnings
        import numpy as np
        import defun as tf
        from defun.core import context
        with warnings.catch_warnings(record=True) as caught, context.hide_jit_backend():
            warnings.simplefilter('always')
            f = tf.function(lambda x: x * 2.0 + 1.0, jit_compile=True)
            g = tf.function(lambda x: x - 1.0, jit_compile=True)
            print(f(tf.constant(1.0)).numpy(), g(tf.constant(1.0)).numpy())
            try:
                f.experimental_get_compiler_ir(tf.constant(1.0))()
            except tf.errors.InvalidArgumentError:
                print('no native code')
        print([str(w.message) for w in caught if 'jit' in str(w.message)])
    ''')
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, timeout=120,
                         cwd=str(test_corpus.__file__).rsplit('/tests/', 1)[0])
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == '3.0 0.0' and lines[1] == 'no native code'
    messages = eval(lines[2])
    assert len(messages) == 1 and "defun[jit]" in messages[0]


def test_a_few_ops_on_small_arrays_stay_in_numpy():
    f = tf.function(lambda x: x * 2.0 + 1.0, jit_compile=True)
    x = tf.constant(np.arange(10, dtype=np.float32))
    np.testing.assert_array_equal(f(x).numpy(), np.arange(10, dtype=np.float32) * 2 + 1)
    report = _report(f, x)
    assert '0 native cluster(s)' in report and 'numpy runs them as fast' in report


def test_a_cluster_numba_cannot_compile_falls_back(monkeypatch):
    """A lowering numba cannot type (here: a broken template) runs in the numpy tier instead."""
    from defun.ops.math import arithmetic
    monkeypatch.setattr(arithmetic.SUB, 'lowering', ('np.no_such_function({0}, {1})', 'f'))
    f = tf.function(lambda x: (x - 1.0) * 2.0 + x / 3.0 - x, jit_compile=True)
    x = tf.constant(np.linspace(0, 1, 20000, dtype=np.float32))
    _assert_same(f(x).numpy(), tf.function(f.python_function)(x).numpy())
    assert 'numba could not compile it' in _report(f, x)


def test_index_out_of_range_in_native_loop_is_tfs_error():
    def total(xs, n):
        s = tf.constant(0.0)
        i = tf.constant(0)
        while i < n:
            s += xs[i]
            i += 1
        return s
    xs = tf.constant(np.arange(5, dtype=np.float32))
    f = tf.function(total, jit_compile=True)
    assert f(xs, tf.constant(5)).numpy() == 10.0
    assert 'While(' in _native_ops(_report(f, xs, tf.constant(5)))
    with pytest.raises(tf.errors.InvalidArgumentError, match='StridedSlice: index out of range'):
        f(xs, tf.constant(7))


@pytest.mark.parametrize('k', [2, 8, 9, 13, 64])
def test_matrix_column_product_sums_in_order(k, every_op_native):
    """A matrix times a column sums each row's products in k's order, eight columns a pass."""
    rng = np.random.default_rng(k)
    a = rng.standard_normal((5, k)).astype(np.float32)
    y = rng.standard_normal((k, 1)).astype(np.float32)
    f = tf.function(lambda a, y: tf.matmul(a, y) * 2.0 + 1.0 - y[0, 0], jit_compile=True)
    got = f(tf.constant(a), tf.constant(y))
    assert 'MatMul(' in _native_ops(_report(f, tf.constant(a), tf.constant(y)))
    acc = a[:, 0] * y[0, 0]
    for p in range(1, k):
        acc = acc + a[:, p] * y[p, 0]
    expected = acc[:, None] * np.float32(2.0) + np.float32(1.0) - y[0, 0]
    assert got.numpy().tobytes() == expected.astype(np.float32).tobytes()


def test_outer_product_fuses_with_its_sum():
    """An outer product and the sum reading it run as one loop over the matrix (no array for
    the product), bit-equal to the numpy tier; an op reading neither waits after the loop."""
    rng = np.random.default_rng(5)
    x, y, acc = (tf.constant(rng.standard_normal(s).astype(np.float32))
                 for s in ((6, 1), (1, 7), (6, 7)))
    w = tf.constant(rng.standard_normal((6, 6)).astype(np.float32))

    def step(x, y, acc, w):
        total, z = acc, x
        for _ in tf.range(3):
            outer = tf.matmul(x, y)
            z = tf.matmul(w, z)             # between the product and the sum, reading neither
            total = total + outer
            x = x * 0.5
        return total, z

    jitted = tf.function(step, jit_compile=True)
    got, expected = jitted(x, y, acc, w), tf.function(step)(x, y, acc, w)
    assert got[0].numpy().tobytes() == expected[0].numpy().tobytes()
    np.testing.assert_allclose(got[1].numpy(), expected[1].numpy(), rtol=1e-5, atol=1e-6)
    source = jitted.experimental_get_compiler_ir(x, y, acc, w)('source')
    assert 'MatMul_e = ' in source and 'for c in range(7):' in source


def test_sum_to_shape_runs_natively(every_op_native):
    """SumToShape (a broadcast gradient's reduction, no spec of its own): leading axes summed
    natively, to float rounding of the kernel's BLAS sum."""
    from defun.ops.framework.base_ops import sum_to
    rng = np.random.default_rng(2)
    g = tf.constant(rng.standard_normal((3, 5, 4)).astype(np.float32))
    for target in (np.zeros((4,), np.float32), np.zeros((1, 1, 4), np.float32),
                   np.zeros((5, 4), np.float32)):
        x = tf.constant(target)
        f = tf.function(lambda g, x: sum_to(g * 2.0, x) + 1.0, jit_compile=True)
        got, expected = f(g, x), tf.function(f.python_function)(g, x)
        assert 'SumToShape(' in _native_ops(_report(f, g, x))
        np.testing.assert_allclose(got.numpy(), expected.numpy(), rtol=1e-6, atol=1e-6)


def test_out_of_range_labels_and_rows_raise_tfs_error(every_op_native):
    logits = tf.constant(np.zeros((2, 3), np.float32))
    xent = tf.function(lambda y, x: tf.nn.sparse_softmax_cross_entropy_with_logits(y, x * 2.0),
                       jit_compile=True)
    assert xent(tf.constant([0, 2]), logits).shape == (2,)
    assert 'SparseSoftmaxCrossEntropyWithLogits(' in _native_ops(
        _report(xent, tf.constant([0, 2]), logits))
    with pytest.raises(tf.errors.InvalidArgumentError, match='label value'):
        xent(tf.constant([0, 3]), logits)
    rows = tf.function(lambda p, i: tf.gather(p * 2.0, i), jit_compile=True)
    params = tf.constant(np.ones((4, 2), np.float32))
    assert rows(params, tf.constant([3, 0, 3])).shape == (3, 2)
    assert 'GatherV2(' in _native_ops(_report(rows, params, tf.constant([3, 0, 3])))
    with pytest.raises(tf.errors.InvalidArgumentError, match='GatherV2: index out of range'):
        rows(params, tf.constant([4, 0, 1]))


def test_loop_with_an_unlowered_op_runs_its_other_ops_natively():
    """A loop the native tier cannot take whole (cumsum has no lowering) stays a numpy-tier loop,
    whose body calls native clusters of its own; results as without jit."""
    def f(x, n):
        i = tf.constant(0)
        while i < n:
            x = tf.math.cumsum(x)
            x = tf.tanh(x * 0.5 - 1.0) * 2.0 + tf.abs(x) * 0.25 - x / 3.0
            i += 1
        return x

    x, n = tf.constant(np.linspace(-1, 1, 64, dtype=np.float32)), tf.constant(3)
    jitted = tf.function(f, jit_compile=True)
    _assert_same(jitted(x, n).numpy(), tf.function(f)(x, n).numpy())
    report = _report(jitted, x, n)
    assert 'While(while): Cumsum: no lowering' in report
    assert 'Tanh(' in _native_ops(report)
    assert 'native(' in jitted.experimental_get_compiler_ir(x, n)('py')
