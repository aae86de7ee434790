"""tf.RaggedTensor and tf.RaggedTensorSpec: rows of different lengths, as `values` (a tensor or
another RaggedTensor, one element per value) partitioned into rows by `row_splits` (row i is
values[row_splits[i]:row_splits[i + 1]]). A composite tensor whose components are the flat values
and the row splits of every ragged dimension, outermost first, as TF's.

The factories (`from_row_splits`, `from_row_lengths`, `from_value_rowids`, ...) check the partition
as TF's do (InvalidArgumentError) where its values are known; `to_tensor`/`from_tensor` convert to
and from padded dense tensors.
"""
import operator

import numpy as np

from defun.core import dtypes
from defun.core.composite import BatchableTypeSpec, CompositeTensor
from defun.core.shapes import TensorShape, TensorSpec, as_shape
from defun.core.tensor import NativeObject, Tensor, convert_to_tensor
from defun.ops.array.creation import range as range_
from defun.ops.array.joining import concat
from defun.ops.framework.base_ops import cast, reshape, shape as shape_of
from defun.ops.math.exports import reduce_prod, reduce_sum, maximum
from defun.ops.array.gathering import gather
from defun.ops.ragged import conversions, indexing, ragged_math, row_ops
from defun.ops.support import validation
from defun.ops.support.helpers import static_value

__all__ = ['RaggedTensor', 'RaggedTensorSpec', 'is_ragged']


