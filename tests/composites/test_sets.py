"""tf.sets: results recorded from TensorFlow 2.21 (dense and sparse operands, every operation,
strings and small integer types), its refusals, and the ops inside a compiled function."""
import numpy as np
import pytest

import defun as tf

A = [[1, 2, 2, 3], [4, 5, 6, 4]]
C = [[3, 3, 9], [6, 1, 1]]


def _b():
    return tf.SparseTensor([[0, 0], [0, 1], [1, 3]], [2, 7, 4], [2, 5])


def _s3a():
    return tf.SparseTensor([[0, 0, 0], [0, 0, 1], [0, 1, 0], [1, 0, 0], [1, 1, 0], [1, 1, 1]],
                           tf.constant([1, 2, 3, 4, 5, 6], tf.int64), [2, 2, 2])


def _s3b():
    return tf.SparseTensor([[0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 1], [1, 1, 2], [1, 1, 3]],
                           tf.constant([1, 4, 5, 6, 7, 8], tf.int64), [2, 2, 4])


def _parts(sp):
    return sp.indices.numpy().tolist(), sp.values.numpy().tolist(), sp.dense_shape.numpy().tolist()


# (operation, operands) -> (indices, values, dense_shape), recorded from TF 2.21
RECORDED = {
    ('intersection', 'dense_dense'): ([[0, 0], [1, 0]], [3, 6], [2, 1]),
    ('intersection', 'dense_sparse'): ([[0, 0], [1, 0]], [2, 4], [2, 1]),
    ('intersection', 'sparse_dense'): ([[0, 0], [1, 0]], [2, 4], [2, 1]),
    ('intersection', 'sparse_sparse'): ([[0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 1]],
                                        [1, 4, 5, 6], [2, 2, 2]),
    ('union', 'dense_dense'): ([[0, 0], [0, 1], [0, 2], [0, 3], [1, 0], [1, 1], [1, 2], [1, 3]],
                               [1, 2, 3, 9, 1, 4, 5, 6], [2, 4]),
    ('union', 'dense_sparse'): ([[0, 0], [0, 1], [0, 2], [0, 3], [1, 0], [1, 1], [1, 2]],
                                [1, 2, 3, 7, 4, 5, 6], [2, 4]),
    ('union', 'sparse_dense'): ([[0, 0], [0, 1], [0, 2], [0, 3], [1, 0], [1, 1], [1, 2]],
                                [1, 2, 3, 7, 4, 5, 6], [2, 4]),
    ('union', 'sparse_sparse'): ([[0, 0, 0], [0, 0, 1], [0, 1, 0], [1, 0, 0], [1, 1, 0],
                                  [1, 1, 1], [1, 1, 2], [1, 1, 3]],
                                 [1, 2, 3, 4, 5, 6, 7, 8], [2, 2, 4]),
    ('difference', 'dense_dense'): ([[0, 0], [0, 1], [1, 0], [1, 1]], [1, 2, 4, 5], [2, 2]),
    ('difference', 'dense_sparse'): ([[0, 0], [0, 1], [1, 0], [1, 1]], [1, 3, 5, 6], [2, 2]),
    ('difference', 'sparse_dense'): ([[0, 0]], [7], [2, 1]),
    ('difference', 'sparse_sparse'): ([[0, 0, 0], [0, 1, 0]], [2, 3], [2, 2, 1]),
}

OPERANDS = {
    'dense_dense': lambda: (tf.constant(A), tf.constant(C)),
    'dense_sparse': lambda: (tf.constant(A), _b()),
    'sparse_dense': lambda: (_b(), tf.constant(A)),
    'sparse_sparse': lambda: (_s3a(), _s3b()),
}


@pytest.mark.parametrize('operation,operands', sorted(RECORDED), ids='-'.join)
def test_set_operations_as_tf(operation, operands):
    result = getattr(tf.sets, operation)(*OPERANDS[operands]())
    assert isinstance(result, tf.SparseTensor)
    assert _parts(result) == RECORDED[operation, operands]


