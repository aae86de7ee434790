"""`tf.data.experimental`: the parts of it that TF2 programs use."""
from defun.data.base import AUTOTUNE, INFINITE, UNKNOWN
from defun.data.ordering import assert_cardinality
from defun.data.structure import DatasetSpec

INFINITE_CARDINALITY = INFINITE
UNKNOWN_CARDINALITY = UNKNOWN


def cardinality(dataset):
    """`tf.data.experimental.cardinality(ds)`: the same as `ds.cardinality()`."""
    return dataset.cardinality()


__all__ = ['AUTOTUNE', 'INFINITE_CARDINALITY', 'UNKNOWN_CARDINALITY', 'assert_cardinality',
           'cardinality', 'DatasetSpec']
