"""Emitter rules for elementwise code: scalar constants meeting arrays as 0-d arrays. Each rule is
checked to fire where it should (function_source shows it), not to fire elsewhere, and to give
numpy's results bitwise, with numpy's dtypes."""
import numpy as np
import pytest

import defun as tf


def _source(f, *args):
    return f.get_concrete_function(*args).function_source


def _bits_equal(got, want):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.tobytes() == want.tobytes()


@pytest.mark.parametrize('dtype', [np.float16, np.float32, np.float64, np.int32, np.int64])
def test_scalar_constant_meeting_an_array_is_a_0d_array(dtype):
    @tf.function
    def f(x):
        return x * 3 + 1
    x = np.arange(-4, 5).astype(dtype)
    source = _source(f, tf.constant(x))
    assert 'x * Const_0d' in source and '+ Const_1_0d' in source
    c3, c1 = np.asarray(3).astype(dtype)[()], np.asarray(1).astype(dtype)[()]
    _bits_equal(f(tf.constant(x)).numpy(), x * c3 + c1)


def test_scalar_constant_meeting_a_scalar_stays_a_numpy_scalar():
    @tf.function
    def f(x):
        return x * 2.5 + 1.0
    x = tf.constant(1.5)
    source = _source(f, x)
    assert '_0d' not in source
    got = f(x).numpy()
    assert type(got) is np.float32 and got == np.float32(1.5) * np.float32(2.5) + np.float32(1)


def test_unknown_rank_operand_keeps_the_scalar_constant():
    f = tf.function(lambda x: x * 2.0,
                    input_signature=[tf.TensorSpec(None, tf.float32)])
    assert '_0d' not in f.get_concrete_function().function_source
    _bits_equal(f(tf.constant([1.5, 2.0])).numpy(), np.array([3.0, 4.0], np.float32))


# ---------------------------------------------------------------- writing into dead temporaries

N_REUSE = 5000          # float32: 20 KB, above REUSE_MIN_BYTES, below BLOCK_MIN_BYTES
N_BLOCK = 300_001       # float32: 1.2 MB, blocked (and not a multiple of the block)


def _x(n=N_REUSE, dtype=np.float32, shape=None):
    x = np.linspace(-3.0, 3.0, n).astype(dtype)
    return x.reshape(shape) if shape else x


def _chain_np(x):
    return np.exp(-x * x) * np.sin(x) + x.dtype.type(0.5) * x


def _chain(x):
    return tf.exp(-x * x) * tf.sin(x) + 0.5 * x


def test_dead_temporaries_are_written_with_out():
    f = tf.function(_chain)
    x = _x()
    source = _source(f, tf.constant(x))
    assert 'mul = np.multiply(Neg, x, out=Neg)' in source
    assert 'Exp = np.exp(mul, out=mul)' in source
    assert 'add = np.add(mul_1, mul_2, out=mul_1)' in source
    _bits_equal(f(tf.constant(x)).numpy(), _chain_np(x))


def test_small_values_keep_the_plain_lines():
    f = tf.function(_chain)
    source = _source(f, tf.constant(_x(100)))
    assert 'out=' not in source
    _bits_equal(f(tf.constant(_x(100))).numpy(), _chain_np(_x(100)))


def test_inputs_constants_and_variables_are_never_written():
    c = tf.constant(_x() * 2)
    v = tf.Variable(_x() + 1)
    c_before, v_before = c.numpy().copy(), v.numpy().copy()

    @tf.function
    def f(x):
        a = tf.exp(x)          # x: the caller's input
        b = c * a              # c: a captured constant
        return tf.sin(v * b) + x   # v: a Variable's storage

    x = tf.constant(_x())
    x_before = x.numpy().copy()
    source = _source(f, x)
    for name in ('out=x', 'out=c', 'out=ReadVariableOp', 'out=v'):
        assert name not in source
    want = np.sin(v_before * (c_before * np.exp(x_before))) + x_before
    _bits_equal(f(x).numpy(), want)
    _bits_equal(x.numpy(), x_before)
    _bits_equal(c.numpy(), c_before)
    _bits_equal(v.numpy(), v_before)


def test_returned_values_and_values_read_later_are_never_written():
    @tf.function
    def f(x):
        a = tf.exp(x)
        b = a * 2.0            # a is read again below: b must not take a's buffer
        d = b + a
        return a, d * 3.0      # a is returned: d * 3 must not take it either

    x = _x()
    a, d3 = f(tf.constant(x))
    e = np.exp(x)
    _bits_equal(a.numpy(), e)
    _bits_equal(d3.numpy(), (e * np.float32(2) + e) * np.float32(3))
    source = _source(f, tf.constant(x))
    assert 'out=Exp' not in source and 'np.multiply(add, Const_1_0d, out=add)' in source


