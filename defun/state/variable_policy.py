"""How a Variable is kept across replicas: `tf.VariableSynchronization` (when replicas' copies are
made to agree) and `tf.VariableAggregation` (how their updates combine), with TF's values.

With one replica (defun's default strategy) there is one copy, so both only record the request, as
TF's default strategy does; they are checked as TF checks them when the Variable is made.
"""
import enum

__all__ = ['VariableSynchronization', 'VariableAggregation', 'check_policy']


class VariableSynchronization(enum.Enum):
    """When a distributed variable's copies are synchronised."""
    AUTO = 0
    NONE = 1
    ON_WRITE = 2
    ON_READ = 3


class VariableAggregation(enum.Enum):
    """How the updates of a distributed variable's replicas are combined."""
    NONE = 0
    SUM = 1
    MEAN = 2
    ONLY_FIRST_REPLICA = 3


def check_policy(synchronization, aggregation, trainable, constraint, name):
    """(synchronization, aggregation, trainable) as TF's Variable keeps them, or TF's error."""
    synchronization = VariableSynchronization.AUTO if synchronization is None else synchronization
    aggregation = VariableAggregation.NONE if aggregation is None else aggregation
    if not isinstance(synchronization, VariableSynchronization):
        raise ValueError(f'Invalid variable synchronization mode: {synchronization} for variable: '
                         f'{name}')
    if not isinstance(aggregation, VariableAggregation):
        raise ValueError(f'Invalid variable aggregation mode: {aggregation} for variable: {name}')
    if synchronization == VariableSynchronization.ON_READ:
        if trainable:
            raise ValueError('Synchronization value can be set to VariableSynchronization.ON_READ '
                             'only for non-trainable variables. You have specified trainable=True '
                             'and synchronization=VariableSynchronization.ON_READ.')
        trainable = False
    elif trainable is None:
        trainable = True
    if constraint is not None and not callable(constraint):
        raise ValueError(f'Argument `constraint` must be None or a callable. a callable. Got a '
                         f'{type(constraint)}:  {constraint}')
    return synchronization, aggregation, bool(trainable)
