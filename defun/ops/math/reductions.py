"""Reductions (reduce_sum/mean/max/min/prod/any/all and the composites logsumexp, variance, std),
argmax/argmin, and the running reductions cumsum/cumprod.

Reduction axes are attributes, normalised once in the public function to a sorted tuple of
non-negative ints (None: every axis; negative axes are kept as given when the rank is unknown, which
numpy and `reduced_shape` both accept). Gradients are TensorFlow's: the incoming gradient is reshaped
to the kept-dims shape and broadcast back; max/min split it equally between tied maxima; prod uses
exclusive cumulative products, so zeros in the input are handled exactly.
"""
import numpy as np

from defun.core import context, dtypes, error_helpers, errors
from defun.core.composite import CompositeTensor
from defun.core.dispatch import apply_op
from defun.ops.support import helpers as op_helpers
from defun.ops.math.arithmetic import conj, divide_no_nan, floordiv, maximum, square
from defun.ops.support.helpers import dims, to_tensor
from defun.ops.framework.base_ops import (broadcast_to, cast, reduced_shape, reshape, shape,
                            static_or_tensor_shape)
from defun.ops.math.complex_numbers import real
from defun.ops.math.elementary import exp, log, sqrt
from defun.ops.framework.python_ops import stop_gradient
from defun.ops.math.logic import equal, is_finite, where
from defun.core.registry import define_op
from defun.ops.support import lowerings, validation
from defun.core.tensor import Tensor
from defun.ops.support.docs import documented

__all__ = ['reduce_sum', 'reduce_mean', 'reduce_max', 'reduce_min', 'reduce_prod', 'reduce_any',
           'reduce_all', 'reduce_logsumexp', 'reduce_variance', 'reduce_std', 'argmax', 'argmin',
           'cumsum', 'cumprod']


# ---------------------------------------------------------------- shared by the reductions

def reduction_axes(x, axis, op):
    """`axis` (int, list, or tensor with a known value) as the attribute the reduction ops take."""
    if axis is None:
        return None
    if isinstance(axis, Tensor) and axis.dtype.is_integer:
        value = op_helpers.static_value(axis)
        if value is None:
            raise ValueError(f'{op}: the reduction axis must be known when the graph is built; got '
                             f'the symbolic tensor {axis!r}')
        axis = value
    depth = np.ndim(axis) if not isinstance(axis, Tensor) else axis.shape.rank
    if depth is not None and depth > 1 and not context.executing_eagerly():
        # TF's shape function refuses an axis of rank 2 or more while a graph is built (eagerly
        # its kernel flattens it, so defun does too).
        raise ValueError(f'Shape must be at most rank 1 but is rank {depth} for the reduction '
                         f'indices of {op}')
    return tuple(sorted(set(validation.axes(axis, x.shape.rank, op))))


def _reduce_infer(op):
    def infer(x, axis, keepdims):
        return x.dtype, op_helpers.reduce_dims(dims(x), axis, keepdims, op)
    return infer


# TF's Max and Min: realnumbertype and the quantized types.
_ORDERED = ('{float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, '
            'uint64, qint8, quint8, qint32, qint16, quint16}')


def _define_reduction(op_type, kernel, grad, op, types, lowering=None, **facts):
    """A reduction whose input is `input: T` with T in `types` (TF's signature), or `input:
    bool` when `types` is 'bool'."""
    signature = ({'inputs': ('input: bool',)} if types == 'bool' else
                 {'inputs': ('input: T',), 'attrs': (f'T: {types}',)})
    return define_op(op_type, kernel, _reduce_infer(op), grad, lowering=lowering, **signature,
                     **facts)


def _reduce(opdef, input_tensor, axis, keepdims, name, op):
    if isinstance(input_tensor, CompositeTensor):   # a RaggedTensor reduces itself, as in TF
        result = input_tensor.__tf_dispatch__(op, axis, keepdims)
        if result is not NotImplemented:
            return result
    x = to_tensor(input_tensor, name='input_tensor', op=op)
    attrs = {'axis': reduction_axes(x, axis, op), 'keepdims': bool(keepdims)}
    return apply_op(opdef, (x,), attrs, name)


