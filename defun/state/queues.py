"""`tf.queue.FIFOQueue` run eagerly: a bounded first-in first-out queue of tuples of tensors.

As TF's queue kernels: `enqueue` blocks while the queue is full and `dequeue` while it holds too
few elements (another thread may fill or drain it), a closed queue refuses new elements with
`CancelledError` and, once drained, `dequeue` with `OutOfRangeError`; `dequeue_many` and
`dequeue_up_to` need every component's shape. Components are checked against the queue's dtypes
and shapes when they are enqueued, with TF's errors. Queue operations are eager only: inside a
`tf.function` they raise NotInDefunError (TF's queue ops in graphs are not part of defun).
"""
import collections
import itertools
import threading

import numpy as np

from defun.core import context, dtypes
from defun.core.errors import CancelledError, InvalidArgumentError, OutOfRangeError
from defun.core.shapes import TensorShape
from defun.core.tensor import EagerTensor, convert_to_tensor
from defun.core.unsupported import KNOWN_GAPS, NotInDefunError

__all__ = ['QueueBase', 'FIFOQueue']

_IDS = itertools.count()


def _as_list(value):
    return list(value) if isinstance(value, (list, tuple)) else [value]


class QueueBase:
    """The element structure of a queue (dtypes, shapes, names) and its eager operations."""

    def __init__(self, dtypes_, shapes, names, capacity, name):
        self._dtypes = [dtypes.as_dtype(d) for d in _as_list(dtypes_)]
        if shapes is None:
            self._shapes = [TensorShape(None)] * len(self._dtypes)
        else:
            if not isinstance(shapes, (list, tuple)) or not shapes or any(
                    s is None or isinstance(s, int) for s in shapes):
                shapes = [shapes]   # one shape (as TF reads it), not a list of shapes
            self._shapes = [TensorShape(s) for s in shapes]
            if len(self._shapes) != len(self._dtypes):
                raise ValueError('Queue shapes must have the same length as dtypes')
        self._names = None if names is None else _as_list(names)
        if self._names is not None and len(self._names) != len(self._dtypes):
            raise ValueError('Queue names must have the same length as dtypes')
        self._capacity = int(capacity)
        self._name = name
        self._id = str(next(_IDS))
        self._items = collections.deque()
        self._closed = False
        self._changed = threading.Condition()

    # -- properties
    @property
    def name(self):
        return self._name

    @property
    def dtypes(self):
        return list(self._dtypes)

    @property
    def shapes(self):
        return list(self._shapes)

    @property
    def names(self):
        return self._names

    @property
    def queue_ref(self):
        raise NotInDefunError(f'tf.queue: the queue resource handle (queue_ref) is not part of '
                              f'defun; use the queue object. See {KNOWN_GAPS}.')

    # -- element structure
    def _components(self, vals, what, many):
        if self._names is not None:
            if not isinstance(vals, dict):
                raise ValueError('Queue must have names to enqueue a dictionary' if not
                                 self._names else 'Queue has names: enqueue a dictionary')
            if sorted(vals) != sorted(self._names):
                raise ValueError(f'Keys in dictionary to enqueue do not match names of Queue.  '
                                 f'Dictionary: {sorted(vals)}, Queue: {sorted(self._names)}')
            vals = [vals[n] for n in self._names]
        elif isinstance(vals, dict):
            raise ValueError('Queue must have names to enqueue a dictionary')
        vals = list(vals) if isinstance(vals, (list, tuple)) else [vals]
        if len(vals) != len(self._dtypes):
            raise ValueError(f'{what}: expected {len(self._dtypes)} components, got {len(vals)}')
        arrays = []
        for value, dtype, shape in zip(vals, self._dtypes, self._shapes):
            tensor = convert_to_tensor(value, dtype=dtype)
            static = tensor.shape[1:] if many else tensor.shape
            if many and tensor.shape.rank == 0:
                raise ValueError('Shape must be at least rank 1 but is rank 0')
            if not static.is_compatible_with(shape):
                raise ValueError(f'Shapes {static} and {shape} are incompatible')
            arrays.append(tensor.numpy() if dtype != dtypes.string else
                          np.asarray(tensor.numpy(), object))
        return arrays

    def _pack(self, arrays):
        tensors = [EagerTensor(np.asarray(a)) if dtype != dtypes.string else
                   convert_to_tensor(a, dtypes.string) for a, dtype in zip(arrays, self._dtypes)]
        if self._names is not None:
            return dict(zip(self._names, tensors))
        return tensors[0] if len(tensors) == 1 else tensors

    def _eager(self, op):
        if not context.executing_eagerly():
            raise NotInDefunError(f'tf.queue: {op} inside a tf.function (a queue op in a graph) '
                                  f'is not part of defun; call the queue eagerly. See '
                                  f'{KNOWN_GAPS}.')

    def _closed_error(self, op):
        return CancelledError(f"{type(self).__name__} '{self._id}' is closed. [Op:{op}]")

    def _short_error(self, requested, op):
        return OutOfRangeError(f"{type(self).__name__} '{self._id}' is closed and has "
                               f"insufficient elements (requested {requested}, current size "
                               f"{len(self._items)}) [Op:{op}]")

    # -- operations
    def enqueue(self, vals, name=None):
        """Adds one element, waiting while the queue is full."""
        self._eager('enqueue')
        self._put([tuple(self._components(vals, 'enqueue', False))], 'QueueEnqueueV2')

    def enqueue_many(self, vals, name=None):
        """Adds the slices along dimension 0 of each component, as elements in order."""
        self._eager('enqueue_many')
        arrays = self._components(vals, 'enqueue_many', True)
        sizes = {len(a) for a in arrays}
        if len(sizes) > 1:
            raise InvalidArgumentError('Dimension 0 of all components must be the same size')
        self._put([tuple(a[i] for a in arrays) for i in range(sizes.pop())],
                  'QueueEnqueueManyV2')

    def _put(self, elements, op):
        with self._changed:
            for element in elements:
                while not self._closed and len(self._items) >= self._capacity:
                    self._changed.wait()
                if self._closed:
                    raise self._closed_error(op)
                self._items.append(element)
                self._changed.notify_all()

    def dequeue(self, name=None):
        """Removes and returns the oldest element, waiting while the queue is empty."""
        self._eager('dequeue')
        return self._pack(self._take(1, 'QueueDequeueV2', exact=True)[0])

    def dequeue_many(self, n, name=None):
        """The `n` oldest elements stacked along a new dimension 0."""
        self._eager('dequeue_many')
        return self._stacked(self._take_checked(n, 'QueueDequeueManyV2', True))

    def dequeue_up_to(self, n, name=None):
        """Like dequeue_many, but a closed queue gives what it has left (at least one)."""
        self._eager('dequeue_up_to')
        return self._stacked(self._take_checked(n, 'QueueDequeueUpToV2', False))

    def _take_checked(self, n, op, exact):
        if any(s.rank is None or not s.is_fully_defined() for s in self._shapes):
            raise InvalidArgumentError(f"{type(self).__name__}'s DequeueMany and DequeueUpTo "
                                       f"require the components to have specified shapes. "
                                       f"[Op:{op}]")
        return self._take(int(n), op, exact)

    def _stacked(self, elements):
        columns = [np.stack([e[i] for e in elements]) if elements else
                   np.zeros([0] + shape.as_list(), dtype.np_dtype)
                   for i, (shape, dtype) in enumerate(zip(self._shapes, self._dtypes))]
        return self._pack(columns)

    def _take(self, n, op, exact):
        with self._changed:
            while len(self._items) < n and not self._closed:
                self._changed.wait()
            if len(self._items) < n and (exact or not self._items):
                raise self._short_error(n, op)
            taken = [self._items.popleft() for _ in range(min(n, len(self._items)))]
            self._changed.notify_all()
            return taken

    def close(self, cancel_pending_enqueues=False, name=None):
        """Closes the queue: no more elements; waiting dequeues fail once it is drained."""
        self._eager('close')
        with self._changed:
            self._closed = True
            self._changed.notify_all()

    def is_closed(self, name=None):
        return EagerTensor(np.asarray(self._closed))

    def size(self, name=None):
        return EagerTensor(np.asarray(len(self._items), np.int32))


class FIFOQueue(QueueBase):
    """A queue that gives its elements back in the order they were added."""

    def __init__(self, capacity, dtypes, shapes=None, names=None, shared_name=None,
                 name='fifo_queue'):
        super().__init__(dtypes, shapes, names, capacity, name)
