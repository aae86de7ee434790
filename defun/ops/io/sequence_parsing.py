"""tf.io.parse_sequence_example and parse_single_sequence_example: serialized
tf.train.SequenceExamples into their context features (parsed as an Example's features) and
their feature lists, by one op, `ParseSequenceExampleV2`, reading each proto once off the wire.

A feature list is a sequence of steps, each a Feature. `list_config` lists the requested ones as
(key, how, dtype, detail): 'sequence' (FixedLenSequenceFeature: values [batch, steps] + shape,
zero-padded to the longest example, and the steps of each example; detail (shape,
allow_missing)), 'sparse' (VarLenFeature: indices [example, step, i], values, dense shape) or
'ragged' (RaggedFeature: values, steps' splits, examples' splits; detail (row-splits dtype,
feature list read)).
A scalar `serialized` drops the batch dimension. Not differentiable."""
import numpy as np

from defun.core import dtypes, errors
from defun.core.dispatch import apply_op
from defun.core.registry import define_op
from defun.core.tensor import Tensor
from defun.core.unsupported import NotInDefunError
from defun.ops.io.features import (FixedLenSequenceFeature, KIND_OF_DTYPE, RaggedFeature,
                                   VarLenFeature, dense_array, sequence_example_features)
from defun.ops.io.parse_api import FeaturePlan, assembled, parsed_by_key
from defun.ops.io.parsing import (TYPE_TEXT, batch_lead, decode_all, feature_output_specs,
                                  feature_outputs)
from defun.ops.ragged.ragged_tensor import RaggedTensor
from defun.ops.sparse.sparse_tensor import SparseTensor
from defun.ops.strings.support import as_array, string_input

__all__ = ['parse_sequence_example', 'parse_single_sequence_example']


def _steps(lists, key, dtype, index, allow_missing=True):
    """Each step's values of feature list `key` in one example ([] when it is absent)."""
    steps = lists.get(key)
    if steps is None:
        if not allow_missing:
            raise errors.InvalidArgumentError(
                f"Name: <unknown>, Feature list '{key}' is required but could not be found.  "
                f'Did you mean to include it in feature_list_dense_missing_assumed_empty or '
                f'feature_list_dense_defaults?')
        return []
    want = KIND_OF_DTYPE[dtype]
    for kind, values in steps:
        if kind is not None and kind != want:
            raise errors.InvalidArgumentError(
                f"Name: <unknown>, Feature list: {key}, Index: {index}.  Data types don't match. "
                f'Expected type: {TYPE_TEXT[want]}')
    return [values for _, values in steps]


def _dense_list(lists, key, dtype, shape, allow_missing):
    size, rows = int(np.prod(shape)), []
    for i, example in enumerate(lists):
        steps = _steps(example, key, dtype, i, allow_missing)
        for values in steps:
            if len(values) != size:
                raise errors.InvalidArgumentError(
                    f'Name: <unknown>, Key: {key}, Index: {i}.  Number of values != expected.  '
                    f'values size: {len(values)} but output shape: {list(shape)}')
        rows.append(steps)
    longest = max((len(r) for r in rows), default=0)
    out = np.zeros((len(rows), longest) + tuple(shape), dtype=dense_array([], dtype).dtype)
    if dtype == 'string':
        out[...] = b''
    for i, steps in enumerate(rows):
        for t, values in enumerate(steps):
            out[i, t] = dense_array(values, dtype).reshape(shape)
    return [out, np.array([len(r) for r in rows], np.int64)]


def _sparse_list(lists, key, dtype):
    indices, values, longest_steps, longest = [], [], 0, 0
    for i, example in enumerate(lists):
        steps = _steps(example, key, dtype, i)
        longest_steps = max(longest_steps, len(steps))
        for t, step in enumerate(steps):
            indices.extend((i, t, j) for j in range(len(step)))
            values.extend(step)
            longest = max(longest, len(step))
    return [np.array(indices, np.int64).reshape(-1, 3), dense_array(values, dtype),
            np.array([len(lists), longest_steps, longest], np.int64)]


def _ragged_list(lists, key, dtype, split_dtype):
    values, inner, outer = [], [0], [0]
    for i, example in enumerate(lists):
        for step in _steps(example, key, dtype, i):
            values.extend(step)
            inner.append(len(values))
        outer.append(len(inner) - 1)
    return [dense_array(values, dtype), np.array(inner, split_dtype),
            np.array(outer, split_dtype)]


def _list_outputs(lists, config, scalar):
    outputs = []
    for key, how, dtype, detail in config:
        if how == 'sequence':
            dense, lengths = _dense_list(lists, key, dtype, *detail)
            outputs += [dense[0], lengths[0]] if scalar else [dense, lengths]
        elif how == 'sparse':
            out = _sparse_list(lists, key, dtype)
            outputs += [out[0][:, 1:], out[1], out[2][1:]] if scalar else out
        else:
            out = _ragged_list(lists, detail[1], dtype, detail[0])
            outputs += out[:2] if scalar else out
    return outputs


