"""`tf.data.experimental`: the parts of it that TF2 programs use."""
import enum

from defun.core import dtypes, unsupported
from defun.data.csv_dataset import CsvDataset
from defun.data.composite_batching import dense_to_ragged_batch, dense_to_sparse_batch
from defun.data.base import AUTOTUNE, INFINITE, UNKNOWN, Dataset
from defun.data.grouping import from_list
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


def Counter(start=0, step=1, dtype=dtypes.int64, name=None):  # noqa: N802 (TF's name)
    """`tf.data.experimental.Counter`: the same as `tf.data.Dataset.counter`."""
    return Dataset.counter(start, step, dtype)


def get_structure(dataset_or_iterator):
    """The element_spec of a dataset or an iterator over one."""
    spec = getattr(dataset_or_iterator, 'element_spec', None)
    if spec is None:
        raise TypeError(f'Invalid `dataset_or_iterator`. `dataset_or_iterator` must be a '
                        f'`tf.data.Dataset` or tf.data.Iterator object, but got '
                        f'{type(dataset_or_iterator)}.')
    return spec


def shuffle_and_repeat(buffer_size, count=None, seed=None):
    """The transformation form of `shuffle(buffer_size, seed).repeat(count)` (TF's fused op
    gives the same elements)."""
    return lambda dataset: dataset.shuffle(buffer_size, seed).repeat(count)


def group_by_window(key_func, reduce_func, window_size=None, window_size_func=None):
    return lambda dataset: dataset.group_by_window(key_func, reduce_func, window_size,
                                                   window_size_func)


def bucket_by_sequence_length(element_length_func, bucket_boundaries, bucket_batch_sizes,
                              padded_shapes=None, padding_values=None,
                              pad_to_bucket_boundary=False, no_padding=False,
                              drop_remainder=False):
    return lambda dataset: dataset.bucket_by_sequence_length(
        element_length_func, bucket_boundaries, bucket_batch_sizes, padded_shapes,
        padding_values, pad_to_bucket_boundary, no_padding, drop_remainder)


def cardinality(dataset):
    """`tf.data.experimental.cardinality(ds)`: the same as `ds.cardinality()`."""
    return dataset.cardinality()


__all__ = ['AUTOTUNE', 'INFINITE_CARDINALITY', 'UNKNOWN_CARDINALITY', 'assert_cardinality',
           'cardinality', 'DatasetSpec', 'get_single_element', 'sample_from_datasets',
           'choose_from_datasets', 'scan', 'unique', 'CsvDataset', 'ExternalStatePolicy',
           'AutoShardPolicy', 'Counter', 'from_list', 'get_structure', 'shuffle_and_repeat',
           'group_by_window', 'bucket_by_sequence_length', 'dense_to_ragged_batch',
           'dense_to_sparse_batch']

# every other tf.data.experimental name (make_csv_dataset, ...) says so
__getattr__ = unsupported.missing_names(__name__, 'tf.data.experimental')
