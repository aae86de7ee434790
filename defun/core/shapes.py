"""TensorShape (static shapes with unknown dimensions) and TensorSpec (a shape and dtype pair).

A TensorShape is immutable. It holds None for an unknown rank, else a tuple whose entries are ints
or None for an unknown dimension, as in TensorFlow 2; only the deprecated `dims` hands out
`Dimension` objects, as TF's does.
"""
from __future__ import annotations

from collections.abc import Iterable

from defun.core import dtypes
from defun.core.dimension import Dimension

__all__ = ['TensorShape', 'TensorSpec', 'as_shape', 'dimension_at_index']


class TensorShape:
    """The static shape of a tensor: known, partly known (None dims) or of unknown rank."""

    __slots__ = ('_dims',)

    def __init__(self, dims: Iterable[int | None] | int | TensorShape | None) -> None:
        if isinstance(dims, TensorShape):
            dims = dims._dims
        elif dims is not None:
            if isinstance(dims, int) or not hasattr(dims, '__iter__'):
                dims = (dims,)
            dims = tuple(_as_dim(d) for d in dims)
        self._dims = dims

    @classmethod
    def from_tuple(cls, dims: tuple[int | None, ...] | None) -> TensorShape:
        """Builds a shape from a tuple known to hold ints or None (no checking: the hot path)."""
        shape = cls.__new__(cls)
        shape._dims = dims
        return shape

    @property
    def dims(self):
        """TF's deprecated form: a list of `Dimension`s (None for an unknown rank)."""
        return None if self._dims is None else [Dimension(d) for d in self._dims]

    @property
    def rank(self) -> int | None:
        return None if self._dims is None else len(self._dims)

    @property
    def ndims(self) -> int | None:
        return self.rank

    def as_list(self) -> list[int | None]:
        if self._dims is None:
            raise ValueError('as_list() is not defined on an unknown TensorShape.')
        return list(self._dims)

    def as_tuple(self) -> tuple[int | None, ...] | None:
        """The dims as a tuple (None for unknown rank)."""
        return self._dims

    def is_fully_defined(self) -> bool:
        return self._dims is not None and None not in self._dims

    def num_elements(self) -> int | None:
        if not self.is_fully_defined():
            return None
        n = 1
        for d in self._dims:
            n *= d
        return n

    def is_compatible_with(self, other: object) -> bool:
        other = as_shape(other)
        if self._dims is None or other._dims is None:
            return True
        if len(self._dims) != len(other._dims):
            return False
        return all(a is None or b is None or a == b for a, b in zip(self._dims, other._dims))

    def assert_is_compatible_with(self, other: object) -> None:
        """Raises ValueError unless the two shapes could describe one tensor."""
        if not self.is_compatible_with(other):
            raise ValueError(f'Shapes {self} and {as_shape(other)} are incompatible')

    def merge_with(self, other: object) -> TensorShape:
        other = as_shape(other)
        if self._dims is None:
            return other
        if other._dims is None:
            return self
        if not self.is_compatible_with(other):
            raise ValueError(f'Shapes {self} and {other} are not compatible')
        return TensorShape.from_tuple(
            tuple(a if a is not None else b for a, b in zip(self._dims, other._dims)))

    def most_specific_compatible_shape(self, other: object) -> TensorShape:
        """The most specific shape compatible with both: dims that differ become None."""
        other = as_shape(other)
        if self._dims is None or other._dims is None or len(self._dims) != len(other._dims):
            return TensorShape(None)
        return TensorShape.from_tuple(
            tuple(a if a == b else None for a, b in zip(self._dims, other._dims)))

    def is_subtype_of(self, other: object) -> bool:
        """True when every value of this shape also fits `other` (other is at least as general)."""
        other = as_shape(other)
        if other._dims is None:
            return True
        if self._dims is None or len(self._dims) != len(other._dims):
            return False
        return all(b is None or a == b for a, b in zip(self._dims, other._dims))

    def concatenate(self, other: object) -> TensorShape:
        other = as_shape(other)
        if self._dims is None or other._dims is None:
            return TensorShape(None)
        return TensorShape.from_tuple(self._dims + other._dims)

    def __add__(self, other: object) -> TensorShape:
        return self.concatenate(other)

    def __radd__(self, other: object) -> TensorShape:
        return as_shape(other).concatenate(self)

    def with_rank(self, rank: int) -> TensorShape:
        if self._dims is None:
            return TensorShape([None] * rank)
        if len(self._dims) != rank:
            raise ValueError(f'Shape {self} must have rank {rank}')
        return self

    def assert_has_rank(self, rank: int) -> None:
        """Raises ValueError when the rank is known and is not `rank`."""
        if self._dims is not None and len(self._dims) != rank:
            raise ValueError(f'Shape {self} must have rank {rank}')

    def with_rank_at_least(self, rank: int) -> TensorShape:
        if self._dims is not None and len(self._dims) < rank:
            raise ValueError(f'Shape {self} must have rank at least {rank}')
        return self

    def with_rank_at_most(self, rank: int) -> TensorShape:
        if self._dims is not None and len(self._dims) > rank:
            raise ValueError(f'Shape {self} must have rank at most {rank}')
        return self

    def __len__(self):
        if self._dims is None:
            raise ValueError('Cannot take the length of shape with unknown rank.')
        return len(self._dims)

    def __iter__(self):
        if self._dims is None:
            raise ValueError('Cannot iterate over a shape with unknown rank.')
        return iter(self._dims)

    def __getitem__(self, key):
        if self._dims is None:
            if isinstance(key, slice):
                return TensorShape(None)
            return None
        if isinstance(key, slice):
            return TensorShape.from_tuple(self._dims[key])
        return self._dims[key]

    def __eq__(self, other):
        try:
            other = as_shape(other)
        except (TypeError, ValueError):
            return NotImplemented
        return self._dims == other._dims

    def __ne__(self, other):
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    def __hash__(self):
        return hash(self._dims)

    def __bool__(self):
        return self._dims is not None

    def __repr__(self):
        if self._dims is None:
            return 'TensorShape(None)'
        return f'TensorShape({list(self._dims)})'

    def __str__(self):
        if self._dims is None:
            return '<unknown>'
        if len(self._dims) == 1:
            return f'({_dim_str(self._dims[0])},)'
        return '(' + ', '.join(_dim_str(d) for d in self._dims) + ')'

    def __reduce__(self):
        return TensorShape, (self._dims,)


