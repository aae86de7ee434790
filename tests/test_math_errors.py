"""Bad input to the math ops: TF's exception types, with messages that name the op, the shapes and
the dtypes, in eager mode and while a graph is built (where inference catches the same mistakes)."""
import numpy as np
import pytest

import defun as tf
from defun.core import errors


def _in_graph(fn, *specs):
    graph = tf.Graph()
    with graph.as_default():
        placeholders = [tf.compat.v1.placeholder(dtype, shape) for dtype, shape in specs]
        return fn(*placeholders)


def test_broadcast_mismatch_names_op_and_shapes():
    with pytest.raises(errors.InvalidArgumentError, match=r'Maximum.*float32\[2\].*float32\[3\]'):
        tf.maximum(tf.ones([2]), tf.ones([3]))
    with pytest.raises(ValueError, match=r'maximum.*\[2\] vs. \[3\]'):
        _in_graph(tf.maximum, (tf.float32, [2]), (tf.float32, [3]))


def test_wrong_axis():
    with pytest.raises(errors.InvalidArgumentError, match=r'reduce_mean.*axis.* 2 .*rank 2'):
        tf.reduce_mean(tf.ones([2, 3]), axis=2)
    with pytest.raises(errors.InvalidArgumentError, match=r'argmax.*axis.* -3'):
        tf.argmax(tf.ones([2, 3]), axis=-3)
    with pytest.raises(errors.InvalidArgumentError, match=r'cumsum.*axis.* 1'):
        tf.cumsum(tf.ones([3]), axis=1)
    # TF 2.21: Cumsum takes a scalar axis only.
    with pytest.raises(errors.InvalidArgumentError, match=r'ScanOp: axis must be a scalar, not \[2\]'):
        tf.cumsum(tf.ones([2, 2]), axis=[0, 1])


def test_symbolic_axis_must_be_known():
    with pytest.raises(ValueError, match='reduce_sum.*axis must be known'):
        _in_graph(lambda x, a: tf.reduce_sum(x, axis=a), (tf.float32, [2, 3]), (tf.int32, []))


def test_matmul_and_einsum_dimension_mismatch():
    with pytest.raises(ValueError, match=r'Matrix size-incompatible.*\[2, 3\]'):
        _in_graph(tf.matmul, (tf.float32, [2, 3]), (tf.float32, [2, 3]))
    with pytest.raises(errors.InvalidArgumentError,
                       match=r'Einsum.*float32\[2,3\].*float32\[4,5\]'):
        tf.einsum('ij,jk->ik', tf.ones([2, 3]), tf.ones([4, 5]))
    with pytest.raises(ValueError, match=r"einsum.*'j'.*size 3 .* 4 in another"):
        _in_graph(lambda a, b: tf.einsum('ij,jk->ik', a, b), (tf.float32, [2, 3]),
                  (tf.float32, [4, 5]))
    with pytest.raises(ValueError, match=r"einsum.*rank 2.*'ijk'"):
        _in_graph(lambda x: tf.einsum('ijk->i', x), (tf.float32, [2, 3]))
    with pytest.raises(ValueError, match='names 2 operands but 1'):
        tf.einsum('ij,jk->ik', tf.ones([2, 3]))
    with pytest.raises(errors.InvalidArgumentError, match='tensordot.*contracted'):
        tf.tensordot(tf.ones([2, 3]), tf.ones([4, 5]), axes=1)


