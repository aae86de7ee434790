"""Arithmetic ops: elementwise binary and unary math, comparisons, reductions, add_n and matmul.

Each op is one `define_op` entry: numpy kernel, dtype/shape inference, gradient (in our own ops),
followed by its public Python function. Binary ops convert their operands by TF's rules
(common.binary_args) and broadcast as numpy does; gradients of broadcast inputs are summed back to the
input's shape with `sum_to`.
"""
import numpy as np

from defun import dtypes
from defun.dispatch import apply_op
from defun.ops import common
from defun.ops.core import broadcast_to, cast, reduced_shape, reshape, shape, sum_to
from defun.ops.common import binary_args, dims, same_as_first, to_tensor
from defun.registry import define_op
from defun.tensor import install_operator

__all__ = ['add', 'subtract', 'multiply', 'divide', 'truediv', 'negative', 'sin', 'cos', 'exp',
           'square', 'reduce_sum', 'add_n', 'matmul', 'convert_like']


# ---------------------------------------------------------------- helpers for gradients

def convert_like(value, like):
    """Converts `value` to a tensor of `like`'s dtype (output_gradients, grad_ys)."""
    return to_tensor(value, dtype=like.dtype, name='gradient', op='gradient')


# ---------------------------------------------------------------- elementwise binary

def _binary_infer(op_type):
    def infer(x, y):
        return x.dtype, common.broadcast_dims(dims(x), dims(y), op_type)
    return infer


def _define_binary(op_type, kernel, grad):
    return define_op(op_type, kernel, _binary_infer(op_type), grad)


ADD = _define_binary('AddV2', np.add, lambda op, g: (sum_to(g, op.inputs[0]),
                                                     sum_to(g, op.inputs[1])))
SUB = _define_binary('Sub', np.subtract, lambda op, g: (sum_to(g, op.inputs[0]),
                                                        sum_to(-g, op.inputs[1])))
MUL = _define_binary('Mul', np.multiply, lambda op, g: (sum_to(g * op.inputs[1], op.inputs[0]),
                                                        sum_to(op.inputs[0] * g, op.inputs[1])))


def _real_div_grad(op, g):
    x, y = op.inputs
    return sum_to(g / y, x), sum_to(-g * x / (y * y), y)


REAL_DIV = _define_binary('RealDiv', np.divide, _real_div_grad)


def add(x, y, name=None):
    x, y = binary_args(x, y, 'add')
    return apply_op(ADD, (x, y), None, name)


def subtract(x, y, name=None):
    x, y = binary_args(x, y, 'subtract')
    return apply_op(SUB, (x, y), None, name)


def multiply(x, y, name=None):
    x, y = binary_args(x, y, 'multiply')
    return apply_op(MUL, (x, y), None, name)


def _int_div_dtype(dtype):
    # TF's truediv: int8/int16/uint8 -> float32, int32/int64 -> float64.
    return dtypes.float32 if dtype.size <= 2 else dtypes.float64


def truediv(x, y, name=None):
    x, y = binary_args(x, y, 'truediv')
    if x.dtype.is_integer:
        target = _int_div_dtype(x.dtype)
        x, y = cast(x, target), cast(y, target)
    return apply_op(REAL_DIV, (x, y), None, name)


divide = truediv


# ---------------------------------------------------------------- elementwise unary

NEG = define_op('Neg', np.negative, same_as_first, lambda op, g: -g)
SIN = define_op('Sin', np.sin, same_as_first, lambda op, g: g * cos(op.inputs[0]))
COS = define_op('Cos', np.cos, same_as_first, lambda op, g: -g * sin(op.inputs[0]))
EXP = define_op('Exp', np.exp, same_as_first, lambda op, g: g * op.outputs[0])
SQUARE = define_op('Square', np.square, same_as_first,
                   lambda op, g: g * (op.inputs[0] * 2))


def negative(x, name=None):
    return apply_op(NEG, (to_tensor(x, op='negative'),), None, name)


def sin(x, name=None):
    return apply_op(SIN, (to_tensor(x, op='sin'),), None, name)


def cos(x, name=None):
    return apply_op(COS, (to_tensor(x, op='cos'),), None, name)


def exp(x, name=None):
    return apply_op(EXP, (to_tensor(x, op='exp'),), None, name)


def square(x, name=None):
    return apply_op(SQUARE, (to_tensor(x, op='square'),), None, name)


# ---------------------------------------------------------------- reductions and n-ary

