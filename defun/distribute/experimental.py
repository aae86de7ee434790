"""`tf.distribute.experimental`: the experimental names of the strategies defun runs (the same
classes as tf.distribute's), the ones it does not, and ValueContext."""
from defun.core import unsupported
from defun.distribute.input_lib import ValueContext  # noqa: F401
from defun.distribute.mirrored import (CentralStorageStrategy, MultiWorkerMirroredStrategy,  # noqa: F401
                                       ParameterServerStrategy, TPUStrategy)

__all__ = ['MultiWorkerMirroredStrategy', 'CentralStorageStrategy', 'ParameterServerStrategy',
           'TPUStrategy', 'ValueContext']

__getattr__ = unsupported.missing_names(__name__, 'tf.distribute.experimental', {
    'CommunicationOptions': 'collective options (the engine is chosen by the launcher)',
    'CommunicationImplementation': 'collective implementations',
    'CollectiveCommunication': 'collective implementations',
    'CollectiveHints': 'collective hints', 'PreemptionCheckpointHandler': 'preemption handling',
    'PreemptionWatcher': 'preemption handling', 'TerminationConfig': 'preemption handling',
    'coordinator': 'parameter-server coordination', 'partitioners': 'variable partitioners',
    'rpc': 'RPC',
})