def _dim_str(d):
    return 'None' if d is None else str(d)


def _as_dim(d):
    if d is None:
        return None
    value = getattr(d, 'value', d)  # TF1-style Dimension objects
    if value is None:
        return None
    try:
        index = value.__index__()
    except AttributeError:
        raise TypeError(f'Dimension value must be an integer or None, got {d!r}') from None
    if index < 0:
        raise ValueError(f'Dimension {index} must be >= 0')
    return index


def as_shape(value: object) -> TensorShape:
    return value if isinstance(value, TensorShape) else TensorShape(value)


def dimension_at_index(shape, index) -> Dimension:
    """Dimension `index` of `shape` (an unknown Dimension when the rank is unknown)."""
    shape = as_shape(shape)
    if shape.rank is None:
        return Dimension(None)
    return Dimension(shape.as_tuple()[index])


class TensorSpec:
    """Describes a tensor by shape and dtype (and an optional name); hashable, used as a signature."""

    __slots__ = ('_shape', '_dtype', '_name')

    def __init__(self, shape: object, dtype: object = dtypes.float32, name: str | None = None) -> None:
        self._shape = as_shape(shape)
        self._dtype = dtypes.as_dtype(dtype)
        self._name = name

    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self._dtype)
    name = property(lambda self: self._name)

    @classmethod
    def from_tensor(cls, tensor: object, name: str | None = None) -> TensorSpec:
        return cls(tensor.shape, tensor.dtype, name if name is not None else _tensor_name(tensor))

    @classmethod
    def from_spec(cls, spec: TensorSpec, name: str | None = None) -> TensorSpec:
        return cls(spec.shape, spec.dtype, name if name is not None else spec.name)

    def is_compatible_with(self, spec_or_tensor: object) -> bool:
        other_dtype = getattr(spec_or_tensor, 'dtype', None)
        other_shape = getattr(spec_or_tensor, 'shape', None)
        if other_dtype is None or other_shape is None:
            return False
        return (self._dtype == other_dtype
                and self._shape.is_compatible_with(other_shape))

    def is_subtype_of(self, other: object) -> bool:
        return self._dtype == other.dtype and self._shape.is_subtype_of(other.shape)

    def most_specific_common_supertype(self, others):
        shape = self._shape
        for other in others:
            if other.dtype != self._dtype:
                return None
            shape = shape.most_specific_compatible_shape(other.shape)
        return TensorSpec(shape, self._dtype, self._name)

    def __eq__(self, other):
        return (type(other) is TensorSpec and self._dtype == other._dtype
                and self._shape == other._shape and self._name == other._name)

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash((self._shape, self._dtype, self._name))

    def __repr__(self):
        return (f'TensorSpec(shape={self._shape}, dtype={self._dtype!r}, '
                f'name={self._name!r})')


def _tensor_name(tensor):
    # Eager tensors have no meaningful name; TF gives None there too.
    try:
        name = tensor.name
    except AttributeError:
        return None
    return name.split(':')[0] if isinstance(name, str) else None
