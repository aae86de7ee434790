"""tf.map_fn over the rows of RaggedTensors and SparseTensors, and into ragged results;
expected values recorded from TensorFlow 2.21."""
import pytest

import defun as tf

RT = [[1, 2, 1, 3], [4], [], [5, 6, 5]]


@pytest.mark.parametrize('compiled', [False, True])
def test_rows_of_a_ragged_tensor_give_a_ragged_result(compiled):
    def run(rt):
        return tf.map_fn(lambda x: tf.unique(x)[0], rt)
    run = tf.function(run, autograph=False) if compiled else run
    out = run(tf.ragged.constant(RT))
    assert isinstance(out, tf.RaggedTensor)
    assert out.to_list() == [[1, 2, 3], [4], [], [5, 6]]


@pytest.mark.parametrize('compiled', [False, True])
def test_rows_of_a_ragged_tensor_reduced_to_a_dense_result(compiled):
    def run(rt):
        return tf.map_fn(tf.reduce_sum, rt, fn_output_signature=tf.int32)
    run = tf.function(run, autograph=False) if compiled else run
    assert run(tf.ragged.constant(RT)).numpy().tolist() == [7, 4, 0, 16]


def test_a_ragged_row_signature_builds_a_ragged_result_from_dense_elems():
    out = tf.map_fn(lambda x: tf.range(x[0]), tf.constant([[1, 2], [3, 4]]),
                    fn_output_signature=tf.RaggedTensorSpec([None], tf.int32))
    assert out.to_list() == [[0], [0, 1, 2]]
    doubled = tf.map_fn(lambda x: x * 2, tf.ragged.constant(RT),
                        fn_output_signature=tf.RaggedTensorSpec([None], tf.int32))
    assert doubled.to_list() == [[2, 4, 2, 6], [8], [], [10, 12, 10]]


def test_rows_with_ragged_dimensions_of_their_own_are_refused_by_name():
    with pytest.raises(NotImplementedError, match='map_fn: fn_output_signature'):
        tf.map_fn(lambda x: x, tf.constant([[1, 2]]),
                  fn_output_signature=tf.RaggedTensorSpec([None, None], tf.int32, ragged_rank=1))


SPARSE = [[[1., 0.], [0., 2.]], [[0., 3.], [4., 0.]]]
DENSE = [[[1., 2.], [3., 4.]], [[5., 6.], [7., 8.]]]


@pytest.mark.parametrize('compiled', [False, True])
def test_rows_of_a_sparse_tensor_are_sparse_tensors(compiled):
    def run(a, b):
        return tf.map_fn(lambda x: tf.sparse.sparse_dense_matmul(x[0], x[1]), elems=(a, b),
                         fn_output_signature=tf.float32)
    run = tf.function(run, autograph=False) if compiled else run
    out = run(tf.sparse.from_dense(tf.constant(SPARSE)), tf.constant(DENSE))
    assert out.numpy().tolist() == [[[1., 2.], [6., 8.]], [[21., 24.], [20., 24.]]]
    sums = tf.map_fn(tf.sparse.reduce_sum, tf.sparse.from_dense(tf.constant(SPARSE)),
                     fn_output_signature=tf.float32)
    assert sums.numpy().tolist() == [3., 7.]


def test_sparse_results_are_refused_by_name():
    st = tf.sparse.from_dense(tf.constant(SPARSE))
    with pytest.raises(NotImplementedError, match='map_fn: SparseTensor results'):
        tf.map_fn(lambda x: x, st)
