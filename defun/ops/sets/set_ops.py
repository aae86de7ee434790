"""tf.sets: set operations along the last dimension of two tensors, dense or sparse.

All but the last dimension of an input name a group (a batch entry); the values of a group along
the last dimension are a set (order and repeats do not matter; a SparseTensor's set is its values
at the indices of that group). The result is a SparseTensor whose group `g` holds the result set
sorted ascending at positions `g + [0, 1, ...]`, with the largest result set's size as its last
dimension, as TF's DenseToDense-, DenseToSparse- and SparseToSparseSetOperation kernels write it.
`size` counts each group's distinct values (TF's SetSize). None of them is differentiable.
"""
import numpy as np

from defun.core import dtypes
from defun.core.dispatch import apply_op
from defun.core.registry import define_op
from defun.core.tensor import convert_to_tensor
from defun.ops.sparse.sparse_tensor import SparseTensor, check_indices
from defun.ops.support import validation

__all__ = ['difference', 'intersection', 'size', 'union']

_VALID_DTYPES = (dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64, dtypes.uint8,
                 dtypes.uint16, dtypes.string)


# ---------------------------------------------------------------- kernels (numpy)

def _group_shape(shape):
    if len(shape) < 2:
        raise validation.invalid_argument(
            f'Shape [{",".join(str(d) for d in shape)}] has rank {len(shape)} < 2')
    return tuple(shape[:-1])


def _sparse_shape(shape_array):
    shape = tuple(int(d) for d in np.asarray(shape_array).reshape(-1))
    if len(shape) < 2:
        raise validation.invalid_argument(f'Invalid rank {len(shape)}.')
    return shape


def _dense_groups(array):
    """group index tuple -> set of the values along the last dimension, for every group."""
    array = np.asarray(array)
    return {group: set(array[group].tolist()) for group in np.ndindex(*array.shape[:-1])}


def _sparse_groups(indices, values, shape, validate):
    """group index tuple -> set of values, for the groups that hold any value."""
    indices = np.asarray(indices).reshape(-1, len(shape))
    if validate:
        check_indices(indices, shape, ordered=True)
    groups = {}
    for index, value in zip(indices[:, :-1].tolist(), np.asarray(values).tolist()):
        groups.setdefault(tuple(index), set()).add(value)
    return groups


def _apply(operation, set1, set2):
    if operation == 'a-b':
        return set1 - set2
    if operation == 'b-a':
        return set2 - set1
    if operation == 'intersection':
        return set1 & set2
    return set1 | set2


def _result(groups1, groups2, group_shape, operation, dtype):
    """The result SparseTensor's (indices, values, shape) arrays, groups in row-major order."""
    indices, values, width = [], [], 0
    for group in sorted(set(groups1) | set(groups2)):
        result = sorted(_apply(operation, groups1.get(group, set()), groups2.get(group, set())))
        width = max(width, len(result))
        indices.extend(group + (position,) for position in range(len(result)))
        values.extend(result)
    rank = len(group_shape) + 1
    out_values = np.array(values, dtype=object if dtype is dtypes.string else dtype.np_dtype)
    return (np.array(indices, np.int64).reshape(-1, rank), out_values.reshape(-1),
            np.array(group_shape + (width,), np.int64))


def _matching_groups(shape1, shape2):
    group1, group2 = _group_shape(shape1), _group_shape(shape2)
    if group1 != group2:
        raise validation.invalid_argument(f'Mismatched shapes [{",".join(map(str, group1))}] vs '
                                          f'[{",".join(map(str, group2))}]')
    return group1


def _operation(set_operation):
    operation = set_operation.lower()
    if operation not in ('a-b', 'b-a', 'intersection', 'union'):
        raise validation.invalid_argument(f'Invalid set_operation {set_operation}.')
    return operation


def _dense_dense_kernel(set1, set2, set_operation, validate_indices):
    set1, set2 = np.asarray(set1), np.asarray(set2)
    group_shape = _matching_groups(set1.shape, set2.shape)
    return _result(_dense_groups(set1), _dense_groups(set2), group_shape,
                   _operation(set_operation), dtypes.as_dtype(set1.dtype))


def _dense_sparse_kernel(set1, indices2, values2, shape2, set_operation, validate_indices):
    set1 = np.asarray(set1)
    shape2 = _sparse_shape(shape2)
    group_shape = _matching_groups(set1.shape, shape2)
    return _result(_dense_groups(set1), _sparse_groups(indices2, values2, shape2,
                                                       validate_indices),
                   group_shape, _operation(set_operation), dtypes.as_dtype(set1.dtype))


def _sparse_sparse_kernel(indices1, values1, shape1, indices2, values2, shape2, set_operation,
                          validate_indices):
    shape1, shape2 = _sparse_shape(shape1), _sparse_shape(shape2)
    group_shape = _matching_groups(shape1, shape2)
    dtype = dtypes.as_dtype(np.asarray(values1).dtype)
    return _result(_sparse_groups(indices1, values1, shape1, validate_indices),
                   _sparse_groups(indices2, values2, shape2, validate_indices),
                   group_shape, _operation(set_operation), dtype)