class RaggedTensor(CompositeTensor, NativeObject):
    """A tensor with rows of different lengths (TF's tf.RaggedTensor)."""

    __slots__ = ('_values', '_row_splits', '_uniform', '__weakref__')

    def __init__(self, values, row_splits, internal=False, uniform_row_length=None):
        if not internal:
            raise ValueError('RaggedTensor constructor is private; please use one of the factory '
                             'methods instead (e.g., RaggedTensor.from_row_lengths())')
        self._values, self._row_splits = values, row_splits
        self._uniform = uniform_row_length   # a scalar tensor when every row has that length

    # -- factories
    @classmethod
    def _build(cls, values, splits, factory, validate):
        values = values if isinstance(values, RaggedTensor) else convert_to_tensor(values)
        if not isinstance(values, RaggedTensor) and values.shape.rank == 0:
            raise ValueError(f'{factory}: values must have rank >= 1, got a scalar')
        if validate:
            row_ops.check_splits(splits, _nrows_static(values), factory)
        return cls(values, splits, internal=True)

    @classmethod
    def from_row_splits(cls, values, row_splits, name=None, validate=True):
        splits = row_ops.as_splits(row_splits, _splits_dtype(values, row_splits), 'row_splits')
        return cls._build(values, splits, 'from_row_splits', validate)

    @classmethod
    def from_row_lengths(cls, values, row_lengths, name=None, validate=True):
        lengths = row_ops.as_splits(row_lengths, _splits_dtype(values, row_lengths), 'row_lengths')
        lv = static_value(lengths)
        if validate and lv is not None and (np.asarray(lv) < 0).any():
            raise _invalid('from_row_lengths', 'negative row lengths')
        return cls._build(values, row_ops.splits_from_lengths(lengths), 'from_row_lengths',
                          validate)

    @classmethod
    def from_row_starts(cls, values, row_starts, name=None, validate=True):
        starts = row_ops.as_splits(row_starts, _splits_dtype(values, row_starts), 'row_starts')
        nvals = cast(_nrows_tensor(values), starts.dtype)
        return cls._build(values, concat([starts, reshape(nvals, [1])], 0), 'from_row_starts',
                          validate)

    @classmethod
    def from_row_limits(cls, values, row_limits, name=None, validate=True):
        limits = row_ops.as_splits(row_limits, _splits_dtype(values, row_limits), 'row_limits')
        zero = convert_to_tensor([0], dtype=limits.dtype)
        return cls._build(values, concat([zero, limits], 0), 'from_row_limits', validate)

    @classmethod
    def from_value_rowids(cls, values, value_rowids, nrows=None, name=None, validate=True):
        rowids = row_ops.as_splits(value_rowids, _splits_dtype(values, value_rowids),
                                   'value_rowids')
        if nrows is None:
            known = static_value(rowids)
            nrows = (int(np.max(known)) + 1 if np.size(known) else 0) if known is not None else \
                maximum(reduce_sum(rowids[-1:]) + 1, 0)
        nrows = convert_to_tensor(nrows, dtype=rowids.dtype)
        if validate:
            row_ops.check_rowids(rowids, nrows, 'from_value_rowids')
        splits = row_ops.splits_from_rowids(rowids, nrows)
        return cls._build(values, splits, 'from_value_rowids', validate)

    @classmethod
    def from_nested_row_splits(cls, flat_values, nested_row_splits, name=None, validate=True):
        _check_nested(nested_row_splits, 'nested_row_splits')
        result = flat_values
        for splits in reversed(list(nested_row_splits)):
            result = cls.from_row_splits(result, splits, validate=validate)
        return result

    @classmethod
    def from_nested_row_lengths(cls, flat_values, nested_row_lengths, name=None, validate=True):
        _check_nested(nested_row_lengths, 'nested_row_lengths')
        result = flat_values
        for lengths in reversed(list(nested_row_lengths)):
            result = cls.from_row_lengths(result, lengths, validate=validate)
        return result

    @classmethod
    def from_nested_value_rowids(cls, flat_values, nested_value_rowids, nested_nrows=None,
                                 name=None, validate=True):
        _check_nested(nested_value_rowids, 'nested_value_rowids')
        rowids = list(nested_value_rowids)
        nrows = [None] * len(rowids) if nested_nrows is None else list(nested_nrows)
        if len(nrows) != len(rowids):
            raise ValueError('Expected len(nested_nrows) == len(nested_value_rowids).')
        result = flat_values
        for ids, n in reversed(list(zip(rowids, nrows))):
            result = cls.from_value_rowids(result, ids, n, validate=validate)
        return result

    @classmethod
    @classmethod
    def from_tensor(cls, tensor, lengths=None, padding=None, ragged_rank=1, name=None,
                    row_splits_dtype=dtypes.int64):
        """The RaggedTensor of a dense tensor's rows, cut at `lengths` or before trailing
        `padding` (whole rows otherwise); `ragged_rank` dimensions become ragged."""
        return conversions.from_tensor(cls, tensor, lengths, padding, ragged_rank, name,
                                       row_splits_dtype)

    @classmethod
    def from_uniform_rows(cls, values, nrows, width):
        """`nrows` rows of `width` values each (the splits 0, width, 2 * width, ...)."""
        splits = range_(0, nrows * width + 1, width) if static_value(width) != 0 else \
            cast(reshape(range_(nrows + 1) * 0, [-1]), width.dtype)
        return cls(values, cast(splits, width.dtype), internal=True)

    @classmethod
    def from_uniform_row_length(cls, values, uniform_row_length, nrows=None, validate=True,
                                name=None):
        """Rows of `uniform_row_length` values each: a RaggedTensor whose second dimension is
        known (its `uniform_row_length`)."""
        values = values if isinstance(values, RaggedTensor) else convert_to_tensor(values)
        dtype = _splits_dtype(values, uniform_row_length)
        splits, length = row_ops.uniform_splits(_nrows_tensor(values), uniform_row_length, nrows,
                                                dtype)
        return cls(values, splits, internal=True, uniform_row_length=length)

    @classmethod
    def from_sparse(cls, st_input, name=None, row_splits_dtype=dtypes.int64):
        """The rows of a 2-D SparseTensor whose indices are in row-major order."""
        if st_input.shape.rank is not None and st_input.shape.rank != 2:
            raise ValueError(f'rank(st_input) must be 2, got {st_input.shape.rank}')
        dtype = dtypes.as_dtype(row_splits_dtype)
        rowids = cast(st_input.indices[:, 0], dtype)
        nrows = cast(st_input.dense_shape[0], dtype)
        return cls.from_value_rowids(st_input.values, rowids, nrows, validate=False)

    # -- the partition
    values = property(lambda self: self._values)
    row_splits = property(lambda self: self._row_splits)
    dtype = property(lambda self: self.flat_values.dtype)
    row_splits_dtype = property(lambda self: self._row_splits.dtype)
    uniform_row_length = property(lambda self: self._uniform)

    @property
    def flat_values(self):
        values = self._values
        while isinstance(values, RaggedTensor):
            values = values.values
        return values

    @property
    def nested_row_splits(self):
        out, rt = [], self
        while isinstance(rt, RaggedTensor):
            out.append(rt.row_splits)
            rt = rt.values
        return tuple(out)

    @property
    def ragged_rank(self):
        return len(self.nested_row_splits)

    @property
    def shape(self):
        nrows = self._row_splits.shape[0] if self._row_splits.shape.rank else None
        known = static_value(self._row_splits)
        if known is not None:
            nrows = len(known)
        nrows = None if nrows is None else nrows - 1
        inner = self.flat_values.shape
        rest = TensorShape(None) if inner.rank is None else TensorShape(inner[1:])
        widths, rt = [], self
        while isinstance(rt, RaggedTensor):
            width = None if rt._uniform is None else static_value(rt._uniform)
            widths.append(None if width is None else int(width))
            rt = rt._values
        return TensorShape([nrows] + widths).concatenate(rest)

    def get_shape(self):
        return self.shape

    def row_lengths(self, axis=1, name=None):
        if axis == 1:
            return row_ops.lengths_of(self._row_splits)
        if axis == 0:
            raise ValueError('axis=0 has no row lengths (use nrows)')
        if not isinstance(self._values, RaggedTensor):
            raise ValueError(f'axis={axis} is not a ragged dimension')
        return self.with_values(self._values.row_lengths(axis - 1))

    def nrows(self, out_type=None, name=None):
        n = row_ops.nrows_of(self._row_splits)
        return n if out_type is None else cast(n, out_type)

    def value_rowids(self, name=None):
        return row_ops.rowids_of(self._row_splits)

    def row_starts(self, name=None):
        return self._row_splits[:-1]

    def row_limits(self, name=None):
        return self._row_splits[1:]

    def nested_row_lengths(self, name=None):
        return tuple(row_ops.lengths_of(s) for s in self.nested_row_splits)

    def nested_value_rowids(self, name=None):
        return tuple(row_ops.rowids_of(s) for s in self.nested_row_splits)

    def bounding_shape(self, axis=None, name=None, out_type=None):
        """The shape of the smallest dense tensor holding this one (longest rows)."""
        return conversions.bounding_shape(self, axis, name, out_type)

    # -- new ragged tensors like this one
    def with_values(self, new_values):
        return RaggedTensor(new_values, self._row_splits, internal=True,
                            uniform_row_length=self._uniform)

    def with_flat_values(self, new_values):
        if isinstance(self._values, RaggedTensor):
            return self.with_values(self._values.with_flat_values(new_values))
        return self.with_values(new_values)

    def with_row_splits_dtype(self, dtype):
        dtype = dtypes.as_dtype(dtype)
        values = self._values.with_row_splits_dtype(dtype) \
            if isinstance(self._values, RaggedTensor) else self._values
        uniform = None if self._uniform is None else cast(self._uniform, dtype)
        return RaggedTensor(values, cast(self._row_splits, dtype), internal=True,
                            uniform_row_length=uniform)

    def merge_dims(self, outer_axis, inner_axis):
        """Dimensions outer_axis..inner_axis merged into one (ragged ones, and uniform ones of
        the flat values)."""
        rank = self.shape.rank
        outer_axis = outer_axis + rank if outer_axis < 0 else outer_axis
        inner_axis = inner_axis + rank if inner_axis < 0 else inner_axis
        if outer_axis == inner_axis:
            return self
        values = self._values
        if outer_axis == 0:   # the rows of the rows: the values, merged further
            return values.merge_dims(0, inner_axis - 1) if isinstance(values, RaggedTensor) \
                else _merge_dense(values, 0, inner_axis - 1)
        if outer_axis > 1:
            return self.with_values(values.merge_dims(outer_axis - 1, inner_axis - 1)
                                    if isinstance(values, RaggedTensor) else
                                    _merge_dense(values, outer_axis - 1, inner_axis - 1))
        if isinstance(values, RaggedTensor):   # each row's inner rows joined
            joined = RaggedTensor(values.values, gather(values.row_splits, self._row_splits),
                                  internal=True)
            return joined.merge_dims(1, inner_axis - 1)
        # A uniform dim of width k joins each row's values: k times the splits.
        width = reduce_prod(shape_of(values, out_type=self.row_splits_dtype)[1:inner_axis])
        return RaggedTensor(_merge_dense(values, 0, inner_axis - 1), self._row_splits * width,
                            internal=True)

    # -- conversions
    def to_tensor(self, default_value=None, name=None, shape=None):
        """The padded dense tensor (`default_value`, zero by default, after each row)."""
        return conversions.to_tensor(self, default_value, name, shape)

    def to_sparse(self, name=None):
        return conversions.to_sparse(self, name)

    def to_list(self):
        """The nested Python lists of this (eager) ragged tensor's values."""
        return conversions.to_list(self)

    def numpy(self):
        """A numpy object array of the rows (each a numpy array, or nested object arrays)."""
        return conversions.numpy(self)

    @property
    def _type_spec(self):
        return RaggedTensorSpec(self.shape, self.dtype, self.ragged_rank, self.row_splits_dtype,
                                flat_values_spec=None)

    def __repr__(self):
        if _is_eager(self):
            return f'<tf.RaggedTensor {conversions.text(self)}>'
        return f'tf.RaggedTensor(values={self._values!s}, row_splits={self._row_splits!s})'

    __str__ = __repr__

    def __bool__(self):
        raise TypeError('RaggedTensor may not be used as a boolean.')

    def __tf_dispatch__(self, api, *args, **kwargs):
        """tf.<api>(self, ...) for the APIs that accept ragged inputs (the reductions)."""
        if api in ragged_math.REDUCTIONS:
            return ragged_math.reduce(api, self, *args, **kwargs)
        return NotImplemented

    # -- elementwise operators on the flat values (see ragged_math.py)
    def __neg__(self):
        return self.with_flat_values(-self.flat_values)

    def __abs__(self):
        return self.with_flat_values(abs(self.flat_values))

    def __invert__(self):
        return self.with_flat_values(~self.flat_values)

    def __getitem__(self, key):
        """Rows by index or slice (step 1), then the remaining indices within them, as TF's
        ragged indexing for those cases (see indexing.py)."""
        return indexing.getitem(self, key)

    def __iter__(self):
        if not _is_eager(self):
            raise ValueError('RaggedTensor.__iter__ is only supported eagerly (a tf.function '
                             'iterates a RaggedTensor with `for row in rt` under AutoGraph)')
        return iter([self[i] for i in range(len(np.asarray(self._row_splits)) - 1)])


