"""tf.io.parse_example and parse_single_example: serialized tf.train.Examples into tensors, by
one op, `ParseExample`, whose kernel reads every example once off the wire (features.py).

The op's `config` lists the requested features in order, each as (key, how, dtype, detail),
detail being the shape, or for 'ragged' (row-splits dtype, feature read); how is 'dense' (FixedLenFeature:
one output, [batch] + shape), 'sequence' (FixedLenSequenceFeature: one output padded to the
longest example), 'sparse' (VarLenFeature: indices, values, dense_shape) or 'ragged'
(RaggedFeature: values, row_splits). Dense and sequence features take a default tensor input
each (empty: the feature is required). A scalar `serialized` drops the batch dimension, as TF's
parse_single_example. Not differentiable.
"""
import numpy as np

from defun.core import dtypes, errors
from defun.core.dispatch import apply_op
from defun.core.registry import define_op
from defun.ops.io import proto_wire
from defun.ops.io.features import KIND_OF_DTYPE, dense_array, example_features
from defun.ops.strings.support import as_array
from defun.ops.support.helpers import dims

__all__ = ['parse_example_outputs', 'feature_outputs', 'feature_output_specs', 'decode_all',
           'batch_lead', 'TYPE_TEXT']

TYPE_TEXT = {'int64_list': 'int64', 'float_list': 'float', 'bytes_list': 'string'}


def decode_all(batch, reader=example_features):
    """`reader` of each serialized proto of `batch`, TF's error for one that does not parse."""
    parsed = []
    for i, serialized in enumerate(batch):
        try:
            parsed.append(reader(serialized))
        except (proto_wire.DecodeError, UnicodeDecodeError):
            raise errors.InvalidArgumentError(
                f'Could not parse example input, value: {serialized[:40]!r} (index {i})') from None
    return parsed


def _values_of(example, key, dtype, index, required_shape=None):
    """The values of feature `key` in one example, or None if it is absent."""
    found = example.get(key)
    if found is None:
        return None
    kind, values = found
    want = KIND_OF_DTYPE[dtype]
    if kind is not None and kind != want and values:
        raise errors.InvalidArgumentError(
            f"Name: <unknown>, Key: {key}, Index: {index}.  Data types don't match. Data type: "
            f'{TYPE_TEXT[kind]} but expected type: {TYPE_TEXT[want]}')
    return values


def _dense(parsed, key, dtype, shape, default):
    size = int(np.prod(shape))
    out = np.empty((len(parsed),) + tuple(shape), dtype=dense_array([], dtype).dtype)
    for i, example in enumerate(parsed):
        values = _values_of(example, key, dtype, i)
        if values is None:
            if default.size == 0:
                raise errors.InvalidArgumentError(
                    f'Name: <unknown>, Feature: {key} (data type: {dtype}) is required but could '
                    f'not be found.')
            out[i] = np.broadcast_to(default, shape)
            continue
        if len(values) != size:
            raise errors.InvalidArgumentError(
                f'Name: <unknown>, Key: {key}, Index: {i}.  Number of {TYPE_TEXT[KIND_OF_DTYPE[dtype]]}'
                f' values != expected.  Values size: {len(values)} but output shape: {list(shape)}')
        out[i] = dense_array(values, dtype).reshape(shape)
    return [out]


def _sequence(parsed, key, dtype, shape, default):
    item = int(np.prod(shape))
    rows = []
    for i, example in enumerate(parsed):
        values = _values_of(example, key, dtype, i)
        values = [] if values is None else values
        if item and len(values) % item:
            raise errors.InvalidArgumentError(
                f'Name: <unknown>, Key: {key}, Index: {i}.  Number of values: {len(values)} is '
                f'not a multiple of the feature shape {list(shape)}')
        rows.append(dense_array(values, dtype).reshape((-1,) + tuple(shape) if item else
                                                       (0,) + tuple(shape)))
    longest = max((len(r) for r in rows), default=0)
    fill = default.reshape(-1)[0] if default.size else (b'' if dtype == 'string' else 0)
    out = np.full((len(parsed), longest) + tuple(shape), fill, dtype=dense_array([], dtype).dtype)
    for i, row in enumerate(rows):
        out[i, :len(row)] = row
    return [out]


