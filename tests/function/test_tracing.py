"""function: tracing, the trace cache and retrace explanations, signatures, methods, outputs."""
import collections
import functools
import logging

import numpy as np
import pytest

import defun as tf


def traced(fn, **kwargs):
    """fn as a tf.function, and a list that grows by one on every trace."""
    log = []

    @functools.wraps(fn)
    def wrapped(*args, **kw):
        log.append(1)
        return fn(*args, **kw)
    return tf.function(wrapped, autograph=False, **kwargs), log


def test_python_scalars_retrace_tensors_do_not():
    f, log = traced(lambda x: x * 2)
    f(1)
    f(2)
    f(tf.constant(1))
    f(tf.constant(2))
    assert len(log) == 3 == f.experimental_get_tracing_count()


def test_shapes_retrace_unless_reduce_retracing():
    f, log = traced(lambda x: tf.reduce_sum(x))
    for n in (2, 3, 4):
        f(tf.zeros([n]))
    assert len(log) == 3
    g, glog = traced(lambda x: tf.reduce_sum(x), reduce_retracing=True)
    for n in (2, 3, 4, 5):
        g(tf.zeros([n]))
    assert len(glog) == 2
    assert 'x (POSITIONAL_OR_KEYWORD): TensorSpec(shape=(None,), dtype=tf.float32, name=None)' \
        in g.pretty_printed_concrete_signatures()


def test_new_objects_retrace_and_are_held_weakly():
    class Box:
        def __init__(self, k):
            self.k = k
    f, log = traced(lambda b, x: x * b.k)
    a = Box(2.0)
    assert float(f(a, tf.constant(1.0))) == 2.0
    assert float(f(a, tf.constant(3.0))) == 6.0
    assert float(f(Box(5.0), tf.constant(1.0))) == 5.0
    assert len(log) == 2


def test_defaults_and_keywords_share_traces():
    f, log = traced(lambda x, scale=2.0: x * scale)
    f(tf.constant(1.0))
    f(tf.constant(1.0), scale=2.0)
    f(x=tf.constant(1.0))
    assert len(log) == 1


def test_nested_structures_in_and_out():
    Point = collections.namedtuple('Point', 'x y')

    @tf.function
    def f(p, d):
        return {'sum': p.x + p.y, 'items': [d['a'] * 2, None], 'const': 3.0}
    out = f(Point(tf.constant(1.0), tf.constant(2.0)), {'a': tf.constant(5)})
    assert float(out['sum']) == 3.0
    assert int(out['items'][0]) == 10 and out['items'][1] is None
    assert isinstance(out['const'], tf.Tensor) and float(out['const']) == 3.0


def test_returning_other_objects_is_a_type_error():
    @tf.function
    def f(x):
        return object()
    with pytest.raises(TypeError, match='must return zero or more Tensors'):
        f(tf.constant(1.0))


def test_input_signature_fixes_the_trace_and_rejects_misfits():
    f, log = traced(lambda x: x + 1.0, input_signature=[tf.TensorSpec([None], tf.float32)])
    f(tf.constant([1.0]))
    f(tf.constant([1.0, 2.0]))
    f([3.0, 4.0])
    assert len(log) == 1
    with pytest.raises(TypeError, match='input_signature'):
        f(tf.constant([1, 2]))
    with pytest.raises(TypeError):
        f(tf.constant([1.0]), tf.constant(1.0))


def test_wrong_arity_and_unknown_keyword_raise_type_error():
    @tf.function
    def f(x):
        return x
    with pytest.raises(TypeError):
        f()
    with pytest.raises(TypeError):
        f(tf.constant(1.0), y=2)


def test_get_concrete_function_and_its_surface():
    @tf.function
    def f(x, y):
        return x * y, x - y
    cf = f.get_concrete_function(tf.TensorSpec([2], tf.float32), tf.TensorSpec([2], tf.float32))
    a, b = cf(tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0]))
    assert a.numpy().tolist() == [3.0, 8.0] and b.numpy().tolist() == [-2.0, -2.0]
    assert len(cf.inputs) == 2 and len(cf.outputs) == 2
    assert cf.graph.get_operations()
    assert [n.op for n in cf.graph.as_graph_def().node].count('Placeholder') == 2
    assert 'mul = x * y' in cf.function_source  # the op is named 'mul', as TF names x * y
    # TF 2.21: a concrete function fed another dtype raises InvalidArgumentError.
    with pytest.raises(tf.errors.InvalidArgumentError, match='input #0\\(zero-based\\) was '
                       'expected to be a float tensor but is a int32 tensor'):
        cf(tf.constant([1, 2]), tf.constant([1, 2]))


def test_python_side_effects_only_while_tracing_print_op_every_call(capsys):
    calls = []

    @tf.function
    def f(x):
        calls.append(1)
        return x + 1
    for _ in range(3):
        f(tf.constant(1))
    assert calls == [1]


def test_check_mutation_of_list_argument():
    @tf.function
    def f(items):
        items.append(tf.constant(1.0))
        return items[0]
    with pytest.raises(ValueError, match='should not modify'):
        f([tf.constant(2.0)])


def test_retrace_explanations_name_argument_and_values(caplog):
    f, _ = traced(lambda x, n: x * n)
    with caplog.at_level(logging.WARNING, logger='defun'):
        for n in range(6):
            f(tf.constant(1.0), n)
    history = f.explain_retraces()
    assert len(history) == 5
    name, old, new = history[0]['changes'][0]
    assert (name, old, new) == ('n', '0', '1')
    assert 'test_tracing.py' in history[0]['call_site']
    assert any('`n` changed from' in r.message and 'input_signature' in r.message
               for r in caplog.records)


