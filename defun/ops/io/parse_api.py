"""tf.io.parse_example / parse_single_example / parse_sequence_example's public functions: the
feature specs become the ParseExample op's configuration and defaults (parsing.py), and its flat
outputs become a dict of tensors, SparseTensors and RaggedTensors by feature name."""
import numpy as np

from defun.core import dtypes
from defun.core.tensor import Tensor
from defun.core.unsupported import NotInDefunError
from defun.ops.io.features import (FixedLenFeature, FixedLenSequenceFeature, RaggedFeature,
                                   SparseFeature, VarLenFeature)
from defun.ops.io.parsing import parse_example_outputs
from defun.ops.ragged.ragged_tensor import RaggedTensor
from defun.ops.sparse.sparse_tensor import SparseTensor
from defun.ops.strings.support import string_input
from defun.ops.support import validation
from defun.ops.support.helpers import to_tensor

__all__ = ['parse_example', 'parse_single_example']

_DTYPES = (dtypes.int64, dtypes.float32, dtypes.string)


def _dtype(feature, key):
    dtype = dtypes.as_dtype(feature.dtype)
    if dtype not in _DTYPES:
        raise ValueError(f'Unsupported dtype {dtype.name} for feature {key!r}: Example features '
                         f'are int64, float32 or string')
    return dtype


def _default(feature, key, dtype, shape):
    if feature.default_value is None:
        if isinstance(feature, FixedLenSequenceFeature):
            return to_tensor(np.zeros([1], dtype.np_dtype) if dtype is not dtypes.string else
                             np.array([b''], dtype=object), name=key, op='parse_example')
        return to_tensor(np.zeros([0], dtype.np_dtype) if dtype is not dtypes.string else
                         np.zeros([0], dtype=object), dtype=dtype, name=key, op='parse_example')
    value = to_tensor(feature.default_value, dtype=dtype, name=key, op='parse_example')
    n = int(np.prod(shape))
    if isinstance(feature, FixedLenFeature) and value.shape.num_elements() != n:
        raise ValueError(f'parse_example: the default value of feature {key!r} has '
                         f'{value.shape.num_elements()} elements; its shape {list(shape)} '
                         f'needs {n}')
    return value


def _config(features):
    config, defaults = [], []
    for key in sorted(features):
        feature = features[key]
        if isinstance(feature, SparseFeature):
            raise NotInDefunError(f'tf.io.SparseFeature ({key!r}) is not part of defun; parse '
                                  f'its index and value keys as VarLenFeatures')
        dtype = _dtype(feature, key)
        if isinstance(feature, (FixedLenFeature, FixedLenSequenceFeature)):
            shape = tuple(int(d) for d in feature.shape)
            sequence = isinstance(feature, FixedLenSequenceFeature)
            config.append((key, 'sequence' if sequence else 'dense', dtype.name, shape))
            defaults.append(_default(feature, key, dtype, shape))
        elif isinstance(feature, VarLenFeature):
            config.append((key, 'sparse', dtype.name, None))
        elif isinstance(feature, RaggedFeature):
            if feature.partitions:
                raise NotInDefunError('tf.io.RaggedFeature with partitions is not part of defun')
            config.append((key, 'ragged', dtype.name, (
                dtypes.as_dtype(feature.row_splits_dtype).name, feature.value_key or key)))
        else:
            raise ValueError(f'Unsupported feature spec for {key!r}: {feature!r}')
    return tuple(config), defaults


def parse_example(serialized, features, example_names=None, name=None):
    """A dict of the requested features of a batch (a vector) of serialized Examples."""
    if not features:
        raise ValueError('Missing: features was empty.')
    s = serialized if isinstance(serialized, Tensor) else string_input(
        serialized, 'parse_example', 'serialized')
    if s.dtype is not dtypes.string:
        raise validation.dtype_mismatch(f'parse_example: `serialized` must be a string tensor, '
                                        f'got {s.dtype.name}')
    config, defaults = _config(features)
    outputs = list(parse_example_outputs(s, defaults, config, name))
    result = {}
    for key, how, _, detail in config:
        if how in ('dense', 'sequence'):
            result[key] = outputs.pop(0)
        elif how == 'sparse':
            result[key] = SparseTensor(*[outputs.pop(0) for _ in range(3)])
        elif s.shape.rank == 0:  # one example's ragged feature is a vector
            result[key] = outputs.pop(0)
        else:
            values = outputs.pop(0)
            result[key] = RaggedTensor.from_row_splits(values, outputs.pop(0), validate=False)
    return result


def parse_single_example(serialized, features, example_names=None, name=None):
    """A dict of the requested features of one serialized Example (a string scalar)."""
    s = string_input(serialized, 'parse_single_example', 'serialized')
    if s.shape.rank not in (0, None):
        raise ValueError(f'parse_single_example: `serialized` must be a scalar, got shape '
                         f'{s.shape}')
    return parse_example(s, features, name=name)
