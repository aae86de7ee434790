"""Arithmetic ops: the elementwise binary operations (+ - * / // % maximum minimum), negation, square,
add_n, clip_by_value, and the Python arithmetic operators on tensors.

Each op is one `define_op` entry: numpy kernel, dtype/shape inference, gradient (in our own ops),
followed by its public Python function. Binary ops convert their operands by TF's rules
(common.binary_args) and broadcast as numpy does; gradients of broadcast inputs are summed back to the
input's shape with `sum_to`. The eager path of `+ - * /` is kept to the bare kernel call: that is the
overhead a user of eager mode pays on every line.
"""
import operator

import numpy as np

from defun.core import dtypes, error_helpers
from defun.core.dispatch import apply_op, binary_operator
from defun.ops.support import helpers as op_helpers
from defun.ops.support.helpers import binary_args, dims, operator_method, same_as_first, to_tensor
from defun.ops.framework.base_ops import cast, sum_to, zeros_like
from defun.core.tf_signatures import SIGNATURES
from defun.ops.math.logic import greater_equal, less_equal, where
from defun.core.registry import define_op
from defun.core.tensor import EagerTensor, convert_to_tensor
from defun.ops.support import validation
from defun.ops.support.docs import documented

__all__ = ['add', 'subtract', 'multiply', 'divide', 'truediv', 'floordiv', 'floormod', 'mod',
           'maximum', 'minimum', 'divide_no_nan', 'negative', 'square', 'add_n', 'clip_by_value',
           'scalar_mul', 'conj', 'convert_like']


def convert_like(value, like):
    """Converts `value` to a tensor of `like`'s dtype (output_gradients, grad_ys)."""
    return to_tensor(value, dtype=like.dtype, name='gradient', op='gradient')


# ---------------------------------------------------------------- elementwise binary

def _binary_infer(op):
    def infer(x, y):
        return x.dtype, op_helpers.broadcast_dims(dims(x), dims(y), op)
    return infer


def _define_binary(op_type, kernel, grad, op, lowering=None, **signature):
    return define_op(op_type, kernel, _binary_infer(op), grad, lowering=lowering, **signature)


CONJ = define_op('Conj', np.conj, same_as_first, lambda op, g: conj(g))


def conj(x, name=None):
    """The complex conjugate; real tensors are returned as they are (no op), as in TF."""
    x = to_tensor(x, op='conj')
    if x.dtype.is_bool or x.dtype.name == 'string':
        raise TypeError(f'Expected numeric or variant tensor, got dtype tf.{x.dtype.name}.')
    return apply_op(CONJ, (x,), None, name) if x.dtype.is_complex else x


# Gradients of complex ops follow TF's convention (the conjugate of the derivative), hence conj.
# Kernels are Python's operators, not the ufuncs: the same numpy arithmetic on arrays, and ten
# times cheaper on numpy scalars (loop counters and other scalar math in compiled loops).
# defun's AddV2 is also TF's Add (tf.add of strings runs Add): AddV2's types and string.
ADD = _define_binary('AddV2', operator.add, lambda op, g: (sum_to(g, op.inputs[0]),
                                                     sum_to(g, op.inputs[1])), 'add',
                     lowering=('{0} + {1}', 'iuf'),
                     attrs=(SIGNATURES['AddV2'][1][0].rstrip('}') + ', string}',))
SUB = _define_binary('Sub', operator.sub, lambda op, g: (sum_to(g, op.inputs[0]),
                                                        sum_to(-g, op.inputs[1])), 'subtract',
                     lowering=('{0} - {1}', 'iuf'))
MUL = _define_binary('Mul', operator.mul,
                     lambda op, g: (sum_to(g * conj(op.inputs[1]), op.inputs[0]),
                                    sum_to(conj(op.inputs[0]) * g, op.inputs[1])), 'multiply',
                     lowering=('{0} * {1}', 'iuf'))