def _set_size_kernel(indices, values, shape, validate_indices):
    shape = _sparse_shape(shape)
    out = np.zeros(_group_shape(shape), np.int32)
    for group, members in _sparse_groups(indices, values, shape, validate_indices).items():
        out[group] = len(members)
    return out


# ---------------------------------------------------------------- inference and the ops

def _result_infer(rank, dtype):
    return [(dtypes.int64, (None, rank)), (dtype, (None,)), (dtypes.int64, (rank,))]


def _dense_rank(*tensors):
    ranks = {t.shape.rank for t in tensors if t.shape.rank is not None}
    return ranks.pop() if len(ranks) == 1 else None


def _sparse_rank(shape):
    return shape.shape[0] if shape.shape.rank else None


DENSE_TO_DENSE = define_op(
    'DenseToDenseSetOperation', _dense_dense_kernel,
    lambda a, b, set_operation, validate_indices: _result_infer(_dense_rank(a, b), a.dtype),
    None, num_outputs=3,
    doc='A set operation on the last dimension of two dense tensors, as a SparseTensor.')

DENSE_TO_SPARSE = define_op(
    'DenseToSparseSetOperation', _dense_sparse_kernel,
    lambda a, i, v, s, set_operation, validate_indices: _result_infer(
        _dense_rank(a) or _sparse_rank(s), a.dtype),
    None, num_outputs=3,
    doc='A set operation on the last dimension of a dense and a sparse tensor.')

SPARSE_TO_SPARSE = define_op(
    'SparseToSparseSetOperation', _sparse_sparse_kernel,
    lambda i1, v1, s1, i2, v2, s2, set_operation, validate_indices: _result_infer(
        _sparse_rank(s1) or _sparse_rank(s2), v1.dtype),
    None, num_outputs=3,
    doc='A set operation on the last dimension of two sparse tensors.')

SET_SIZE = define_op(
    'SetSize', _set_size_kernel,
    lambda i, v, s, validate_indices: (dtypes.int32, None if _sparse_rank(s) is None
                                       else (None,) * (_sparse_rank(s) - 1)),
    None,
    doc='The number of distinct values in each group of a SparseTensor.')


# ---------------------------------------------------------------- the public functions

def _tensor_or_sparse(value, name):
    if isinstance(value, SparseTensor):
        return value
    if all(hasattr(value, a) for a in ('indices', 'values', 'dense_shape')):
        return SparseTensor.from_value(value)
    return convert_to_tensor(value, name=name)


def _operands(a, b):
    """a and b as Tensors or SparseTensors of one valid dtype, swapped (flipped=True) when only
    `a` is sparse: the kernels take a sparse operand second."""
    a = _tensor_or_sparse(a, 'a')
    if a.dtype not in _VALID_DTYPES:
        raise TypeError(f"'a' has invalid dtype `{a.dtype}` not in supported dtypes: "
                        f"`{_valid_text()}`.")
    b = _tensor_or_sparse(b, 'b')
    if b.dtype != a.dtype:
        raise TypeError(f"Types don't match, {a.dtype} vs {b.dtype}.")
    if isinstance(a, SparseTensor) and not isinstance(b, SparseTensor):
        return b, a, True
    return a, b, False


def _valid_text():
    return '{' + ', '.join(f'tf.{d.name}' for d in _VALID_DTYPES) + '}'


def _set_operation(a, b, operation, validate_indices):
    attrs = {'set_operation': operation, 'validate_indices': bool(validate_indices)}
    if isinstance(b, SparseTensor):
        if isinstance(a, SparseTensor):
            parts = apply_op(SPARSE_TO_SPARSE, (a.indices, a.values, a.dense_shape, b.indices,
                                                b.values, b.dense_shape), attrs)
        else:
            parts = apply_op(DENSE_TO_SPARSE, (a, b.indices, b.values, b.dense_shape), attrs)
    else:
        parts = apply_op(DENSE_TO_DENSE, (a, b), attrs)
    return SparseTensor(*parts)


def intersection(a, b, validate_indices=True):
    """The values in both `a` and `b`, per group of all but the last dimension."""
    a, b, _ = _operands(a, b)
    return _set_operation(a, b, 'intersection', validate_indices)


def union(a, b, validate_indices=True):
    """The values in `a` or `b`, per group of all but the last dimension."""
    a, b, _ = _operands(a, b)
    return _set_operation(a, b, 'union', validate_indices)


def difference(a, b, aminusb=True, validate_indices=True):
    """The values of `a` not in `b` (of `b` not in `a` when `aminusb` is False), per group."""
    a, b, flipped = _operands(a, b)
    if flipped:
        aminusb = not aminusb
    return _set_operation(a, b, 'a-b' if aminusb else 'b-a', validate_indices)


def size(a, validate_indices=True):
    """The number of distinct values in each group of the SparseTensor `a` (int32, the shape of
    all but its last dimension)."""
    a = _tensor_or_sparse(a, 'a')
    if not isinstance(a, SparseTensor):
        raise TypeError(f'Expected `SparseTensor`, got {a!s}.')
    if a.values.dtype not in _VALID_DTYPES:
        raise TypeError(f'Invalid dtype `{a.values.dtype}` not in supported dtypes: '
                        f'`{_valid_text()}`.')
    return apply_op(SET_SIZE, (a.indices, a.values, a.dense_shape),
                    {'validate_indices': bool(validate_indices)})
