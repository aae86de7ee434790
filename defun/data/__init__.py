"""tf.data: input pipelines (`Dataset`, its iterators, `Options`, `experimental`).

A Dataset is an immutable Python description of a pipeline (base.py); iterating it streams flat
tuples of numpy arrays from stage to stage (only cache, shuffle's buffer and prefetch's queue hold
elements) and packs them into tensors at the edge. User functions are traced once with AutoGraph
into graphs whose generated code runs per element (functions.py). Inside compiled functions a
dataset is a variant tensor and iteration is a while_loop over a stateful iterator (graph_ops.py).
"""
from defun.data import sources, batching, ordering, mapping, iterators, sampling, grouping  # noqa: F401
from defun.data import composite_batching  # noqa: F401
from defun.core import unsupported
from defun.data import experimental
from defun.data.base import AUTOTUNE, INFINITE, UNKNOWN, Dataset
from defun.data.iterators import OwnedIterator as Iterator, Options
from defun.data.sources import TextLineDataset
from defun.data.tfrecord import TFRecordDataset
from defun.data.structure import DatasetSpec

INFINITE_CARDINALITY = INFINITE
UNKNOWN_CARDINALITY = UNKNOWN

__all__ = ['Dataset', 'AUTOTUNE', 'INFINITE_CARDINALITY', 'UNKNOWN_CARDINALITY', 'Iterator',
           'Options', 'DatasetSpec', 'TextLineDataset', 'TFRecordDataset', 'experimental']

__getattr__ = unsupported.missing_names(__name__, 'tf.data', {
    'FixedLengthRecordDataset': 'binary record files',
    'ThreadingOptions': None, 'DistributeOptions': None, 'NumpyIterator': None,
    'IteratorSpec': None})
