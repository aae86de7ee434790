"""Composite tensors through tf.function (arguments, results, input_signature, trace keys),
tf.cond and tf.while_loop. Trace counts and signatures as TF 2.21 gives them."""
import numpy as np
import pytest

import defun as tf


def test_ragged_argument_traces_by_spec_and_returns_ragged():
    traces = []

    @tf.function
    def f(rt):
        traces.append(str(rt))
        return tf.ragged.map_flat_values(lambda v: v * 2, rt)

    assert f(tf.ragged.constant([[1, 2], [3]])).to_list() == [[2, 4], [6]]
    assert f(tf.ragged.constant([[5], [6]])).to_list() == [[10], [12]]
    f(tf.ragged.constant([[1, 2], [3], [4, 5, 6]]))
    f(tf.ragged.constant([[1], [3], [4, 5, 6], []]))
    assert f.experimental_get_tracing_count() == 3   # as TF: each new number of rows retraces
    assert traces[0] == ('tf.RaggedTensor(values=Tensor("rt:0", shape=(None,), dtype=int32), '
                         'row_splits=Tensor("rt_1:0", shape=(3,), dtype=int64))')


def test_reduce_retracing_relaxes_the_spec():
    @tf.function(reduce_retracing=True)
    def g(rt):
        return rt

    g(tf.ragged.constant([[1, 2], [3]]))
    g(tf.ragged.constant([[1, 2], [3], [4, 5, 6]]))
    g(tf.ragged.constant([[1], [3], [4, 5, 6], []]))
    assert g.experimental_get_tracing_count() == 2


def test_sparse_argument_result_and_signature():
    @tf.function
    def g(st):
        return tf.sparse.to_dense(st), st

    dense, st = g(tf.SparseTensor([[0, 1]], [2.0], [2, 2]))
    np.testing.assert_array_equal(dense.numpy(), [[0, 2], [0, 0]])
    assert isinstance(st, tf.SparseTensor) and st.shape == tf.TensorShape([2, 2])
    g(tf.SparseTensor([[0, 1], [1, 1]], [2.0, 3.0], [2, 2]))
    assert g.experimental_get_tracing_count() == 1
    concrete = g.get_concrete_function(tf.SparseTensorSpec([None, 2], tf.float32))
    assert concrete.structured_input_signature == (
        (tf.SparseTensorSpec([None, 2], tf.float32),), {})


def test_input_signature_with_ragged_spec():
    @tf.function(input_signature=[tf.RaggedTensorSpec([None, None], tf.float32)])
    def h(rt):
        return tf.reduce_sum(rt.flat_values), rt.row_lengths()

    total, lengths = h(tf.ragged.constant([[1., 2.], [3.]]))
    assert float(total) == 6.0 and lengths.numpy().tolist() == [2, 1]
    h(tf.ragged.constant([[1.], [2.], [3.]]))
    assert h.experimental_get_tracing_count() == 1


def test_cond_and_while_loop_carry_composites():
    @tf.function
    def f(x, rt):
        return tf.cond(x > 0, lambda: rt, lambda: tf.ragged.map_flat_values(lambda v: -v, rt))

    rt = tf.ragged.constant([[1, 2], [3]])
    assert f(tf.constant(1), rt).to_list() == [[1, 2], [3]]
    assert f(tf.constant(-1), rt).to_list() == [[-1, -2], [-3]]

    @tf.function
    def loop(st):
        return tf.while_loop(lambda i, s: i < 2, lambda i, s: (i + 1, s.with_values(s.values + 1.)),
                             [tf.constant(0), st])

    _, out = loop(tf.SparseTensor([[0, 1]], [2.0], [2, 2]))
    assert out.values.numpy().tolist() == [4.0]


def test_gradient_tape_with_ragged_sources_and_targets():
    # As TF 2.21: a ragged source's gradient is ragged (its flat values' gradient); a ragged
    # target stands for its flat values; a SparseTensor is refused as a source.
    rt = tf.ragged.constant([[1., 2.], [3.]])
    x0 = tf.constant(1.)
    with tf.GradientTape(persistent=True) as t:
        t.watch(rt)
        y = tf.reduce_sum(rt * rt)
    g_rt, g_x0 = t.gradient(y, [rt, x0])
    assert isinstance(g_rt, tf.RaggedTensor) and g_rt.to_list() == [[2.0, 4.0], [6.0]]
    assert g_x0 is None
    x = tf.constant([1., 2., 3.])
    with tf.GradientTape() as t:
        t.watch(x)
        r = tf.RaggedTensor.from_row_lengths(x, [2, 1]) * 3.
    assert t.gradient(r, x).numpy().tolist() == [3.0, 3.0, 3.0]
    st = tf.SparseTensor([[0, 1]], [2.], [2, 2])
    with tf.GradientTape() as t:
        t.watch(st)
        y = tf.reduce_sum(tf.sparse.to_dense(st))
    with pytest.raises(ValueError, match='Type SparseTensor is not supported as a gradient source'):
        t.gradient(y, st)


def test_autograph_loops_over_ragged_rows():
    @tf.function
    def f(rt):
        total = tf.constant(0.)
        longest = tf.constant(0)
        for row in rt:
            total += tf.reduce_sum(row)
            longest = tf.maximum(longest, tf.size(row))
        return total, longest

    total, longest = f(tf.ragged.constant([[1., 2.], [3.], [4., 5., 6.]]))
    assert (float(total), int(longest)) == (21.0, 3)   # TF 2.21's values
