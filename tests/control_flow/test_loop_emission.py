"""How a While op is written: counters proven to stay in int32 run as Python ints (and counters
that could overflow keep int32's wrapping arithmetic), the iteration count only when read, the
loop variables rebound one name at a time (a swap with one tuple), `while <test>:` for a
one-expression cond. Results and dtypes equal a Python loop over numpy int32 / float32."""
import re

import numpy as np
import pytest

import defun as tf
from defun.control_flow import while_emission


def _source(f, *args):
    return f.get_concrete_function(*args).function_source


@tf.function
def newton(a, n):
    x = a
    i = tf.constant(0)
    while i < n:
        x = 0.5 * (x + a / x)
        i += 1
    return x, i


def test_counter_with_a_run_time_limit_is_a_python_int():
    source = _source(newton, tf.TensorSpec([], tf.float32), tf.TensorSpec([], tf.int32))
    assert 'while while_0 < n_int:' in source and 'n_int = int(n)' in source
    assert 'while_0 = np.int32(while_0)' in source
    assert ', = ' not in source and '+= 1' not in source   # no tuples, no unused trip count
    x, i = newton(tf.constant(np.float32(2.0)), tf.constant(50))
    assert x.dtype == tf.float32 and i.dtype == tf.int32 and i.numpy() == 50
    assert x.numpy() == np.float32(np.sqrt(np.float32(2.0)))
    x, i = newton(tf.constant(np.float32(2.0)), tf.constant(-3))
    assert i.numpy() == 0 and x.numpy() == np.float32(2.0)


def _count(start, limit, step, compare):
    @tf.function
    def f(i0):
        return tf.while_loop(lambda i: compare(i, limit), lambda i: i + step, [i0])[0]
    return f


def _python_count(start, limit, step, compare):
    i = np.int32(start)
    with np.errstate(over='ignore'):
        while compare(i, np.int32(limit)):
            i = np.int32(i + np.int32(step))
    return i


@pytest.mark.parametrize('start, limit, step, compare, proven', [
    (0, 10, 1, lambda i, n: i < n, True),
    (0, 10, 3, lambda i, n: i <= n, True),
    (20, 0, -4, lambda i, n: i > n, True),
    (5, 0, -1, lambda i, n: i >= n, True),
    (2 ** 31 - 10, 2 ** 31 - 1, 1, lambda i, n: i < n, True),
    (2 ** 31 - 10, 2 ** 31 - 2, 1, lambda i, n: i <= n, True),
    (2 ** 31 - 10, 2 ** 31 - 2, 4, lambda i, n: i < n, False),
    (1, 0, 1_000_000_000, lambda i, n: i > n, False),               # wraps around, then stops
    (-2 ** 31 + 3, -2 ** 31 + 1, -3, lambda i, n: i > n, False),
])
def test_range_check_decides_python_ints_and_results_equal_int32(start, limit, step, compare,
                                                                proven):
    f = _count(start, limit, step, compare)
    source = _source(f, tf.TensorSpec([], tf.int32))
    assert (' = int(i0)' in source) == proven
    got = f(tf.constant(start, tf.int32))
    assert got.dtype == tf.int32
    assert got.numpy() == _python_count(start, limit, step, compare)


def test_step_above_one_with_a_run_time_limit_keeps_int32():
    @tf.function
    def f(n):
        return tf.while_loop(lambda i: i < n, lambda i: i + 2, [tf.constant(0)])[0]

    source = _source(f, tf.TensorSpec([], tf.int32))
    assert 'int(' not in source     # i < n only bounds i by INT32_MAX - 1: i + 2 may wrap
    assert f(tf.constant(7)).numpy() == 8 and f(tf.constant(7)).dtype == tf.int32


def test_counter_read_by_arithmetic_gets_an_int32_copy():
    @tf.function
    def f(n):
        i, total = tf.constant(0), tf.constant(0)
        while i < n:
            total += i * 1_000_000   # int32 arithmetic: wraps past 2**31
            i += 1
        return total

    source = _source(f, tf.TensorSpec([], tf.int32))
    assert 'while_0_int32 = np.int32(while_0)' in source
    want = np.int32(0)
    with np.errstate(over='ignore'):
        for i in range(5000):
            want = np.int32(want + np.int32(i) * np.int32(1_000_000))
    got = f(tf.constant(5000))
    assert got.dtype == tf.int32 and got.numpy() == want


def test_counter_passed_to_another_loop_variable_and_to_an_index():
    @tf.function
    def f(xs):
        i, last, acc = tf.constant(0), tf.constant(-1), tf.zeros([2])
        while i < 4:
            acc += xs[i]
            last = i
            i += 1
        return last, acc

    xs = np.arange(8, dtype=np.float32).reshape(4, 2)
    source = _source(f, tf.TensorSpec([4, 2], tf.float32))
    assert re.search(r'= xs\[while_\d\]\n', source)
    last, acc = f(tf.constant(xs))
    assert last.dtype == tf.int32 and last.numpy() == 3
    np.testing.assert_array_equal(acc.numpy(), xs.sum(axis=0))


def test_iteration_count_kept_with_maximum_iterations():
    @tf.function
    def f(x):
        return tf.while_loop(lambda v: v < 100.0, lambda v: v * 2.0, [x], maximum_iterations=3)

    source = _source(f, tf.TensorSpec([], tf.float32))
    assert '+= 1' in source and 'maximum_iterations = int(' in source
    assert f(tf.constant(1.0))[0].numpy() == 8.0


