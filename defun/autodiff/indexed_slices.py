"""tf.IndexedSlices: rows `values` of a tensor of shape `dense_shape` at first-dimension
`indices` (rows named twice add up when converted to a dense tensor), and the argument of
Variable's sparse updates (`scatter_add`, `scatter_update`, ...).

Gradients are dense tensors here (tape.gradient of a gather gives a Tensor, where TF gives
IndexedSlices); an IndexedSlices converts to its dense tensor wherever a tensor is expected.
"""
from defun.ops.framework.base_ops import reshape
from defun.ops.math.math_ops import unsorted_segment_sum
from defun.core.shapes import TensorShape
from defun.core.tensor import convert_to_tensor, register_tensor_conversion_function

__all__ = ['IndexedSlices']


class IndexedSlices:
    """A sparse set of rows of a dense tensor, as TF's IndexedSlices."""

    def __init__(self, values, indices, dense_shape=None):
        self._values = convert_to_tensor(values)
        self._indices = convert_to_tensor(indices)
        if not self._indices.dtype.is_integer:
            raise TypeError(f'IndexedSlices: indices must be integers, got '
                            f'{self._indices.dtype.name}')
        self._dense_shape = None if dense_shape is None else convert_to_tensor(dense_shape)

    values = property(lambda self: self._values)
    indices = property(lambda self: self._indices)
    dense_shape = property(lambda self: self._dense_shape)
    dtype = property(lambda self: self._values.dtype)
    device = property(lambda self: self._values.device)

    @property
    def shape(self):
        """The dense shape as far as known: from `dense_shape`, else the values' row shape."""
        if self._dense_shape is not None:
            known = getattr(self._dense_shape, 'numpy', None)
            if known is not None:
                return TensorShape([int(d) for d in known()])
        rows = self._values.shape
        return TensorShape(None) if rows.rank is None else TensorShape([None]).concatenate(rows[1:])

    def flat(self):
        """(indices as a vector, values with one row per index)."""
        row_shape = self._values.shape[self._indices.shape.rank or 0:]
        return (reshape(self._indices, [-1]),
                reshape(self._values, [-1] + row_shape.as_list()))

    def to_dense(self):
        if self._dense_shape is None:
            raise ValueError(f'Tensor conversion requested for IndexedSlices without dense_shape: '
                             f'{self!r}')
        indices, values = self.flat()
        dense = unsorted_segment_sum(values, indices, self._dense_shape[0])
        return reshape(dense, self._dense_shape)


def _convert(value, dtype=None):
    dense = value.to_dense()
    if dtype is not None and dense.dtype != dtype:
        raise ValueError(f'Tensor conversion requested dtype {dtype.name} for IndexedSlices with '
                         f'dtype {dense.dtype.name}')
    return dense


register_tensor_conversion_function(IndexedSlices, _convert)
