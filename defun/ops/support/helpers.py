"""What the op tables share: argument conversion by TF's dtype rules, shape inference helpers
(broadcasting with unknown dims, reductions), and small helpers for writing op entries.

Shapes in inference are tuples of ints and None (`dims(t)`), or None for an unknown rank.
"""
import numpy as np

from defun.core import context, dtypes, error_helpers, errors
from defun.core.dispatch import apply_op
from defun.core.tensor import EagerTensor, Tensor, constant_from_array, convert_to_tensor, is_tensor
from defun.ops.support import validation

__all__ = ['to_tensor', 'int_input', 'binary_args', 'same_dtype_args', 'dims', 'broadcast_dims',
           'reduce_dims', 'normalize_axis', 'out', 'same_as_first', 'float_only', 'unary_function']


def to_tensor(value, dtype=None, name='x', op='op', hint=None):
    """convert_to_tensor with the op and argument named when it fails. A tensor of another dtype
    than `dtype` is refused as TF's op signatures refuse it (InvalidArgumentError eagerly,
    TypeError while a graph is built), not as convert_to_tensor would (ValueError). `hint` is the
    default of the op's type attr, which TF prefers for a Python value (`[]` as int64 indices)."""
    if dtype is not None and isinstance(value, Tensor) and value.dtype is not dtype:
        dtype = dtypes.as_dtype(dtype)
        if value.dtype is not dtype:
            raise validation.dtype_mismatch(
                f'{op}: input `{name}` was expected to be a {dtype.name} tensor but is a '
                f'{value.dtype.name} tensor ({error_helpers.describe(value)})')
    try:
        return convert_to_tensor(value, dtype=dtype, dtype_hint=hint)
    except (TypeError, ValueError) as exc:
        raise type(exc)(f'{op}: argument `{name}` could not be converted to a tensor: {exc}') \
            from None


def int_input(value, op, name):
    """An int32/int64 input of an op (a shape, multiples, paddings) from a tensor or a Python
    value, converted as TF converts an op's input: by its own rules (an empty list is int32), so
    a float is the op's dtype refusal (InvalidArgumentError eagerly, TypeError in a graph)."""
    if isinstance(value, Tensor):
        t = value
    elif isinstance(value, (list, tuple)) and (_empty(value) or _contains_tensor(value)):
        t = to_tensor(value, dtype=dtypes.int32, name=name, op=op)  # packed as int32, as TF
    else:
        t = to_tensor(value, name=name, op=op)
    if not t.dtype.is_integer:
        raise validation.dtype_mismatch(
            f"{op}: Value for attr 'T' of {error_helpers.kernel_type_name(t.dtype)} is not in the list "
            f"of allowed values: int32, int64 (`{name}`)")
    return t


def _empty(value):
    return all(isinstance(v, (list, tuple)) and _empty(v) for v in value)


def _contains_tensor(value):
    return any(isinstance(v, Tensor) or isinstance(v, (list, tuple)) and _contains_tensor(v)
               for v in value)


def binary_args(x, y, op):
    """Converts the operands of a binary op: a Python value adopts the tensor operand's dtype;
    two tensors of different dtypes are an error (TF never promotes implicitly)."""
    # The eager hot path: two eager tensors whose numpy dtypes are the same object.
    if type(x) is EagerTensor and type(y) is EagerTensor and x.array.dtype is y.array.dtype:
        return x, y
    x_t, y_t = isinstance(x, Tensor), isinstance(y, Tensor)
    if x_t and y_t:
        if x.dtype is not y.dtype:
            message = (f'{op}: cannot combine a {x.dtype.name} tensor with a {y.dtype.name} '
                       f'tensor ({error_helpers.describe(x)} and {error_helpers.describe(y)}); '
                       f'TensorFlow never converts implicitly: use tf.cast on one of them.')
            # TF's types: the kernel's InvalidArgumentError eagerly, the op builder's TypeError
            # while a graph is built.
            raise validation.dtype_mismatch(message)
        return x, y
    if not x_t and is_tensor(x):
        x, x_t = convert_to_tensor(x), True
    if not y_t and is_tensor(y):
        y, y_t = convert_to_tensor(y), True
    if x_t and y_t:
        return binary_args(x, y, op)
    if x_t:
        return x, _convert_operand(y, x.dtype, op)
    if y_t:
        return _convert_operand(x, y.dtype, op), y
    x = to_tensor(x, name='x', op=op)
    return x, _convert_operand(y, x.dtype, op)