def test_swapped_loop_variables_use_one_tuple():
    assert while_emission.parallel_assignment(['a', 'b'], ['b', 'a']) == ['a, b, = b, a,']
    assert while_emission.parallel_assignment(['a', 'b', 'c'], ['b', 'x', 'c']) == \
        ['a = b', 'b = x']

    @tf.function
    def f(a, b):
        return tf.while_loop(lambda i, a, b: i < 3, lambda i, a, b: (i + 1, b, a + b),
                             [tf.constant(0), a, b])

    _, a, b = f(tf.constant(1.0), tf.constant(1.0))
    assert (a.numpy(), b.numpy()) == (3.0, 5.0)


def test_loop_gradient_counters_and_results_match_finite_differences():
    @tf.function
    def f(w):
        with tf.GradientTape() as tape:
            tape.watch(w)
            i, x = tf.constant(0), w
            while i < 5:
                x = tf.sin(x) * w
                i += 1
        return tape.gradient(x, w)

    def forward(w):
        x = w
        for _ in range(5):
            x = np.sin(x) * w
        return x
    source = _source(f, tf.TensorSpec([], tf.float64))
    assert 'while while_0 < 5:' in source
    w, eps = 0.7, 1e-6
    numeric = (forward(w + eps) - forward(w - eps)) / (2 * eps)
    np.testing.assert_allclose(f(tf.constant(w, tf.float64)).numpy(), numeric, rtol=1e-6)


def _rnn_grad(steps):
    """The gradient of an RNN over `steps` (an int: a trip count known when tracing; None: the
    length of xs, known only at run time)."""
    w = tf.Variable(np.array([[0.5, -0.2], [0.1, 0.3]], np.float32))

    @tf.function
    def f(xs, h0):
        with tf.GradientTape() as tape:
            h = h0
            for t in tf.range(steps if steps is not None else tf.shape(xs)[0]):
                h = tf.tanh(tf.matmul(w, h) + xs[t])
            loss = tf.reduce_sum(h)
        return loss, tape.gradient(loss, w)
    return w, f


def _numpy_rnn_grad(w, xs, h0):
    hs = [h0]
    for x in xs:
        hs.append(np.tanh(w @ hs[-1] + x))
    dw, dh = np.zeros_like(w), np.ones_like(h0)
    for t in range(len(xs) - 1, -1, -1):
        da = dh * (1 - hs[t + 1] ** 2)
        dw += da @ hs[t].T
        dh = w.T @ da
    return hs[-1].sum(), dw


@pytest.mark.parametrize('steps, known', [(0, True), (1, True), (7, True), (0, False),
                                          (5, False)])
def test_variable_read_is_hoisted_and_not_stacked_per_iteration(steps, known):
    w, f = _rnn_grad(steps if known else None)
    xs = np.random.default_rng(3).standard_normal((steps, 2, 1)).astype(np.float32)
    h0 = np.full((2, 1), 0.2, np.float32)
    spec = tf.TensorSpec(xs.shape if known else [None, 2, 1], tf.float32)
    source = _source(f, spec, tf.TensorSpec([2, 1], tf.float32))
    if steps or not known:
        before_loop = source.split('while True:')[0]
        assert 'ReadVariableOp = k_ReadVariableOp(' in before_loop   # read once, if it runs
        assert 'repeat_value(ReadVariableOp, ' in source                # not stacked per step
    if known and steps:
        # h as it enters and leaves each iteration: one buffer, filled in place
        assert 'np.empty(' in before_loop and '[0] = h0' in before_loop
        assert 'split_previous(' in source and '.append(' not in source
    if not known:
        # one buffer grown in place as the loop runs (no list of rows joined after the loop)
        assert 'grow_rows(' in source and 'trim_rows(' in source and '.append(' not in source
    loss, dw = f(tf.constant(xs), tf.constant(h0))
    want_loss, want_dw = _numpy_rnn_grad(w.numpy().astype(np.float64), xs, h0)
    np.testing.assert_allclose(loss.numpy(), want_loss, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(dw.numpy(), want_dw, rtol=1e-5, atol=1e-6)
    assert dw.dtype == tf.float32


def test_a_loop_that_writes_a_variable_reads_it_every_iteration():
    v = tf.Variable(1.0)

    @tf.function
    def f(n):
        total = tf.constant(0.0)
        for _ in tf.range(n):
            total += v.read_value()
            v.assign_add(1.0)
        return total

    source = _source(f, tf.TensorSpec([], tf.int32))
    assert 'if Less' not in source and 'repeat_value' not in source
    assert f(tf.constant(4)).numpy() == 1.0 + 2.0 + 3.0 + 4.0


def test_hoisted_reads_follow_assignments_before_the_loop():
    v = tf.Variable(2.0)

    @tf.function
    def f(n):
        v.assign(3.0)
        total = tf.constant(0.0)
        for _ in tf.range(n):
            total += v * 2.0
        return total

    assert f(tf.constant(3)).numpy() == 18.0 and f(tf.constant(0)).numpy() == 0.0


def test_loop_variables_take_their_new_values_in_place_when_nothing_reads_the_old():
    source = _source(newton, tf.TensorSpec([], tf.float32), tf.TensorSpec([], tf.int32))
    assert 'while_0 = while_0 + 1' in source and 'add_1' not in source
    lines = ['t = x + 1', 'u = t * x', 'v = y * 2']
    # x is read after t is made: x keeps its old value until the end (a rebinding)
    done = while_emission.assign_in_place(lines, ['x', 'y'], ['t', 'v'], ['s.append(t)'])
    assert done == {1} and lines[2] == ('y = y * 2', None) and lines[0] == 't = x + 1'
    lines = ['t = x + 1', 'v = y * 2']
    done = while_emission.assign_in_place(lines, ['x', 'y'], ['t', 'x'], [])
    assert done == set()   # y takes x's old value: x must not change first
