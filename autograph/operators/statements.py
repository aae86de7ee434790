"""`assert` as a function: Python's AssertionError, or an assertion op for a graph tensor."""
from defun.ops.debugging import debug

from autograph.operators import tensors

__all__ = ['assert_stmt']  # the `ag__` names (see __init__.py)


def assert_stmt(test, message_fn):
    if tensors.is_graph_tensor(test):
        message = message_fn()
        data = [message] if message is not None else ['Assertion failed']
        return debug.Assert(test, data)
    if not test:
        message = message_fn()
        raise AssertionError(message) if message is not None else AssertionError()
    return None