def test_values_a_view_was_taken_of_are_never_written():
    @tf.function
    def f(x):
        a = tf.exp(x)
        r = tf.reshape(a, [50, 100])    # may be a view of a's buffer
        s = a[10:20]                    # a view
        b = tf.sin(a)                   # a's last read: still not writable
        return r, s, b

    x = _x()
    r, s, b = f(tf.constant(x))
    e = np.exp(x)
    _bits_equal(r.numpy(), e.reshape(50, 100))
    _bits_equal(s.numpy(), e[10:20])
    _bits_equal(b.numpy(), np.sin(e))
    assert 'out=Exp' not in _source(f, tf.constant(x))


def test_broadcast_operands_are_never_written_and_never_blocked():
    @tf.function
    def f(col, row):
        a = tf.exp(col)                 # (n, 1)
        b = a * row                     # (n, 1) * (1, m) -> (n, m): a broadcast
        c = tf.exp(b)                   # may take b's buffer
        d = tf.exp(row) * 2.0           # (1, m), dead below
        return c + d                    # (n, m) + (1, m): only c's buffer has the result's shape
    for n in (80, 8000):                # 8000 x 70 float32 is large enough to block
        col, row = _x(n).reshape(n, 1), _x(70).reshape(1, 70)
        source = _source(f, tf.constant(col), tf.constant(row))
        assert 'Exp_1 = np.exp(mul, out=mul)' in source
        assert 'add = np.add(Exp_1, mul_1, out=Exp_1)' in source
        assert 'out=mul_1' not in source and 'out=Exp)' not in source
        assert 'for start' not in source
        want = np.exp(np.exp(col) * row) + np.exp(row) * np.float32(2)
        _bits_equal(f(tf.constant(col), tf.constant(row)).numpy(), want)


def test_dtype_changes_never_share_a_buffer():
    @tf.function
    def f(x):
        a = tf.exp(x)
        big = a > 1.5                   # bool: cannot go into a's float buffer
        n = tf.cast(big, tf.int32) * 3  # int32 chain: may reuse the cast's buffer
        return big, n + 1
    x = _x()
    big, n = f(tf.constant(x))
    _bits_equal(big.numpy(), np.exp(x) > np.float32(1.5))
    _bits_equal(n.numpy(), (np.exp(x) > np.float32(1.5)).astype(np.int32) * 3 + 1)
    source = _source(f, tf.constant(x))
    assert 'out=Exp' not in source


@pytest.mark.parametrize('dtype', [np.float16, np.float64, np.int32, np.int64, np.complex64])
def test_reuse_keeps_numpys_results_and_dtypes(dtype):
    @tf.function
    def f(x, y):
        return (x * y + x) * (y - x) * x
    x = _x(dtype=np.float64) * 2
    y = x[::-1] + 2
    x, y = x.astype(dtype), y.astype(dtype)
    got = f(tf.constant(x), tf.constant(y)).numpy()
    _bits_equal(got, (x * y + x) * (y - x) * x)
    assert 'out=' in _source(f, tf.constant(x), tf.constant(y))


