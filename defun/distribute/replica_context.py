"""`tf.distribute.ReplicaContext`: what code running as one replica (inside `strategy.run`) sees
of the others: its id, their number, `all_reduce` / `all_gather` across them, and `merge_call` to
run a function once in the strategy's cross-replica context.

The collectives go to the strategy's `extended`, which holds the engine; with one process they
give their inputs back (as TF's one-replica strategies do).
"""
from defun.core import context, dtypes
from defun.core.tensor import convert_to_tensor
from defun.distribute.reduce_op import ReduceOp

__all__ = ['ReplicaContext']


class ReplicaContext:
    """The replica `replica_id` of `strategy` (this process's rank)."""

    def __init__(self, strategy, replica_id_in_sync_group):
        self._strategy = strategy
        self._replica_id = replica_id_in_sync_group

    @property
    def strategy(self):
        return self._strategy

    @property
    def num_replicas_in_sync(self):
        return self._strategy.num_replicas_in_sync

    @property
    def replica_id_in_sync_group(self):
        """This replica's index in [0, num_replicas_in_sync), as an int32 tensor (as TF's)."""
        return convert_to_tensor(self._replica_id, dtype=dtypes.int32)

    @property
    def devices(self):
        return self._strategy.extended.worker_devices

    def all_reduce(self, reduce_op, value, options=None):
        """`value` (a nest of tensors) reduced over all replicas with `reduce_op`; every tensor
        of the nest travels in one exchange. Differentiable: the gradient is the same reduction
        of the output gradients."""
        return self._strategy.extended.all_reduce(ReduceOp.of(reduce_op), value)

    def all_gather(self, value, axis, options=None):
        """Every replica's `value` (a nest of tensors) concatenated along `axis`, in replica
        order."""
        return self._strategy.extended.all_gather(value, axis)

    def merge_call(self, merge_fn, args=(), kwargs=None):
        """merge_fn(strategy, *args, **kwargs), run in the strategy's cross-replica context."""
        with context.distribution_scope(self._strategy, None):
            return merge_fn(self._strategy, *args, **(kwargs or {}))

    def __repr__(self):
        return (f'<tf.distribute.ReplicaContext replica {self._replica_id} of '
                f'{self.num_replicas_in_sync}>')