def _convert_operand(value, dtype, op):
    scalar = _python_scalar(value, dtype)
    if scalar is not None:
        return constant_from_array(scalar)
    try:
        return convert_to_tensor(value, dtype=dtype)
    except TypeError:
        if op != 'add':  # TF converts the operand to the tensor's dtype, and that fails
            raise TypeError(f'{op}: Cannot convert {_short_repr(value)} to EagerTensor of dtype '
                            f'{dtype.name}') from None
    except ValueError as exc:
        if op != 'add' and isinstance(value, np.ndarray) and value.dtype.kind == 'O':
            raise TypeError(f'{op}: Cannot convert an array of objects to EagerTensor of dtype '
                            f'{dtype.name}') from None
        raise ValueError(f'{op}: an operand could not be converted to a tensor: {exc}') from None
    # As TF's add: a value that is not of the other operand's dtype converts by its own rules (a
    # value that converts to nothing raises that), then the op refuses the mix of dtypes.
    own = to_tensor(value, name='y', op=op)
    raise validation.dtype_mismatch(
        f'{op}: cannot combine a {dtype.name} tensor with {_short_repr(value)}, which converts to '
        f'{own.dtype.name}; TensorFlow never converts implicitly: use tf.cast.')


def _short_repr(value):
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + '...'


def _python_scalar(value, dtype):
    """The numpy scalar for a Python float/int operand that converts to `dtype` without loss (the
    common `x * 2.0`); None sends everything else down the general conversion, with its errors."""
    kind = type(value)
    if kind is float:
        if dtype.is_floating or dtype.is_complex:
            return dtype.as_numpy_dtype(value)
    elif kind is int and (dtype.is_floating or dtype.is_complex or (
            dtype.is_integer and dtype.min <= value <= dtype.max)):
        return dtype.as_numpy_dtype(value)
    return None


def same_dtype_args(values, op, dtype=None):
    """Converts a list of values that must share one dtype (add_n, concat, stack)."""
    tensors = [v for v in values if is_tensor(v)]
    if dtype is None and tensors:
        dtype = convert_to_tensor(tensors[0]).dtype
    result = [to_tensor(v, dtype=dtype, name=f'values[{i}]', op=op) if not isinstance(v, Tensor)
              else v for i, v in enumerate(values)]
    if dtype is None and result:
        dtype = result[0].dtype
    for i, t in enumerate(result):
        if t.dtype is not dtype:
            raise validation.dtype_mismatch(
                f'{op}: all inputs must have the same dtype; input {i} is {t.dtype.name}, '
                f'expected {dtype.name}')
    return result


def dims(t):
    """The static shape of a tensor as a tuple of ints/None, or None for unknown rank."""
    return t.shape.as_tuple()


def broadcast_dims(a, b, op='op'):
    """Numpy broadcasting of two static shapes that may hold None."""
    if a is None or b is None:
        return None
    n = max(len(a), len(b))
    a = (1,) * (n - len(a)) + tuple(a)
    b = (1,) * (n - len(b)) + tuple(b)
    result = []
    for x, y in zip(a, b):
        if x == y:
            result.append(x)
        elif x == 1:
            result.append(y)
        elif y == 1:
            result.append(x)
        elif x is None:
            result.append(y)
        elif y is None:
            result.append(x)
        else:
            raise validation.invalid_argument(
                f'{op}: Incompatible shapes: {list(a)} vs. {list(b)}')
    return tuple(result)