def test_square_matrix_ops():
    with pytest.raises(errors.InvalidArgumentError, match=r'MatrixInverse.*float32\[2,3\].*square'):
        tf.linalg.inv(tf.ones([2, 3]))
    with pytest.raises(ValueError, match=r'inv.*square.*float32\[2,3\]'):
        _in_graph(tf.linalg.inv, (tf.float32, [2, 3]))
    with pytest.raises(ValueError, match=r'det.*square'):
        _in_graph(tf.linalg.det, (tf.float32, [None, 2, 3]))
    with pytest.raises(errors.InvalidArgumentError, match=r'MatrixInverse.*[Ss]ingular'):
        tf.linalg.inv(tf.constant([[1.0, 2.0], [2.0, 4.0]]))
    with pytest.raises(errors.InvalidArgumentError, match=r'MatrixSolve.*float32\[3,1\]'):
        tf.linalg.solve(tf.eye(2), tf.ones([3, 1]))
    with pytest.raises(ValueError, match=r'solve: rhs must be'):
        _in_graph(tf.linalg.solve, (tf.float32, [2, 2]), (tf.float32, [3, 1]))


def test_norm_arguments():
    with pytest.raises(ValueError, match="'ord' must be a supported vector norm"):
        tf.norm(tf.ones([3]), ord=-1)
    with pytest.raises(ValueError, match="'ord' must be a supported vector norm"):
        tf.norm(tf.ones([3]), ord='fro', axis=0)
    with pytest.raises(ValueError, match="'axis' must be None, an integer, or a tuple"):
        tf.norm(tf.ones([2, 2]), axis=[0, 0])
    with pytest.raises(ValueError, match="supported matrix norm"):
        tf.norm(tf.ones([2, 2]), ord=3, axis=[0, 1])


def test_where_arguments():
    with pytest.raises(ValueError, match='both be non-None'):
        tf.where(tf.constant([True]), 1.0)
    with pytest.raises(errors.InvalidArgumentError, match=r'SelectV2.*bool\[2\].*float32\[3\]'):
        tf.where(tf.constant([True, False]), tf.ones([3]), tf.zeros([3]))


def test_clip_by_value_may_not_broadcast_t():
    with pytest.raises(errors.InvalidArgumentError, match='clip_by_value'):
        tf.clip_by_value(tf.ones([3]), tf.zeros([2, 3]), 1.0)


def test_integer_pow_to_a_negative_power():
    with pytest.raises(errors.InvalidArgumentError, match='Pow.*negative'):
        tf.pow(tf.constant([2]), tf.constant([-1]))


def test_unknown_rank_inference():
    def f(x):
        return (tf.reduce_sum(x, axis=-1), tf.argmax(x, axis=-1), tf.cumsum(x, axis=-1),
                tf.linalg.det(x), tf.einsum('...ij->...', x), x < 1.0)

    results = _in_graph(f, (tf.float32, None))
    assert all(r.shape.rank is None for r in results)
    assert results[1].dtype is tf.int64 and results[5].dtype is tf.bool


def test_partially_known_inference():
    def f(x, y):
        return (x + y, tf.reduce_max(x, axis=1, keepdims=True), tf.matmul(x, y, transpose_b=True),
                tf.einsum('ij,kj->ik', x, y), tf.where(x > 0.0))

    results = _in_graph(f, (tf.float32, [None, 3]), (tf.float32, [4, None]))
    assert [r.shape.as_list() for r in results] == [[4, 3], [None, 1], [None, 4], [None, 4],
                                                     [None, 2]]
    np.testing.assert_equal(results[4].dtype, tf.int64)


def test_eager_plus_of_a_number_of_another_kind_is_the_ops_error():
    # Recorded from TensorFlow 2.21: eagerly only `tensor + number` takes the number's own dtype
    # (the add kernel refuses: InvalidArgumentError); `number + tensor`, `-`, `*` and a `+`
    # inside a compiled function convert the number to the tensor's dtype (TypeError).
    a = tf.constant(1)
    with pytest.raises(tf.errors.InvalidArgumentError):
        a + 1.5
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.constant(1.0) + 1j
    for fn in (lambda: 1.5 + a, lambda: a * 1.5, lambda: a - 1.5):
        with pytest.raises(TypeError):
            fn()

    @tf.function(autograph=False)
    def f(x):
        return x + 1.5
    with pytest.raises(TypeError):
        f(a)
