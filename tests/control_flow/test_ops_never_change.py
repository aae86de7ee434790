"""If, Case and While ops declare, when built, every intermediate their gradient may read, and are
never changed afterwards: differentiating them (first and second order) leaves their outputs and
attrs as they were, and a stack or intermediate costs work only in code that reads it."""
import numpy as np
import pytest

import defun as tf


def _facts(op):
    return len(op.outputs), tuple(op.outputs), dict(op.attrs)


def _same(before, op):
    n, outputs, attrs = before
    assert len(op.outputs) == n and all(a is b for a, b in zip(op.outputs, outputs))
    assert attrs.keys() == op.attrs.keys()
    assert all(attrs[k] is op.attrs[k] for k in attrs)


def _loop(x):
    return tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, tf.sin(y) * x), [0, x])[1]


def _branch(x):
    return tf.cond(tf.reduce_sum(x) > 0, lambda: tf.exp(x) * x, lambda: tf.cos(x))


@pytest.mark.parametrize('build, op_types', [(_loop, ('While', 'StatelessWhile')),
                                              (_branch, ('If', 'StatelessIf'))])
def test_gradients_of_any_order_leave_the_op_unchanged(build, op_types):
    graph = tf.Graph()
    with graph.as_default():
        x = tf.compat.v1.placeholder(tf.float64, [2])
        y = tf.reduce_sum(build(x))
        op = next(o for o in graph.get_operations() if o.type in op_types)
        before = _facts(op)
        (g,) = tf.gradients(y, x)
        _same(before, op)
        (gg,) = tf.gradients(tf.reduce_sum(g), x)
        _same(before, op)
    assert gg is not None


def test_a_forward_only_call_builds_no_stacks():
    def loss(x):
        return tf.reduce_sum(_loop(x))

    forward = tf.function(loss)

    @tf.function
    def with_gradient(x):
        return tf.gradients(loss(x), x)[0]

    x = tf.constant([0.5, -0.25], tf.float64)
    # (the stack forms of control_flow/while_emission.py: appended lists, filled buffers)
    forms = ('stack_iterations', 'stack_with_previous', 'split_previous', 'rows_of', 'repeat_value')
    assert not any(f in forward.get_concrete_function(x).function_source for f in forms)
    assert any(f in with_gradient.get_concrete_function(x).function_source for f in forms)
    # d/dx of the loop, by central finite differences.
    eps, base = 1e-6, x.numpy()
    fd = [(float(forward(tf.constant(base + eps * e))) - float(forward(tf.constant(base - eps * e))))
          / (2 * eps) for e in np.eye(2)]
    np.testing.assert_allclose(with_gradient(x).numpy(), fd, rtol=1e-6)


def test_the_kernel_builds_only_the_stacks_it_is_told_are_read():
    graph = tf.Graph()
    with graph.as_default():
        x = tf.compat.v1.placeholder(tf.float64, [2])
        _loop(x)
    op = next(o for o in graph.get_operations() if o.type.endswith('While'))
    n = op.attrs['n_vars']
    arrays = [np.int32(0), np.array([0.5, 1.0])] + [np.array([0.5, 1.0])] * (len(op.inputs) - n)
    attrs = dict(op.attrs)
    plain = op.opdef.graph_kernel(*arrays, **attrs)
    assert all(v is None for v in plain[n + 1:])
    read = op.opdef.graph_kernel(*arrays, **attrs, live_outputs=frozenset([n + 1, n + 2]))
    assert read[n + 1].shape[0] == 3 and all(v is None for v in read[n + 3:])
    np.testing.assert_array_equal(read[1], plain[1])


def test_graph_views_list_the_ops_own_outputs_and_the_intermediates_read():
    graph = tf.Graph()
    with graph.as_default():
        x = tf.compat.v1.placeholder(tf.float64, [2])
        y = _loop(x)
        line = next(s for s in graph.as_text().split('\n') if 'While(' in s)
        assert line.split(' = ')[0].count(': ') == 3   # the counter, y, and the iteration count
        tf.gradients(tf.reduce_sum(y), x)
        line = next(s for s in graph.as_text().split('\n') if 'While(' in s)
        assert line.split(' = ')[0].count(': ') > 3    # now also the stacks the gradient reads
