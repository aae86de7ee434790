"""`tf.data.experimental`: the parts of it that TF2 programs use."""
from defun import unsupported
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

# every other tf.data.experimental name (make_csv_dataset, sample_from_datasets, ...) says so
__getattr__ = unsupported.missing_names(__name__, 'tf.data.experimental')