def _real_div_grad(op, g):
    x, y = conj(op.inputs[0]), conj(op.inputs[1])
    # TF's order of operations, g * ((-x / y) / y), so that the float results agree bit for bit.
    return sum_to(g / y, op.inputs[0]), sum_to(g * ((-x / y) / y), op.inputs[1])


REAL_DIV = _define_binary('RealDiv', operator.truediv, _real_div_grad, 'truediv',
                          lowering=('{0} / {1}', 'f'))


def _operands(x, y, op):
    """binary_args, after a shortcut for the commonest eager call (two eager tensors of one dtype),
    which skips building two DTypes on the path every eager `a + b` takes."""
    if type(x) is EagerTensor and type(y) is EagerTensor and x.array.dtype is y.array.dtype:
        return x, y
    return binary_args(x, y, op)


@documented('binary', 'Returns x + y element-wise, broadcasting.')
def add(x, y, name=None):
    x, y = _operands(x, y, 'add')
    return apply_op(ADD, (x, y), None, name or 'Add')


@documented('binary', 'Returns x - y element-wise, broadcasting.')
def subtract(x, y, name=None):
    x, y = _operands(x, y, 'subtract')
    return apply_op(SUB, (x, y), None, name)


@documented('binary', 'Returns x * y element-wise, broadcasting.')
def multiply(x, y, name=None):
    x, y = _operands(x, y, 'multiply')
    return apply_op(MUL, (x, y), None, name)


def _int_div_dtype(dtype):
    # TF's truediv: int8/int16/uint8 -> float32, int32/int64 -> float64.
    return dtypes.float32 if dtype.size <= 2 else dtypes.float64


@documented('binary', 'Returns x / y element-wise; integer operands are divided as floats.')
def truediv(x, y, name=None):
    x, y = _operands(x, y, 'truediv')
    if not x.dtype.is_numeric:  # TF's wrapper checks this itself: a TypeError in both modes
        raise TypeError(f'truediv: Invalid dtype {x.dtype.name} in __truediv__ '
                        f'({error_helpers.describe(x)} / {error_helpers.describe(y)})')
    if x.dtype.is_integer:
        target = _int_div_dtype(x.dtype)
        x, y = cast(x, target), cast(y, target)
    return apply_op(REAL_DIV, (x, y), None, name or 'truediv')


divide = truediv


def _check_int_divisor(x, y, op):
    if x.dtype.kind in 'iu' and not np.all(y):
        raise validation.invalid_argument(f'{op}: Integer division by zero')


def _floordiv_kernel(x, y):
    _check_int_divisor(x, y, 'floordiv')
    if x.dtype.kind in 'iu':
        return np.floor_divide(x, y)
    return np.floor(np.divide(x, y))   # TF floors the true quotient (numpy's // differs at edges)


def _floormod_kernel(x, y):
    _check_int_divisor(x, y, 'floormod')
    return np.mod(x, y)


def _floormod_grad(op, g):
    x, y = op.inputs
    return sum_to(g, x), sum_to(g * -floordiv(x, y), y)


FLOOR_DIV = _define_binary('FloorDiv', _floordiv_kernel, None, 'floordiv')
FLOOR_MOD = _define_binary('FloorMod', _floormod_kernel, _floormod_grad, 'floormod')


def floordiv(x, y, name=None):
    """Division rounding toward negative infinity (Python's //); not differentiable, as in TF."""
    x, y = binary_args(x, y, 'floordiv')
    return apply_op(FLOOR_DIV, (x, y), None, name or 'floordiv')


def floormod(x, y, name=None):
    """The remainder of floordiv: x - floordiv(x, y) * y, with the sign of y (Python's %)."""
    x, y = binary_args(x, y, 'floormod')
    return apply_op(FLOOR_MOD, (x, y), None, name)


mod = floormod


def _min_max_grad(selector):
    """TF's gradient of maximum/minimum: each element's gradient goes to the input it came from;
    on ties it goes to x."""
    def grad(op, g):
        x, y = op.inputs
        zero = zeros_like(g)
        x_wins = selector(x, y)
        return sum_to(where(x_wins, g, zero), x), sum_to(where(x_wins, zero, g), y)
    return grad


