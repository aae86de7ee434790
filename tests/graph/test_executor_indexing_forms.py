"""Emitter rules for indexing ops: a StridedSlice is written as numpy indexing, a GatherV2 of one
scalar index on axis 0 and a TensorArrayReadV3 of a dense buffer as `x[i]` guarded by `i >= 0`
(the kernel runs otherwise); results equal numpy's indexing and the kernels', other cases call the
kernel, and a failing fast form reports the kernel's (TF's) error."""
import numpy as np
import pytest

import defun as tf


def _source(f, *args):
    return f.get_concrete_function(*args).function_source


SLICES = [
    (lambda x, i: x[i], 'x[i]'),
    (lambda x, i: x[i, 1:3], 'x[i, 1:3]'),
    (lambda x, i: x[:, i], 'x[:, i]'),
    (lambda x, i: x[..., i], 'x[..., i]'),
    (lambda x, i: x[None, i, ::-1], 'x[None, i, ::-1]'),
    (lambda x, i: x[i:, :i:2], 'x[i:, :i:2]'),
]


@pytest.mark.parametrize('index', range(len(SLICES)))
def test_strided_slices_are_numpy_indexing_with_the_kernels_results(index):
    fn, text = SLICES[index]
    f = tf.function(fn)
    x = np.arange(60, dtype=np.float32).reshape(3, 4, 5)
    spec = (tf.TensorSpec([3, 4, 5], tf.float32), tf.TensorSpec([], tf.int32))
    source = _source(f, *spec)
    assert f' = {text}\n' in source
    assert 'k_StridedSlice' not in source
    for i in (-3, -1, 0, 2):
        got = f(tf.constant(x), tf.constant(i, tf.int32)).numpy()
        np.testing.assert_array_equal(got, fn(x, i))
        assert got.dtype == np.float32


def test_strided_slice_out_of_range_raises_the_kernels_error():
    f = tf.function(lambda x, i: x[i])
    x = tf.constant(np.zeros((3, 2), np.float32))
    assert 'x[i]' in _source(f, x, tf.TensorSpec([], tf.int32))
    for i in (3, -4):
        with pytest.raises(tf.errors.InvalidArgumentError, match='out of bounds'):
            f(x, tf.constant(i))


def test_gather_of_one_row_is_guarded_indexing():
    f = tf.function(lambda p, i: tf.gather(p, i))
    p = np.arange(12, dtype=np.float64).reshape(4, 3)
    source = _source(f, tf.TensorSpec([4, 3], tf.float64), tf.TensorSpec([], tf.int32))
    assert 'GatherV2 = p[i] if i >= 0 else k_GatherV2(p, i' in source
    for i in range(4):
        np.testing.assert_array_equal(f(tf.constant(p), tf.constant(i)).numpy(), p[i])
    for i in (-1, 4):   # negative: the kernel's own check; past the end: the kernel rerun
        with pytest.raises(tf.errors.InvalidArgumentError, match=r'is not in \[0, 4\)'):
            f(tf.constant(p), tf.constant(i))


def test_other_gathers_call_the_kernel():
    f = tf.function(lambda p, i: tf.gather(p, i, axis=1))
    assert 'k_GatherV2' in _source(f, tf.TensorSpec([4, 3]), tf.TensorSpec([], tf.int32))
    g = tf.function(lambda p, i: tf.gather(p, i))
    assert 'k_GatherV2' in _source(g, tf.TensorSpec([4, 3]), tf.TensorSpec([2], tf.int32))


def test_tensor_array_reads_of_a_dense_buffer():
    @tf.function
    def f(x, i):
        ta = tf.TensorArray(tf.float32, size=3, element_shape=[2])
        for k in tf.range(3):
            ta = ta.write(k, x[k])
        return ta.read(i)

    x = np.arange(6, dtype=np.float32).reshape(3, 2)
    source = _source(f, tf.TensorSpec([3, 2], tf.float32), tf.TensorSpec([], tf.int32))
    assert ' if i >= 0 else k_TensorArrayReadV3(' in source
    for i in range(3):
        np.testing.assert_array_equal(f(tf.constant(x), tf.constant(i)).numpy(), x[i])
    for i in (-1, 3):
        with pytest.raises(tf.errors.InvalidArgumentError, match='array size is: 3'):
            f(tf.constant(x), tf.constant(i))


def test_loop_gradient_reads_its_stacks_without_guards():
    @tf.function
    def f(w, xs):
        with tf.GradientTape() as tape:
            tape.watch(w)
            h = tf.zeros([3])
            for t in tf.range(4):
                h = tf.tanh(w * h + xs[t])
            loss = tf.reduce_sum(h)
        return tape.gradient(loss, w)

    source = _source(f, tf.TensorSpec([3]), tf.TensorSpec([4, 3]))
    assert 'k_TensorArrayReadV3' not in source and 'k_StridedSlice' not in source
    w = np.array([0.5, -0.3, 0.8])
    xs = np.random.default_rng(0).standard_normal((4, 3))

    def loss(w):
        h = np.zeros(3)
        for t in range(4):
            h = np.tanh(w * h + xs[t])
        return h.sum()
    eps = 1e-6
    numeric = [(loss(w + eps * e) - loss(w - eps * e)) / (2 * eps) for e in np.eye(3)]
    got = f(tf.constant(w, tf.float32), tf.constant(xs, tf.float32)).numpy()
    np.testing.assert_allclose(got, numeric, rtol=1e-4, atol=1e-5)