def _sparse(parsed, key, dtype):
    indices, values, longest = [], [], 0
    for i, example in enumerate(parsed):
        row = _values_of(example, key, dtype, i) or []
        indices.extend((i, j) for j in range(len(row)))
        values.extend(row)
        longest = max(longest, len(row))
    return [np.array(indices, np.int64).reshape(-1, 2), dense_array(values, dtype),
            np.array([len(parsed), longest], np.int64)]


def _ragged(parsed, key, dtype, split_dtype):
    values, splits = [], [0]
    for i, example in enumerate(parsed):
        values.extend(_values_of(example, key, dtype, i) or [])
        splits.append(len(values))
    return [dense_array(values, dtype), np.array(splits, dtype=split_dtype)]


def feature_outputs(parsed, config, defaults, scalar):
    """The flat outputs of `config`'s features (see the docstring) over `parsed` examples
    ({key: (kind, values)} each); `scalar` drops the batch dimension."""
    outputs, pending = [], iter(defaults)
    for key, how, dtype, shape in config:  # `shape`: the detail (see the docstring)
        if how == 'dense':
            out = _dense(parsed, key, dtype, shape, next(pending))
        elif how == 'sequence':
            out = _sequence(parsed, key, dtype, shape, next(pending))
        elif how == 'sparse':
            out = _sparse(parsed, key, dtype)
            if scalar:  # one example: no batch column in the indices or the shape
                out = [out[0][:, 1:], out[1], out[2][1:]]
        else:
            out = _ragged(parsed, shape[1], dtype, shape[0])
            if scalar:
                out = out[:1]
        outputs.extend(out[0][0] if scalar and how in ('dense', 'sequence') else o for o in out)
    return outputs


def _parse_kernel(serialized, *defaults, config):
    serialized, defaults = as_array(serialized), [as_array(d) for d in defaults]
    parsed = decode_all(serialized.reshape(-1))
    return tuple(feature_outputs(parsed, config, defaults, serialized.ndim == 0))


def feature_output_specs(lead, config):
    """(dtype, shape) of each flat output of `config` for a batch of shape `lead` (() for
    one example)."""
    out = []
    for key, how, dtype, shape in config:
        value_dtype = dtypes.as_dtype(dtype)
        if how == 'dense':
            out.append((value_dtype, lead + tuple(shape)))
        elif how == 'sequence':
            out.append((value_dtype, lead + (None,) + tuple(shape)))
        elif how == 'sparse':
            out += [(dtypes.int64, (None, len(lead) + 1)), (value_dtype, (None,)),
                    (dtypes.int64, (len(lead) + 1,))]
        else:
            out.append((value_dtype, (None,)))
            if lead:
                n = lead[0]
                out.append((dtypes.as_dtype(shape[0]), (None if n is None else n + 1,)))
    return out


def batch_lead(serialized):
    """The batch part of the outputs' shapes: () for one example, (n,) for a vector."""
    batch = dims(serialized)
    return () if batch == () else (None,) if batch is None else batch[:1]


def _parse_infer(serialized, *defaults, config):
    return feature_output_specs(batch_lead(serialized), config)


PARSE_EXAMPLE = define_op('ParseExample', _parse_kernel, _parse_infer, None, num_outputs=None,
                          inputs=())  # defun's inputs are laid out otherwise


def parse_example_outputs(serialized, defaults, config, name=None):
    """Runs ParseExample; returns its flat outputs, in `config` order (see the docstring)."""
    return apply_op(PARSE_EXAMPLE, (serialized,) + tuple(defaults), {'config': config}, name)
