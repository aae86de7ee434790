"""tf.sparse.eye, tf.sparse.reset_shape and tf.sparse.mask, composed of public ops as TF
composes them: the identity's diagonal, a sparse tensor's dense shape shrunk to its entries or
grown to a given shape (never below its own, checked where both are known), and an
IndexedSlices without the slices whose indices are masked."""
import numpy as np

from defun.core import dtypes
from defun.core.tensor import convert_to_tensor
from defun.ops.array.boolean_mask import boolean_mask
from defun.ops.array.creation import ones, range as range_
from defun.ops.array.joining import stack
from defun.ops.debugging.asserts import assert_less_equal
from defun.ops.framework.base_ops import cast
from defun.ops.framework.indexed_slices import IndexedSlices
from defun.ops.math.exports import equal, logical_not, maximum, minimum, reduce_any, reduce_max
from defun.ops.sparse.sparse_tensor import SparseTensor, sparse_input
from defun.ops.support.helpers import static_value

__all__ = ['eye', 'reset_shape', 'mask']


def _int64(value, name):
    t = convert_to_tensor(value, dtype_hint=dtypes.int64)
    if not t.dtype.is_integer:
        raise TypeError(f'tf.sparse.eye: `{name}` must be an integer, got {t.dtype.name}')
    if t.shape.rank not in (0, None):
        raise ValueError(f'`{name}` must be a scalar, got shape {t.shape}')
    return cast(t, dtypes.int64)


def eye(num_rows, num_columns=None, dtype=dtypes.float32, name=None):
    """A [num_rows, num_columns] SparseTensor with ones on its diagonal."""
    rows = _int64(num_rows, 'num_rows')
    columns = rows if num_columns is None else _int64(num_columns, 'num_columns')
    size = minimum(rows, columns)
    diagonal = range_(size, dtype=dtypes.int64)
    return SparseTensor(stack([diagonal, diagonal], axis=1), ones(size, dtype=dtype),
                        stack([rows, columns]))


def reset_shape(sp_input, new_shape=None):
    """`sp_input` with dense shape `new_shape` (at least its own), or, without one, the
    smallest shape holding its entries."""
    sp = sparse_input(sp_input, 'reset_shape')
    if new_shape is None:
        low = reduce_max(sp.indices, axis=0) + 1
        return SparseTensor(sp.indices, sp.values, maximum(low, 0))
    shape = cast(convert_to_tensor(new_shape), dtypes.int64)
    shape.shape.assert_has_rank(1)
    if shape.shape.rank is not None and sp.dense_shape.shape.rank is not None:
        shape.shape[:1].assert_is_compatible_with(sp.dense_shape.shape[:1])
    known, own = static_value(shape), sp.shape
    if known is not None and own.is_fully_defined():
        if not np.all(np.array(own.as_list()) <= known):
            raise ValueError(f'Requested new_shape should have dimension sizes >= '
                             f'sp_input.shape.  Found new_shape ({np.array(own.as_list())}), '
                             f'sp_input.shape ({known}).')
    else:
        assert_less_equal(sp.dense_shape, shape)
    return SparseTensor(sp.indices, sp.values, shape)


def mask(a, mask_indices, name=None):
    """The slices of IndexedSlices `a` whose index is not in `mask_indices`."""
    masked = convert_to_tensor(mask_indices, dtype=a.indices.dtype)
    hit = reduce_any(equal(a.indices[:, None], masked[None, :]), axis=1)
    keep = logical_not(hit)
    return IndexedSlices(boolean_mask(a.values, keep), boolean_mask(a.indices, keep),
                         a.dense_shape)