def test_difference_b_minus_a_strings_and_small_ints():
    assert _parts(tf.sets.difference(tf.constant(A), tf.constant(C), aminusb=False)) == \
        ([[0, 0], [1, 0]], [9, 1], [2, 1])
    strings = tf.sets.union(tf.constant([[b'b', b'a'], [b'c', b'c']]),
                            tf.constant([[b'a', b'd'], [b'e', b'c']]))
    assert _parts(strings) == ([[0, 0], [0, 1], [0, 2], [1, 0], [1, 1]],
                               [b'a', b'b', b'd', b'c', b'e'], [2, 3])
    small = tf.sets.intersection(tf.constant([[1, 2, 3]], tf.uint8),
                                 tf.constant([[3, 1, 7]], tf.uint8))
    assert _parts(small) == ([[0, 0], [0, 1]], [1, 3], [1, 2])
    assert small.dtype == tf.uint8
    empty = tf.sets.intersection(tf.constant([[1, 2]]), tf.constant([[3, 4]]))
    assert _parts(empty) == ([], [], [1, 0])
    assert empty.indices.shape.as_list() == [0, 2]


def test_size_as_tf():
    size = tf.sets.size(_s3a())
    assert size.dtype == tf.int32
    assert size.numpy().tolist() == [[2, 1], [1, 2]]
    rows = tf.SparseTensor([[0, 0], [0, 1], [0, 2], [2, 1]], [5, 5, 6, 1], [3, 4])
    assert tf.sets.size(rows).numpy().tolist() == [2, 0, 1]


def test_refusals_as_tf():
    with pytest.raises(TypeError, match="'a' has invalid dtype `<dtype: 'float32'>`"):
        tf.sets.union(tf.constant([1., 2.]), tf.constant([1., 2.]))
    with pytest.raises(TypeError, match="Types don't match, <dtype: 'int32'> vs <dtype: 'int64'>"):
        tf.sets.union(tf.constant([[1, 2]]), tf.constant([[1, 2]], tf.int64))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r'Mismatched shapes \[1\] vs \[2\]'):
        tf.sets.union(tf.constant([[1, 2]]), tf.constant([[1, 2], [3, 4]]))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r'Shape \[2\] has rank 1 < 2'):
        tf.sets.union(tf.constant([1, 2]), tf.constant([1, 2]))
    with pytest.raises(TypeError, match='Expected `SparseTensor`, got tf.Tensor'):
        tf.sets.size(tf.constant([[1]]))
    unordered = tf.SparseTensor([[0, 1], [0, 0]], [1, 2], [1, 2])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r'indices\[1\] = \[0,0\] is out of '
                                                            r'order'):
        tf.sets.union(unordered, tf.SparseTensor([[0, 1]], [1], [1, 2]))


def test_set_ops_in_a_function_and_without_gradient():
    @tf.function
    def f(a, b):
        result = tf.sets.intersection(a, b)
        return result.indices, result.values, result.dense_shape, tf.sets.size(result)

    indices, values, shape, size = f(tf.constant(A), tf.constant(C))
    assert indices.numpy().tolist() == [[0, 0], [1, 0]]
    assert values.numpy().tolist() == [3, 6]
    assert shape.numpy().tolist() == [2, 1]
    assert size.numpy().tolist() == [1, 1]
    concrete = f.get_concrete_function(tf.TensorSpec([None, None], tf.int32),
                                       tf.TensorSpec([None, None], tf.int32))
    assert concrete.structured_outputs[0].shape.as_list() == [None, 2]
    x = tf.Variable(np.array([[1, 2]], np.int32))
    with tf.GradientTape() as tape:
        out = tf.sets.union(x, tf.constant([[3, 4]])).values
    assert tape.gradient(out, x) is None
