"""Helpers for the control-flow tests: run a function eagerly and compiled, and compare gradients
(tape outside a compiled call, tape inside it, tf.gradients inside it) with finite differences."""
import numpy as np

import defun as tf


def both_modes(fn):
    """fn eagerly and as a compiled function (autograph off: these tests call the ops directly)."""
    return [('eager', fn), ('compiled', tf.function(fn, autograph=False))]


def numeric_gradient(fn, x, eps=1e-6):
    """d sum(fn(x)) / dx by central differences (float64)."""
    def total(v):
        return float(np.sum(np.asarray(fn(tf.constant(v)))))
    g = np.zeros_like(x)
    for i in np.ndindex(*x.shape):
        e = np.zeros_like(x)
        e[i] = eps
        g[i] = (total(x + e) - total(x - e)) / (2 * eps)
    return g


def tape_gradient(fn, x):
    xt = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(xt)
        y = tf.reduce_sum(fn(xt))
    # A gather's gradient is an IndexedSlices, as in TF: compare its dense value.
    return tf.convert_to_tensor(tape.gradient(y, xt)).numpy()


def gradients_in_graph(fn):
    """(tape inside a compiled function, tf.gradients inside one): x -> d sum(fn(x)) / dx."""
    @tf.function(autograph=False)
    def with_tape(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(fn(x))
        return tape.gradient(y, x)

    @tf.function(autograph=False)
    def with_gradients(x):
        return tf.gradients(tf.reduce_sum(fn(x)), x)[0]
    return with_tape, with_gradients


def all_gradients(fn, x):
    """Every way of differentiating fn at x: name -> gradient array."""
    compiled = tf.function(fn, autograph=False)
    in_tape, in_gradients = gradients_in_graph(fn)
    return {'eager tape': tape_gradient(fn, x),
            'tape around compiled call': tape_gradient(compiled, x),
            'tape in compiled function': in_tape(tf.constant(x)).numpy(),
            'tf.gradients': in_gradients(tf.constant(x)).numpy()}


def check_gradients(fn, x, atol=1e-6):
    expected = numeric_gradient(fn, x)
    for how, g in all_gradients(fn, x).items():
        np.testing.assert_allclose(g, expected, atol=atol, rtol=1e-5, err_msg=how)


def second_derivative(fn, x, how):
    """d/dx sum(d sum(fn(x))/dx), by nested tapes (eager or in a compiled function) or by
    tf.gradients twice."""
    def nested(x):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = tf.reduce_sum(fn(x))
            d = tf.reduce_sum(inner.gradient(y, x))
        return outer.gradient(d, x)

    def twice(x):
        d = tf.gradients(tf.reduce_sum(fn(x)), x)[0]
        return tf.gradients(tf.reduce_sum(d), x)[0]
    f = {'eager': nested, 'compiled tapes': tf.function(nested, autograph=False),
         'gradients twice': tf.function(twice, autograph=False)}[how]
    result = f(tf.constant(x))
    return np.zeros_like(x) if result is None else result.numpy()  # None: truly zero (linear)


def check_second_order(fn, x, atol=1e-5):
    def first(v):
        return tf.constant(tape_gradient(fn, np.asarray(v)))
    expected = numeric_gradient(first, x, eps=1e-5)
    for how in ('eager', 'compiled tapes', 'gradients twice'):
        np.testing.assert_allclose(second_derivative(fn, x, how), expected, atol=atol, rtol=1e-4,
                                   err_msg=how)