def normalize_axis(axis, rank, op='op'):
    """An axis (or list of axes) as a sorted tuple of non-negative ints; None means all. With an
    unknown rank, negative axes cannot be resolved and are returned as given (numpy accepts them)."""
    if axis is None:
        return None if rank is None else tuple(range(rank))
    return tuple(sorted(validation.axes(axis, rank, op)))


def reduce_dims(shape, axis, keepdims, op='op'):
    """Static shape of a reduction over `axis` (None: all axes)."""
    if shape is None:
        return None
    axes = normalize_axis(axis, len(shape), op)
    if keepdims:
        return tuple(1 if i in axes else d for i, d in enumerate(shape))
    return tuple(d for i, d in enumerate(shape) if i not in axes)


def out(dtype, shape):
    """One output's inferred (dtype, shape)."""
    return dtype, shape


def same_as_first(x, *rest, **attrs):
    """Inference for ops whose output has the first input's dtype and shape."""
    return x.dtype, dims(x)


def float_only(x, op):
    """Raises TypeError unless `x` is a floating or complex tensor (TF's op type constraints)."""
    if not (x.dtype.is_floating or x.dtype.is_complex):
        raise TypeError(f'{op}: expected a floating point tensor, got {error_helpers.describe(x)}; '
                        f'use tf.cast(x, tf.float32) first')
    return x


def static_value(t):
    """The value of `t` if known now (eager, or constant-foldable in a graph), else None."""
    if not isinstance(t, Tensor):
        return np.asarray(t)
    array = getattr(t, 'array', None)
    if array is not None:
        return array
    fold = getattr(t, 'static_value', None)
    return fold() if fold is not None else None


def shape_arg_dims(t):
    """The dims a 1-D shape argument asks for, as far as known at build time: a tuple with None
    for unknown elements (`tf.zeros([tf.shape(x)[0], 4])` asks for (None, 4), as TF infers), or
    None when even its length is unknown."""
    value = static_value(t)
    if value is not None:
        return tuple(int(d) for d in np.reshape(value, [-1]))
    partial = getattr(t, 'partial_value', None)
    known = partial() if partial is not None else None
    if isinstance(known, list):
        return tuple(None if d is not None and d < 0 else d for d in known)
    n = t.shape.as_tuple()
    return None if n is None or len(n) != 1 or n[0] is None else (None,) * n[0]


def shape_error(op, message):
    return validation.invalid_argument(f'{op}: {message}')


def _refuse_operand(tensor, other):
    """TF's operators convert a Python number to the tensor's dtype first, so a number that does
    not fit it is a TypeError there (not the op's own dtype error, as `tf.add` gives)."""
    if type(other) in (int, float, complex):
        return TypeError(f'Cannot convert {other!r} to EagerTensor of dtype {tensor.dtype.name}')
    return None


def operator_method(fn, reflected=False, hint_only=False):
    """The Tensor method for a binary Python operator computed by `fn(x, y)`. With `hint_only`
    (TF's `tensor + number`), the number takes the tensor's dtype only as a hint, so eagerly the
    op's own InvalidArgumentError stands where other operators raise TypeError."""
    def method(self, other):
        try:
            return fn(other, self) if reflected else fn(self, other)
        except (errors.InvalidArgumentError, TypeError) as exc:
            refused = _refuse_operand(self, other)
            if refused is None or (hint_only and type(other) is not int and context.executing_eagerly()
                                   and isinstance(exc, errors.InvalidArgumentError)):
                raise
            raise refused from None
    method.__name__ = fn.__name__
    return method


def unary_function(opdef, name, what):
    """The public function `name(x, name=None)` that applies the one-input op `opdef`, with the
    docstring `what` (the special functions are many such one-liners)."""
    def fn(x, name=None):
        return apply_op(opdef, (to_tensor(x, op=fn.__name__),), None, name)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = what
    return fn
