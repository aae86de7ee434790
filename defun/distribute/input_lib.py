"""Input under a strategy: `DistributedDataset` (each global batch split across the replicas, as TF's
`experimental_distribute_dataset`), the iterator over it, and `InputContext` / `ValueContext`.

TF splits a batch of n elements into num_replicas pieces whose sizes differ by at most one, the
larger first (a batch of 7 on two replicas: 4 and 3; a last batch of 1: 1 and 0), and gives
replica i piece i. Here each process holds one replica, so process `rank` keeps rows
[start, start + size) of every batch, computed from the batch's own size at run time (the split is
a `map` of the dataset, so it also runs inside a `tf.function` that calls `next(iterator)`).
"""
from defun.core import context, dtypes, nest
from defun.data.iterators import OwnedIterator
from defun.ops.framework.base_ops import cast, shape
from defun.ops.math.arithmetic import minimum

__all__ = ['DistributedDataset', 'DistributedIterator', 'InputContext', 'ValueContext',
           'split_batches']


def split_batches(dataset, rank, world_size):
    """`dataset` whose every batch keeps only replica `rank`'s piece of it (TF's split)."""
    if world_size == 1:
        return dataset

    def own_rows(batch):
        if batch.shape.rank == 0:
            raise ValueError(
                'experimental_distribute_dataset: the dataset must be batched (each element\'s '
                'first dimension is the global batch), but an element is a scalar '
                f'({batch.dtype.name}); call dataset.batch(global_batch_size) first')
        n = shape(batch)[0]
        per, extra = n // world_size, n % world_size
        start = rank * per + minimum(rank, extra)
        size = per + cast(rank < extra, dtypes.int32)
        return batch[start:start + size]

    def keep_own(*parts):
        element = parts[0] if len(parts) == 1 else parts
        return nest.map_structure(own_rows, element)
    return dataset.map(keep_own)


class DistributedIterator(OwnedIterator):
    """An iterator over a DistributedDataset: each `next()` gives this replica's piece of the next
    global batch. Checkpointable as a `tf.data` iterator is (it saves its position)."""


class DistributedDataset:
    """A dataset distributed over the replicas (`tf.distribute.DistributedDataset`): iterate it, or
    take `iter()` of it, in the strategy's training loop."""

    def __init__(self, dataset, strategy):
        self._dataset = dataset
        self._strategy = strategy

    @property
    def element_spec(self):
        return self._dataset.element_spec

    def __iter__(self):
        if not context.executing_eagerly():
            return iter(self._dataset)   # inside a tf.function: the dataset's graph iterator
        return DistributedIterator(self._dataset)

    def __repr__(self):
        return f'<DistributedDataset element_spec={self.element_spec}>'


class DistributedDatasetsFromFunction(DistributedDataset):
    """What `distribute_datasets_from_function` gives: each replica's own dataset, built by the
    user's function from an InputContext."""


class InputContext:
    """What a dataset function learns about the input pipelines (`tf.distribute.InputContext`):
    one pipeline per process here, so pipeline i feeds replica i."""

    def __init__(self, num_input_pipelines=1, input_pipeline_id=0, num_replicas_in_sync=1):
        self._num_input_pipelines = num_input_pipelines
        self._input_pipeline_id = input_pipeline_id
        self._num_replicas_in_sync = num_replicas_in_sync

    num_input_pipelines = property(lambda self: self._num_input_pipelines)
    input_pipeline_id = property(lambda self: self._input_pipeline_id)
    num_replicas_in_sync = property(lambda self: self._num_replicas_in_sync)

    def get_per_replica_batch_size(self, global_batch_size):
        """global_batch_size / num_replicas_in_sync, which must divide it."""
        if global_batch_size % self._num_replicas_in_sync != 0:
            raise ValueError(f'The `global_batch_size` {global_batch_size!r} is not divisible by '
                             f'`num_replicas_in_sync` {self._num_replicas_in_sync!r} ')
        return global_batch_size // self._num_replicas_in_sync

    def __str__(self):
        return (f'tf.distribute.InputContext(input pipeline id {self._input_pipeline_id}, '
                f'total: {self._num_input_pipelines})')


class ValueContext:
    """What `experimental_distribute_values_from_function`'s function learns about its replica."""

    def __init__(self, replica_id_in_sync_group=0, num_replicas_in_sync=1):
        self._replica_id_in_sync_group = replica_id_in_sync_group
        self._num_replicas_in_sync = num_replicas_in_sync

    replica_id_in_sync_group = property(lambda self: self._replica_id_in_sync_group)
    num_replicas_in_sync = property(lambda self: self._num_replicas_in_sync)

    def __str__(self):
        return (f'tf.distribute.ValueContext(replica id {self._replica_id_in_sync_group}, '
                f' total replicas in sync: {self._num_replicas_in_sync})')
