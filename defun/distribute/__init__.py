"""`tf.distribute`: the same training script on one process or N. Strategies run one replica per
process; the processes come from an MPI launcher (`mpiexec -n N python train.py`, `srun`) and talk
through a collective engine (engine.py: MPI via mpi4py, the `defun[mpi]` extra). Started without a
launcher, every strategy is a world of one process and needs no MPI. See docs/distribute.md."""
from defun.core import unsupported
from defun.distribute import experimental  # noqa: F401
from defun.distribute.input_lib import (DistributedDataset, DistributedIterator,  # noqa: F401
                                        InputContext)
from defun.distribute.mirrored import (MirroredStrategy, MultiWorkerMirroredStrategy,  # noqa: F401
                                       OneDeviceStrategy, ParameterServerStrategy, TPUStrategy)
from defun.distribute.reduce_op import ReduceOp  # noqa: F401
from defun.distribute.replica_context import ReplicaContext  # noqa: F401
from defun.distribute.strategy import (Strategy, get_strategy, has_strategy,  # noqa: F401
                                       in_cross_replica_context, get_replica_context)
from defun.distribute.extended import StrategyExtended  # noqa: F401
from defun.distribute.values import DistributedValues  # noqa: F401

__all__ = ['MirroredStrategy', 'MultiWorkerMirroredStrategy', 'OneDeviceStrategy',
           'ParameterServerStrategy', 'TPUStrategy', 'Strategy', 'StrategyExtended',
           'ReplicaContext', 'ReduceOp', 'InputContext', 'DistributedDataset',
           'DistributedIterator', 'DistributedValues', 'get_strategy', 'has_strategy',
           'in_cross_replica_context', 'get_replica_context', 'experimental']

__getattr__ = unsupported.missing_names(__name__, 'tf.distribute', {
    'experimental_set_strategy': 'setting a strategy without a scope',
    'CrossDeviceOps': 'cross-device reductions', 'NcclAllReduce': 'NCCL',
    'HierarchicalCopyAllReduce': 'cross-device reductions',
    'ReductionToOneDevice': 'cross-device reductions', 'Server': 'TF servers',
    'InputOptions': 'device placement of input', 'InputReplicationMode': 'input replication',
    'RunOptions': 'TPU run options', 'coordinator': 'parameter-server coordination',
    'cluster_resolver': 'cluster resolvers (the MPI launcher gives the workers and this rank)',
})
