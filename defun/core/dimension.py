"""`Dimension`: one dimension of a static shape, known (an int >= 0) or unknown (None), as TF's
`tf.compat.v1.Dimension`.

TF 2 shapes hold plain ints and None; Dimension objects appear where TF still hands them out
(`TensorShape.dims`, `tf.compat.v1.Dimension`). An unknown dimension is contagious, as in TF:
arithmetic with it gives an unknown Dimension, and comparisons with it give None.
"""
import operator

__all__ = ['Dimension', 'as_dimension', 'dimension_value']


def _value_of(value):
    if isinstance(value, Dimension):
        return value.value
    if value is None:
        return None
    try:
        index = value.__index__()
    except AttributeError:
        raise TypeError(f'Dimension value must be integer or None or have an __index__ method, '
                        f"got value '{value!r}' with type '{type(value)!r}'") from None
    if index < 0:
        raise ValueError(f'Dimension {index} must be >= 0')
    return index


class Dimension:
    """A known or unknown (None) dimension."""

    __slots__ = ('_value',)
    __hash__ = None  # unhashable, as TF's (its == can answer None)

    def __init__(self, value):
        self._value = _value_of(value)

    @property
    def value(self):
        return self._value

    def __repr__(self):
        return f'Dimension({self._value!r})'

    def __str__(self):
        return '?' if self._value is None else str(self._value)

    def __int__(self):
        return self._value

    def __index__(self):
        return self._value

    def __bool__(self):
        return bool(self._value)

    def __reduce__(self):
        return Dimension, (self._value,)

    def is_compatible_with(self, other):
        other = as_dimension(other)
        return self._value is None or other.value is None or self._value == other.value

    def assert_is_compatible_with(self, other):
        if not self.is_compatible_with(other):
            raise ValueError(f'Dimensions {self} and {as_dimension(other)} are not compatible')

    def merge_with(self, other):
        other = as_dimension(other)
        self.assert_is_compatible_with(other)
        return Dimension(other.value if self._value is None else self._value)


def _binary(op, reflected=False):
    def method(self, other):
        try:
            other = as_dimension(other)
        except (TypeError, ValueError):
            return NotImplemented
        a, b = (other.value, self._value) if reflected else (self._value, other.value)
        if a is None or b is None:
            return Dimension(None)
        return Dimension(op(a, b))
    return method


def _comparison(op):
    def method(self, other):
        try:
            other = as_dimension(other)
        except (TypeError, ValueError):
            return NotImplemented
        if self._value is None or other.value is None:
            return None
        return op(self._value, other.value)
    return method


for _name, _op in (('add', operator.add), ('sub', operator.sub), ('mul', operator.mul),
                   ('floordiv', operator.floordiv), ('mod', operator.mod)):
    setattr(Dimension, f'__{_name}__', _binary(_op))
    setattr(Dimension, f'__r{_name}__', _binary(_op, reflected=True))
for _name in ('eq', 'ne', 'lt', 'le', 'gt', 'ge'):
    setattr(Dimension, f'__{_name}__', _comparison(getattr(operator, _name)))


def as_dimension(value):
    """`value` as a Dimension (a Dimension is returned as it is)."""
    return value if isinstance(value, Dimension) else Dimension(value)


def dimension_value(dimension):
    """The int (or None) of a Dimension, or `dimension` itself when it is an int or None."""
    return dimension.value if isinstance(dimension, Dimension) else dimension