MAXIMUM = _define_binary('Maximum', np.maximum, _min_max_grad(greater_equal), 'maximum',
                         lowering=('np.maximum({0}, {1})', 'iuf'))
MINIMUM = _define_binary('Minimum', np.minimum, _min_max_grad(less_equal), 'minimum',
                         lowering=('np.minimum({0}, {1})', 'iuf'))


@documented('binary', 'Returns the element-wise maximum of `x` and `y`, broadcasting.')
def maximum(x, y, name=None):
    x, y = binary_args(x, y, 'maximum')
    return apply_op(MAXIMUM, (x, y), None, name)


@documented('binary', 'Returns the element-wise minimum of `x` and `y`, broadcasting.')
def minimum(x, y, name=None):
    x, y = binary_args(x, y, 'minimum')
    return apply_op(MINIMUM, (x, y), None, name)


def _div_no_nan_kernel(x, y):
    zero = y == 0
    if not zero.any():
        return np.divide(x, y)
    return np.where(zero, np.zeros((), x.dtype), np.divide(x, np.where(zero, 1, y).astype(y.dtype)))


def _div_no_nan_grad(op, g):
    x, y = conj(op.inputs[0]), conj(op.inputs[1])
    return (sum_to(divide_no_nan(g, y), op.inputs[0]),
            sum_to(g * divide_no_nan(divide_no_nan(-x, y), y), op.inputs[1]))


DIV_NO_NAN = _define_binary('DivNoNan', _div_no_nan_kernel, _div_no_nan_grad, 'divide_no_nan')


def divide_no_nan(x, y, name=None):
    """x / y, but 0 wherever y is 0 (even where x is 0 or not finite); integers divide as
    truediv does (to float32 or float64), as in TF."""
    x, y = binary_args(x, y, 'divide_no_nan')
    if x.dtype.is_integer:
        target = _int_div_dtype(x.dtype)
        x, y = cast(x, target), cast(y, target)
    return apply_op(DIV_NO_NAN, (x, y), None, name)


# ---------------------------------------------------------------- negation, square, add_n

NEG = define_op('Neg', np.negative, same_as_first, lambda op, g: -g, lowering=('-{0}', 'if'))
SQUARE = define_op('Square', np.square, same_as_first,
                   lambda op, g: g * (conj(op.inputs[0]) * 2), lowering=('{0} * {0}', 'iuf'))


@documented('unary', 'Computes -x element-wise.')
def negative(x, name=None):
    return apply_op(NEG, (to_tensor(x, op='negative'),), None, name)


@documented('unary', 'Computes x * x element-wise.')
def square(x, name=None):
    return apply_op(SQUARE, (to_tensor(x, op='square'),), None, name)


def _add_n_kernel(*xs):
    total = xs[0]
    for v in xs[1:]:
        total = total + v
    return total


def _add_n_infer(*xs):
    shape = dims(xs[0])
    for x in xs[1:]:
        shape = op_helpers.broadcast_dims(shape, dims(x), 'add_n')
    return xs[0].dtype, shape


def _add_n_lowering(op, ins, ctx):
    # Added left to right, as the kernel: the same float rounding.
    if op.outputs[0].dtype.np_dtype.kind not in 'iuf':
        raise ctx.NotLowerable(f'{op.type} {op.name!r}: not lowered for {op.outputs[0].dtype.name}')
    return '(' + ' + '.join(ins) + ')'


_add_n_lowering.elementwise = True   # the same text on elements (a fused loop) as on arrays
ADD_N = define_op('AddN', _add_n_kernel, _add_n_infer,
                  lambda op, g: [g] * len(op.inputs), lowering=_add_n_lowering,
                  low_precision_steps=True)


