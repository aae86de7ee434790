"""tf.random.shuffle draws TF's exact permutations (Keras's fit shuffles with it): eagerly, in a
function, in a dataset's map function (restarted by each new iterator, continued by repeat), and
the op seeds of unseeded random ops in a function. Values recorded from TF 2.21."""
import numpy as np

import defun as tf


def test_eager_shuffles():
    tf.random.set_seed(0)
    assert tf.random.shuffle(tf.range(10)).numpy().tolist() == [3, 9, 1, 2, 7, 0, 6, 5, 8, 4]
    assert tf.random.shuffle(tf.range(10)).numpy().tolist() == [1, 4, 6, 2, 5, 7, 3, 9, 8, 0]
    rows = tf.random.shuffle(tf.reshape(tf.range(12), [6, 2])).numpy().tolist()
    assert rows == [[0, 1], [6, 7], [8, 9], [10, 11], [4, 5], [2, 3]]
    assert tf.random.shuffle(tf.range(7), seed=3).numpy().tolist() == [1, 5, 0, 2, 4, 3, 6]
    assert tf.random.uniform([2]).numpy().tolist() == [0.17513537406921387, 0.3179742097854614]
    first = tf.random.shuffle(tf.range(1000)).numpy()[:8].tolist()
    assert first == [528, 69, 398, 903, 913, 460, 269, 853]


def test_function_shuffles_and_op_seeds():
    tf.random.set_seed(0)

    @tf.function
    def f(x):
        return tf.random.shuffle(x, seed=5)
    assert f(tf.range(9)).numpy().tolist() == [0, 3, 6, 8, 4, 7, 2, 5, 1]
    assert f(tf.range(9)).numpy().tolist() == [5, 0, 4, 6, 7, 1, 2, 3, 8]

    @tf.function
    def g():
        return tf.random.uniform([2]), tf.random.uniform([2]), tf.random.shuffle(tf.range(5))
    a, b, c = g()
    assert np.allclose(a.numpy(), [0.01975703, 0.00704217], rtol=0, atol=1e-8)
    assert np.allclose(b.numpy(), [0.5397302, 0.1049397], rtol=0, atol=1e-7)
    assert c.numpy().tolist() == [1, 2, 4, 3, 0]


def test_dataset_iterators_restart_their_functions():
    tf.random.set_seed(0)
    ds = tf.data.Dataset.range(1).map(
        lambda _: tf.random.shuffle(tf.range(10, dtype=tf.int64))).prefetch(1)
    first = [2, 0, 5, 8, 7, 1, 9, 6, 3, 4]
    for _ in range(3):
        assert [x.numpy().tolist() for x in ds] == [first]
    assert [x.numpy().tolist() for x in ds.repeat(2)] == [first, [2, 9, 4, 7, 1, 8, 5, 6, 0, 3]]
