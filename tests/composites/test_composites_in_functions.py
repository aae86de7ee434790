"""Composite tensors through tf.function (arguments, results, input_signature, trace keys),
tf.cond and tf.while_loop. Trace counts and signatures as TF 2.21 gives them."""
import numpy as np

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