def add_n(inputs, name=None):
    """Adds a list of tensors of one shape and dtype element-wise.

    Args:
      inputs: A non-empty list of `Tensor`s of the same shape and dtype.
      name: A name for the operation (optional).

    Returns:
      Their sum.

    Raises:
      ValueError: if `inputs` is empty or the shapes differ."""
    if inputs is None:
        raise TypeError('add_n: `inputs` must be a list of tensors, got None')
    if isinstance(inputs, (list, tuple)) and not inputs:
        raise ValueError('add_n: inputs must be a non-empty list of tensors')
    tensors = op_helpers.same_dtype_args(validation.tensor_list(inputs, 'add_n', 'inputs'),
                                         'add_n')
    validation.same_shapes(tensors, 'add_n')
    if len(tensors) == 1:
        return tensors[0]
    return apply_op(ADD_N, tuple(tensors), None, name)


# ---------------------------------------------------------------- composites

def clip_by_value(t, clip_value_min, clip_value_max, name=None):
    """minimum(maximum(...)) as TF builds it; the bounds may not broadcast `t` to a larger shape."""
    validation.op_name(name)
    values = to_tensor(t, op='clip_by_value')
    clipped = maximum(minimum(values, clip_value_max), clip_value_min)
    if not values.shape.is_compatible_with(clipped.shape):
        raise validation.invalid_argument(
            f'clip_by_value: the clip bounds would broadcast t from shape {values.shape} to '
            f'{clipped.shape}; they must be scalars or have t\'s shape')
    return clipped


def scalar_mul(scalar, x, name=None):
    """scalar * x for a scalar (rank-0) `scalar`."""
    x = to_tensor(x, op='scalar_mul')
    try:  # TF converts the scalar to x's dtype (a ValueError for a tensor of another)
        scalar = convert_to_tensor(scalar, dtype=x.dtype)
    except (TypeError, ValueError) as exc:
        raise type(exc)(f'scalar_mul: argument `scalar` could not be converted to a tensor: '
                        f'{exc}') from None
    shape = scalar.shape.as_tuple()  # the static shape: a symbolic argument is checked too
    if shape is not None and len(shape) != 0:
        raise ValueError(f'scalar_mul: the input scalar must be a 0-D value. Received shape '
                         f'{tuple(shape)}.')
    return multiply(scalar, x, name)


# ---------------------------------------------------------------- Python operators

# In a graph, TF names the ops of Python operators after the operator ('add', 'mul'), and those
# of the functions after the op (tf.add -> 'Add'): the printout of a symbolic tensor shows it.

def _operator(opdef, op):
    def method(x, y):
        x, y = _operands(x, y, op)
        return apply_op(opdef, (x, y), None, op)
    method.__name__ = op
    return method


def _fast_operator(opdef, op):
    """The Tensor method of `+ - *`: two eager tensors of one dtype the op accepts (the commonest
    eager line) go straight to the bare kernel (see dispatch.binary_operator); anything else takes
    the general path (conversion, TF's errors)."""
    general = operator_method(_operator(opdef, op), hint_only=op == 'add')
    return binary_operator(opdef, general, op)


def _named(fn, op):
    def method(x, y):
        return fn(x, y, op)
    method.__name__ = op
    return method


# This table's Python operators on Tensor (installed by defun/ops/tensor_methods.py).
OPERATORS = {'__neg__': negative, '__pos__': lambda self: self}
for _name, _opdef, _op in [('__add__', ADD, 'add'), ('__sub__', SUB, 'sub'),
                           ('__mul__', MUL, 'mul')]:
    OPERATORS[_name] = _fast_operator(_opdef, _op)
    OPERATORS['__r' + _name[2:]] = operator_method(_operator(_opdef, _op), reflected=True)
for _name, _fn in [('__truediv__', _named(truediv, 'truediv')),
                   ('__floordiv__', _named(floordiv, 'floordiv')),
                   ('__mod__', _named(floormod, 'mod'))]:
    OPERATORS[_name] = operator_method(_fn)
    OPERATORS['__r' + _name[2:]] = operator_method(_fn, reflected=True)
