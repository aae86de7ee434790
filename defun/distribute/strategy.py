"""`tf.distribute.Strategy`, the default strategy and the functions that read the current one
(`get_strategy`, `has_strategy`, `in_cross_replica_context`, `get_replica_context`).

Which strategy is current lives in core/context.py's distribution stack: `strategy.scope()` pushes
the strategy's cross-replica context, `strategy.run` its replica context, `merge_call` the
cross-replica context again. With nothing pushed, the default strategy (one replica, no engine
calls) is current and code runs in its replica context, as in TF.
"""
import contextlib

from defun.core import context, nest
from defun.core.tensor import convert_to_tensor
from defun.distribute import input_lib, values
from defun.distribute.engine import LocalEngine
from defun.distribute.extended import StrategyExtended
from defun.distribute.reduce_op import ReduceOp
from defun.distribute.replica_context import ReplicaContext
from defun.ops.framework.base_ops import cast, shape
from defun.ops.math.arithmetic import truediv
from defun.ops.math.reductions import reduce_sum

__all__ = ['Strategy', 'get_strategy', 'has_strategy', 'in_cross_replica_context',
           'get_replica_context', 'maybe_merge_call']


class Strategy:
    """A way to run a computation on several replicas (`tf.distribute.Strategy`); subclasses
    choose the engine. Each process holds one replica."""

    def __init__(self, extended):
        self._extended = extended

    @property
    def extended(self):
        return self._extended

    @property
    def num_replicas_in_sync(self):
        return self._extended.engine.world_size

    @property
    def cluster_resolver(self):
        return None

    @contextlib.contextmanager
    def scope(self):
        """Makes this the current strategy (in its cross-replica context); Variables created in
        the block are the strategy's and start from rank 0's values."""
        current = context.current_distribution()
        if current is not None and current[0] is self:
            yield self     # already this strategy's (in run, in merge_call): nothing changes
            return
        if current is not None and current[0] is not DEFAULT_STRATEGY:
            raise RuntimeError('Mixing different tf.distribute.Strategy objects: '
                               f'{current[0]} is not {self}')
        with context.distribution_scope(self, None), \
                context.variable_creation_hook(self._extended.note_variable):
            yield self

    def run(self, fn, args=(), kwargs=None, options=None):
        """fn(*args, **kwargs) as this process's replica, in the replica context. Unlike TF, `fn`
        is not converted by AutoGraph: inside a tf.function, write its tensor-dependent control
        flow with tf.cond / tf.while_loop, or make `fn` itself a tf.function."""
        args = nest.map_structure(values.local_value, tuple(args))
        kwargs = nest.map_structure(values.local_value, dict(kwargs or {}))
        replica = ReplicaContext(self, self._extended.engine.rank)
        with context.distribution_scope(self, replica), \
                context.variable_creation_hook(self._extended.note_variable):
            return fn(*args, **kwargs)

    def reduce(self, reduce_op, value, axis):
        """The per-replica `value` (a nest) reduced across replicas; with `axis`, also along that
        axis of each replica's value (MEAN: over all the elements the replicas hold there)."""
        reduce_op = ReduceOp.of(reduce_op)
        _require_cross_replica(self)
        local = nest.map_structure(values.local_value, value)
        if axis is None:
            return self._extended.all_reduce(reduce_op, local)
        flat = [convert_to_tensor(v) for v in nest.flatten(local)]
        sums = [reduce_sum(v, axis=axis) for v in flat]
        if reduce_op is ReduceOp.SUM:
            return nest.pack_sequence_as(local, self._extended.all_reduce(ReduceOp.SUM, sums))
        counts = [shape(v)[axis] for v in flat]
        totals = self._extended.all_reduce(ReduceOp.SUM, sums + counts)
        means = [truediv(s, cast(c, s.dtype)) for s, c in zip(totals[:len(flat)], totals[len(flat):])]
        return nest.pack_sequence_as(local, means)

    def gather(self, value, axis):
        """Every replica's `value` (a nest) concatenated along `axis` (cross-replica context)."""
        _require_cross_replica(self)
        return self._extended.all_gather(nest.map_structure(values.local_value, value), axis)

    def experimental_local_results(self, value):
        """This process's values of `value` as a tuple (one replica per process)."""
        return values.local_results(value)

    def experimental_distribute_dataset(self, dataset, options=None):
        """`dataset` (batched by the global batch size) with each batch split across the
        replicas: this process iterates its piece of every global batch."""
        engine = self._extended.engine
        split = input_lib.split_batches(dataset, engine.rank, engine.world_size)
        return input_lib.DistributedDataset(split, self)

    def distribute_datasets_from_function(self, dataset_fn, options=None):
        """The dataset `dataset_fn(input_context)` builds for this process's replica (it shards
        and batches by the per-replica batch size itself)."""
        engine = self._extended.engine
        input_context = input_lib.InputContext(engine.world_size, engine.rank, engine.world_size)
        return input_lib.DistributedDatasetsFromFunction(dataset_fn(input_context), self)

    experimental_distribute_datasets_from_function = distribute_datasets_from_function

    def experimental_distribute_values_from_function(self, value_fn):
        """value_fn(ValueContext) for this process's replica, as a PerReplica value."""
        engine = self._extended.engine
        value = value_fn(input_lib.ValueContext(engine.rank, engine.world_size))
        return values.PerReplica((value,))

    def __repr__(self):
        engine = self._extended.engine
        return (f'<{type(self).__name__}: replica {engine.rank} of {engine.world_size} '
                f'({engine.name} engine)>')


