"""RaggedTensor.__getitem__: rows by index or by slice (any step), slices inside rows (negative
offsets and steps, tensors as offsets), Ellipsis and tf.newaxis, eagerly and in a tf.function.
Expected values recorded with TF 2.21."""
import pytest

import defun as tf

RT = [[[1, 2, 3], [4]], [[5], [], [6]], [[7]], [[8, 9], [10]]]
R2 = [[1, 2, 3, 4], [5], [], [6, 7, 8]]
_ = slice(None)

CASES = [
    (RT, (_, slice(1, 3)), [[[4]], [[], [6]], [], [[10]]]),
    (RT, (_, slice(-1, None)), [[[4]], [[6]], [[7]], [[10]]]),
    (RT, (_, slice(None, 0)), [[], [], [], []]),
    (RT, (_, slice(1, -1)), [[], [[]], [], []]),
    (RT, (_, slice(None, None, 2)), [[[1, 2, 3]], [[5], [6]], [[7]], [[8, 9]]]),
    (RT, (slice(1, None), slice(None, None, -1)), [[[6], [], [5]], [[7]], [[10], [8, 9]]]),
    (RT, (slice(1, 3),), [[[5], [], [6]], [[7]]]),
    (RT, (slice(None, None, 2),), [[[1, 2, 3], [4]], [[7]]]),
    (RT, (slice(-2, None),), [[[7]], [[8, 9], [10]]]),
    (RT, (Ellipsis, slice(0, 1)), [[[1], [4]], [[5], [], [6]], [[7]], [[8], [10]]]),
    (RT, (_, None), [[[[1, 2, 3], [4]]], [[[5], [], [6]]], [[[7]]], [[[8, 9], [10]]]]),
    (R2, (slice(None, None, -1),), [[6, 7, 8], [], [5], [1, 2, 3, 4]]),
    (R2, (slice(5, 1),), []),
    (R2, (_, slice(None, None, -2)), [[4, 2], [5], [], [8, 6]]),
    (R2, (_, slice(-2, None, -1)), [[3, 2, 1], [], [], [7, 6]]),
    (R2, (_, slice(1, 10)), [[2, 3, 4], [], [], [7, 8]]),
    (R2, (_, slice(-10, 2)), [[1, 2], [5], [], [6, 7]]),
    (R2, (_, slice(3, 0, -1)), [[4, 3, 2], [], [], [8, 7]]),
    (R2, (_, slice(None, -3, -1)), [[4, 3], [5], [], [8, 7]]),
]


@pytest.mark.parametrize('value, key, expected', CASES)
def test_getitem_matches_tf(value, key, expected):
    assert tf.ragged.constant(value)[key].to_list() == expected


def test_rows_and_uniform_inner_dimensions():
    rt = tf.ragged.constant(RT)
    assert rt[1].to_list() == [[5], [], [6]]
    assert rt[3, 0].numpy().tolist() == [8, 9]
    dense_inner = tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)
    assert dense_inner[:, :, 1].to_list() == [[2, 4], [6]]
    assert dense_inner[..., 0].to_list() == [[1, 3], [5]]
    assert dense_inner[1:, :1, ::-1].to_list() == [[[6, 5]]]


def test_in_a_function_with_tensor_offsets():
    @tf.function
    def f(r, s):
        return r[:, 1:3], r[:, ::-1], r[1:], r[:, s:]

    got = [x.to_list() for x in f(tf.ragged.constant(RT), tf.constant(-1))]
    assert got == [[[[4]], [[], [6]], [], [[10]]],
                   [[[4], [1, 2, 3]], [[6], [], [5]], [[7]], [[10], [8, 9]]],
                   [[[5], [], [6]], [[7]], [[8, 9], [10]]],
                   [[[4]], [[6]], [[7]], [[10]]]]


def test_bad_keys_raise_tf_errors():
    rt = tf.ragged.constant(RT)
    with pytest.raises(ValueError, match='Cannot index into an inner ragged dimension'):
        rt[:, :, 0]
    with pytest.raises(TypeError, match='slice offsets must be integers or None'):
        rt[:, 1.5:]
    with pytest.raises(IndexError, match='Row key 5 out of bounds'):
        rt[5]
    with pytest.raises(tf.errors.InvalidArgumentError, match='out of bounds'):
        rt[-5]
    assert [r.numpy().tolist() for r in tf.ragged.constant([[1, 2], [3]])] == [[1, 2], [3]]
