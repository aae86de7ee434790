"""`tf.data.experimental`: the parts of it that TF2 programs use."""
from defun.core import unsupported
from defun.data.csv_dataset import CsvDataset
from defun.data.base import AUTOTUNE, INFINITE, UNKNOWN, Dataset
from defun.data.ordering import assert_cardinality
from defun.data.structure import DatasetSpec

INFINITE_CARDINALITY = INFINITE
UNKNOWN_CARDINALITY = UNKNOWN


def get_single_element(dataset):
    return dataset.get_single_element()


def sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False):
    return Dataset.sample_from_datasets(datasets, weights, seed, stop_on_empty_dataset)


def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=True):
    return Dataset.choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset)


def scan(initial_state, scan_func):
    """The transformation form, for Dataset.apply."""
    return lambda dataset: dataset.scan(initial_state, scan_func)


def unique():
    return lambda dataset: dataset.unique()


def cardinality(dataset):
    """`tf.data.experimental.cardinality(ds)`: the same as `ds.cardinality()`."""
    return dataset.cardinality()


__all__ = ['AUTOTUNE', 'INFINITE_CARDINALITY', 'UNKNOWN_CARDINALITY', 'assert_cardinality',
           'cardinality', 'DatasetSpec', 'get_single_element', 'sample_from_datasets',
           'choose_from_datasets', 'scan', 'unique', 'CsvDataset']

# every other tf.data.experimental name (make_csv_dataset, ...) says so
__getattr__ = unsupported.missing_names(__name__, 'tf.data.experimental')
