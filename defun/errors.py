"""The error types defun raises where TensorFlow users catch them, and helpers that word messages.

TensorFlow's `OpError` family is kept by name; `InvalidArgumentError` also subclasses ValueError so
that code catching either works (TF users catch both in practice).
"""

__all__ = ['OpError', 'InvalidArgumentError', 'NotFoundError', 'UnimplementedError',
           'FailedPreconditionError', 'OutOfRangeError', 'InaccessibleTensorError',
           'OperatorNotAllowedInGraphError', 'describe']


class OpError(Exception):
    """An op failed; `op` names it when known."""

    def __init__(self, message, op=None):
        super().__init__(message)
        self.message = message
        self.op = op


class InvalidArgumentError(OpError, ValueError):
    """An op received an argument of the wrong shape, dtype or value."""


class NotFoundError(OpError, LookupError):
    pass


class UnimplementedError(OpError, NotImplementedError):
    pass


class FailedPreconditionError(OpError, RuntimeError):
    pass


class OutOfRangeError(OpError, IndexError):
    pass


class InaccessibleTensorError(ValueError):
    """A tensor of one graph was used in another graph that cannot capture it."""


class OperatorNotAllowedInGraphError(TypeError):
    """A graph tensor was used where Python needs a concrete value (bool, iteration, ...)."""


def describe(value):
    """'float32[2,3]'-style text for a tensor, or repr for anything else: for error messages."""
    dtype = getattr(value, 'dtype', None)
    shape = getattr(value, 'shape', None)
    if dtype is None or shape is None:
        text = repr(value)
        return text if len(text) <= 60 else text[:57] + '...'
    dims = getattr(shape, 'as_tuple', lambda: tuple(shape))()
    if dims is None:
        return f'{getattr(dtype, "name", dtype)}[<unknown rank>]'
    return f'{getattr(dtype, "name", dtype)}[{",".join("?" if d is None else str(d) for d in dims)}]'


class DataLossError(OpError):
    """Stored data (a checkpoint, a saved model) is corrupt or unreadable."""
