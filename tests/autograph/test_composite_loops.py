"""AutoGraph loops whose variables are composite tensors: a SparseTensor whose rank grows under a
shape invariant given as a TensorShape (TF reads it as the SparseTensorSpec of that shape), and
nested loops over the rows of a RaggedTensor. Each compiled result must equal the eager one, as in
TF's AutoGraph reference tests."""
import numpy as np
import pytest

import defun as tf


def grow_rank_while(n):
    v = tf.SparseTensor(indices=[[0, 0], [1, 1]], values=[1, 2], dense_shape=[3, 3])
    i = 0
    while i < n:
        tf.autograph.experimental.set_loop_options(shape_invariants=[(v, tf.TensorShape(None))])
        v = tf.sparse.expand_dims(v)
        i += 1
    return v


def grow_rank_for(items):
    v = tf.SparseTensor(indices=[[0, 0], [1, 1]], values=[1, 2], dense_shape=[3, 3])
    for _ in items:
        tf.autograph.experimental.set_loop_options(shape_invariants=[(v, tf.TensorShape(None))])
        v = tf.sparse.expand_dims(v)
    return v


def row_digits(m):
    out = tf.TensorArray(tf.int32, size=0, dynamic_size=True, element_shape=())
    for row in m:
        s = 0
        for j in row:
            s = s * 10 + j
        out = out.write(out.size(), s)
    return out.stack()


def _same_sparse(a, b):
    return (np.array_equal(a.indices.numpy(), b.indices.numpy())
            and np.array_equal(a.values.numpy(), b.values.numpy())
            and np.array_equal(a.dense_shape.numpy(), b.dense_shape.numpy()))


@pytest.mark.parametrize('n', [0, 1, 2, 5])
@pytest.mark.parametrize('kind', [int, tf.constant])
def test_while_sparse_with_a_shape_invariant(n, kind):
    compiled = tf.function(grow_rank_while)(kind(n))
    assert _same_sparse(compiled, grow_rank_while(kind(n)))
    assert compiled.dense_shape.numpy().tolist() == [3, 3] + [1] * n


@pytest.mark.parametrize('n', [0, 1, 2])
@pytest.mark.parametrize('kind', [range, tf.range,
                                  lambda n: tf.data.Dataset.range(n).map(
                                      lambda x: tf.cast(x, tf.int32))])
def test_for_sparse_with_a_shape_invariant(n, kind):
    compiled = tf.function(grow_rank_for)(kind(n))
    assert _same_sparse(compiled, grow_rank_for(kind(n)))


@pytest.mark.parametrize('rows', [[[]], [[], [1]], [[], [1], [1, 2]]])
def test_nested_loops_over_ragged_rows(rows):
    m = tf.ragged.constant(rows, dtype=tf.int32)
    compiled = tf.function(row_digits)(m)
    np.testing.assert_array_equal(compiled.numpy(), row_digits(m).numpy())


def test_sparse_expand_dims_of_unknown_rank():
    # TF 2.21: expand_dims(axis=-2) of a [3, 4] SparseTensor traced with an unknown shape.
    @tf.function(input_signature=[tf.SparseTensorSpec(None, tf.int32)])
    def f(s):
        return tf.sparse.expand_dims(s, -2)
    v = tf.SparseTensor(indices=[[0, 0], [1, 2]], values=[1, 2], dense_shape=[3, 4])
    r = f(v)
    assert r.indices.numpy().tolist() == [[0, 0, 0], [1, 0, 2]]
    assert r.dense_shape.numpy().tolist() == [3, 1, 4]