def test_numpy_arrays_are_traced_like_tensors():
    f, log = traced(lambda x: x * 2)
    f(np.array([1.0, 2.0], dtype=np.float32))
    f(np.array([3.0, 4.0], dtype=np.float32))
    assert len(log) == 1


def test_graph_tensor_bool_in_autograph_false_function():
    @tf.function(autograph=False)
    def f(x):
        if x > 0:
            return x
        return -x
    # TF 2.21's class; defun's own text (TF's advises decorating the function with @tf.function,
    # which it is: tests/function/test_autograph_off.py); the traceback shows the user's line.
    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError) as info:
        f(tf.constant(1.0))
    assert isinstance(info.value, TypeError)
    assert str(info.value).startswith('Using a symbolic `tf.Tensor` as a Python `bool` is not '
                                      'allowed: f is traced with autograph=False')
    assert any(entry.name == 'f' for entry in info.traceback)


def test_numpy_of_graph_tensor_names_function_and_line():
    @tf.function
    def g(x):
        return x.numpy()
    with pytest.raises(AttributeError, match='return x.numpy()'):
        g(tf.constant(1.0))


def test_python_values_are_keyed_by_equality_like_tf_literals():
    # TF's Literal trace type compares values: 2, 2.0 and True == 1 share a trace.
    f, log = traced(lambda x, n: x * n)
    f(tf.constant(1.0), 2)
    f(tf.constant(1.0), 2.0)
    f(tf.constant(1.0), 3)
    assert len(log) == 2
    g, glog = traced(lambda v: tf.constant(1) if isinstance(v, int) else tf.constant(2))
    assert [int(g(v)) for v in (1, 1.0, True)] == [1, 1, 1]
    assert len(glog) == 1


def test_numpy_scalars_are_traced_as_tensors():
    seen = []
    f = tf.function(lambda x: seen.append(tf.is_tensor(x)) or x * 2, autograph=False)
    assert float(f(np.float32(1.5))) == 3.0
    assert float(f(np.float32(2.5))) == 5.0
    assert f(np.int64(3)).dtype == tf.int64
    assert seen == [True, True] and f.experimental_get_tracing_count() == 2


def test_structured_input_signature_names_specs_by_argument_path():
    Pair = collections.namedtuple('Pair', ['a', 'b'])
    f = tf.function(lambda p, y=1: p.a + p.b + y, autograph=False)
    cf = f.get_concrete_function(Pair(tf.TensorSpec([], tf.int32), tf.TensorSpec([], tf.int32)))
    args, kwargs = cf.structured_input_signature
    assert kwargs == {} and args[1] == 1
    assert args[0] == Pair(tf.TensorSpec([], tf.int32, 'p_a'), tf.TensorSpec([], tf.int32, 'p_b'))
    assert args[0].a.name == 'p_a'


def test_concrete_function_refuses_other_python_values():
    f = tf.function(lambda x, y=1: x + y, autograph=False)
    cf = f.get_concrete_function(tf.TensorSpec([], tf.int32))
    assert int(cf(tf.constant(3), 1)) == 4
    with pytest.raises(TypeError):
        cf(tf.constant(3), y=2)


def test_nested_input_signature():
    f = tf.function(lambda pair: pair[0] * tf.cast(pair[1], tf.float32), autograph=False,
                    input_signature=[(tf.TensorSpec([None], tf.float32),
                                      tf.TensorSpec([], tf.int32))])
    assert f((tf.constant([1.0, 2.0]), tf.constant(3))).numpy().tolist() == [3.0, 6.0]
    assert f([tf.constant([1.0]), 2]).numpy().tolist() == [2.0]
    for bad in (tf.constant([1.0]), (tf.constant([1.0]),), (tf.constant([1]), tf.constant(1))):
        with pytest.raises(TypeError):
            f(bad)
    assert f.experimental_get_tracing_count() == 1
    assert f.get_concrete_function()((tf.constant([2.0]), tf.constant(2))).numpy().tolist() == [4.0]


def test_mixed_dtypes_in_a_graph_raise_type_error_as_tf():
    @tf.function
    def f(x, n):
        return x + n
    with pytest.raises(TypeError, match='tf.cast'):
        f(tf.constant(1.0), tf.constant(1))
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.constant(1.0) + tf.constant(1)


def test_python_iteration_of_a_graph_tensor_is_refused_as_tf():
    # TF 2.21: OperatorNotAllowedInGraphError (a TypeError) even when the shape is known; with
    # AutoGraph a `for` loop is converted, but unpacking still iterates in Python.
    @tf.function(autograph=False)
    def loop(x):
        s = 0.0
        for v in x:
            s += v
        return s

    @tf.function
    def unpack(x):
        a, b = x
        return a
    for f in (loop, unpack):
        with pytest.raises(tf.errors.OperatorNotAllowedInGraphError,
                           match='Iterating over a symbolic `tf.Tensor` is not allowed'):
            f(tf.constant([1.0, 2.0]))
    with pytest.raises(TypeError, match=r'len is not well defined for a symbolic Tensor \(x:0\)'):
        tf.function(lambda x: len(x), autograph=False)(tf.constant([1.0, 2.0]))


def test_a_fully_known_tensorshape_returned_becomes_a_tensor():
    # TF 2.21 converts a fully defined TensorShape output to an int32 tensor, refuses a partial one.
    f = tf.function(lambda x: x.shape)
    assert f(tf.ones([2, 3])).numpy().tolist() == [2, 3]
    g = tf.function(lambda x: x.shape, input_signature=[tf.TensorSpec([None, 3])])
    with pytest.raises(TypeError, match='TensorShape'):
        g(tf.ones([2, 3]))
