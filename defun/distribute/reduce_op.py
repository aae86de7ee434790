"""`tf.distribute.ReduceOp`: how values from the replicas combine (their sum, or their mean)."""
import enum

__all__ = ['ReduceOp']


class ReduceOp(enum.Enum):
    """SUM adds the replicas' values; MEAN adds them and divides by the number of replicas."""
    SUM = 'SUM'
    MEAN = 'MEAN'

    @staticmethod
    def from_variable_aggregation(aggregation):
        """The ReduceOp of a `tf.VariableAggregation` (SUM or MEAN; others have none)."""
        name = getattr(aggregation, 'name', str(aggregation)).upper()
        if name not in ('SUM', 'MEAN'):
            raise ValueError(f'Could not convert from `tf.VariableAggregation` {aggregation} to'
                             '`tf.distribute.ReduceOp` type')
        return ReduceOp(name)

    @staticmethod
    def of(value, what='reduce_op'):
        """A ReduceOp from a ReduceOp or its name in any case ('sum', 'MEAN'), as TF accepts."""
        if isinstance(value, ReduceOp):
            return value
        if isinstance(value, str):
            return ReduceOp(value.upper())  # Enum's ValueError: "'BAD' is not a valid ReduceOp"
        raise ValueError(f'{what} must be a tf.distribute.ReduceOp or "SUM"/"MEAN"; got {value!r}')
