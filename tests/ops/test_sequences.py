"""reverse_sequence, edit_distance, histogram_fixed_width_bins, type_spec_from_value and tf.dtypes'
casts: expected values recorded with TF 2.21."""
import numpy as np
import pytest

import defun as tf

X = tf.reshape(tf.range(24.), [2, 3, 4])


def test_reverse_sequence_values_and_gradient():
    assert tf.reverse_sequence(X, [2, 4], seq_axis=2, batch_axis=0).numpy().tolist() == [
        [[1.0, 0.0, 2.0, 3.0], [5.0, 4.0, 6.0, 7.0], [9.0, 8.0, 10.0, 11.0]],
        [[15.0, 14.0, 13.0, 12.0], [19.0, 18.0, 17.0, 16.0], [23.0, 22.0, 21.0, 20.0]]]
    out = tf.reverse_sequence(X, tf.constant([1, 2, 0], tf.int64), seq_axis=0, batch_axis=1)
    assert out.numpy().tolist() == [
        [[0.0, 1.0, 2.0, 3.0], [16.0, 17.0, 18.0, 19.0], [8.0, 9.0, 10.0, 11.0]],
        [[12.0, 13.0, 14.0, 15.0], [4.0, 5.0, 6.0, 7.0], [20.0, 21.0, 22.0, 23.0]]]
    with tf.GradientTape() as tape:
        tape.watch(X)
        y = tf.reverse_sequence(X, [2, 4], seq_axis=2, batch_axis=0) * tf.reshape(tf.range(24.), [2, 3, 4])
    grad = tape.gradient(y, X).numpy().tolist()
    assert grad == [[[1.0, 0.0, 2.0, 3.0], [5.0, 4.0, 6.0, 7.0], [9.0, 8.0, 10.0, 11.0]],
                    [[15.0, 14.0, 13.0, 12.0], [19.0, 18.0, 17.0, 16.0],
                     [23.0, 22.0, 21.0, 20.0]]]


@pytest.mark.parametrize('lengths, seq, batch, message', [
    ([5, 1], 2, 0, r'seq_lens\(0\) > input.dims\(2\)'),
    ([1, 2, 3], 2, 0, r'Length of seq_lengths != input.dims\(0\), \(3 vs. 2\)'),
    ([1, 2], 0, 0, 'batch_dim == seq_dim == 0'),
    ([-1, 1], 2, 0, r'seq_lens\(0\) < 0'),
    ([1., 1.], 2, 0, 'seq_lengths')])
def test_reverse_sequence_errors_as_tf(lengths, seq, batch, message):
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        tf.reverse_sequence(X, lengths, seq_axis=seq, batch_axis=batch)


def test_edit_distance_positions_normalize_and_empty_truth():
    h = tf.SparseTensor([[0, 0, 0], [1, 0, 0], [1, 0, 1], [2, 1, 0]], ['a', 'b', 'c', 'd'],
                        (3, 2, 2))
    t = tf.SparseTensor([[0, 0, 0], [0, 0, 1], [1, 0, 0], [1, 1, 0], [3, 0, 0]],
                        ['a', 'x', 'b', 'q', 'z'], (4, 2, 3))
    d = tf.edit_distance(h, t)
    assert d.dtype == tf.float32 and d.shape == (4, 2)
    assert d.numpy().tolist() == [[0.5, 0.0], [1.0, 1.0], [0.0, np.inf], [1.0, 0.0]]
    assert tf.edit_distance(h, t, normalize=False).numpy().tolist() == [
        [1.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0]]
    with pytest.raises(TypeError, match='Hypothesis must be a SparseTensor'):
        tf.edit_distance(tf.constant([1]), t)


def test_edit_distance_in_a_function():
    @tf.function
    def f(values):
        h = tf.SparseTensor([[0, 0], [0, 1], [0, 2]], values, (1, 3))
        return tf.edit_distance(h, tf.SparseTensor([[0, 1], [0, 2]], [2, 4], (1, 3)))
    assert f(tf.constant([1, 2, 3])).numpy().tolist() == [1.0]


def test_histogram_fixed_width_bins():
    got = tf.histogram_fixed_width_bins([[-1.0, 0.0], [1.5, 2.0], [5.0, 15]], [0.0, 5.0],
                                        nbins=5)
    assert got.dtype == tf.int32 and got.numpy().tolist() == [[0, 0], [1, 2], [4, 4]]
    with pytest.raises(tf.errors.InvalidArgumentError):   # TF: float64 values, float32 range
        tf.histogram_fixed_width_bins(tf.constant([-1., 3, 9], tf.float64), [0., 10.], nbins=4)


def test_type_spec_from_value_and_dtypes_cast():
    assert tf.type_spec_from_value(tf.Variable(1.)) == tf.type_spec_from_value(tf.Variable(2.))
    assert repr(tf.type_spec_from_value(tf.Variable(1.))) == (
        'VariableSpec(shape=(), dtype=tf.float32, trainable=True, alias_id=None)')
    assert repr(tf.type_spec_from_value(tf.data.Dataset.range(2))) == (
        'DatasetSpec(TensorSpec(shape=(), dtype=tf.int64, name=None), TensorShape([]))')
    assert tf.type_spec_from_value([1, 2.]) == tf.TensorSpec([2], tf.float32)
    assert tf.type_spec_from_value(np.array([4.0, 5.0])) == tf.TensorSpec([2], tf.float64)
    assert repr(tf.type_spec_from_value(tf.ragged.constant([[1, 2], [3, 4, 5]]))) == (
        'RaggedTensorSpec(TensorShape([2, None]), tf.int32, 1, tf.int64)')
    with pytest.raises(TypeError, match="Could not build a TypeSpec for {'a': 1} of unsupported "
                                        "type <class 'dict'>."):
        tf.type_spec_from_value({'a': 1})
    assert tf.dtypes.cast(tf.constant([1.8, 2.2]), tf.int32).numpy().tolist() == [1, 2]
    assert tf.dtypes.saturate_cast(tf.constant([300.]), tf.uint8).numpy().tolist() == [255]
    assert tf.dtypes.as_dtype(2) is tf.float64 and tf.dtypes.float32 is tf.float32
