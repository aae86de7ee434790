"""function: Variables and Python values as arguments, as TF 2.21 traces them (trace counts and
values below were recorded by running the same code on TensorFlow 2.21)."""
import functools
import gc
import weakref

import pytest

import defun as tf


def counted(fn):
    """fn as a tf.function, and a list that grows by one on every trace."""
    log = []

    @functools.wraps(fn)
    def wrapped(*args, **kwargs):
        log.append(1)
        return fn(*args, **kwargs)
    return tf.function(wrapped, autograph=False), log


def test_variables_of_one_spec_share_a_trace_and_each_call_uses_its_own():
    def add(v, x):
        v.assign_add(x)
        return v.read_value()
    f, log = counted(add)
    a, b = tf.Variable(1.0), tf.Variable(10.0)
    assert float(f(a, 1.0)) == 2.0 and float(f(b, 1.0)) == 11.0
    assert (a.numpy(), b.numpy()) == (2.0, 11.0) and len(log) == 1
    f(tf.Variable([1.0, 2.0]), tf.constant([1.0, 1.0]))     # another shape
    f(tf.Variable(1.0, trainable=False), 1.0)               # another trainability
    f(tf.Variable(1), 1)                                    # another dtype
    assert f.experimental_get_tracing_count() == 4 == len(log)


def test_aliased_variables_trace_apart():
    def g(v, w):
        v.assign_add(1.0)
        return w.read_value()
    f, log = counted(g)
    a, b = tf.Variable(1.0), tf.Variable(10.0)
    assert float(f(a, b)) == 10.0 and float(f(a, a)) == 3.0 and len(log) == 2
    assert float(f(b, a)) == 3.0 and len(log) == 2


def test_the_cache_holds_no_variable():
    f = tf.function(lambda v: v * 2.0)
    refs = []
    for i in range(20):
        v = tf.Variable(float(i))
        assert float(f(v)) == 2.0 * i
        refs.append(weakref.ref(v))
    del v
    gc.collect()
    assert all(r() is None for r in refs)
    assert f.experimental_get_tracing_count() == 1


def test_gradients_reach_variable_arguments():
    inner = tf.function(lambda v, x: v * x)

    @tf.function
    def outer(v, x):
        with tf.GradientTape() as tape:
            y = inner(v, x) + v * v
        return y, tape.gradient(y, v)
    a = tf.Variable(2.0)
    y, g = outer(a, tf.constant(1.0))
    assert float(y) == 6.0 and float(g) == 5.0          # x + 2v
    with tf.GradientTape() as tape:
        y = inner(a, tf.constant(3.0))
    assert float(tape.gradient(y, a)) == 3.0
    assert tape.watched_variables() == (a,)


def test_variable_argument_read_in_a_cond_branch():
    @tf.function
    def f(v, x):
        if x > 0:
            v.assign_add(x)
        else:
            v.assign_sub(x)
        return v.read_value()
    a, b = tf.Variable(1.0), tf.Variable(5.0)
    assert float(f(a, tf.constant(2.0))) == 3.0 and float(f(b, tf.constant(-1.0))) == 6.0
    assert f.experimental_get_tracing_count() == 1


def test_concrete_function_binds_python_values():
    def f(a, b):
        return a * b
    fn, log = counted(f)
    spec = tf.TensorSpec([], tf.float32)
    c = fn.get_concrete_function(spec, 3)
    x = tf.constant(2.0)
    assert float(c(x)) == 6.0 and float(c(x, 3)) == 6.0 and float(c(a=x)) == 6.0
    assert float(c(x, b=3)) == 6.0
    with pytest.raises(TypeError, match='Can not cast 4 to Literal\\[3\\]'):
        c(x, 4)
    assert float(fn(x, 3)) == 6.0 and fn.experimental_get_tracing_count() == 1
    c2 = fn.get_concrete_function(a=spec, b=2)
    assert float(c2(x)) == 4.0 and fn.experimental_get_tracing_count() == 2
    assert float(fn(tf.constant(5.0), b=2)) == 10.0 and float(fn(a=x, b=2)) == 4.0
    assert fn.experimental_get_tracing_count() == 2 == len(log)
    assert c2.structured_input_signature == ((tf.TensorSpec([], tf.float32, 'a'), 2), {})


def test_concrete_function_of_a_variable_argument():
    def g(v, x):
        return v * x
    fn, _ = counted(g)
    a = tf.Variable(2.0)
    c = fn.get_concrete_function(a, 1.5)
    assert float(c(tf.Variable(4.0), 1.5)) == 6.0 and float(c(a, x=1.5)) == 3.0
    with pytest.raises(TypeError, match="missing a required argument: 'x'"):
        c(a)
    assert fn.experimental_get_tracing_count() == 1


def test_reduce_retracing_relaxes_variable_shapes():
    @tf.function(reduce_retracing=True)
    def r(v):
        v.assign(v * 2.0)
        return tf.reduce_sum(v)
    vs = [tf.Variable([1.0]), tf.Variable([1.0, 2.0]), tf.Variable([1.0, 2.0, 3.0])]
    assert [float(r(v)) for v in vs] == [2.0, 6.0, 12.0]
    assert r.experimental_get_tracing_count() == 2 and vs[2].numpy().tolist() == [2.0, 4.0, 6.0]
    assert r.pretty_printed_concrete_signatures(verbose=False).splitlines()[1] == (
        '(v: VariableSpec(shape=(None,), dtype=tf.float32, trainable=True, alias_id=0)) -> '
        'TensorSpec(shape=(), dtype=tf.float32, name=None)')


def test_variables_nested_in_arguments():
    g = tf.Variable(1.0)

    @tf.function
    def f(vs, d):
        vs[0].assign_add(1.0)
        g.assign_add(d['x'])
        return vs[0] + vs[1] + d['w'] + g
    a, b = tf.Variable(1.0), tf.Variable(2.0)
    assert float(f([a, b], {'x': 1.0, 'w': tf.constant(3.0)})) == 9.0 and a.numpy() == 2.0
    assert float(f([b, a], {'x': 1.0, 'w': tf.constant(3.0)})) == 11.0 and b.numpy() == 3.0
    assert f.experimental_get_tracing_count() == 1


def test_input_signature_binds_var_positional_arguments_as_tf():
    # TF 2.21: the specs fill *args as positional-only parameters args_0, args_1, ...
    double = tf.function(lambda *args: args[0] * 2 + args[1],
                         input_signature=[tf.TensorSpec([None, 3]), tf.TensorSpec([])],
                         autograph=False)
    assert double(tf.ones([1, 3]), 1.0).numpy().tolist() == [[3.0, 3.0, 3.0]]
    text = double.get_concrete_function().pretty_printed_signature()
    assert 'args_0 (POSITIONAL_ONLY): TensorSpec(shape=(None, 3)' in text
    assert 'args_1 (POSITIONAL_ONLY): TensorSpec(shape=()' in text
