"""tf.sparse's ops on SparseTensors. Each is built from dense ops: the index bookkeeping on the
int64 indices (row-major positions, sorts, masks), the values moved by gathers, segment sums and
masks, so gradients reach the values (and dense operands) by those ops' own rules, as TF's sparse
kernels' gradients do.
"""
from defun.core import dtypes
from defun.core.tensor import convert_to_tensor
from defun.ops.array.boolean_mask import boolean_mask
from defun.ops.array.creation import range as range_, zeros
from defun.ops.array.gathering import gather, tensor_scatter_nd_add
from defun.ops.array.joining import concat, stack
from defun.ops.array.repeat_unique import unique
from defun.ops.array.sorting import argsort
from defun.ops.framework.base_ops import cast, fill, reshape, shape as shape_of
from defun.ops.math.exports import (abs as abs_, equal, greater_equal, less, logical_and,
                                    maximum, minimum, reduce_all, reduce_prod, reduce_sum,
                                    cumprod, floordiv, floormod)
from defun.ops.math.segments import unsorted_segment_sum
from defun.ops.sparse.sparse_tensor import SparseTensor, sparse_input
from defun.ops.array.transform import transpose
from defun.ops.math.arithmetic import conj
from defun.ops.support import validation
from defun.ops.support.helpers import static_value

__all__ = ['add', 'sparse_dense_matmul', 'reorder', 'reshape_sparse', 'slice_sparse',
           'concat_sparse', 'retain', 'fill_empty_rows', 'linear_positions', 'from_positions']


# ---------------------------------------------------------------- row-major positions

def _strides(dense_shape):
    """Row-major strides of a shape vector (int64)."""
    ones = convert_to_tensor([1], dtype=dtypes.int64)
    return cumprod(concat([dense_shape[1:], ones], 0), reverse=True)


def linear_positions(indices, dense_shape):
    """The row-major position of each index in a tensor of `dense_shape`."""
    return _linear(indices, dense_shape)


def from_positions(positions, dense_shape):
    """The indices of row-major positions."""
    return _unlinear(positions, dense_shape)


def _linear(indices, dense_shape):
    return reduce_sum(indices * _strides(dense_shape), axis=1)


def _unlinear(positions, dense_shape):
    return floormod(floordiv(reshape(positions, [-1, 1]), _strides(dense_shape)), dense_shape)


def _rebuild(sp, indices, values, dense_shape, static_shape=None):
    out = SparseTensor(indices, values, dense_shape)
    if static_shape is not None:
        out.set_shape(static_shape)
    return out


def reorder(sp_input, name=None):
    """The same SparseTensor with its entries in row-major order."""
    sp = sparse_input(sp_input, 'tf.sparse.reorder')
    order = argsort(_linear(sp.indices, sp.dense_shape), stable=True)
    return _rebuild(sp, gather(sp.indices, order), gather(sp.values, order), sp.dense_shape,
                    sp.shape)


def reshape_sparse(sp_input, shape, name=None):
    """tf.sparse.reshape: the entries at their row-major positions in a tensor of `shape` (one
    dimension may be -1)."""
    sp = sparse_input(sp_input, 'tf.sparse.reshape')
    new_shape = cast(convert_to_tensor(shape, dtype_hint=dtypes.int64), dtypes.int64)
    total = reduce_prod(sp.dense_shape)
    known = reduce_prod(maximum(new_shape, 1) * cast(greater_equal(new_shape, 0), dtypes.int64) +
                        cast(less(new_shape, 0), dtypes.int64))
    new_shape = maximum(new_shape, 0) + cast(less(new_shape, 0), dtypes.int64) * floordiv(total,
                                                                                        known)
    check = static_value(reduce_prod(new_shape)), static_value(total)
    if None not in check and int(check[0]) != int(check[1]):
        raise _invalid(f'Input to reshape is a SparseTensor with {int(check[1])} dense values, '
                       f'but the requested shape has {int(check[0])}')
    indices = _unlinear(_linear(sp.indices, sp.dense_shape), new_shape)
    return SparseTensor(indices, sp.values, new_shape)


def _invalid(message):
    return validation.invalid_argument(message)


def slice_sparse(sp_input, start, size, name=None):
    """tf.sparse.slice: the entries in the box [start, start + size), shifted to start at 0."""
    sp = sparse_input(sp_input, 'tf.sparse.slice')
    start = cast(convert_to_tensor(start, dtype_hint=dtypes.int64), dtypes.int64)
    size = cast(convert_to_tensor(size, dtype_hint=dtypes.int64), dtypes.int64)
    end = minimum(start + size, sp.dense_shape)
    inside = reduce_all(logical_and(greater_equal(sp.indices, start), less(sp.indices, end)),
                        axis=1)
    indices = boolean_mask(sp.indices, inside) - start
    return SparseTensor(indices, boolean_mask(sp.values, inside), maximum(end - start, 0))


