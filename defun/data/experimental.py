"""`tf.data.experimental`: the parts of it that TF2 programs use."""
import enum

from defun.core import unsupported
from defun.data.csv_dataset import CsvDataset
from defun.data.composite_batching import dense_to_ragged_batch, dense_to_sparse_batch
from defun.data.base import AUTOTUNE, INFINITE, UNKNOWN, Dataset
from defun.data.ordering import assert_cardinality
from defun.data.structure import DatasetSpec

INFINITE_CARDINALITY = INFINITE
UNKNOWN_CARDINALITY = UNKNOWN


class ExternalStatePolicy(enum.Enum):
    """What to do with a stateful function when a dataset is serialized. defun's pipelines are
    never serialized, so the policy set in `Options` is kept for reading back only."""
    WARN = 0
    IGNORE = 1
    FAIL = 2


class AutoShardPolicy(enum.IntEnum):
    """How a distributed dataset is split across workers; kept in `Options` (one worker here)."""
    OFF = -1
    AUTO = 0
    FILE = 1
    DATA = 2
    HINT = 3


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
           'choose_from_datasets', 'scan', 'unique', 'CsvDataset', 'ExternalStatePolicy',
           'AutoShardPolicy', 'dense_to_ragged_batch', 'dense_to_sparse_batch']

# every other tf.data.experimental name (make_csv_dataset, ...) says so
__getattr__ = unsupported.missing_names(__name__, 'tf.data.experimental')