def _binary(fn, reflected=False):
    def method(self, other):
        if reflected:
            return ragged_math.elementwise(fn, other, self)
        return ragged_math.elementwise(fn, self, other)
    return method


for _name, _fn in [('add', operator.add), ('sub', operator.sub), ('mul', operator.mul),
                   ('truediv', operator.truediv), ('floordiv', operator.floordiv),
                   ('mod', operator.mod), ('pow', operator.pow), ('and', operator.and_),
                   ('or', operator.or_), ('xor', operator.xor)]:
    setattr(RaggedTensor, f'__{_name}__', _binary(_fn))
    setattr(RaggedTensor, f'__r{_name}__', _binary(_fn, reflected=True))
for _name, _fn in [('lt', operator.lt), ('le', operator.le), ('gt', operator.gt),
                   ('ge', operator.ge)]:
    setattr(RaggedTensor, f'__{_name}__', _binary(_fn))
del _name, _fn


def _merge_dense(values, outer, inner):
    """A dense tensor's dimensions outer..inner merged."""
    if outer == inner:
        return values
    dims = shape_of(values)
    merged = reshape(reduce_prod(dims[outer:inner + 1]), [1])
    return reshape(values, concat([dims[:outer], merged, dims[inner + 1:]], 0))


def _with_uniform_dims(rt, shape):
    """`rt` with the uniform row lengths its spec's known ragged dimensions say."""
    dims = shape.as_list()[1:] if shape.rank is not None else []
    if not any(d is not None for d in dims[:rt.ragged_rank]):
        return rt
    levels, inner = [], rt
    while isinstance(inner, RaggedTensor):
        levels.append(inner)
        inner = inner._values
    for level, width in reversed(list(zip(levels, dims))):
        uniform = None if width is None else convert_to_tensor(width, level.row_splits_dtype)
        inner = RaggedTensor(inner, level._row_splits, internal=True, uniform_row_length=uniform)
    return inner


