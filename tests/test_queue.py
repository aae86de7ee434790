"""tf.queue.FIFOQueue run eagerly: order, blocking, closing and TF's errors (recorded with TF 2.21)."""
import threading

import numpy as np
import pytest

import defun as tf
from defun.core.unsupported import NotInDefunError


def test_fifo_order_structures_and_sizes():
    q = tf.queue.FIFOQueue(5, [tf.int32, tf.string], names=['a', 'b'], shapes=[[2], []])
    q.enqueue({'a': [1, 2], 'b': 'x'})
    q.enqueue_many({'a': [[3, 4], [5, 6]], 'b': ['y', 'z']})
    first = q.dequeue()
    assert first['a'].numpy().tolist() == [1, 2] and first['b'].numpy() == b'x'
    rest = q.dequeue_many(2)
    assert rest['a'].shape == (2, 2) and rest['a'].dtype == tf.int32
    assert rest['b'].numpy().tolist() == [b'y', b'z']
    assert q.size().numpy() == 0 and q.size().dtype == tf.int32
    pair = tf.queue.FIFOQueue(5, (tf.int32, tf.float32))
    pair.enqueue((1, 2.))
    got = pair.dequeue()
    assert isinstance(got, list) and got[0].numpy() == 1 and got[1].dtype == tf.float32
    one = tf.queue.FIFOQueue(5, tf.int32)
    one.enqueue([[1, 2]])
    assert one.dequeue().numpy().tolist() == [1, 2]
    assert one.dtypes == [tf.int32] and one.names is None


def test_enqueue_checks_shapes_and_dtypes_as_tf():
    q = tf.queue.FIFOQueue(5, [tf.int32, tf.string], names=['a', 'b'], shapes=[[2], []])
    with pytest.raises(ValueError, match=r'Shapes \(3,\) and \(2,\) are incompatible'):
        q.enqueue({'a': [1, 2, 3], 'b': 'x'})
    with pytest.raises(TypeError):
        q.enqueue({'a': [1.5, 2], 'b': 'x'})
    assert q.size().numpy() == 0


def test_closed_queue_errors_as_tf():
    q = tf.queue.FIFOQueue(10, tf.float32, ((),))
    q.enqueue((10.0,))
    q.close()
    assert q.is_closed().numpy()
    with pytest.raises(tf.errors.CancelledError, match="FIFOQueue '.*' is closed."):
        q.enqueue((10.0,))
    assert q.dequeue().numpy() == 10.0
    with pytest.raises(tf.errors.OutOfRangeError,
                       match=r'is closed and has insufficient elements \(requested 1, current '
                             r'size 0\)'):
        q.dequeue()
    shaped = tf.queue.FIFOQueue(10, tf.int32, shapes=tf.TensorShape(2))
    shaped.enqueue_many(tf.constant([[1, 2], [3, 4]]))
    shaped.close()
    np.testing.assert_array_equal(shaped.dequeue_up_to(5), [[1, 2], [3, 4]])
    with pytest.raises(tf.errors.OutOfRangeError, match='requested 2, current size 0'):
        shaped.dequeue_many(2)


def test_dequeue_many_needs_shapes():
    q = tf.queue.FIFOQueue(5, tf.int32)
    q.enqueue(1)
    with pytest.raises(tf.errors.InvalidArgumentError, match='require the components to have '
                                                             'specified shapes'):
        q.dequeue_up_to(3)
    assert q.size().numpy() == 1


def test_enqueue_waits_for_room_and_dequeue_for_elements():
    q = tf.queue.FIFOQueue(1, tf.int32, shapes=[])
    q.enqueue(1)
    seen = []
    producer = threading.Thread(target=lambda: q.enqueue(2))
    producer.start()
    producer.join(0.2)
    assert producer.is_alive()          # full: the second enqueue waits
    seen.append(int(q.dequeue()))
    producer.join(5)
    assert not producer.is_alive()
    seen.append(int(q.dequeue()))
    assert seen == [1, 2]
    consumer = threading.Thread(target=lambda: seen.append(int(q.dequeue())))
    consumer.start()
    q.enqueue(3)
    consumer.join(5)
    assert seen == [1, 2, 3]


def test_queue_ops_in_a_function_say_so():
    q = tf.queue.FIFOQueue(2, tf.int32, shapes=[])

    @tf.function
    def f():
        q.enqueue(7)
        return q.dequeue()
    with pytest.raises(NotInDefunError, match='inside a tf.function'):
        f()
    with pytest.raises(NotInDefunError, match='PriorityQueue'):
        tf.queue.PriorityQueue
