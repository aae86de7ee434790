"""The `tf.queue` namespace: re-exports only (FIFOQueue, eagerly)."""
from defun.core import unsupported
from defun.state.queues import FIFOQueue, QueueBase  # noqa: F401

__getattr__ = unsupported.missing_names(
    __name__, 'tf.queue', {'PaddingFIFOQueue': 'padding queues',
                           'PriorityQueue': 'priority queues',
                           'RandomShuffleQueue': 'shuffling queues'})
