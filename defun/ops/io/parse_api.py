"""tf.io.parse_example / parse_single_example's public functions: the feature specs become the
ParseExample op's configuration and defaults (parsing.py), one entry per Example key read; its
flat outputs become tensors, SparseTensors and RaggedTensors by key, which composite features
(SparseFeature, partitioned RaggedFeature) assemble (composite_features.py)."""
import numpy as np

from defun.core import dtypes
from defun.core.tensor import Tensor
from defun.ops.io.features import (FixedLenFeature, FixedLenSequenceFeature, RaggedFeature,
                                   SparseFeature, VarLenFeature)
from defun.ops.io.composite_features import merge_sparse, partitioned, partitioned_batch
from defun.ops.io.parsing import parse_example_outputs
from defun.ops.ragged.ragged_tensor import RaggedTensor
from defun.ops.sparse.sparse_tensor import SparseTensor
from defun.ops.strings.support import string_input
from defun.ops.support import validation
from defun.ops.support.helpers import to_tensor

__all__ = ['parse_example', 'parse_single_example', 'FeaturePlan', 'parsed_by_key', 'assembled']

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


class FeaturePlan:
    """What ParseExample must read for `features`: one entry per Example key (a composite
    feature's index, value and partition keys included), checked for conflicting types."""

    def __init__(self, features):
        self.config, self.defaults, self._kinds = [], [], {}
        for key in sorted(features):
            self._add_feature(key, features[key])

    def _add(self, key, how, dtype, detail, default=None):
        kind = (how, dtype.name, detail)
        known = self._kinds.setdefault(key, kind)
        if known is kind:
            self.config.append((key, how, dtype.name, detail))
            if default is not None:
                self.defaults.append(default)
        elif known[1] != kind[1]:
            raise ValueError(f"Conflicting type <dtype: '{known[1]}'> vs <dtype: '{kind[1]}'> "
                             f'for feature {key}.')
        elif how == 'ragged' and known[0] == how and known[2] != detail:
            raise ValueError(f"Conflicting partition type <dtype: '{known[2][0]}'> vs "
                             f"<dtype: '{detail[0]}'> for feature {key}.")
        elif known != kind:
            raise ValueError(f'Feature {key} is requested as both {known[0]} and {how}.')

    def _add_feature(self, key, feature):
        if isinstance(feature, SparseFeature):
            index_keys = [feature.index_key] if isinstance(feature.index_key, str) else \
                list(feature.index_key)
            for index_key in index_keys:
                self._add(index_key, 'sparse', dtypes.int64, None)
            self._add(feature.value_key, 'sparse', _dtype(feature, key), None)
            return
        dtype = _dtype(feature, key)
        if isinstance(feature, (FixedLenFeature, FixedLenSequenceFeature)):
            shape = tuple(int(d) for d in feature.shape)
            how = 'sequence' if isinstance(feature, FixedLenSequenceFeature) else 'dense'
            self._add(key, how, dtype, shape, _default(feature, key, dtype, shape))
        elif isinstance(feature, VarLenFeature):
            self._add(key, 'sparse', dtype, None)
        elif isinstance(feature, RaggedFeature):
            splits = dtypes.as_dtype(feature.row_splits_dtype).name
            value_key = feature.value_key or key
            self._add(value_key, 'ragged', dtype, (splits, value_key))
            for partition in feature.partitions:
                if not isinstance(partition, RaggedFeature.UniformRowLength):
                    self._add(partition.key, 'ragged', dtypes.int64, (splits, partition.key))
        else:
            raise ValueError(f'Unsupported feature spec for {key!r}: {feature!r}')


def parsed_by_key(plan, outputs, scalar):
    """{Example key: its tensor, SparseTensor or RaggedTensor} from ParseExample's outputs."""
    outputs, parsed = list(outputs), {}
    for key, how, _, _ in plan.config:
        if how in ('dense', 'sequence'):
            parsed[key] = outputs.pop(0)
        elif how == 'sparse':
            parsed[key] = SparseTensor(*[outputs.pop(0) for _ in range(3)])
        elif scalar:  # one example's ragged feature is a vector
            parsed[key] = outputs.pop(0)
        else:
            values = outputs.pop(0)
            parsed[key] = RaggedTensor.from_row_splits(values, outputs.pop(0), validate=False)
    return parsed


def assembled(features, parsed, scalar):
    result = {}
    for key in sorted(features):   # TF builds the result in sorted key order
        feature = features[key]
        if isinstance(feature, SparseFeature):
            index_keys = [feature.index_key] if isinstance(feature.index_key, str) else \
                list(feature.index_key)
            sizes = [feature.size] if isinstance(feature.index_key, str) else list(feature.size)
            result[key] = merge_sparse([parsed[k] for k in index_keys], parsed[feature.value_key],
                                       sizes, feature.already_sorted)
        elif isinstance(feature, RaggedFeature):
            values = parsed[feature.value_key or key]
            result[key] = (partitioned if scalar else partitioned_batch)(values, feature, parsed)
        else:
            result[key] = parsed[key]
    return result


def parse_example(serialized, features, example_names=None, name=None):
    """A dict of the requested features of a batch (a vector) of serialized Examples."""
    if not features:
        raise ValueError('Missing: features was empty.')
    s = serialized if isinstance(serialized, Tensor) else string_input(
        serialized, 'parse_example', 'serialized')
    if s.dtype is not dtypes.string:
        raise validation.dtype_mismatch(f'parse_example: `serialized` must be a string tensor, '
                                        f'got {s.dtype.name}')
    plan = FeaturePlan(features)
    outputs = parse_example_outputs(s, plan.defaults, tuple(plan.config), name)
    return assembled(features, parsed_by_key(plan, outputs, s.shape.rank == 0), s.shape.rank == 0)


def parse_single_example(serialized, features, example_names=None, name=None):
    """A dict of the requested features of one serialized Example (a string scalar)."""
    s = string_input(serialized, 'parse_single_example', 'serialized')
    if s.shape.rank not in (0, None):
        raise ValueError(f'parse_single_example: `serialized` must be a scalar, got shape '
                         f'{s.shape}')
    return parse_example(s, features, name=name)
