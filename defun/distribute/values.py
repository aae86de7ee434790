"""Values that stand for one value per replica: `DistributedValues` and its `PerReplica` (what
`experimental_distribute_values_from_function` gives a mirrored strategy).

Each process of a strategy here holds one replica, so a PerReplica holds this process's value only
(`values` has one item, as TF's `experimental_local_results` shows the local replicas).
"""
__all__ = ['DistributedValues', 'PerReplica', 'local_value', 'local_results']


class DistributedValues:
    """A value per local replica (`values`, in replica order), as `tf.distribute.DistributedValues`."""

    def __init__(self, values):
        self._values = tuple(values)

    @property
    def values(self):
        return self._values

    def __repr__(self):
        items = ',\n'.join(f'  {i}: {v!s}' for i, v in enumerate(self._values))
        return f'{type(self).__name__}:{{\n{items}\n}}'


class PerReplica(DistributedValues):
    """Values that may differ between replicas (a batch, a replica's result)."""


def local_value(value):
    """This process's value of `value`: its only local value for a DistributedValues."""
    if isinstance(value, DistributedValues):
        (only,) = value.values
        return only
    return value


def local_results(value):
    """The local replicas' values of `value` as a tuple (a plain value is its own only one)."""
    if isinstance(value, DistributedValues):
        return value.values
    return (value,)