def _kernel(serialized, *defaults, context_config, list_config):
    serialized, defaults = as_array(serialized), [as_array(d) for d in defaults]
    scalar = serialized.ndim == 0
    parsed = decode_all(serialized.reshape(-1), sequence_example_features)
    contexts, lists = [c for c, _ in parsed], [fl for _, fl in parsed]
    return tuple(feature_outputs(contexts, context_config, defaults, scalar) +
                 _list_outputs(lists, list_config, scalar))


def _list_specs(lead, config):
    out = []
    for key, how, dtype, detail in config:
        value_dtype = dtypes.as_dtype(dtype)
        if how == 'sequence':
            out += [(value_dtype, lead + (None,) + tuple(detail[0])), (dtypes.int64, lead)]
        elif how == 'sparse':
            out += [(dtypes.int64, (None, len(lead) + 2)), (value_dtype, (None,)),
                    (dtypes.int64, (len(lead) + 2,))]
        else:
            splits = dtypes.as_dtype(detail[0])
            out += [(value_dtype, (None,)), (splits, (None,))] + \
                ([(splits, (None if lead[0] is None else lead[0] + 1,))] if lead else [])
    return out


def _infer(serialized, *defaults, context_config, list_config):
    lead = batch_lead(serialized)
    return feature_output_specs(lead, context_config) + _list_specs(lead, list_config)


PARSE_SEQUENCE_EXAMPLE = define_op('ParseSequenceExampleV2', _kernel, _infer, None,
                                   num_outputs=None, inputs=())  # defun's inputs are laid out otherwise


def _list_config(features):
    config = []
    for key in sorted(features):
        feature = features[key]
        if isinstance(feature, FixedLenSequenceFeature):
            if feature.default_value is not None:
                raise ValueError(f'Value feature_list.dense_defaults[{key}] must be None')
            config.append((key, 'sequence', dtypes.as_dtype(feature.dtype).name, (
                tuple(int(d) for d in feature.shape), bool(feature.allow_missing))))
        elif isinstance(feature, VarLenFeature):
            config.append((key, 'sparse', dtypes.as_dtype(feature.dtype).name, None))
        elif isinstance(feature, RaggedFeature):
            if feature.partitions:
                raise NotInDefunError('tf.io.RaggedFeature with partitions in sequence_features '
                                      'is not part of defun')
            config.append((key, 'ragged', dtypes.as_dtype(feature.dtype).name, (
                dtypes.as_dtype(feature.row_splits_dtype).name, feature.value_key or key)))
        else:
            raise ValueError(f'Unsupported sequence feature spec for {key!r}: {feature!r}')
    return tuple(config)


def _feature_lists(config, outputs, scalar):
    features, lengths = {}, {}
    for key, how, _, _ in config:
        if how == 'sequence':
            features[key], lengths[key] = outputs.pop(0), outputs.pop(0)
        elif how == 'sparse':
            features[key] = SparseTensor(*[outputs.pop(0) for _ in range(3)])
        else:
            values, steps = outputs.pop(0), outputs.pop(0)
            rt = RaggedTensor.from_row_splits(values, steps, validate=False)
            features[key] = rt if scalar else \
                RaggedTensor.from_row_splits(rt, outputs.pop(0), validate=False)
    return features, lengths


def parse_sequence_example(serialized, context_features=None, sequence_features=None,
                           example_names=None, name=None):
    """(context, feature_lists, lengths) of a batch (a vector) of serialized SequenceExamples:
    dicts by key; lengths holds each FixedLenSequenceFeature's number of steps."""
    if not (context_features or sequence_features):
        raise ValueError('Both `context_features` and `sequence_features` argument are None, '
                         'but at least one should have values.')
    s = serialized if isinstance(serialized, Tensor) else string_input(
        serialized, 'parse_sequence_example', 'serialized')
    scalar = s.shape.rank == 0
    plan = FeaturePlan(context_features or {})
    list_config = _list_config(sequence_features or {})
    outputs = list(apply_op(PARSE_SEQUENCE_EXAMPLE, (s,) + tuple(plan.defaults), {
        'context_config': tuple(plan.config), 'list_config': list_config}, name))
    count = len(feature_output_specs(batch_lead(s), plan.config))
    context = assembled(context_features or {}, parsed_by_key(plan, outputs[:count], scalar),
                        scalar)
    features, lengths = _feature_lists(list_config, outputs[count:], scalar)
    return context, features, lengths


def parse_single_sequence_example(serialized, context_features=None, sequence_features=None,
                                  example_name=None, name=None):
    """(context, feature_lists) of one serialized SequenceExample (a string scalar)."""
    s = string_input(serialized, 'parse_single_sequence_example', 'serialized')
    if s.shape.rank not in (0, None):
        raise ValueError(f'parse_single_sequence_example: `serialized` must be a scalar, got '
                         f'shape {s.shape}')
    context, features, _ = parse_sequence_example(s, context_features, sequence_features,
                                                  name=name)
    return context, features
