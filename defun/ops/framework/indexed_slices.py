"""tf.IndexedSlices and tf.IndexedSlicesSpec: rows `values` of a tensor of shape `dense_shape` at
first-dimension `indices` (rows named twice add up when converted to a dense tensor). It is what
the gradient of a gather is (see gathering.py), the argument of Variable's sparse updates
(`scatter_add`, ...), and a composite tensor (defun/core/composite.py) of its three tensors.

Where a tensor is expected it converts to its dense tensor (defun/ops/math/densify.py registers
that conversion: it needs the segment sums, which sit above the gather that makes these).
"""
import numpy as np

from defun.core import dtypes
from defun.core.composite import BatchableTypeSpec, CompositeTensor
from defun.core.shapes import TensorShape, TensorSpec, as_shape
from defun.core.tensor import NativeObject, convert_to_tensor
from defun.ops.framework.base_ops import reshape
from defun.ops.support.helpers import static_value

__all__ = ['IndexedSlices', 'IndexedSlicesSpec', 'is_indexed_slices']

class IndexedSlices(CompositeTensor, NativeObject):
    """A sparse set of rows of a dense tensor, as TF's IndexedSlices."""

    __slots__ = ('_values', '_indices', '_dense_shape', '__weakref__')

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
    graph = property(lambda self: getattr(self._values, 'graph', None))
    op = property(lambda self: getattr(self._values, 'op', None))
    name = property(lambda self: getattr(self._values, 'name', None))

    @property
    def shape(self):
        """The dense shape as far as known: from `dense_shape`, else the values' row shape."""
        if self._dense_shape is not None:
            known = static_value(self._dense_shape)
            if known is not None:
                return TensorShape([int(d) for d in np.asarray(known).reshape(-1)])
        rows = self._values.shape
        return TensorShape(None) if rows.rank is None else TensorShape([None]).concatenate(rows[1:])

    def get_shape(self):
        return self.shape

    def flat(self):
        """(indices as a vector, values with one row per index)."""
        if self._indices.shape.rank == 1:   # already so (and row shapes may be unknown in graphs)
            return self._indices, self._values
        row_shape = self._values.shape[self._indices.shape.rank or 0:]
        return (reshape(self._indices, [-1]),
                reshape(self._values, [-1] + row_shape.as_list()))

    def to_dense(self):
        """The dense tensor (rows named twice add up)."""
        return convert_to_tensor(self)

    def with_values(self, values):
        return IndexedSlices(values, self._indices, self._dense_shape)

    def __neg__(self):
        return self.with_values(-self._values)

    @property
    def _type_spec(self):
        indices_shape = self._indices.shape[:1] if self._indices.shape.rank else TensorShape(None)
        return IndexedSlicesSpec(self.shape, self.dtype, self._indices.dtype,
                                 None if self._dense_shape is None else self._dense_shape.dtype,
                                 indices_shape)

    def __str__(self):
        shape = '' if self._dense_shape is None else f', dense_shape={self._dense_shape!s}'
        return f'IndexedSlices(indices={self._indices!s}, values={self._values!s}{shape})'


def is_indexed_slices(value):
    return isinstance(value, IndexedSlices)


class IndexedSlicesSpec(BatchableTypeSpec):
    """The type of an IndexedSlices: dense shape, dtype, indices dtype, dense_shape dtype (None:
    no dense shape) and the shape of the indices."""

    __slots__ = ('_shape', '_dtype', '_indices_dtype', '_dense_shape_dtype', '_indices_shape')

    def __init__(self, shape=None, dtype=dtypes.float32, indices_dtype=dtypes.int64,
                 dense_shape_dtype=None, indices_shape=None):
        self._shape = as_shape(shape)
        self._dtype = dtypes.as_dtype(dtype)
        self._indices_dtype = dtypes.as_dtype(indices_dtype)
        self._dense_shape_dtype = None if dense_shape_dtype is None else \
            dtypes.as_dtype(dense_shape_dtype)
        self._indices_shape = as_shape(indices_shape).with_rank(1) if indices_shape is not None \
            else TensorShape([None])

    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self._dtype)
    value_type = property(lambda self: IndexedSlices)

    def _serialize(self):
        return (self._shape, self._dtype, self._indices_dtype, self._dense_shape_dtype,
                self._indices_shape)

    @property
    def _component_specs(self):
        rows = self._indices_shape.concatenate(self._shape[1:]) if self._shape.rank else \
            TensorShape(None)
        specs = [TensorSpec(rows, self._dtype), TensorSpec(self._indices_shape, self._indices_dtype)]
        if self._dense_shape_dtype is not None:
            specs.append(TensorSpec([self._shape.rank], self._dense_shape_dtype))
        return specs

    def _to_components(self, value):
        parts = [value.values, value.indices]
        return parts if value.dense_shape is None else parts + [value.dense_shape]

    def _from_components(self, components):
        if isinstance(components[0], TensorSpec):
            return self
        return IndexedSlices(*components)

