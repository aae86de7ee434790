"""TensorArray: eager lists and graph buffers, every method, as a loop variable, errors, gradients."""
import numpy as np
import pytest

import defun as tf
from defun.core import errors
from tests.control_flow.util import both_modes, check_gradients


@pytest.mark.parametrize('mode', ['eager', 'compiled'])
def test_methods(mode):
    def f(x):
        ta = tf.TensorArray(tf.float32, size=3).unstack(x)
        out = tf.TensorArray(tf.float32, size=2).write(0, ta.read(2)).write(1, ta.read(0))
        sc = tf.TensorArray(tf.float32, size=4, element_shape=[2])
        sc = sc.scatter([3, 0], x[:2])
        return out.stack(), out.concat(), sc.gather([0, 3]), sc.stack(), ta.size()
    f = dict(both_modes(f))[mode]
    stack, concat, gathered, scattered, size = f(tf.constant([[1.0, 2.0], [3.0, 4.0],
                                                              [5.0, 6.0]]))
    assert stack.numpy().tolist() == [[5.0, 6.0], [1.0, 2.0]]
    assert concat.numpy().tolist() == [5.0, 6.0, 1.0, 2.0]
    assert gathered.numpy().tolist() == [[3.0, 4.0], [1.0, 2.0]]
    assert scattered.numpy().tolist() == [[3.0, 4.0], [0.0, 0.0], [0.0, 0.0], [1.0, 2.0]]
    assert int(size) == 3


@pytest.mark.parametrize('mode', ['eager', 'compiled'])
def test_loop_variable_with_unknown_element_shape_and_dynamic_size(mode):
    def f(n):
        squares = tf.TensorArray(tf.int32, size=n)
        grow = tf.TensorArray(tf.float32, size=0, dynamic_size=True)

        def body(i, squares, grow):
            return i + 1, squares.write(i, [i, i * i]), grow.write(i, tf.cast(i, tf.float32) / 2)
        _, squares, grow = tf.while_loop(lambda i, *_: i < n, body, [0, squares, grow])
        return squares.stack(), grow.stack(), grow.size()
    f = dict(both_modes(f))[mode]
    squares, grow, size = f(tf.constant(3))
    assert squares.numpy().tolist() == [[0, 0], [1, 1], [2, 4]]
    assert grow.numpy().tolist() == [0.0, 0.5, 1.0] and int(size) == 3


def test_graph_writes_are_functional_and_eager_writes_return_the_array():
    eager = tf.TensorArray(tf.float32, size=1)
    assert eager.write(0, 1.0) is eager  # TF's eager TensorArray changes in place

    @tf.function
    def f():
        ta = tf.TensorArray(tf.float32, size=1, element_shape=[])
        written = ta.write(0, 5.0)
        return ta.stack(), written.stack()
    before, after = f()
    assert before.numpy().tolist() == [0.0] and after.numpy().tolist() == [5.0]


def test_errors():
    with pytest.raises(errors.InvalidArgumentError, match='index 1.*never written'):
        tf.TensorArray(tf.float32, size=2).read(1)
    # once a write fixed the element shape, unwritten elements read as zeros (TF's rule)
    assert float(tf.TensorArray(tf.float32, size=2).write(0, 1.0).read(1)) == 0.0
    with pytest.raises(errors.InvalidArgumentError, match='not resizeable and size is: 2'):
        tf.TensorArray(tf.float32, size=2).write(2, 1.0)
    with pytest.raises(errors.InvalidArgumentError, match='dtype is float32 but Op is trying to '
                                                          'write dtype int32'):
        tf.TensorArray(tf.float32, size=2).write(0, tf.constant(1))
    with pytest.raises(ValueError, match='Incompatible shape'):
        tf.TensorArray(tf.float32, size=2).write(0, [1.0, 2.0]).write(1, [1.0])
    assert tf.TensorArray(tf.float32, size=2, element_shape=[2]).read(1).numpy().tolist() == \
        [0.0, 0.0]

    @tf.function
    def out_of_range(i):
        return tf.TensorArray(tf.float32, size=2, element_shape=[]).read(i)
    with pytest.raises(errors.InvalidArgumentError, match='index 5 but array size is: 2'):
        out_of_range(tf.constant(5))


def _written_in_loop(x):
    n = x.shape[0]

    def body(i, ta):
        return i + 1, ta.write(i, tf.gather(x, i) * tf.cast(i + 1, x.dtype))
    _, ta = tf.while_loop(lambda i, ta: i < n, body, [0, tf.TensorArray(x.dtype, size=n)])
    return ta.stack() ** 2


def _read_in_loop(x):
    source = tf.TensorArray(x.dtype, size=2).unstack(x)

    def body(i, acc):
        return i + 1, acc * source.read(i) + source.gather([0, 1])
    return tf.while_loop(lambda i, acc: i < 2, body, [0, tf.ones([2], x.dtype)])[1]


def _scatter_concat(x):
    ta = tf.TensorArray(x.dtype, size=3, element_shape=[1]).scatter([2, 0], tf.reshape(x, [2, 1]))
    return ta.concat() * tf.sin(ta.stack()[:, 0])


@pytest.mark.parametrize('fn', [_written_in_loop, _read_in_loop, _scatter_concat],
                         ids=lambda f: f.__name__)
def test_gradients(fn):
    check_gradients(fn, np.array([0.7, -1.3]))


def test_stack_keeps_a_constant_size_in_its_static_shape():
    # TF 2.21: a TensorArray made with a constant size stacks to that many rows in a function
    # (also after a while loop wrote it), one sized from a shape does not.
    seen = []

    @tf.function
    def f(x):
        ta = tf.TensorArray(tf.float32, size=8, element_shape=tf.TensorShape([None, 6]))
        seen.append(ta.stack().shape.as_list())
        out = tf.TensorArray(tf.float32, size=3, element_shape=x.shape[1:])
        _, out = tf.while_loop(lambda i, o: i < 3, lambda i, o: (i + 1, o.write(i, x[0])),
                               (0, out))
        seen.append(out.stack().shape.as_list())
        dynamic = tf.TensorArray(tf.float32, size=tf.shape(x)[0]).write(0, x[0])
        seen.append(dynamic.stack().shape.as_list())
        return out.stack()

    f(tf.zeros((5, 4)))
    assert seen == [[8, None, 6], [3, 4], [None, 4]]