def _kept_dims(op, g):
    """The incoming gradient reshaped so that it broadcasts against the reduction's input."""
    if op.get_attr('keepdims'):
        return g
    return reshape(g, reduced_shape(op.inputs[0], op.get_attr('axis')))


def _sum_grad(op, g):
    x = op.inputs[0]
    return broadcast_to(_kept_dims(op, g), shape(x))


def _reduced_count(x, y):
    """How many input elements went into each output element (a Python int when static)."""
    xs, ys = x.shape, y.shape
    if xs.is_fully_defined() and ys.is_fully_defined():
        return xs.num_elements() // max(ys.num_elements(), 1)
    from_shape = _reduce_prod_all(shape(x))
    return floordiv(from_shape, maximum(_reduce_prod_all(shape(y)), 1))


# ---------------------------------------------------------------- sum, mean

def _sum_kernel(x, axis, keepdims):
    return np.sum(x, axis=axis, keepdims=keepdims, dtype=x.dtype)


SUM = _define_reduction('Sum', _sum_kernel, _sum_grad, 'reduce_sum', 'numbertype',
                        lowering=lowerings.reduce_sum)


@documented('reduce', 'Computes the sum of elements across dimensions of a tensor.')
def reduce_sum(input_tensor, axis=None, keepdims=False, name=None):
    return _reduce(SUM, input_tensor, axis, keepdims, name, 'reduce_sum')