def _require_cross_replica(strategy):
    current = context.current_distribution()
    if current is not None and current[0] is strategy and current[1] is not None:
        raise RuntimeError('Method requires being in cross-replica context, use '
                           'get_replica_context().merge_call()')


class _DefaultExtended(StrategyExtended):
    def variable_created_in_scope(self, v):
        # TF's default strategy owns every variable no other strategy made; a variable's strategy
        # is not recorded on it here, so the default answers True for any variable.
        return True


class _DefaultDistributionStrategy(Strategy):
    """What `get_strategy()` gives outside every strategy's scope: one replica, no engine calls;
    its scope changes nothing and its `experimental_distribute_dataset` is the dataset itself."""

    def __init__(self):
        super().__init__(_DefaultExtended(self, LocalEngine()))

    @contextlib.contextmanager
    def scope(self):
        yield self

    def run(self, fn, args=(), kwargs=None, options=None):
        args = nest.map_structure(values.local_value, tuple(args))
        kwargs = nest.map_structure(values.local_value, dict(kwargs or {}))
        return fn(*args, **kwargs)

    def experimental_distribute_dataset(self, dataset, options=None):
        return dataset

    def distribute_datasets_from_function(self, dataset_fn, options=None):
        return dataset_fn(input_lib.InputContext())

    experimental_distribute_datasets_from_function = distribute_datasets_from_function

    def experimental_distribute_values_from_function(self, value_fn):
        return value_fn(input_lib.ValueContext())


DEFAULT_STRATEGY = _DefaultDistributionStrategy()   # immutable: one replica, a local engine
DEFAULT_REPLICA_CONTEXT = ReplicaContext(DEFAULT_STRATEGY, 0)


def get_strategy():
    """The current strategy: the innermost `strategy.scope()` or `strategy.run`'s, else the
    default strategy."""
    current = context.current_distribution()
    return DEFAULT_STRATEGY if current is None else current[0]


def has_strategy():
    """Whether a strategy other than the default is current."""
    return get_strategy() is not DEFAULT_STRATEGY


def in_cross_replica_context():
    """True in a strategy's scope outside `run` (and inside `merge_call`)."""
    current = context.current_distribution()
    return current is not None and current[1] is None


def get_replica_context():
    """The current ReplicaContext: inside `strategy.run`, its replica's; outside every strategy,
    the default strategy's; None in a cross-replica context."""
    current = context.current_distribution()
    return DEFAULT_REPLICA_CONTEXT if current is None else current[1]


def maybe_merge_call(fn, strategy, *args, **kwargs):
    """fn(strategy, *args, **kwargs) in the cross-replica context (TF's
    `tf.__internal__.distribute.interim.maybe_merge_call`, which Keras's optimizers call)."""
    replica = get_replica_context()
    if replica is None:
        return fn(strategy, *args, **kwargs)
    return replica.merge_call(fn, args=args, kwargs=kwargs)
