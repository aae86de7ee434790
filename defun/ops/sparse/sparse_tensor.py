"""tf.SparseTensor and tf.SparseTensorSpec: a tensor of shape `dense_shape` given by the `values`
at its `indices` (int64 [N, rank]); every other element is zero. A composite tensor (see
defun/core/composite.py) whose components are the three dense tensors, so it flows through
functions, control flow and tf.data as they do; `to_dense` and `from_dense` live here because the
type's own conversions need them.
"""
import numpy as np

from defun.core import dtypes
from defun.core.composite import BatchableTypeSpec, CompositeTensor
from defun.core.dispatch import apply_op
from defun.core.registry import define_op
from defun.core.shapes import TensorShape, TensorSpec, as_shape
from defun.core.tensor import NativeObject, Tensor, convert_to_tensor
from defun.ops.array.gathering import gather_nd
from defun.ops.framework.base_ops import broadcast_to, cast, reshape, shape as shape_of
from defun.ops.math.exports import not_equal, reduce_sum, subtract, where
from defun.ops.support import validation
from defun.ops.support.helpers import static_value

__all__ = ['SparseTensor', 'SparseTensorSpec', 'to_dense', 'from_dense', 'is_sparse',
           'check_indices']


class SparseTensor(CompositeTensor, NativeObject):
    """A sparse tensor: `values[i]` stands at `indices[i]` of a `dense_shape` tensor of zeros."""

    __slots__ = ('_indices', '_values', '_dense_shape', '_static_shape', '__weakref__')

    def __init__(self, indices, values, dense_shape):
        indices = convert_to_tensor(indices, dtype_hint=dtypes.int64)
        values = convert_to_tensor(values)
        dense_shape = convert_to_tensor(dense_shape, dtype_hint=dtypes.int64)
        if indices.dtype is not dtypes.int64:
            indices = cast(indices, dtypes.int64)
        if dense_shape.dtype is not dtypes.int64:
            dense_shape = cast(dense_shape, dtypes.int64)
        _check_rank(values, 1, 'values')
        _check_rank(dense_shape, 1, 'dense_shape')
        _check_rank(indices, 2, 'indices')
        rank = dense_shape.shape[0] if dense_shape.shape.rank else None
        _merge_dims(indices.shape[0] if indices.shape.rank else None,
                    values.shape[0] if values.shape.rank else None)
        _merge_dims(indices.shape[1] if indices.shape.rank else None, rank)
        self._indices, self._values, self._dense_shape = indices, values, dense_shape
        self._static_shape = _shape_from(dense_shape)

    @classmethod
    def from_value(cls, value):
        if isinstance(value, SparseTensor):
            return value
        return cls(value.indices, value.values, value.dense_shape)

    indices = property(lambda self: self._indices)
    values = property(lambda self: self._values)
    dense_shape = property(lambda self: self._dense_shape)
    dtype = property(lambda self: self._values.dtype)
    shape = property(lambda self: self._static_shape)
    graph = property(lambda self: getattr(self._values, 'graph', None))
    op = property(lambda self: getattr(self._values, 'op', None))

    def get_shape(self):
        return self._static_shape

    def set_shape(self, shape):
        """Narrows the static shape (TF's SparseTensor.set_shape); ValueError if incompatible."""
        self._static_shape = self._static_shape.merge_with(as_shape(shape))

    def with_values(self, new_values):
        """The same indices and shape with other values (one per index)."""
        result = SparseTensor(self._indices, new_values, self._dense_shape)
        result.set_shape(self._static_shape)
        return result

    @property
    def _type_spec(self):
        return SparseTensorSpec(self._static_shape, self.dtype)

    def consumers(self):
        return []

    def __repr__(self):
        return (f'SparseTensor(indices={self._indices!s}, values={self._values!s}, '
                f'dense_shape={self._dense_shape!s})')

    __str__ = __repr__

    # As TF's: a SparseTensor times (or over) a dense tensor broadcast to its shape is a
    # SparseTensor of the products at its indices; it has no other operators.
    def __mul__(self, other):
        return self.with_values(self._values * _dense_at_indices(self, other))

    def __truediv__(self, other):
        return self.with_values(self._values / _dense_at_indices(self, other))

    __div__ = __truediv__


def _dense_at_indices(sp, other):
    dense = convert_to_tensor(other, dtype=sp.dtype)
    if dense.shape.rank == 0:
        return dense
    return gather_nd(broadcast_to(dense, sp.dense_shape), sp.indices)


def is_sparse(value):
    return isinstance(value, SparseTensor)


def _check_rank(tensor, rank, name):
    if tensor.shape.rank is not None and tensor.shape.rank != rank:
        raise ValueError(f'Shape {tensor.shape} must have rank {rank} (SparseTensor `{name}`)')


def _merge_dims(a, b):
    if a is not None and b is not None and a != b:
        raise ValueError(f'Dimensions {a} and {b} are not compatible')


def _shape_from(dense_shape):
    known = static_value(dense_shape)
    if known is not None:
        return TensorShape([int(d) if d >= 0 else None for d in np.asarray(known).reshape(-1)])
    rank = dense_shape.shape[0] if dense_shape.shape.rank else None
    return TensorShape(None) if rank is None else TensorShape([None] * rank)


