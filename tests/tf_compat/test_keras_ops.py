"""Ops Keras's TensorFlow backend calls, against values recorded from TF 2.21: tf.bitwise,
tf.bitcast, rank-generic nn.convolution / max_pool / avg_pool (NWC and NHWC),
TensorShape.with_rank_at_least/most, Optional through functions, cond and while_loop, and the
dataset identity Keras recognises."""
import numpy as np
import pytest

import defun as tf


def test_bitwise():
    a = tf.constant([5, -7, 12, 2 ** 30], tf.int32)
    b = tf.constant([1, 2, 3, 4], tf.int32)
    assert tf.bitwise.bitwise_and(a, b).numpy().tolist() == [1, 0, 0, 0]
    assert tf.bitwise.bitwise_or(a, b).numpy().tolist() == [5, -5, 15, 1073741828]
    assert tf.bitwise.bitwise_xor(a, b).numpy().tolist() == [4, -5, 15, 1073741828]
    assert tf.bitwise.left_shift(a, b).numpy().tolist() == [10, -28, 96, 0]
    assert tf.bitwise.right_shift(a, b).numpy().tolist() == [2, -2, 1, 67108864]
    assert tf.bitwise.invert(a).numpy().tolist() == [-6, 6, -13, -1073741825]
    assert tf.bitwise.invert(tf.constant([3], tf.uint8)).numpy().tolist() == [252]
    shifted = tf.bitwise.left_shift(tf.constant([1, 1, -1], tf.int8), tf.constant([7, 9, -1], tf.int8))
    assert shifted.numpy().tolist() == [-128, -128, -1]
    shifted = tf.bitwise.right_shift(tf.constant([-128, 64, 100], tf.int8),
                                     tf.constant([7, 9, -1], tf.int8))
    assert shifted.numpy().tolist() == [-1, 0, 100]
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.bitwise.bitwise_and(tf.constant([1.0]), tf.constant([1.0]))


def test_bitcast():
    assert tf.bitcast(tf.constant([1.0, -2.0]), tf.int32).numpy().tolist() == [1065353216,
                                                                              -1073741824]
    assert tf.bitcast(tf.constant([1, 256], tf.int32), tf.uint8).numpy().tolist() == [
        [1, 0, 0, 0], [0, 1, 0, 0]]
    assert tf.bitcast(tf.constant([[1, 0, 0, 0], [0, 1, 0, 0]], tf.uint8),
                      tf.int32).numpy().tolist() == [1, 256]
    assert tf.bitcast(tf.constant(3, tf.int64), tf.uint16).numpy().tolist() == [3, 0, 0, 0]
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.bitcast(tf.constant([1, 2, 3], tf.uint8), tf.int32)

    @tf.function
    def f(x):
        return tf.bitcast(x, tf.uint8)
    assert f(tf.constant([1, 256], tf.int32)).shape == (2, 4)


X = np.arange(2 * 6 * 2, dtype=np.float32).reshape(2, 6, 2) / 10
W = np.linspace(-1, 1, 3 * 2 * 3, dtype=np.float32).reshape(3, 2, 3)


def test_convolution_any_rank():
    out = tf.nn.convolution(tf.constant(X), tf.constant(W), strides=2, padding='SAME')
    np.testing.assert_allclose(out.numpy()[0], [[0.44118, 0.61765, 0.79412],
                                                [0.15882, 0.61765, 1.07647],
                                                [-1.61176, -1.16471, -0.71765]], atol=1e-5)
    out = tf.nn.convolution(tf.constant(X), tf.constant(W), padding='VALID', dilations=[2])
    np.testing.assert_allclose(out.numpy()[0], [[0.86471, 1.18235, 1.5],
                                                [0.72353, 1.18235, 1.64118]], atol=1e-5)
    x4 = tf.reshape(tf.range(32.0), [1, 4, 4, 2])
    out = tf.nn.convolution(x4, tf.ones([2, 2, 2, 1]), strides=[2, 2], padding='VALID')
    assert out.numpy().ravel().tolist() == [44.0, 76.0, 172.0, 204.0]
    w = tf.constant(W)
    with tf.GradientTape() as tape:
        tape.watch(w)
        y = tf.reduce_sum(tf.nn.convolution(tf.constant(X), w, padding='SAME') ** 2)
    np.testing.assert_allclose(tape.gradient(y, w).numpy().ravel()[:4],
                               [-25.4871, -4.4047, 16.6776, -26.8941], atol=1e-3)
    out = tf.nn.convolution(tf.ones([1, 2, 2, 2, 1]), tf.ones([2, 2, 2, 1, 1]))   # 3-D
    assert out.shape == (1, 1, 1, 1, 1) and float(out.numpy().ravel()[0]) == 8.0


