"""tf.experimental.Optional as TF builds it: one variant tensor whatever its element spec, so an
Optional made with element_spec None is a loop variable and branch output like any other (the
pattern of Keras's multi-step training loop). Expected values recorded from TF 2.21."""
import pytest

import defun as tf

Optional = tf.experimental.Optional


def test_empty_with_no_spec_is_one_variant():
    o = Optional.empty(None)
    assert o.element_spec is None and not bool(o.has_value())
    (variant,) = tf.nest.flatten(o, expand_composites=True)
    assert variant.dtype == tf.variant and variant.shape == ()
    assert o._type_spec._component_specs == (tf.TensorSpec([], tf.variant),)
    # TF: AttributeError ('NoneType' object has no attribute '_flat_tensor_specs')
    with pytest.raises(AttributeError):
        o.get_value()


def test_value_round_trip_and_empty_get_value():
    o = Optional.from_value({'a': tf.constant([1., 2.]), 'b': (tf.constant(3),)})
    value = o.get_value()
    assert value['a'].numpy().tolist() == [1., 2.] and int(value['b'][0]) == 3
    empty = Optional.empty(tf.TensorSpec([2], tf.float32))
    with pytest.raises(tf.errors.InvalidArgumentError, match='does not have a value'):
        empty.get_value()

    @tf.function
    def f():
        return Optional.empty(tf.TensorSpec([2], tf.float32)).get_value()
    with pytest.raises(tf.errors.InvalidArgumentError, match='does not have a value'):
        f()


def test_optional_argument_of_a_function():
    @tf.function
    def g(o):
        return o.has_value()
    assert bool(g(Optional.from_value(1.)))
    assert not bool(g(Optional.empty(tf.TensorSpec([], tf.float32))))


def _loop(n):
    empty = Optional.empty(None)

    def body(i, opt):
        def yes():
            r = Optional.from_value(tf.cast(i, tf.float32) * 2.)
            empty._element_spec = r.element_spec
            return r

        def no():
            opt._element_spec = empty._element_spec
            return opt
        return i + 1, tf.cond(i < n, yes, no)
    _, out = tf.while_loop(lambda i, o: i < 3, body, [tf.constant(0), empty])
    out._element_spec = empty.element_spec
    return out


def test_none_spec_loop_variable_in_while_and_cond():
    f = tf.function(_loop)
    r = f(tf.constant(5))
    assert r.element_spec == tf.TensorSpec([], tf.float32)
    assert bool(r.has_value()) and float(r.get_value()) == 4.0
    assert not bool(f(tf.constant(0)).has_value())
    r = _loop(tf.constant(5))   # eagerly as well
    assert float(r.get_value()) == 4.0


def test_gradient_flows_through_an_optional():
    c = tf.constant([1., 2.])

    @tf.function
    def f(c):
        with tf.GradientTape() as t:
            t.watch(c)
            a, b = Optional.from_value((c * 3, c * c)).get_value()
            y = tf.reduce_sum(a) + tf.reduce_sum(b)
        return t.gradient(y, c)
    assert f(c).numpy().tolist() == [5., 7.]
    with tf.GradientTape() as t:
        t.watch(c)
        y = tf.reduce_sum(Optional.from_value(c * 3).get_value())
    assert t.gradient(y, c).numpy().tolist() == [3., 3.]


def test_steps_over_an_iterator_with_optionals():
    """Keras's multi-step loop: k steps per call, stopping when the iterator runs out."""
    ds = tf.data.Dataset.range(5).map(lambda x: {'x': tf.cast(x, tf.float32)})

    @tf.function
    def steps(it, k):
        empty = Optional.empty(None)

        def body(i, out, nxt):
            def yes():
                r = Optional.from_value(nxt.get_value()['x'] * 10.)
                empty._element_spec = r.element_spec
                return r

            def no():
                out._element_spec = empty._element_spec
                return out
            out = tf.cond(nxt.has_value(), yes, no)
            return i + 1, out, tf.cond(i + 1 < k, lambda: it.get_next_as_optional(),
                                       lambda: nxt)
        _, out, _ = tf.while_loop(lambda i, o, n: tf.logical_and(i < k, n.has_value()), body,
                                  [tf.constant(0), empty, it.get_next_as_optional()])
        out._element_spec = empty.element_spec
        return out
    it = iter(ds)
    got = []
    while True:
        o = steps(it, tf.constant(2))
        if not o.has_value():
            break
        got.append(float(o.get_value()))
    assert got == [10.0, 30.0, 40.0]
    assert steps.experimental_get_tracing_count() == 1