def _reduce_sum_kernel(x, axis, keepdims):
    return np.sum(x, axis=axis, keepdims=keepdims, dtype=x.dtype)


def _reduce_infer(x, axis, keepdims):
    return x.dtype, common.reduce_dims(dims(x), axis, keepdims, 'reduce')


def _reduce_sum_grad(op, g):
    x = op.inputs[0]
    if not op.get_attr('keepdims'):
        g = reshape(g, reduced_shape(x, op.get_attr('axis')))
    return broadcast_to(g, shape(x))


SUM = define_op('Sum', _reduce_sum_kernel, _reduce_infer, _reduce_sum_grad)


def reduce_sum(input_tensor, axis=None, keepdims=False, name=None):
    x = to_tensor(input_tensor, op='reduce_sum')
    axes = common.normalize_axis(axis, x.shape.rank, 'reduce_sum') if axis is not None else None
    return apply_op(SUM, (x,), {'axis': axes, 'keepdims': bool(keepdims)}, name)


def _add_n_kernel(*xs):
    total = xs[0]
    for v in xs[1:]:
        total = total + v
    return total


def _add_n_infer(*xs):
    shape = dims(xs[0])
    for x in xs[1:]:
        shape = common.broadcast_dims(shape, dims(x), 'add_n')
    return xs[0].dtype, shape


ADD_N = define_op('AddN', _add_n_kernel, _add_n_infer,
                  lambda op, g: [g] * len(op.inputs))


def add_n(inputs, name=None):
    if not inputs:
        raise ValueError('add_n: inputs must be a non-empty list of tensors')
    tensors = common.same_dtype_args(list(inputs), 'add_n')
    if len(tensors) == 1:
        return tensors[0]
    return apply_op(ADD_N, tuple(tensors), None, name)


# ---------------------------------------------------------------- matmul

def _matmul_kernel(a, b, transpose_a, transpose_b):
    if transpose_a:
        a = np.swapaxes(a, -1, -2)
    if transpose_b:
        b = np.swapaxes(b, -1, -2)
    return np.matmul(a, b)


def _matmul_infer(a, b, transpose_a, transpose_b):
    sa, sb = dims(a), dims(b)
    if sa is None or sb is None:
        return a.dtype, None
    if len(sa) < 2 or len(sb) < 2:
        raise ValueError(f'matmul: inputs must be at least rank 2, got shapes {list(sa)} and '
                         f'{list(sb)}')
    m, ka = (sa[-1], sa[-2]) if transpose_a else (sa[-2], sa[-1])
    kb, n = (sb[-1], sb[-2]) if transpose_b else (sb[-2], sb[-1])
    if ka is not None and kb is not None and ka != kb:
        raise ValueError(f'matmul: Matrix size-incompatible: In[0]: {list(sa)}, In[1]: {list(sb)}')
    batch = common.broadcast_dims(sa[:-2], sb[:-2], 'matmul')
    return a.dtype, tuple(batch) + (m, n)


def _matmul_grad(op, g):
    a, b = op.inputs
    ta, tb = op.get_attr('transpose_a'), op.get_attr('transpose_b')
    if not ta and not tb:
        ga, gb = matmul(g, b, transpose_b=True), matmul(a, g, transpose_a=True)
    elif not ta and tb:
        ga, gb = matmul(g, b), matmul(g, a, transpose_a=True)
    elif ta and not tb:
        ga, gb = matmul(b, g, transpose_b=True), matmul(a, g)
    else:
        ga, gb = matmul(b, g, transpose_a=True, transpose_b=True), matmul(
            g, a, transpose_a=True, transpose_b=True)
    return sum_to(ga, a), sum_to(gb, b)


MATMUL = define_op('MatMul', _matmul_kernel, _matmul_infer, _matmul_grad)


def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False,
           a_is_sparse=False, b_is_sparse=False, output_type=None, name=None):
    a, b = binary_args(a, b, 'matmul')
    attrs = {'transpose_a': bool(transpose_a or adjoint_a),
             'transpose_b': bool(transpose_b or adjoint_b)}
    return apply_op(MATMUL, (a, b), attrs, name)


# ---------------------------------------------------------------- Python operators

def _reflected(fn):
    return lambda self, other: fn(other, self)


for _name, _fn in [('__add__', add), ('__sub__', subtract), ('__mul__', multiply),
                   ('__truediv__', truediv), ('__matmul__', matmul)]:
    install_operator(_name, _fn)
    install_operator('__r' + _name[2:], _reflected(_fn))
install_operator('__neg__', negative)
