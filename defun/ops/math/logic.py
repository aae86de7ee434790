"""Comparisons, logical ops, `where` and the float classification ops (is_finite, is_nan, is_inf).

None of these has a gradient with respect to its compared or tested inputs (TF registers them as not
differentiable); `where`'s selected values do, and `SelectV2` routes the gradient to the branch each
element came from. This table sits below the arithmetic one, whose maximum/minimum gradients use it.

`==` and `!=` on tensors are elementwise, as in TensorFlow 2: comparing with None or with a value that
does not convert gives a plain False/True, and shapes that do not broadcast compare unequal.
"""
import operator

import numpy as np

from defun.core import context, dtypes, errors
from defun.core.dispatch import apply_op
from defun.ops.support import helpers as op_helpers, lowerings
from defun.ops.support.helpers import binary_args, dims, to_tensor
from defun.ops.framework.base_ops import sum_to, zeros_like
from defun.core.registry import define_op
from defun.core.tensor import is_tensor
from defun.ops.support.docs import documented

__all__ = ['equal', 'not_equal', 'less', 'less_equal', 'greater', 'greater_equal', 'logical_and',
           'logical_or', 'logical_not', 'logical_xor', 'where', 'is_finite', 'is_nan', 'is_inf']


# ---------------------------------------------------------------- comparisons

def _compare_infer(op):
    def infer(x, y):
        return dtypes.bool, op_helpers.broadcast_dims(dims(x), dims(y), op)
    return infer


def _define_compare(op_type, kernel, op, lowering=None):
    return define_op(op_type, kernel, _compare_infer(op), None, lowering=lowering)


# Operators rather than ufuncs: identical on arrays, much cheaper on numpy scalars.
LESS = _define_compare('Less', operator.lt, 'less', lowering=('{0} < {1}', 'iuf'))
LESS_EQUAL = _define_compare('LessEqual', operator.le, 'less_equal',
                             lowering=('{0} <= {1}', 'iuf'))
GREATER = _define_compare('Greater', operator.gt, 'greater', lowering=('{0} > {1}', 'iuf'))
GREATER_EQUAL = _define_compare('GreaterEqual', operator.ge, 'greater_equal',
                                lowering=('{0} >= {1}', 'iuf'))


@documented('compare', 'Returns the truth value of (x < y) element-wise.')
def less(x, y, name=None):
    return apply_op(LESS, binary_args(x, y, 'less'), None, name)


@documented('compare', 'Returns the truth value of (x <= y) element-wise.')
def less_equal(x, y, name=None):
    return apply_op(LESS_EQUAL, binary_args(x, y, 'less_equal'), None, name)


@documented('compare', 'Returns the truth value of (x > y) element-wise.')
def greater(x, y, name=None):
    return apply_op(GREATER, binary_args(x, y, 'greater'), None, name)


@documented('compare', 'Returns the truth value of (x >= y) element-wise.')
def greater_equal(x, y, name=None):
    return apply_op(GREATER_EQUAL, binary_args(x, y, 'greater_equal'), None, name)


def _equality_kernel(ufunc, mismatch):
    def kernel(x, y, incompatible_shape_error=True):
        if incompatible_shape_error or np.shape(x) == np.shape(y):
            return ufunc(x, y)
        try:
            np.broadcast_shapes(np.shape(x), np.shape(y))
        except ValueError:
            return np.bool_(mismatch)
        return ufunc(x, y)
    return kernel


def _equality_infer(op):
    def infer(x, y, incompatible_shape_error=True):
        try:
            return dtypes.bool, op_helpers.broadcast_dims(dims(x), dims(y), op)
        except (ValueError, errors.InvalidArgumentError):
            if incompatible_shape_error:
                raise
            return dtypes.bool, ()
    return infer


EQUAL = define_op('Equal', _equality_kernel(np.equal, False), _equality_infer('equal'), None)
NOT_EQUAL = define_op('NotEqual', _equality_kernel(np.not_equal, True),
                      _equality_infer('not_equal'), None)