def test_pooling_nwc_and_nhwc():
    x = tf.constant(X)
    np.testing.assert_allclose(tf.nn.max_pool(x, 2, 2, 'VALID').numpy()[0],
                               [[0.2, 0.3], [0.6, 0.7], [1.0, 1.1]], atol=1e-6)
    np.testing.assert_allclose(tf.nn.avg_pool(x, [3], [2], 'SAME', 'NWC').numpy()[1],
                               [[1.4, 1.5], [1.8, 1.9], [2.1, 2.2]], atol=1e-6)
    x4 = tf.reshape(tf.range(32.0), [1, 4, 4, 2])
    assert tf.nn.max_pool(x4, 2, 2, 'SAME').numpy().ravel().tolist() == [
        10.0, 11.0, 14.0, 15.0, 26.0, 27.0, 30.0, 31.0]


def test_with_rank_at_least_and_most():
    s = tf.TensorShape([2, 3])
    assert s.with_rank_at_least(1) is s and s.with_rank_at_most(3) is s
    assert tf.TensorShape(None).with_rank_at_least(2).rank is None
    with pytest.raises(ValueError, match=r'Shape \(2, 3\) must have rank at least 3'):
        s.with_rank_at_least(3)
    with pytest.raises(ValueError, match=r'Shape \(2, 3\) must have rank at most 1'):
        s.with_rank_at_most(1)


def test_optional_through_functions_cond_and_while_loop():
    @tf.function
    def make(x):
        return tf.experimental.Optional.from_value({'a': x * 2, 'b': (x, x + 1)})
    opt = make(tf.constant(3.0))
    assert bool(opt.has_value()) and float(opt.get_value()['b'][1]) == 4.0

    @tf.function
    def read(opt):
        return tf.cond(opt.has_value(), lambda: opt.get_value() + 1, lambda: tf.constant(0.0))
    assert float(read(tf.experimental.Optional.from_value(tf.constant(4.0)))) == 5.0
    empty = tf.experimental.Optional.empty(tf.TensorSpec([], tf.float32))
    assert float(read(empty)) == 0.0

    @tf.function
    def loop(iterator):
        def body(i, _):
            return i + 1, iterator.get_next_as_optional()
        return tf.while_loop(lambda i, _: i < 2, body, (0, iterator.get_next_as_optional()))
    steps, last = loop(iter(tf.data.Dataset.range(5)))
    assert int(steps) == 2 and int(last.get_value()) == 2


def test_datasets_carry_tf_identity_while_defun_is_tensorflow():
    from defun import tf_compat
    mro = type(tf.data.Dataset.range(3).map(lambda x: x)).__mro__
    base = [c for c in mro if c.__name__ == 'DatasetV2']
    assert len(base) == 1 and base[0].__module__ == 'defun.data.base'
    tf_compat.install()
    try:
        from tensorflow.python.data.ops.dataset_ops import DatasetV2
        assert DatasetV2 is base[0] and DatasetV2.__module__.startswith('tensorflow.python.')
    finally:
        tf_compat.uninstall()
    assert base[0].__module__ == 'defun.data.base'


def test_tensors_carry_tf_identity_while_defun_is_tensorflow():
    from defun import tf_compat
    base = [c for c in type(tf.constant(['a'])).__mro__ if c.__name__ == 'Tensor']
    assert len(base) == 1 and base[0].__module__ == 'defun.core.tensor'
    tf_compat.install()
    try:
        from tensorflow.python.framework.tensor import Tensor
        assert Tensor is base[0] and Tensor.__module__ == 'tensorflow.python.framework.tensor'
    finally:
        tf_compat.uninstall()
    assert base[0].__module__ == 'defun.core.tensor'
