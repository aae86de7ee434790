"""`tf.errors`: the error types and status codes TensorFlow users catch, and TF's names only
(the helpers that word messages live in defun/core/error_helpers.py).

The `OpError` family follows TensorFlow's hierarchy exactly: every `OpError` subclass derives from
`OpError`, an `Exception`, and from nothing else, so code ported from TensorFlow that catches
`ValueError` around graph building and `InvalidArgumentError` around eager calls sees what it would
under TF. The constructors take TF's `(node_def, op, message)` as well as defun's own `(message)`.
"""
__all__ = ['OpError', 'CancelledError', 'UnknownError', 'InvalidArgumentError',
           'DeadlineExceededError', 'NotFoundError', 'AlreadyExistsError',
           'PermissionDeniedError', 'UnauthenticatedError', 'ResourceExhaustedError',
           'FailedPreconditionError', 'AbortedError', 'OutOfRangeError', 'UnimplementedError',
           'InternalError', 'UnavailableError', 'DataLossError', 'OperatorNotAllowedInGraphError',
           'OK', 'CANCELLED', 'UNKNOWN', 'INVALID_ARGUMENT', 'DEADLINE_EXCEEDED', 'NOT_FOUND',
           'ALREADY_EXISTS', 'PERMISSION_DENIED', 'UNAUTHENTICATED', 'RESOURCE_EXHAUSTED',
           'FAILED_PRECONDITION', 'ABORTED', 'OUT_OF_RANGE', 'UNIMPLEMENTED', 'INTERNAL',
           'UNAVAILABLE', 'DATA_LOSS']

# TensorFlow's status codes (the `error_code` of each OpError subclass).
OK, CANCELLED, UNKNOWN, INVALID_ARGUMENT, DEADLINE_EXCEEDED, NOT_FOUND = 0, 1, 2, 3, 4, 5
ALREADY_EXISTS, PERMISSION_DENIED, RESOURCE_EXHAUSTED, FAILED_PRECONDITION = 6, 7, 8, 9
ABORTED, OUT_OF_RANGE, UNIMPLEMENTED, INTERNAL, UNAVAILABLE, DATA_LOSS = 10, 11, 12, 13, 14, 15
UNAUTHENTICATED = 16


class OpError(Exception):
    """An op failed. `OpError(message)`, or TF's `OpError(node_def, op, message, error_code)`."""

    code = UNKNOWN

    def __init__(self, node_def=None, op=None, message=None, error_code=None, *args):
        if message is None and isinstance(node_def, str):
            node_def, message = None, node_def  # defun's one-argument form
        message = '' if message is None else str(message)
        super().__init__(message)
        self.message = message
        self.node_def = node_def
        self.op = op
        if error_code is not None:
            self.code = error_code

    @property
    def error_code(self):
        return self.code

    def __reduce__(self):
        return type(self), (self.node_def, None, self.message)


def _op_error(name, code, doc):
    cls = type(name, (OpError,), {'__doc__': doc, 'code': code, '__module__': __name__})
    return cls


CancelledError = _op_error('CancelledError', CANCELLED, 'An operation was cancelled.')
UnknownError = _op_error('UnknownError', UNKNOWN, 'An unknown error.')
InvalidArgumentError = _op_error('InvalidArgumentError', INVALID_ARGUMENT,
                                 'An op received an argument of the wrong shape, dtype or value.')
DeadlineExceededError = _op_error('DeadlineExceededError', DEADLINE_EXCEEDED,
                                  'A deadline expired.')
NotFoundError = _op_error('NotFoundError', NOT_FOUND, 'A requested entity was not found.')
AlreadyExistsError = _op_error('AlreadyExistsError', ALREADY_EXISTS, 'An entity already exists.')
PermissionDeniedError = _op_error('PermissionDeniedError', PERMISSION_DENIED,
                                  'The caller may not run the operation.')
UnauthenticatedError = _op_error('UnauthenticatedError', UNAUTHENTICATED,
                                 'The request lacks valid credentials.')
ResourceExhaustedError = _op_error('ResourceExhaustedError', RESOURCE_EXHAUSTED,
                                   'A resource (such as memory) ran out.')
FailedPreconditionError = _op_error('FailedPreconditionError', FAILED_PRECONDITION,
                                    'The system is not in a state to run the operation.')
AbortedError = _op_error('AbortedError', ABORTED, 'An operation was aborted.')
OutOfRangeError = _op_error('OutOfRangeError', OUT_OF_RANGE,
                            'An operation went past the valid range (e.g. an exhausted input).')
UnimplementedError = _op_error('UnimplementedError', UNIMPLEMENTED,
                               'The operation is not implemented or not supported.')
InternalError = _op_error('InternalError', INTERNAL, 'An internal invariant was broken.')
UnavailableError = _op_error('UnavailableError', UNAVAILABLE, 'The runtime is unavailable.')
DataLossError = _op_error('DataLossError', DATA_LOSS, 'Unrecoverable data loss.')


class OperatorNotAllowedInGraphError(TypeError):
    """A graph tensor was used where Python needs a concrete value (bool, iteration, ...)."""
