"""The strategies defun runs: `MirroredStrategy` and `MultiWorkerMirroredStrategy` (one replica
per process; the processes and their ranks come from the launcher, a world of one without one)
and `OneDeviceStrategy` (one replica, this process). Strategies TF runs on parameter servers,
TPUs or a central variable store are not part of defun: constructing one raises NotInDefunError.
"""
from defun.core.unsupported import KNOWN_GAPS, NotInDefunError
from defun.distribute import input_lib, launcher
from defun.distribute.engine import LocalEngine
from defun.distribute.extended import StrategyExtended
from defun.distribute.strategy import Strategy

__all__ = ['MirroredStrategy', 'MultiWorkerMirroredStrategy', 'OneDeviceStrategy',
           'ParameterServerStrategy', 'TPUStrategy', 'CentralStorageStrategy',
           'LauncherClusterResolver']

ONE_REPLICA_PER_PROCESS = (
    'defun runs one replica per process: start one process per replica with an MPI launcher '
    "(mpiexec -n N python train.py, or srun) and pip install 'defun[mpi]'")


class LauncherClusterResolver:
    """The cluster as the launcher describes it: this process is worker `task_id` (its rank).
    Started without a launcher, task_type and task_id are None (as TF's without TF_CONFIG)."""

    def __init__(self, engine, launched):
        self._engine = engine
        self._launched = launched

    task_type = property(lambda self: 'worker' if self._launched else None)
    task_id = property(lambda self: self._engine.rank if self._launched else None)
    rpc_layer = None
    environment = ''

    def num_accelerators(self, task_type=None, task_id=None, config_proto=None):
        return {}

    def __repr__(self):
        return f'<LauncherClusterResolver task_type={self.task_type} task_id={self.task_id}>'


def _check_devices(devices):
    if devices is not None and len(list(devices)) > 1:
        raise ValueError(f'MirroredStrategy: devices={list(devices)} asks for several replicas '
                         f'in one process. {ONE_REPLICA_PER_PROCESS}.')


class MirroredStrategy(Strategy):
    """Synchronous training with one replica per process: variables start from rank 0's values
    and stay equal, because every replica applies the same all-reduced gradients."""

    def __init__(self, devices=None, cross_device_ops=None):
        _check_devices(devices)
        super().__init__(StrategyExtended(self, launcher.engine_for_process()))


class MultiWorkerMirroredStrategy(Strategy):
    """MirroredStrategy across the workers a launcher started (one replica per process); its
    `cluster_resolver` says which worker this process is."""

    def __init__(self, cluster_resolver=None, communication_options=None):
        if cluster_resolver is not None:
            raise ValueError('MultiWorkerMirroredStrategy: the workers and this process\'s rank '
                             f'come from the launcher, not a cluster_resolver. {ONE_REPLICA_PER_PROCESS}.')
        engine = launcher.engine_for_process()
        super().__init__(StrategyExtended(self, engine))
        self._resolver = LauncherClusterResolver(engine, launcher.launched_world_size() is not None)

    @property
    def cluster_resolver(self):
        return self._resolver


class OneDeviceStrategy(Strategy):
    """One replica in this process (whatever launched it): the strategy API with no exchange."""

    def __init__(self, device):
        self._device = device
        super().__init__(StrategyExtended(self, LocalEngine()))

    def experimental_distribute_dataset(self, dataset, options=None):
        return input_lib.DistributedDataset(dataset, self)

    def experimental_distribute_values_from_function(self, value_fn):
        return value_fn(input_lib.ValueContext())


class _NotInDefun:
    """A TF strategy defun does not run: constructing it raises NotInDefunError (the class exists
    so that `isinstance(strategy, tf.distribute.TPUStrategy)` is simply False)."""

    what = ''

    def __init__(self, *args, **kwargs):
        raise NotInDefunError(f'tf.distribute.{type(self).__name__} ({self.what}) is not part of '
                              f'defun; MirroredStrategy and MultiWorkerMirroredStrategy run one '
                              f'replica per process over MPI. See {KNOWN_GAPS}.')


class ParameterServerStrategy(_NotInDefun, Strategy):
    what = 'training with parameter servers'


class TPUStrategy(_NotInDefun, Strategy):
    what = 'TPUs'


class CentralStorageStrategy(_NotInDefun, Strategy):
    what = 'variables on one central device'
