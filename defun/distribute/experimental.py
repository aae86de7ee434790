"""`tf.distribute.experimental`: the experimental names of the strategies defun runs (the same
classes as tf.distribute's), the ones it does not, ValueContext and the communication options."""
from defun.core import unsupported
from defun.distribute.input_lib import ValueContext  # noqa: F401
from defun.distribute.options import CommunicationImplementation, CommunicationOptions  # noqa: F401
from defun.distribute.mirrored import (CentralStorageStrategy, MultiWorkerMirroredStrategy,  # noqa: F401
                                       ParameterServerStrategy, TPUStrategy)

__all__ = ['MultiWorkerMirroredStrategy', 'CentralStorageStrategy', 'ParameterServerStrategy',
           'TPUStrategy', 'ValueContext', 'CommunicationOptions', 'CommunicationImplementation']

__getattr__ = unsupported.missing_names(__name__, 'tf.distribute.experimental', {
    'CollectiveCommunication': 'collective implementations',
    'CollectiveHints': 'collective hints', 'PreemptionCheckpointHandler': 'preemption handling',
    'PreemptionWatcher': 'preemption handling', 'TerminationConfig': 'preemption handling',
    'coordinator': 'parameter-server coordination', 'partitioners': 'variable partitioners',
    'rpc': 'RPC',
})
