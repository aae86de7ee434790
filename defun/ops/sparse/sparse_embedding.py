"""tf.nn.embedding_lookup_sparse (and safe_embedding_lookup_sparse, the same over ids of any rank,
invalid ids dropped and empty rows filled): per row of a SparseTensor of ids, the combined (summed, mean or
root-n scaled) rows of an embedding table, weighted by a SparseTensor of weights.

As TF computes it: the row of each id is looked up (`embedding_lookup`, distinct ids once), scaled
by its weight, and summed per row of `sp_ids` with a segment sum, so the result has as many rows
as the last row that holds an id (TF's users fill empty rows first to keep every row); "mean" and
"sqrtn" divide by the weights' sum or root sum of squares (zero where it is zero). float16
tables are combined in float32. Without weights, the rows are reduced by the sparse segment
reductions.
"""
from defun.core import dtypes
from defun.core.shapes import TensorShape
from defun.core.tensor import convert_to_tensor
from defun.ops.array.repeat_unique import unique
from defun.ops.array.gathering import gather
from defun.ops.framework.base_ops import (cast, ones_like, reshape, shape as shape_of,
                                          zeros_like)
from defun.ops.array.joining import concat, size, stack
from defun.ops.array.creation import ones, rank
from defun.ops.math.exports import (divide_no_nan, greater, greater_equal, logical_and,
                                    reduce_prod, sqrt, square, where)
from defun.ops.math.segments import segment_sum
from defun.ops.nn.compositions import embedding_lookup
from defun.ops.sparse import sparse_reductions
from defun.ops.sparse.sparse_ops import fill_empty_rows, reshape_sparse, retain
from defun.ops.sparse.sparse_tensor import SparseTensor

__all__ = ['embedding_lookup_sparse', 'safe_embedding_lookup_sparse']

_UNWEIGHTED = {'sum': sparse_reductions.segment_sum, 'mean': sparse_reductions.segment_mean,
               'sqrtn': sparse_reductions.segment_sqrt_n}


def embedding_lookup_sparse(params, sp_ids, sp_weights, combiner=None, max_norm=None, name=None,
                            allow_fast_lookup=False):
    """The embeddings of each row of `sp_ids` combined by `combiner` ('mean' by default, 'sum' or
    'sqrtn'), each weighted by the value of `sp_weights` at its index (1 when it is None)."""
    combiner = 'mean' if combiner is None else combiner
    if combiner not in ('mean', 'sqrtn', 'sum'):
        raise ValueError(f"embedding_lookup_sparse: combiner must be one of 'mean', 'sqrtn' or "
                         f"'sum', got {combiner}")
    if not isinstance(sp_ids, SparseTensor):
        raise TypeError(f'embedding_lookup_sparse: sp_ids must be SparseTensor, got '
                        f'{type(sp_ids)}')
    if sp_weights is not None:
        if not isinstance(sp_weights, SparseTensor):
            raise TypeError(f'embedding_lookup_sparse: sp_weights must be either None or '
                            f'SparseTensor, got '
                            f'{type(sp_weights)}')
        sp_ids.values.shape.assert_is_compatible_with(sp_weights.values.shape)
        sp_ids.indices.shape.assert_is_compatible_with(sp_weights.indices.shape)
        sp_ids.dense_shape.shape.assert_is_compatible_with(sp_weights.dense_shape.shape)
    segment_ids = sp_ids.indices[:, 0]
    ids, idx = unique(sp_ids.values)
    embeddings = embedding_lookup(params, ids, max_norm=max_norm)
    if sp_weights is None:
        return _UNWEIGHTED[combiner](embeddings, idx, cast(segment_ids, dtypes.int32))
    return _weighted(gather(embeddings, idx), sp_weights.values, cast(segment_ids, dtypes.int32),
                     combiner)


def _weighted(embeddings, weights, segment_ids, combiner):
    original = embeddings.dtype
    if original.name in ('float16', 'bfloat16'):   # half-precision tables sum in float32
        embeddings = cast(embeddings, dtypes.float32)
    if weights.dtype != embeddings.dtype:
        weights = cast(weights, embeddings.dtype)
    # one weight per looked-up row, broadcast over the embedding's own dimensions
    trailing = ones(reshape(rank(embeddings) - 1, [1]), dtype=dtypes.int32)
    weights = reshape(weights, concat([shape_of(weights), trailing], 0))
    combined = segment_sum(embeddings * weights, segment_ids)
    if combiner == 'mean':
        combined = divide_no_nan(combined, segment_sum(weights, segment_ids))
    elif combiner == 'sqrtn':
        combined = divide_no_nan(combined, sqrt(segment_sum(square(weights), segment_ids)))
    return cast(combined, original) if combined.dtype != original else combined


def safe_embedding_lookup_sparse(embedding_weights, sparse_ids, sparse_weights=None,
                                 combiner='mean', default_id=None, max_norm=None, name=None,
                                 allow_fast_lookup=False):
    """embedding_lookup_sparse over the last dimension of `sparse_ids` of any rank, as TF's:
    negative ids (and, unless `combiner` is 'sum', non-positive weights) are dropped, and a row
    left empty gets the embedding of `default_id`, or zeros when it is None."""
    if embedding_weights is None or (isinstance(embedding_weights, list) and
                                     not embedding_weights):
        raise ValueError(f'Missing embedding_weights {embedding_weights}.')
    dtype = sparse_weights.dtype if sparse_weights is not None else None
    tables = embedding_weights if isinstance(embedding_weights, list) else [embedding_weights]
    tables = [convert_to_tensor(w, dtype=dtype) for w in tables]
    original_shape = sparse_ids.dense_shape
    rank = original_shape.shape[0] if original_shape.shape.rank else None
    rank_ = size(original_shape) if rank is None else rank
    ids = reshape_sparse(sparse_ids, stack([reduce_prod(original_shape[:rank_ - 1]),
                                            gather(original_shape, rank_ - 1)]))
    weights = None if sparse_weights is None else \
        SparseTensor(ids.indices, sparse_weights.values, ids.dense_shape)
    keep = greater_equal(ids.values, 0)
    if weights is not None and combiner != 'sum':
        keep = logical_and(keep, greater(weights.values, 0))
    ids = retain(ids, keep)
    weights = None if weights is None else retain(weights, keep)
    ids, is_row_empty = fill_empty_rows(ids, default_id or 0)
    if weights is not None:
        weights, _ = fill_empty_rows(weights, 1.0)
    result = embedding_lookup_sparse(tables if len(tables) > 1 else tables[0], ids, weights,
                                     combiner=combiner, max_norm=max_norm)
    if default_id is None:
        empty = reshape(is_row_empty, concat([[-1], ones_like(shape_of(result)[1:])], 0))
        result = where(empty, zeros_like(result), result)
    outer = cast(original_shape[:rank_ - 1], dtypes.int32)
    final = reshape(result, concat([outer, shape_of(result)[1:]], 0))
    if rank is not None:
        final.set_shape(TensorShape([None] * (rank - 1)).concatenate(result.shape[1:]))
    return final
