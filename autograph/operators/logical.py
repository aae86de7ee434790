"""`and_`, `or_`, `not_`, `if_exp`: Python's operators, short-circuiting on tensors too.

On Python values each returns exactly what the expression would (`0 or []` is `[]`). When the
deciding operand is a graph tensor, the lazy side goes into a branch of `defun.cond`, so it still
runs only when needed at execution time.
"""
from defun import control_flow as cf
from defun.ops.math import logic

from autograph.operators import tensors

__all__ = ['and_', 'if_exp', 'not_', 'or_']  # the `ag__` names (see __init__.py)


def _branch(fn):
    return lambda: tensors.to_tensor_leaves(fn())


def and_(left, right_fn):
    if tensors.is_graph_tensor(left):
        return cf.cond(left, _branch(right_fn), lambda: left)
    return right_fn() if left else left


def or_(left, right_fn):
    if tensors.is_graph_tensor(left):
        return cf.cond(left, lambda: left, _branch(right_fn))
    return left if left else right_fn()


def not_(value):
    if tensors.is_graph_tensor(value):
        return logic.logical_not(value)
    return not value


def if_exp(cond, true_fn, false_fn):
    if tensors.is_graph_tensor(cond):
        return cf.cond(cond, _branch(true_fn), _branch(false_fn))
    return true_fn() if cond else false_fn()