def test_gradients_through_rewritten_chains_equal_the_eager_tape():
    def grad(fn, x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = fn(x)
        return tape.gradient(y, x)
    compiled = tf.function(lambda x: grad(_chain, x))
    for n in (N_REUSE, N_BLOCK):
        x = tf.constant(_x(n))
        want = grad(_chain, x).numpy()   # eager: the same gradient ops, one numpy call each
        _bits_equal(compiled(x).numpy(), want)
        xs = x.numpy().astype(np.float64)
        analytic = np.exp(-xs * xs) * (np.cos(xs) - 2 * xs * np.sin(xs)) + 0.5
        np.testing.assert_allclose(want, analytic, rtol=1e-5, atol=1e-5)


# ---------------------------------------------------------------- block-by-block evaluation

def _blocked(source):
    return 'for start in range(0, ' in source


@pytest.mark.parametrize('shape', [(N_BLOCK,), (601, 500), (4, 65536)])
def test_long_chains_over_large_arrays_run_block_by_block(shape):
    f = tf.function(_chain)
    x = _x(int(np.prod(shape)), shape=shape)
    source = _source(f, tf.constant(x))
    assert _blocked(source)
    assert ('.reshape(-1)' in source) == (len(shape) > 1)
    assert 'scratch = np.empty(65536, np.float32)' in source
    _bits_equal(f(tf.constant(x)).numpy(), _chain_np(x))


@pytest.mark.parametrize('dtype', [np.float64, np.int32, np.int64, np.complex64])
def test_blocked_chains_keep_numpys_results_and_dtypes(dtype):
    @tf.function
    def f(x, y):
        return (x * y + x) * (y - x) * x - y
    x = (_x(N_BLOCK, np.float64) * 2).astype(dtype)
    y = (x[::-1] + 2).astype(dtype)
    source = _source(f, tf.constant(x), tf.constant(y))
    assert _blocked(source)
    _bits_equal(f(tf.constant(x), tf.constant(y)).numpy(), (x * y + x) * (y - x) * x - y)


def test_small_arrays_and_single_ops_are_not_blocked():
    f = tf.function(_chain)
    assert not _blocked(_source(f, tf.constant(_x(50_000))))
    g = tf.function(lambda x: tf.exp(x))
    assert not _blocked(_source(g, tf.constant(_x(N_BLOCK))))


def test_values_needed_after_the_run_are_written_in_full():
    @tf.function
    def f(x):
        a = tf.exp(-x * x)              # read after the run (by the sum) and returned
        b = a * tf.sin(x)
        total = tf.reduce_sum(b)        # ends the run; reads b in full
        return a, b + total             # a second run
    x = _x(N_BLOCK)
    a, c = f(tf.constant(x))
    e = np.exp(-x * x)
    b = e * np.sin(x)
    _bits_equal(a.numpy(), e)
    assert 'Exp = np.empty((300001,), np.float32)' in _source(f, tf.constant(x))
    total = f.get_concrete_function(tf.constant(x)).function_source.count('for start')
    assert total == 1   # `b + total` alone is one op: not a run
    np.testing.assert_allclose(c.numpy(), b + np.sum(b, dtype=np.float32), rtol=1e-6)


def test_blocked_runs_never_write_inputs_constants_or_variables():
    c = tf.constant(_x(N_BLOCK) * 2)
    v = tf.Variable(_x(N_BLOCK) + 1)
    c_before, v_before = c.numpy().copy(), v.numpy().copy()

    @tf.function
    def f(x):
        return tf.sin(v * (c * tf.exp(x))) + x
    x = tf.constant(_x(N_BLOCK))
    x_before = x.numpy().copy()
    assert _blocked(_source(f, x))
    want = np.sin(v_before * (c_before * np.exp(x_before))) + x_before
    _bits_equal(f(x).numpy(), want)
    _bits_equal(x.numpy(), x_before)
    _bits_equal(c.numpy(), c_before)
    _bits_equal(v.numpy(), v_before)


def test_non_contiguous_inputs_are_read_correctly():
    base = _x(601 * 500).reshape(500, 601)
    xt = tf.transpose(tf.constant(base))          # (601, 500), maybe a strided view
    f = tf.function(_chain)
    assert _blocked(_source(f, xt))
    _bits_equal(f(xt).numpy(), _chain_np(np.ascontiguousarray(base.T)))


def test_blocked_calls_from_threads_keep_their_own_results():
    import threading
    f = tf.function(_chain)
    xs = [_x(N_BLOCK) * s for s in (0.5, 1.0, 1.5, 2.0)]
    f(tf.constant(xs[0]))
    failures = []

    def worker(x):
        want = _chain_np(x)
        for _ in range(5):
            if f(tf.constant(x)).numpy().tobytes() != want.tobytes():
                failures.append(x[0])
    threads = [threading.Thread(target=worker, args=(x,)) for x in xs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures


def test_failure_inside_a_blocked_run_names_the_users_line():
    @tf.function
    def f(x, e):
        return tf.pow(x * 2, e) + x    # integers to a negative power fail at run time
    x = np.ones(N_BLOCK, np.int32)
    e = np.ones(N_BLOCK, np.int32)
    assert _blocked(_source(f, tf.constant(x), tf.constant(e)))
    _bits_equal(f(tf.constant(x), tf.constant(e)).numpy(), np.full(N_BLOCK, 3, np.int32))
    e[-1] = -1
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        f(tf.constant(x), tf.constant(e))
    assert 'Pow' in str(info.value) and 'tf.pow(x * 2, e) + x' in str(info.value)


@pytest.mark.parametrize('n', [N_REUSE, N_BLOCK])
def test_values_stored_in_variables_are_never_written_afterwards(n):
    v = tf.Variable(np.zeros(n, np.float32))

    @tf.function
    def f(x):
        e = tf.exp(x) * 2.0
        v.assign(e)                       # the Variable may keep e's buffer itself
        w = tf.sin(e) + e                 # e dies here: its buffer must stay the Variable's
        return tf.cos(w) * w + v.read_value() * 3.0
    x = _x(n)
    e = np.exp(x) * np.float32(2)
    w = np.sin(e) + e
    _bits_equal(f(tf.constant(x)).numpy(), np.cos(w) * w + e * np.float32(3))
    _bits_equal(v.numpy(), e)


def test_0d_constants_in_loop_bodies_and_big_graphs():
    @tf.function
    def loop(x):
        for _ in tf.range(3):
            x = x * 2.0 + 1.0
        return x
    x = _x(100)
    source = _source(loop, tf.constant(x))
    assert 'while ' in source and '_0d' in source
    want = x
    for _ in range(3):
        want = want * np.float32(2) + np.float32(1)
    _bits_equal(loop(tf.constant(x)).numpy(), want)

    @tf.function
    def chain(x):                      # 600 ops: the first call runs interpreted
        for _ in range(300):
            x = x * 1.0001 + 0.001
        return x
    first, second = chain(tf.constant(x)).numpy(), chain(tf.constant(x)).numpy()
    want = x
    for _ in range(300):
        want = want * np.float32(1.0001) + np.float32(0.001)
    _bits_equal(first, want)
    _bits_equal(second, want)
    assert '_0d' in _source(chain, tf.constant(x))
