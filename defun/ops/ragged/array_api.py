"""TF's array APIs as the namespaces export them, where TF dispatches them on SparseTensor and
RaggedTensor arguments too: `tf.shape`, `tf.size` and `tf.rank` of a SparseTensor (from its
dense shape) or a RaggedTensor (its shape a DynamicRaggedShape, dynamic_shape.py); `tf.gather`
with ragged indices (or ragged params gathered by rows); `tf.nn.embedding_lookup` with ragged ids.

As in elementwise_api.py, each function calls the dense op as it is; only when that call refuses
its arguments and one is a composite does it take the composite's path, so dense calls cost one
extra Python call and nothing else.
"""
import functools

from defun.core import dtypes
from defun.core.tensor import convert_to_tensor
from defun.ops.array import creation, gathering, joining
from defun.ops.array.creation import range as range_
from defun.ops.framework import base_ops
from defun.ops.framework.base_ops import cast, reshape
from defun.ops.math.exports import reduce_prod
from defun.ops.nn import compositions
from defun.ops.ragged.dynamic_shape import DynamicRaggedShape
from defun.ops.ragged.indexing import gather_rows
from defun.ops.ragged.ragged_tensor import RaggedTensor, is_ragged
from defun.ops.sparse.sparse_tensor import is_sparse
from defun.ops.support import validation

__all__ = ['shape', 'size', 'rank', 'gather', 'embedding_lookup']


def _dense_first(fn, composite_path):
    """`fn`, and `composite_path(*args, **kwargs)` when fn refuses a composite first argument."""
    @functools.wraps(fn)
    def api(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except (TypeError, ValueError):
            result = composite_path(*args, **kwargs)
            if result is NotImplemented:
                raise
            return result
    return api


# ---------------------------------------------------------------- shape, size, rank

def _composite_shape(input, out_type=dtypes.int32, name=None):  # noqa: A002 - TF's name
    if is_sparse(input):
        return cast(input.dense_shape, out_type)
    if is_ragged(input):
        return DynamicRaggedShape.from_ragged(input, out_type)
    return NotImplemented


def _composite_size(input, out_type=dtypes.int32, name=None):  # noqa: A002
    if is_sparse(input):
        return reduce_prod(cast(input.dense_shape, out_type))
    if is_ragged(input):
        return joining.size(input.flat_values, out_type=out_type)
    return NotImplemented


def _composite_rank(input, name=None):  # noqa: A002
    if is_sparse(input):
        return joining.size(input.dense_shape)
    if is_ragged(input):
        return creation.rank(input.flat_values) + input.ragged_rank
    return NotImplemented


shape = _dense_first(base_ops.shape, _composite_shape)
size = _dense_first(joining.size, _composite_size)
rank = _dense_first(creation.rank, _composite_rank)


# ---------------------------------------------------------------- gather, embedding_lookup

def _ragged_gather(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None):
    if not (is_ragged(params) or is_ragged(indices)):
        return NotImplemented
    if batch_dims != 0:
        raise ValueError('tf.gather with ragged arguments: batch_dims other than 0 is not part '
                         'of defun')
    if is_ragged(indices):
        if is_ragged(params):
            raise ValueError('tf.gather of ragged params by ragged indices is not part of defun')
        return _gather_by_ragged(params, indices, 0 if axis is None else axis)
    axis = 0 if axis is None else axis
    if axis != 0 or (indices.shape.rank if hasattr(indices, 'shape') else 1) != 1:
        raise ValueError('tf.gather of ragged params: defun gathers rows (axis 0) by a vector of '
                         'indices')
    return gather_rows(params, gathering.gather(range_(params.nrows()), indices))


def _gather_by_ragged(params, indices, axis):
    """Dense params gathered at ragged indices along `axis`: the result has params' dimensions
    before `axis` (uniform), then the indices' ragged ones, then params' after `axis`, laid out
    as TF's: the indices' row partition repeated once per leading position."""
    params = convert_to_tensor(params)
    rank_ = params.shape.rank
    if rank_ is None:
        raise ValueError('tf.gather with ragged indices needs params of known rank')
    axis = validation.axis(axis, rank_, 'gather')
    values = gathering.gather(params, indices.flat_values, axis=axis)
    if axis == 0:
        return indices.with_flat_values(values)
    lead = base_ops.shape(params, out_type=indices.row_splits.dtype)[:axis]
    copies = reduce_prod(lead)
    flat = reshape(values, joining.concat([[-1], base_ops.shape(values)[axis + 1:]], 0))
    splits = [_repeated_splits(s, copies) for s in indices.nested_row_splits]
    result = RaggedTensor.from_nested_row_splits(flat, splits, validate=False)
    result = RaggedTensor.from_uniform_row_length(result, indices.nrows(), validate=False)
    for k in range(axis - 1, 0, -1):
        result = RaggedTensor.from_uniform_row_length(result, lead[k], validate=False)
    return result


def _repeated_splits(splits, copies):
    """Row splits of `copies` partitions, each `splits`, one after the other."""
    total = splits[-1]
    starts = reshape(range_(copies, dtype=splits.dtype) * total, [-1, 1])
    body = reshape(starts + reshape(splits[:-1], [1, -1]), [-1])
    return joining.concat([body, reshape(copies * total, [1])], 0)


def _ragged_embedding_lookup(params, ids, max_norm=None, name=None):
    if not is_ragged(ids):
        return NotImplemented
    if ids.dtype not in (dtypes.int32, dtypes.int64):
        raise ValueError(f'The values contained by the inputs have type {ids.dtype!s} and cannot '
                         'be processed. All values should be indices, either of type `int32` or '
                         '`int64`.')
    return ids.with_flat_values(compositions.embedding_lookup(params, ids.flat_values,
                                                              max_norm=max_norm))


gather = _dense_first(gathering.gather, _ragged_gather)
embedding_lookup = _dense_first(compositions.embedding_lookup, _ragged_embedding_lookup)