@documented('compare', 'Returns the truth value of (x == y) element-wise.')
def equal(x, y, name=None):
    return apply_op(EQUAL, binary_args(x, y, 'equal'), None, name)


@documented('compare', 'Returns the truth value of (x != y) element-wise.')
def not_equal(x, y, name=None):
    return apply_op(NOT_EQUAL, binary_args(x, y, 'not_equal'), None, name)


def _tensor_equality(opdef, unconvertible):
    """Tensor.__eq__/__ne__ as TF2: elementwise, but never raising for an unconvertible operand."""
    def operator(self, other):
        if other is None:
            return unconvertible
        graph = context.current_graph()
        if not context.tensor_equality_enabled() or (
                graph is not None and not getattr(graph, 'building_function', True)):
            # A TF1-style graph (Graph.as_default outside a function), or equality switched off
            # with tf.compat.v1.disable_tensor_equality: tensors compare by identity.
            same = self is other
            return same if opdef is EQUAL else not same
        try:
            x, y = binary_args(self, other, opdef.type)
        except (TypeError, ValueError, errors.InvalidArgumentError):
            if is_tensor(other):
                raise
            return unconvertible
        return apply_op(opdef, (x, y), {'incompatible_shape_error': False})
    return operator


# This table's Python operators on Tensor (installed by defun/ops/tensor_methods.py).
OPERATORS = {'__eq__': _tensor_equality(EQUAL, False),
             '__ne__': _tensor_equality(NOT_EQUAL, True)}


# ---------------------------------------------------------------- logical

def _logical_infer(op):
    def infer(x, *rest):
        shape = dims(x)
        for y in rest:
            shape = op_helpers.broadcast_dims(shape, dims(y), op)
        return x.dtype, shape
    return infer


LOGICAL_AND = define_op('LogicalAnd', np.logical_and,
                        _logical_infer('logical_and'), None, lowering=('{0} & {1}', 'b'))
LOGICAL_OR = define_op('LogicalOr', np.logical_or,
                       _logical_infer('logical_or'), None, lowering=('{0} | {1}', 'b'))
LOGICAL_NOT = define_op('LogicalNot', np.logical_not,
                        _logical_infer('logical_not'), None, lowering=('np.logical_not({0})', 'b'))


@documented('logical', 'Returns the truth value of x AND y element-wise.')
def logical_and(x, y, name=None):
    return apply_op(LOGICAL_AND, binary_args(x, y, 'logical_and'), None, name)


@documented('logical', 'Returns the truth value of x OR y element-wise.')
def logical_or(x, y, name=None):
    return apply_op(LOGICAL_OR, binary_args(x, y, 'logical_or'), None, name)


@documented('logical', 'Returns the truth value of NOT x element-wise.')
def logical_not(x, name=None):
    # LogicalNot's input is bool by its signature, so a Python value converts as bool ([] too);
    # a tensor of another dtype meets the signature's refusal (TF's error, in dispatch)
    dtype = None if is_tensor(x) else dtypes.bool
    return apply_op(LOGICAL_NOT, (to_tensor(x, dtype, op='logical_not'),), None, name)


def logical_xor(x, y, name='LogicalXor'):
    """x XOR y, built from and/or/not exactly as TensorFlow builds it."""
    x, y = binary_args(x, y, 'logical_xor')
    return logical_and(logical_or(x, y), logical_not(logical_and(x, y)))


# Python's bitwise operators are logical on bool tensors and bitwise on integer tensors (as in TF).

BITWISE_AND = define_op('BitwiseAnd', np.bitwise_and,
                        _logical_infer('bitwise_and'), None)
BITWISE_OR = define_op('BitwiseOr', np.bitwise_or,
                       _logical_infer('bitwise_or'), None)