def _mean_kernel(x, axis, keepdims):
    if x.dtype.kind not in 'iu':
        return np.mean(x, axis=axis, keepdims=keepdims)
    # TF divides integer sums with C's integer division: it truncates toward zero.
    total = np.sum(x, axis=axis, keepdims=keepdims, dtype=x.dtype)
    count = max(x.size // max(np.size(total), 1), 1) if x.size else 1
    quotient = np.abs(total) // count
    return np.where(total < 0, -quotient, quotient).astype(x.dtype) if x.dtype.kind == 'i' \
        else quotient


def _mean_grad(op, g):
    grad = _sum_grad(op, g)
    count = _reduced_count(op.inputs[0], op.outputs[0])
    if not isinstance(count, int):
        count = cast(count, grad.dtype)
    return grad / count


MEAN = _define_reduction('Mean', _mean_kernel, _mean_grad, 'reduce_mean', 'numbertype',
                         lowering=lowerings.reduce_mean)


def reduce_mean(input_tensor, axis=None, keepdims=False, name=None):
    """The mean; of an integer tensor it is the truncated integer quotient, as in TF."""
    return _reduce(MEAN, input_tensor, axis, keepdims, name, 'reduce_mean')


# ---------------------------------------------------------------- max, min

def _extreme_kernel(reducer, empty_value):
    def kernel(x, axis, keepdims):
        if x.size == 0:   # TF gives the identity (lowest / highest value) for an empty reduction
            return reducer(x, axis=axis, keepdims=keepdims, initial=empty_value(x.dtype))
        return reducer(x, axis=axis, keepdims=keepdims)
    return kernel


def _lowest(npdtype):
    return -np.inf if npdtype.kind == 'f' else np.iinfo(npdtype).min


def _highest(npdtype):
    return np.inf if npdtype.kind == 'f' else np.iinfo(npdtype).max


def _min_or_max_grad(op, g):
    """Splits the gradient equally between all inputs equal to the extreme value (TF's rule)."""
    x = op.inputs[0]
    y, g = _kept_dims(op, op.outputs[0]), _kept_dims(op, g)
    indicators = cast(equal(y, x), g.dtype)
    selected = reduce_sum(indicators, op.get_attr('axis'), keepdims=True)
    return indicators / selected * g


MAX = _define_reduction('Max', _extreme_kernel(np.max, _lowest), _min_or_max_grad, 'reduce_max',
                        _ORDERED)
MIN = _define_reduction('Min', _extreme_kernel(np.min, _highest), _min_or_max_grad, 'reduce_min',
                        _ORDERED)


@documented('reduce', 'Computes the maximum of elements across dimensions of a tensor.')
def reduce_max(input_tensor, axis=None, keepdims=False, name=None):
    return _reduce(MAX, input_tensor, axis, keepdims, name, 'reduce_max')


@documented('reduce', 'Computes the minimum of elements across dimensions of a tensor.')
def reduce_min(input_tensor, axis=None, keepdims=False, name=None):
    return _reduce(MIN, input_tensor, axis, keepdims, name, 'reduce_min')


# ---------------------------------------------------------------- prod

def _exclusive_product(x, axis):
    """Per element, the product of the other elements along `axis`, without dividing."""
    return (cumprod(x, axis, exclusive=True) * cumprod(x, axis, exclusive=True, reverse=True))


def _prod_grad(op, g):
    """prod over a group of elements, except element i, factors axis by axis: the product along
    the last axis except i, times the product of the partial products along the other axes."""
    x = op.inputs[0]
    axes = op.get_attr('axis')
    g = _kept_dims(op, g)
    if axes == ():
        return g
    if axes is None:
        flat = reshape(x, [-1])
        return g * conj(reshape(_exclusive_product(flat, 0), shape(x)))
    others, partial = None, x
    for axis in axes:
        term = _exclusive_product(partial, axis)
        others = term if others is None else others * term
        partial = reduce_prod(partial, axis, keepdims=True)
    return g * conj(others)


PROD = _define_reduction('Prod', lambda x, axis, keepdims: np.prod(
    x, axis=axis, keepdims=keepdims, dtype=x.dtype), _prod_grad, 'reduce_prod', 'numbertype')


@documented('reduce', 'Computes the product of elements across dimensions of a tensor.')
def reduce_prod(input_tensor, axis=None, keepdims=False, name=None):
    return _reduce(PROD, input_tensor, axis, keepdims, name, 'reduce_prod')


def _reduce_prod_all(x):
    return apply_op(PROD, (x,), {'axis': None, 'keepdims': False})


# ---------------------------------------------------------------- any, all

ANY = _define_reduction('Any', lambda x, axis, keepdims: np.any(x, axis=axis, keepdims=keepdims),
                        None, 'reduce_any', 'bool')
ALL = _define_reduction('All', lambda x, axis, keepdims: np.all(x, axis=axis, keepdims=keepdims),
                        None, 'reduce_all', 'bool')


def _bool_input(value, axis, op):
    """Given a list of axes, TF's reduce_any/all convert their input to bool first, before
    looking at the axes: a tensor of another dtype is convert_to_tensor's ValueError eagerly,
    a TypeError in a graph (with other axes the op refuses it: InvalidArgumentError)."""
    if isinstance(value, CompositeTensor):
        return value   # converted by its own reduction (see _reduce)
    if isinstance(axis, (list, tuple)) and isinstance(value, Tensor) and \
            value.dtype is not dtypes.bool:
        message = (f'{op}: Tensor conversion requested dtype bool for Tensor with dtype '
                   f'{value.dtype.name}: {error_helpers.describe(value)}')
        raise ValueError(message) if context.executing_eagerly() else TypeError(message)
    return value


@documented('reduce', 'Computes the logical OR of elements across dimensions of a tensor.')
def reduce_any(input_tensor, axis=None, keepdims=False, name=None):
    return _reduce(ANY, _bool_input(input_tensor, axis, 'reduce_any'), axis, keepdims, name,
                   'reduce_any')


@documented('reduce', 'Computes the logical AND of elements across dimensions of a tensor.')
def reduce_all(input_tensor, axis=None, keepdims=False, name=None):
    return _reduce(ALL, _bool_input(input_tensor, axis, 'reduce_all'), axis, keepdims, name,
                   'reduce_all')


# ---------------------------------------------------------------- composites

def reduce_logsumexp(input_tensor, axis=None, keepdims=False, name=None):
    """log(sum(exp(x))), shifted by the (finite) maximum so that it never overflows, as TF."""
    validation.op_name(name)
    x = to_tensor(input_tensor, name='input_tensor', op='reduce_logsumexp')
    raw_max = reduce_max(x, axis, keepdims=True)
    shift = stop_gradient(where(is_finite(raw_max), raw_max, 0))
    result = log(reduce_sum(exp(x - shift), axis, keepdims=keepdims))
    if not keepdims:
        shift = reshape(shift, static_or_tensor_shape(result))
    return result + shift


def reduce_variance(input_tensor, axis=None, keepdims=False, name=None):
    """The mean squared deviation from the mean (the population variance), as TF."""
    validation.op_name(name)
    x = to_tensor(input_tensor, name='input_tensor', op='reduce_variance')
    if not (x.dtype.is_floating or x.dtype.is_complex):
        raise TypeError(f'reduce_variance: Input must be either real or complex. Received '
                        f'integer type {x.dtype.name}.')
    diff = x - reduce_mean(x, axis, keepdims=True)
    squared = real(diff * conj(diff)) if x.dtype.is_complex else square(diff)
    return reduce_mean(squared, axis, keepdims=keepdims)


@documented('reduce', 'Computes the (population) standard deviation across dimensions.')
def reduce_std(input_tensor, axis=None, keepdims=False, name=None):
    validation.op_name(name)
    return sqrt(reduce_variance(input_tensor, axis, keepdims))


# ---------------------------------------------------------------- argmax, argmin

def _arg_infer(op):
    def infer(x, axis, output_type):
        return output_type, op_helpers.reduce_dims(dims(x), (axis,), False, op)
    return infer


def _arg_kernel(reducer):
    def kernel(x, axis, output_type):
        return reducer(x, axis=axis).astype(output_type.np_dtype)
    return kernel


# TF's ArgMax and ArgMin take bool tensors too (realnumbertype, quantized types and bool).
_ARG_TYPES = ('T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, '
              'uint64, qint8, quint8, qint32, qint16, quint16, bool}')
ARG_MAX = define_op('ArgMax', _arg_kernel(np.argmax), _arg_infer('argmax'), None,
                    inputs=('input: T',), attrs=(_ARG_TYPES,
                                                  'output_type: {int16, uint16, int32, int64}'))
ARG_MIN = define_op('ArgMin', _arg_kernel(np.argmin), _arg_infer('argmin'), None,
                    inputs=('input: T',), attrs=(_ARG_TYPES, 'output_type: {int32, int64}'))


def _arg_reduce(opdef, input, axis, output_type, name, op):
    x = to_tensor(input, name='input', op=op)
    output_type = dtypes.as_dtype(output_type)
    if output_type not in (dtypes.int32, dtypes.int64, dtypes.int16, dtypes.uint16):
        raise TypeError(f'{op}: output_type must be int16, uint16, int32 or int64, got '
                        f'{output_type.name}')
    axis = 0 if axis is None else axis
    rank = axis.shape.rank if isinstance(axis, Tensor) else np.ndim(
        axis if isinstance(axis, (list, tuple, np.ndarray)) else 0)
    if rank:  # the op's `dimension` input is a scalar
        shape = axis.shape.as_list() if isinstance(axis, Tensor) else list(np.shape(axis))
        raise validation.invalid_argument(f'{op}: dim must be a scalar, but received tensor of '
                                          f'shape: [{",".join(map(str, shape))}]')
    axes = reduction_axes(x, axis, op)
    return apply_op(opdef, (x,), {'axis': axes[0], 'output_type': output_type}, name)


def argmax(input, axis=None, output_type=dtypes.int64, name=None):
    """Index of the largest value along `axis` (default 0); the first one on ties. (TF's argmax
    checks the axis in Python, with TypeErrors that argmin does not raise.)"""
    if isinstance(axis, Tensor) and not axis.dtype.is_integer:
        raise TypeError(f'argmax: axis tensor dtypes {axis.dtype!r} is not supported')
    if axis is not None and not isinstance(axis, Tensor) and not validation.is_int(axis):
        raise TypeError(f'argmax: axis must be int or Tensor with integer datatype, got {axis!r}')
    return _arg_reduce(ARG_MAX, input, axis, output_type, name, 'argmax')


def argmin(input, axis=None, output_type=dtypes.int64, name=None):
    """Index of the smallest value along `axis` (default 0); the first one on ties."""
    return _arg_reduce(ARG_MIN, input, axis, output_type, name, 'argmin')


# ---------------------------------------------------------------- cumsum, cumprod

def _cumulative_kernel(ufunc, identity):
    def kernel(x, axis, exclusive, reverse):
        if reverse:
            x = np.flip(x, axis)
        result = ufunc.accumulate(x, axis=axis, dtype=x.dtype)
        if exclusive:
            head = [slice(None)] * x.ndim
            head[axis] = slice(None, -1)
            start = list(x.shape)
            start[axis] = min(1, x.shape[axis])
            result = np.concatenate([np.full(start, identity, x.dtype), result[tuple(head)]], axis)
        return np.flip(result, axis) if reverse else result
    return kernel


def _cumulative_infer(x, axis, exclusive, reverse):
    return x.dtype, dims(x)


def _cumsum_grad(op, g):
    return cumsum(g, op.get_attr('axis'), op.get_attr('exclusive'), not op.get_attr('reverse'))


def _cumprod_grad(op, g):
    x = op.inputs[0]
    axis, exclusive, reverse = (op.get_attr(a) for a in ('axis', 'exclusive', 'reverse'))
    prod = conj(cumprod(x, axis, exclusive, reverse))
    return divide_no_nan(cumsum(prod * g, axis, exclusive, not reverse), conj(x))


CUMSUM = define_op('Cumsum', _cumulative_kernel(np.add, 0), _cumulative_infer, _cumsum_grad,
                   inputs=('x: T',), attrs=('T: numbertype', 'exclusive: bool', 'reverse: bool'),
                   low_precision_steps=True)
CUMPROD = define_op('Cumprod', _cumulative_kernel(np.multiply, 1), _cumulative_infer, _cumprod_grad,
                    inputs=('x: T',), attrs=('T: numbertype', 'exclusive: bool', 'reverse: bool'),
                    low_precision_steps=True)


def _cumulative(opdef, x, axis, exclusive, reverse, name, op):
    x = to_tensor(x, op=op)
    # TF's axis is an int32/int64 input of Cumsum/Cumprod (int32 by default): converted and
    # type-checked as inputs are, its rank and range left to the kernel.
    validation.int_input(axis, op, 'axis', 'Tidx', default='int32')
    axis_shape = list(axis.shape.as_list() or []) if isinstance(axis, Tensor) else \
        list(np.shape(axis))
    # TF's Cumsum/Cumprod check their axis in the kernel only: InvalidArgumentError in both modes.
    if axis_shape:  # one scalar axis, not a list
        raise errors.InvalidArgumentError(
            f"ScanOp: axis must be a scalar, not [{','.join(map(str, axis_shape))}] "
            f'[Op:{opdef.type}]')
    try:
        axes = reduction_axes(x, axis, op)
    except ValueError as exc:  # out of range, while a graph is built
        raise errors.InvalidArgumentError(str(exc)) from None
    if len(axes) != 1:
        raise ValueError(f'{op}: axis must be a single dimension, got {axis!r}')
    attrs = {'axis': axes[0], 'exclusive': bool(exclusive), 'reverse': bool(reverse)}
    return apply_op(opdef, (x,), attrs, name)


def cumsum(x, axis=0, exclusive=False, reverse=False, name=None):
    """Running sums along `axis`; `exclusive` leaves each element out of its own sum, `reverse`
    runs from the end."""
    return _cumulative(CUMSUM, x, axis, exclusive, reverse, name, 'cumsum')


def cumprod(x, axis=0, exclusive=False, reverse=False, name=None):
    """Running products along `axis`; see cumsum for `exclusive` and `reverse`."""
    return _cumulative(CUMPROD, x, axis, exclusive, reverse, name, 'cumprod')
