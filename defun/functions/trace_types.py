"""The public types of tracing, as TF's `tf.types.experimental`: TraceType (the protocol custom
argument types implement through `__tf_tracing_type__`), TracingContext (what that method
receives), and how a traced signature shows arguments that are not tensors (VariableSpec for
Variables, UnknownArgument for objects keyed by identity)."""
import abc

from defun.core import dtypes
from defun.core.shapes import TensorShape

__all__ = ['TraceType', 'TracingContext', 'VariableSpec', 'UnknownArgument', 'TypeText']


class TraceType(metaclass=abc.ABCMeta):
    """The type of an argument for tracing, as `tf.types.experimental.TraceType`: an object's
    `__tf_tracing_type__(context)` returns one; a call whose argument's type equals a traced one,
    or is its subtype, reuses that trace, which received `placeholder_value()` for the argument."""

    @abc.abstractmethod
    def is_subtype_of(self, other):
        """True when every value of this type is also one of `other`."""

    @abc.abstractmethod
    def most_specific_common_supertype(self, others):
        """The most specific type that this and every one of `others` are subtypes of, or None."""

    @abc.abstractmethod
    def placeholder_value(self, placeholder_context):
        """What the traced function receives for an argument of this type."""

    def to_tensors(self, value):
        return []

    def flatten(self):
        return []

    @abc.abstractmethod
    def __hash__(self):
        pass

    @abc.abstractmethod
    def __eq__(self, other):
        pass


class VariableSpec:
    """How a Variable argument shows in an input signature, as TF's VariableSpec."""

    __slots__ = ('shape', 'dtype', 'trainable', 'alias_id')

    def __init__(self, shape, dtype=dtypes.float32, trainable=True, alias_id=None):
        self.shape = TensorShape(shape)
        self.dtype = dtypes.as_dtype(dtype)
        self.trainable = trainable
        self.alias_id = alias_id

    def __eq__(self, other):
        return type(other) is VariableSpec and (self.shape, self.dtype, self.trainable,
                                                self.alias_id) == (other.shape, other.dtype,
                                                                   other.trainable, other.alias_id)

    def __hash__(self):
        return hash((self.shape.as_tuple(), self.dtype, self.trainable, self.alias_id))

    def __repr__(self):
        return (f'VariableSpec(shape={self.shape}, dtype={self.dtype!r}, '
                f'trainable={self.trainable}, alias_id={self.alias_id})')


class UnknownArgument:
    """Stands in a trace's input signature for an object keyed by identity (as TF's)."""


class TracingContext:
    """What `__tf_tracing_type__` receives (TF passes its tracing context)."""


class TypeText:
    """A type in a FunctionType known by its text, as TF prints it (`Literal[3]`,
    `List[TensorSpec(...), Literal[None]]`, `Weakref[...]`)."""

    __slots__ = ('text',)

    def __init__(self, text):
        self.text = text

    def __eq__(self, other):
        return type(other) is TypeText and other.text == self.text

    def __hash__(self):
        return hash(self.text)

    def __repr__(self):
        return self.text

    __str__ = __repr__