BITWISE_XOR = define_op('BitwiseXor', np.bitwise_xor,
                        _logical_infer('bitwise_xor'), None)
INVERT = define_op('Invert', np.invert,
                   _logical_infer('invert'), None)


def _bitwise_operator(logical, bitwise_op, op):
    def operator(x, y):
        x, y = binary_args(x, y, op)
        if x.dtype is dtypes.bool:
            return logical(x, y)
        return apply_op(bitwise_op, (x, y))
    return operator


def _invert(x):
    if x.dtype is dtypes.bool:
        return logical_not(x)
    return apply_op(INVERT, (x,))


def _reflected(fn):
    return lambda self, other: fn(other, self)


for _name, _fn in [('__and__', _bitwise_operator(logical_and, BITWISE_AND, 'and')),
                   ('__or__', _bitwise_operator(logical_or, BITWISE_OR, 'or')),
                   ('__xor__', _bitwise_operator(logical_xor, BITWISE_XOR, 'xor'))]:
    OPERATORS[_name] = _fn
    OPERATORS['__r' + _name[2:]] = _reflected(_fn)
for _name, _fn in [('__lt__', less), ('__le__', less_equal), ('__gt__', greater),
                   ('__ge__', greater_equal)]:
    OPERATORS[_name] = op_helpers.operator_method(_fn)
OPERATORS['__invert__'] = _invert


# ---------------------------------------------------------------- where

def _select_infer(c, x, y):
    if c.dtype is not dtypes.bool:
        raise TypeError(f'where: condition must be a bool tensor, got {c.dtype.name}')
    shape = op_helpers.broadcast_dims(dims(c), op_helpers.broadcast_dims(dims(x), dims(y), 'where'),
                                  'where')
    return x.dtype, shape


def _select_grad(op, g):
    c, x, y = op.inputs
    zero = zeros_like(g)
    return None, sum_to(where(c, g, zero), x), sum_to(where(c, zero, g), y)


SELECT = define_op('SelectV2', np.where, _select_infer, _select_grad, lowering=lowerings.select)


def _where_indices_infer(c):
    d = dims(c)
    return dtypes.int64, (None, None if d is None else len(d))


WHERE = define_op('Where', lambda c: np.argwhere(c).astype(np.int64), _where_indices_infer, None)


def where(condition, x=None, y=None, name=None):
    """Elementwise choice between x and y (broadcasting), or with one argument the coordinates of
    the true (non-zero) elements as an int64 [num_true, rank] tensor."""
    if (x is None) != (y is None):
        raise ValueError('where: x and y must both be non-None or both be None')
    if x is None:
        return apply_op(WHERE, (to_tensor(condition, op='where'),), None, name)
    c = to_tensor(condition, dtype=dtypes.bool, name='condition', op='where')
    x, y = binary_args(x, y, 'where')
    return apply_op(SELECT, (c, x, y), None, name)


# ---------------------------------------------------------------- float classification

def _classify_infer(op):
    def infer(x):
        return dtypes.bool, dims(x)
    return infer


IS_FINITE = define_op('IsFinite', np.isfinite,
                      _classify_infer('is_finite'), None)
IS_NAN = define_op('IsNan', np.isnan, _classify_infer('is_nan'),
                   None)
IS_INF = define_op('IsInf', np.isinf, _classify_infer('is_inf'),
                   None)


@documented('classify', 'Returns which elements of `x` are finite (not inf, not NaN).')
def is_finite(x, name=None):
    return apply_op(IS_FINITE, (to_tensor(x, op='is_finite'),), None, name)


@documented('classify', 'Returns which elements of `x` are NaN.')
def is_nan(x, name=None):
    return apply_op(IS_NAN, (to_tensor(x, op='is_nan'),), None, name)


@documented('classify', 'Returns which elements of `x` are +inf or -inf.')
def is_inf(x, name=None):
    return apply_op(IS_INF, (to_tensor(x, op='is_inf'),), None, name)
