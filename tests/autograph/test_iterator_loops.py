"""`for x in iter(ds)` and `for x in ds` inside a compiled function: TF runs the first as a while
loop (shapes checked, differentiable) and the second as a reduce (shapes may change, no gradient).
Expected values and errors recorded with TensorFlow 2.21 (/work/tfenv/bin/python)."""
import pytest

import defun as tf


@tf.function
def _weighted_sum(source, w):
    with tf.GradientTape() as tape:
        tape.watch(w)
        s = tf.constant(0.)
        for x in source:
            s += w * tf.cast(x, tf.float32)
    return s, tape.gradient(s, w)


@tf.function
def _growing(source):
    t = tf.zeros([0])
    for x in source:
        t = tf.concat([t, [tf.cast(x, tf.float32)]], 0)
    return t


def test_a_loop_over_an_iterator_is_differentiable():
    s, g = _weighted_sum(iter(tf.data.Dataset.range(4)), tf.constant(2.))
    assert (s.numpy(), g.numpy()) == (12.0, 6.0)


def test_a_loop_over_a_dataset_has_no_gradient():
    s, g = _weighted_sum(tf.data.Dataset.range(4), tf.constant(2.))
    assert s.numpy() == 12.0 and g is None


def test_a_loop_over_an_iterator_checks_shapes():
    with pytest.raises(ValueError, match=r"'t' has shape \(0,\) before the loop, but shape "
                       r"\(1,\) after one iteration"):
        _growing(iter(tf.data.Dataset.range(3)))


def test_a_loop_over_a_dataset_may_change_shapes():
    assert _growing(tf.data.Dataset.range(3)).numpy().tolist() == [0.0, 1.0, 2.0]


def test_shape_erasure_over_an_iterator_is_refused():
    # TF's AutoGraph reference test (loop_with_variable_type_illegal_cases, _dataset_iterator).
    @tf.function
    def erase(source):
        t = tf.constant([1])
        for _ in source:
            t = tf.range(tf.random.uniform((), 2, 3, dtype=tf.int32))
        return t

    with pytest.raises(ValueError, match=r"'t' has shape \(1,\) before the loop, but shape "
                       r"\(None,\) after"):
        erase(iter(tf.data.Dataset.from_tensor_slices([1, 2, 3])))