def concat_sparse(axis, sp_inputs, name=None, expand_nonconcat_dims=False):
    """tf.sparse.concat: the inputs side by side along `axis` (the others' shapes must agree,
    or with expand_nonconcat_dims grow to the largest)."""
    sps = [sparse_input(s, 'tf.sparse.concat') for s in sp_inputs]
    rank = sps[0].shape.rank
    axis = axis + rank if axis < 0 else axis
    sizes = [s.dense_shape[axis] for s in sps]
    offsets = [convert_to_tensor(0, dtype=dtypes.int64)]
    for n in sizes[:-1]:
        offsets.append(offsets[-1] + n)
    one_hot = cast(equal(range_(rank), axis), dtypes.int64)
    indices = concat([s.indices + offset * one_hot for s, offset in zip(sps, offsets)], 0)
    values = concat([s.values for s in sps], 0)
    shape = sps[0].dense_shape
    for s in sps[1:]:
        shape = maximum(shape, s.dense_shape) if expand_nonconcat_dims else shape
    shape = shape * (1 - one_hot) + reduce_sum(stack(sizes)) * one_hot
    return reorder(SparseTensor(indices, values, shape))


def retain(sp_input, to_retain):
    """The entries where the boolean vector `to_retain` is True."""
    sp = sparse_input(sp_input, 'tf.sparse.retain')
    keep = convert_to_tensor(to_retain, dtype=dtypes.bool)
    return _rebuild(sp, boolean_mask(sp.indices, keep), boolean_mask(sp.values, keep),
                    sp.dense_shape, sp.shape)


def fill_empty_rows(sp_input, default_value, name=None):
    """(the SparseTensor with `default_value` at [row, 0, ...] of every empty row, the boolean
    vector of which rows were empty), rows in order as TF's."""
    sp = sparse_input(sp_input, 'tf.sparse.fill_empty_rows')
    nrows = sp.dense_shape[0]
    counts = unsorted_segment_sum(fill(shape_of(sp.values), 1), sp.indices[:, 0], nrows)
    empty = equal(counts, 0)
    empty_rows = boolean_mask(range_(nrows, dtype=dtypes.int64), empty)
    rank = shape_of(sp.dense_shape)[0]
    filler = concat([reshape(empty_rows, [-1, 1]),
                     zeros(stack([shape_of(empty_rows)[0], rank - 1]), dtypes.int64)], 1)
    indices = concat([sp.indices, filler], 0)
    values = concat([sp.values, fill(shape_of(empty_rows),
                                     convert_to_tensor(default_value, dtype=sp.dtype))], 0)
    order = argsort(indices[:, 0], stable=True)
    out = _rebuild(sp, gather(indices, order), gather(values, order), sp.dense_shape, sp.shape)
    return out, empty


# ---------------------------------------------------------------- arithmetic

def add(a, b, threshold=0):
    """a + b: a SparseTensor when both are (entries at the same index summed; sums smaller than
    `threshold` in magnitude dropped), else a dense tensor."""
    if isinstance(a, SparseTensor) and isinstance(b, SparseTensor):
        return _sparse_add(a, b, threshold)
    if isinstance(b, SparseTensor):
        a, b = b, a
    if not isinstance(a, SparseTensor):
        raise TypeError('tf.sparse.add: at least one of `a` and `b` must be a SparseTensor')
    dense = convert_to_tensor(b, dtype=a.dtype)
    return tensor_scatter_nd_add(dense, a.indices, a.values)


def _sparse_add(a, b, threshold):
    shape = a.dense_shape
    positions = concat([_linear(a.indices, shape), _linear(b.indices, shape)], 0)
    unique_positions, slot = unique(positions, out_idx=dtypes.int64)
    n = shape_of(unique_positions, out_type=dtypes.int64)[0]
    sums = unsorted_segment_sum(concat([a.values, b.values], 0), slot, n)
    order = argsort(unique_positions)
    positions, sums = gather(unique_positions, order), gather(sums, order)
    if not (isinstance(threshold, (int, float)) and threshold == 0):
        keep = greater_equal(abs_(sums), convert_to_tensor(threshold, dtype=sums.dtype))
        positions, sums = boolean_mask(positions, keep), boolean_mask(sums, keep)
    return _rebuild(a, _unlinear(positions, shape), sums, shape, a.shape)


def sparse_dense_matmul(sp_a, b, adjoint_a=False, adjoint_b=False, name=None):
    """The dense product of a 2-D SparseTensor and a dense matrix (either adjoint), or of a dense
    matrix and a SparseTensor `b`, computed as TF does, as the transpose of b's product."""
    if isinstance(b, SparseTensor) and not isinstance(sp_a, SparseTensor):
        if adjoint_a != adjoint_b:
            return transpose(sparse_dense_matmul(b, sp_a, adjoint_a, adjoint_b))
        return transpose(sparse_dense_matmul(b, sp_a, not adjoint_a, not adjoint_b))
    sp = sparse_input(sp_a, 'tf.sparse.sparse_dense_matmul')
    b = convert_to_tensor(b, dtype=sp.dtype)
    if adjoint_b:
        b = _adjoint(b)
    rows, cols = sp.indices[:, 0], sp.indices[:, 1]
    nrows = sp.dense_shape[0]
    values = sp.values
    if adjoint_a:
        rows, cols, nrows = cols, rows, sp.dense_shape[1]
        values = _conj(values)
    products = reshape(values, [-1, 1]) * gather(b, cols)
    return unsorted_segment_sum(products, rows, nrows)


def _adjoint(m):
    return conj(transpose(m))


def _conj(t):
    return conj(t)
