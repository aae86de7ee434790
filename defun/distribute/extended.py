"""`tf.distribute.StrategyExtended`: the engine-facing half of a strategy. It holds the engine and
does what the replica context and the strategy ask of the replicas together: the all-reduce (one
collective op for a whole nest of tensors), the all-gather, variable updates, and the record of the
Variables created in the strategy's scope (which start from rank 0's values).
"""
import contextlib

from defun.ops.framework.indexed_slices import IndexedSlices
from defun.core import context, nest
from defun.core.tensor import Tensor, convert_to_tensor
from defun.distribute import collective_ops
from defun.distribute.reduce_op import ReduceOp

__all__ = ['StrategyExtended']


class StrategyExtended:
    """The extended API of `strategy`, on `engine` (engine.Engine)."""

    def __init__(self, strategy, engine):
        self._container_strategy = strategy
        self._engine = engine
        self._created_ids = set()   # unique ids of the Variables created in the strategy's scope

    @property
    def engine(self):
        """The collective engine (rank, world size and the collectives)."""
        return self._engine

    @property
    def worker_devices(self):
        task = 0 if self._engine.world_size == 1 else self._engine.rank
        job = 'localhost' if self._engine.world_size == 1 else 'worker'
        return (f'/job:{job}/replica:0/task:{task}/device:CPU:0',)

    parameter_devices = worker_devices

    @property
    def should_checkpoint(self):
        """Whether this process writes checkpoints: the chief (rank 0) does."""
        return self._engine.rank == 0

    should_save_summary = should_checkpoint

    @property
    def experimental_should_init(self):
        return True

    def _in_multi_worker_mode(self):
        # TF's name for "more than one worker", which Keras's TensorFlow trainer asks.
        return self._engine.world_size > 1

    # -- collectives
    def all_reduce(self, reduce_op, value):
        """`value` (a nest) reduced over the replicas: every dense tensor in one collective op."""
        flat = nest.flatten(value)
        if self._engine.world_size == 1:
            return nest.pack_sequence_as(value, [_as_value(v) for v in flat])
        dense = [i for i, v in enumerate(flat) if not isinstance(v, IndexedSlices)]
        reduced = collective_ops.all_reduce([convert_to_tensor(flat[i]) for i in dense],
                                            self._engine, reduce_op.value.lower())
        out = list(flat)
        for i, tensor in zip(dense, reduced):
            out[i] = tensor
        for i, v in enumerate(flat):
            if isinstance(v, IndexedSlices):
                out[i] = self._reduce_slices(reduce_op, v)
        return nest.pack_sequence_as(value, out)

    def _reduce_slices(self, reduce_op, slices):
        # Sparse gradients are summed as TF sums them: every replica's rows, concatenated.
        values = collective_ops.all_gather(slices.values, self._engine, 0)
        indices = collective_ops.all_gather(slices.indices, self._engine, 0)
        if reduce_op is ReduceOp.MEAN:
            values = values / self._engine.world_size
        return IndexedSlices(values, indices, slices.dense_shape)

    def all_gather(self, value, axis):
        """Every replica's `value` (a nest) concatenated along `axis`."""
        def gather(v):
            tensor = convert_to_tensor(v)
            if self._engine.world_size == 1:
                return tensor
            rank = tensor.shape.rank
            if rank is None or rank == 0:
                raise ValueError(f'all_gather: axis {axis} is out of range for a tensor of rank '
                                 f'{rank} (gather needs at least one dimension)')
            return collective_ops.all_gather(tensor, self._engine, axis % rank)
        return nest.map_structure(gather, value)

    # -- variables
    def note_variable(self, variable):
        """Called for each Variable created in the strategy's scope: records it and, with more
        than one process, gives it rank 0's initial value."""
        self._created_ids.add(variable.unique_id)
        if self._engine.world_size > 1:
            with context.init_scope():
                variable.assign(self._engine.broadcast(variable.numpy(), root=0))

    def variable_created_in_scope(self, v):
        """Whether Variable `v` was created in this strategy's scope."""
        return v.unique_id in self._created_ids

    def colocate_vars_with(self, colocate_with_variable):
        """A scope placing new variables with `colocate_with_variable`: every variable of a
        process is on its CPU already, so it changes nothing."""
        return contextlib.nullcontext()

    def update(self, var, fn, args=(), kwargs=None, group=True):
        """fn(var, *args, **kwargs): with one replica per process, each process updates its copy
        (the arguments are already the same on every replica). `group=False` gives each result
        as its tuple of local results."""
        result = fn(var, *args, **(kwargs or {}))
        return result if group else nest.map_structure(lambda x: (x,), result)

    def value_container(self, value):
        return value

    def call_for_each_replica(self, fn, args=(), kwargs=None):
        return self._container_strategy.run(fn, args, kwargs)

    def reduce_to(self, reduce_op, value, destinations, options=None):
        """`value` reduced over the replicas (every destination is this process's CPU)."""
        return self.all_reduce(ReduceOp.of(reduce_op), value)

    def batch_reduce_to(self, reduce_op, value_destination_pairs, options=None):
        """reduce_to for each (value, destinations) pair, all in one collective."""
        values = [value for value, _ in value_destination_pairs]
        return self.all_reduce(ReduceOp.of(reduce_op), values)


def _as_value(v):
    return v if isinstance(v, (Tensor, IndexedSlices)) else convert_to_tensor(v)