def is_ragged(value):
    return isinstance(value, RaggedTensor)


def _is_eager(rt):
    return all(getattr(t, 'array', None) is not None for t in (rt.flat_values,) +
               rt.nested_row_splits)


def _invalid(factory, what):
    return validation.invalid_argument(
        f'Arguments to {factory} do not form a valid RaggedTensor:{what}')


def _splits_dtype(values, partition):
    if isinstance(values, RaggedTensor):
        return values.row_splits_dtype
    if isinstance(partition, Tensor):
        return partition.dtype if partition.dtype in (dtypes.int32, dtypes.int64) else None
    return dtypes.int64


def _check_nested(value, name):
    if isinstance(value, Tensor):
        raise TypeError(f'{name} must be a list of Tensors')


def _nrows_static(values):
    if isinstance(values, RaggedTensor):
        return values.nrows()
    known = values.shape[0] if values.shape.rank else None
    return known if known is not None else shape_of(values)[0]


def _nrows_tensor(values):
    if isinstance(values, RaggedTensor):
        return values.nrows()
    return shape_of(values, out_type=dtypes.int64)[0]


class RaggedTensorSpec(BatchableTypeSpec):
    """The type of a RaggedTensor: shape (ragged dims None), dtype, ragged rank, splits dtype."""

    __slots__ = ('_shape', '_dtype', '_ragged_rank', '_row_splits_dtype', '_flat_values_spec')

    def __init__(self, shape=None, dtype=dtypes.float32, ragged_rank=None,
                 row_splits_dtype=dtypes.int64, flat_values_spec=None):
        self._shape = as_shape(shape)
        self._dtype = dtypes.as_dtype(dtype)
        self._row_splits_dtype = dtypes.as_dtype(row_splits_dtype)
        self._flat_values_spec = flat_values_spec
        rank = self._shape.rank
        if ragged_rank is None:
            if rank is None:
                raise ValueError('Must specify ragged_rank or a shape with a known rank.')
            ragged_rank = rank - 1
        if not isinstance(ragged_rank, int):
            raise TypeError(f'ragged_rank must be an int, got {ragged_rank!r}')
        if rank is not None and not 0 <= ragged_rank < max(rank, 1):
            raise ValueError(f'ragged_rank must be non-negative and less than the rank '
                             f'({rank}); got {ragged_rank}')
        self._ragged_rank = ragged_rank

    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self._dtype)
    ragged_rank = property(lambda self: self._ragged_rank)
    row_splits_dtype = property(lambda self: self._row_splits_dtype)
    flat_values_spec = property(lambda self: self._flat_values_spec)
    value_type = property(lambda self: RaggedTensor if self._ragged_rank > 0 else Tensor)

    def _serialize(self):
        if self._flat_values_spec is None:
            return (self._shape, self._dtype, self._ragged_rank, self._row_splits_dtype)
        return (self._shape, self._dtype, self._ragged_rank, self._row_splits_dtype,
                self._flat_values_spec)

    @property
    def _component_specs(self):
        if self._ragged_rank == 0:
            return [TensorSpec(self._shape, self._dtype)]
        if self._flat_values_spec is not None:
            flat = self._flat_values_spec
        elif self._shape.rank is None:
            flat = TensorSpec(None, self._dtype)
        else:
            flat = TensorSpec([None] + self._shape.as_list()[self._ragged_rank + 1:], self._dtype)
        nrows = self._shape[0] if self._shape.rank else None
        outer = TensorSpec([None if nrows is None else nrows + 1], self._row_splits_dtype)
        rest = [TensorSpec([None], self._row_splits_dtype) for _ in range(self._ragged_rank - 1)]
        return [flat, outer] + rest

    def _to_components(self, value):
        if isinstance(value, RaggedTensor):
            return [value.flat_values] + list(value.nested_row_splits)
        return [value]

    def _from_components(self, components):
        if isinstance(components[0], TensorSpec):
            return self
        if self._ragged_rank == 0:
            return components[0]
        value = RaggedTensor.from_nested_row_splits(components[0], components[1:], validate=False)
        return _with_uniform_dims(value, self._shape)

    def _with_shape(self, shape):
        return RaggedTensorSpec(shape, self._dtype, self._ragged_rank, self._row_splits_dtype)

    def _batch(self, batch_size):
        return RaggedTensorSpec(TensorShape([batch_size]).concatenate(self._shape), self._dtype,
                                self._ragged_rank + 1, self._row_splits_dtype)

    def _unbatch(self):
        return RaggedTensorSpec(self._shape[1:], self._dtype, self._ragged_rank - 1,
                                self._row_splits_dtype)

    @classmethod
    def from_value(cls, value):
        return value._type_spec if isinstance(value, RaggedTensor) else \
            cls(value.shape, value.dtype, 0)