class SparseTensorSpec(BatchableTypeSpec):
    """The type of a SparseTensor: its dense shape (None dims where unknown) and dtype."""

    __slots__ = ('_shape', '_dtype')

    def __init__(self, shape=None, dtype=dtypes.float32):
        self._shape = as_shape(shape)
        self._dtype = dtypes.as_dtype(dtype)

    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self._dtype)
    value_type = property(lambda self: SparseTensor)

    def _serialize(self):
        return (self._shape, self._dtype)

    @property
    def _component_specs(self):
        rank = self._shape.rank
        return [TensorSpec([None, rank], dtypes.int64), TensorSpec([None], self._dtype),
                TensorSpec([rank], dtypes.int64)]

    def _to_components(self, value):
        value = SparseTensor.from_value(value)
        return [value.indices, value.values, value.dense_shape]

    def _from_components(self, components):
        indices, values, dense_shape = components
        if isinstance(indices, TensorSpec):
            return SparseTensorSpec(self._shape, self._dtype)
        result = SparseTensor(indices, values, dense_shape)
        result.set_shape(self._shape)
        return result

    def _with_shape(self, shape):
        return SparseTensorSpec(shape, self._dtype)

    def _batch(self, batch_size):
        return SparseTensorSpec(TensorShape([batch_size]).concatenate(self._shape), self._dtype)

    def _unbatch(self):
        if self._shape.rank == 0:
            raise ValueError('Unbatching a tensor is only supported for rank >= 1')
        return SparseTensorSpec(self._shape[1:], self._dtype)

    @classmethod
    def from_value(cls, value):
        return SparseTensor.from_value(value)._type_spec


# ---------------------------------------------------------------- to_dense

def _index_text(index):
    return '[' + ','.join(str(int(i)) for i in index) + ']'


def check_indices(indices, shape, ordered):
    """A kernel's check of a SparseTensor's int64 `indices` (numpy, [N, rank]) against the tuple
    `shape`: each in bounds and, when `ordered`, in row-major order without repeats (TF's
    InvalidArgumentError and wording otherwise)."""
    bad = ((indices < 0) | (indices >= np.array(shape, dtype=np.int64))).any(axis=1)
    if bad.any():
        i = int(np.argmax(bad))
        raise validation.invalid_argument(
            f'indices[{i}] = {_index_text(indices[i])} is out of bounds: need 0 <= index < '
            f'{_index_text(shape)}')
    if ordered and len(shape) and indices.shape[0] > 1:
        flat = np.ravel_multi_index(indices.T, shape)
        order = np.diff(flat)
        if (order <= 0).any():
            i = int(np.argmax(order <= 0)) + 1
            what = 'repeated' if order[i - 1] == 0 else 'out of order'
            raise validation.invalid_argument(
                f'indices[{i}] = {_index_text(indices[i])} is {what}. Many sparse ops require '
                f'sorted indices.\n    Use `tf.sparse.reorder` to create a correctly ordered copy.')


def _sparse_to_dense_kernel(indices, output_shape, values, default_value, validate_indices):
    shape = tuple(int(d) for d in np.asarray(output_shape).reshape(-1))
    indices = np.asarray(indices).reshape(len(indices), len(shape)) if len(shape) else \
        np.zeros((np.size(values), 0), np.int64)
    values = np.asarray(values)
    dense = np.full(shape, default_value, dtype=values.dtype if values.size else
                    np.asarray(default_value).dtype)
    if indices.shape[0] == 0:
        return dense
    check_indices(indices, shape, ordered=validate_indices)
    dense[tuple(indices.T)] = np.broadcast_to(values, (indices.shape[0],))
    return dense


def _sparse_to_dense_infer(indices, output_shape, values, default_value, validate_indices):
    known = static_value(output_shape)
    if known is not None:
        return values.dtype, tuple(int(d) for d in np.asarray(known).reshape(-1))
    n = output_shape.shape[0] if output_shape.shape.rank else None
    return values.dtype, None if n is None else (None,) * n


def _sparse_to_dense_grad(op, grad):
    indices = op.inputs[0]
    values_grad = gather_nd(grad, indices)
    default_grad = subtract(reduce_sum(grad), reduce_sum(values_grad))
    return None, None, values_grad, default_grad


SPARSE_TO_DENSE = define_op('SparseToDense', _sparse_to_dense_kernel, _sparse_to_dense_infer,
                            _sparse_to_dense_grad,
                            doc="A dense tensor of `default_value` with `values` at `indices`.")


def to_dense(sp_input, default_value=None, validate_indices=True, name=None):
    """The dense tensor a SparseTensor stands for (`default_value`, zero by default, elsewhere)."""
    sp = _sparse_input(sp_input, 'tf.sparse.to_dense')
    default = convert_to_tensor(0 if default_value is None else default_value, dtype=sp.dtype)
    out = apply_op(SPARSE_TO_DENSE, (sp.indices, sp.dense_shape, sp.values, default),
                   {'validate_indices': bool(validate_indices)}, name)
    if sp.shape.rank is not None and out.shape.rank is None:
        out = reshape(out, sp.dense_shape)
    return out


def from_dense(tensor, name=None):
    """The SparseTensor of `tensor`'s nonzero elements, in row-major order."""
    tensor = convert_to_tensor(tensor)
    zero = convert_to_tensor(b'' if tensor.dtype is dtypes.string else 0, dtype=tensor.dtype)
    indices = where(not_equal(tensor, zero))
    result = SparseTensor(indices, gather_nd(tensor, indices), shape_of(tensor, out_type=dtypes.int64))
    result.set_shape(tensor.shape)
    return result


def _sparse_input(value, op):
    if isinstance(value, SparseTensor):
        return value
    if all(hasattr(value, a) for a in ('indices', 'values', 'dense_shape')):
        return SparseTensor.from_value(value)
    raise TypeError(f'{op}: expected a SparseTensor, got {type(value).__name__}: {value!r}')


def sparse_input(value, op):
    """`value` as a SparseTensor, or TF's TypeError naming `op`."""
    return _sparse_input(value, op)


def is_tensor_like(value):
    return isinstance(value, (Tensor, SparseTensor))
