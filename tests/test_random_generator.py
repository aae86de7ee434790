"""tf.random.Generator: state as a Variable advancing per draw (eagerly and inside compiled
functions), reset and split, the global generator, as TF's random_numbers guide shows."""
import numpy as np
import pytest

import defun as tf


def test_from_seed_state_and_advance_as_tf():
    # States recorded from TF 2.21: from_seed(1) is [1, 0, 0]; each draw skips 256 per element.
    g = tf.random.Generator.from_seed(1)
    assert isinstance(g.state, tf.Variable) and g.state.dtype == tf.int64
    np.testing.assert_array_equal(g.state.numpy(), [1, 0, 0])
    g.normal([2])
    np.testing.assert_array_equal(g.state.numpy(), [513, 0, 0])
    g.uniform([3])
    np.testing.assert_array_equal(g.state.numpy(), [1281, 0, 0])


def test_reset_repeats_and_same_seed_same_stream():
    g = tf.random.Generator.from_seed(1)
    a, b = g.normal([]).numpy(), g.normal([]).numpy()
    assert a != b
    g.reset_from_seed(1)
    assert g.normal([]).numpy() == a
    assert tf.random.Generator.from_seed(1).normal([]).numpy() == a
    assert tf.random.Generator.from_seed(2).normal([]).numpy() != a


def test_draws_inside_a_compiled_function_advance_per_call():
    g = tf.random.Generator.from_seed(1)
    f = tf.function(lambda: g.normal([]))
    first, second = f().numpy(), f().numpy()
    h = tf.random.Generator.from_seed(1)
    assert [first, second] == [h.normal([]).numpy(), h.normal([]).numpy()]


def test_generator_created_on_the_first_call_of_a_compiled_function():
    holder = []

    @tf.function
    def f():
        if not holder:
            holder.append(tf.random.Generator.from_seed(1))
        return holder[0].normal([])

    a, b = f().numpy(), f().numpy()
    expected = tf.random.Generator.from_seed(1)
    assert [a, b] == [expected.normal([]).numpy(), expected.normal([]).numpy()]


def test_generator_arguments_retrace_per_generator():
    traces = []

    @tf.function
    def f(g):
        traces.append(1)
        return g.normal([])

    f(tf.random.Generator.from_seed(1))
    f(tf.random.Generator.from_seed(2))
    assert len(traces) == 2


def test_split_gives_independent_generators_and_advances_the_parent():
    g = tf.random.Generator.from_seed(1)
    before = g.state.numpy().copy()
    children = g.split(3)
    assert len(children) == 3 and not np.array_equal(g.state.numpy(), before)
    draws = [c.normal([4]).numpy() for c in children]
    assert not np.array_equal(draws[0], draws[1])
    np.testing.assert_array_equal(children[0].state.numpy()[:2], [256 * 4, 0])


def test_uniform_integers_and_other_draws():
    g = tf.random.Generator.from_seed(7)
    i = g.uniform([4000], minval=0, maxval=10, dtype=tf.int32).numpy()
    assert i.dtype == np.int32 and set(np.unique(i)) == set(range(10))
    with pytest.raises(ValueError, match='minval and maxval'):
        g.uniform([3], dtype=tf.int32)
    assert g.uniform_full_int([2], dtype=tf.int64).dtype == tf.int64
    t = g.truncated_normal([5000]).numpy()
    assert np.abs(t).max() <= 2.0
    b = g.binomial([1000], counts=10.0, probs=0.5).numpy()
    assert b.min() >= 0 and b.max() <= 10
    seeds = g.make_seeds(3)
    assert seeds.shape == (2, 3)
    tf.random.stateless_normal([2], seed=seeds[:, 0])


def test_global_generator_and_non_deterministic_state():
    g = tf.random.get_global_generator()
    assert tf.random.get_global_generator() is g
    # tf.random.set_seed does not reset the global generator (TF's behaviour).
    tf.random.set_seed(5)
    a = g.normal([]).numpy()
    tf.random.set_seed(5)
    assert tf.random.get_global_generator().normal([]).numpy() != a
    mine = tf.random.Generator.from_seed(3)
    tf.random.set_global_generator(mine)
    try:
        assert tf.random.get_global_generator() is mine
    finally:
        tf.random.set_global_generator(g)
    x = tf.random.Generator.from_non_deterministic_state().normal([4]).numpy()
    y = tf.random.Generator.from_non_deterministic_state().normal([4]).numpy()
    assert not np.array_equal(x, y)


def test_algorithms_and_bad_arguments():
    assert tf.random.Generator.from_seed(1, alg='philox').algorithm == 1
    threefry = tf.random.Generator.from_seed(1, alg='threefry')
    np.testing.assert_array_equal(threefry.state.numpy(), [1, 0])
    threefry.normal([2])
    with pytest.raises(ValueError, match='alg'):
        tf.random.Generator.from_seed(1, alg='mersenne')
    np.testing.assert_array_equal(tf.random.Generator.from_state([1, 2, 3], 'philox')
                                  .state.numpy(), [1, 2, 3])
    np.testing.assert_array_equal(tf.random.create_rng_state(1, "philox").numpy(), [1, 0, 0])
