"""Argument validation for every op table, one function per kind of argument, raising TensorFlow's
exception classes with messages that name the op and the argument.

TensorFlow reports a bad argument in one of three ways, and these helpers follow it:
- a check its kernel (or shape function) makes: `InvalidArgumentError` eagerly, `ValueError` while a
  graph is built (`invalid_argument`);
- a dtype its op signature refuses: `InvalidArgumentError` eagerly, `TypeError` while a graph is
  built (`dtype_mismatch`);
- a check its Python wrapper makes: the same class in both modes (plain `ValueError`/`TypeError`).

Use them from an op's Python wrapper, inference rule or kernel alike: inside a kernel that runs in a
compiled function no graph is being built, so the eager class results, as TF raises at run time.

    axis = validation.axis(axis, rank, 'expand_dims', extra=1)
    sizes = validation.split_sizes(sizes, dim, 'split')
    ksize = validation.window(ksize, 2, 'max_pool2d', 'ksize')
"""
import numbers

import numpy as np

from defun.core import context, error_helpers, errors, names, value_conversion

__all__ = ['invalid_argument', 'dtype_mismatch', 'element_type', 'tensor_list', 'python_int',
           'is_int', 'axis', 'axes', 'count', 'shape_value', 'shape_tensor', 'scatter_shapes',
           'split_sizes',
           'window', 'same_shapes', 'padding', 'op_name']


def invalid_argument(message):
    """A kernel's or shape function's failure: InvalidArgumentError eagerly, ValueError in a graph."""
    if context.executing_eagerly():
        return errors.InvalidArgumentError(message)
    return ValueError(message)


def dtype_mismatch(message):
    """An input dtype the op refuses: InvalidArgumentError eagerly, TypeError in a graph."""
    if context.executing_eagerly():
        return errors.InvalidArgumentError(message)
    return TypeError(message)


_KIND_NAMES = {'f': 'floating point', 'c': 'complex', 'i': 'signed integer',
               'u': 'unsigned integer', 'b': 'bool', 'O': 'string'}


def element_type(x, kinds, op, name='x'):
    """Returns tensor `x` if its dtype is of one of `kinds` (numpy kind letters: 'f' float, 'c'
    complex, 'i'/'u' integers, 'b' bool), else TF's error for a dtype the op's signature refuses."""
    if x.dtype.kind not in kinds:
        allowed = ' or '.join(_KIND_NAMES[k] for k in kinds)
        raise dtype_mismatch(f'{op}: `{name}` must be a {allowed} tensor, got '
                             f'{error_helpers.describe(x)}')
    return x


def tensor_list(values, op, name='values', whole=False):
    """A list of tensors or values (concat, stack, add_n): a list, tuple or tensor (whose first
    dimension is iterated, as TF does; with `whole`, the one element of the list, as TF's concat
    takes it); anything else is TF's TypeError naming the argument."""
    if isinstance(values, (list, tuple)):
        return list(values)
    if whole and hasattr(values, 'dtype') and hasattr(values, 'shape'):
        return [values]
    if hasattr(values, 'dtype') and hasattr(values, 'shape') and hasattr(values, '__iter__'):
        if context.current_graph() is not None and not isinstance(values, np.ndarray):
            # TF iterates the tensor, which a graph being built does not allow (even for a
            # captured eager tensor)
            raise errors.OperatorNotAllowedInGraphError(
                f'Iterating over a symbolic `tf.Tensor` is not allowed: `{name}` of {op} must be '
                f'a list of tensors, got {error_helpers.describe(values)}')
        return list(values)
    raise TypeError(f'{op}: `{name}` must be a list of tensors, got {error_helpers.describe(values)} '
                    f'({type(values).__name__})')


def is_int(value):
    return isinstance(value, (numbers.Integral, np.integer)) and not isinstance(value, (bool,
                                                                                       np.bool_))


def python_int(value, op, name, attr=False):
    """`value` as a Python int; TypeError naming the argument for floats, strings, None, lists.

    Integer tensors whose value is known now are accepted (TF takes them for its int attributes)."""
    if isinstance(value, (bool, np.bool_)):  # a Python bool is an int to TF's converters
        return int(value)
    if is_int(value):
        if not -2 ** 63 <= value < 2 ** 63:  # it would not convert to a tensor (TF's error)
            raise value_conversion.conversion_error('int_range', value)
        return int(value)
    if isinstance(value, np.floating):  # numpy floats convert to int32 (truncated), as in TF
        return int(value)
    if value is None:  # TF converts it to a tensor first, which fails
        raise value_conversion.conversion_error('unsupported', None)
    if not attr and isinstance(value, (list, tuple)) and all(is_int(v) for v in np.ravel(
            np.asarray(value, dtype=object))):  # the op's input must be a scalar (`attr`: an
        # int attribute, where a list is a TypeError)
        raise invalid_argument(f'{op}: `{name}` must be a scalar, got shape '
                               f'{list(np.shape(value))}: {value!r}')
    array = getattr(value, 'array', None)
    if array is not None and np.ndim(array) == 0 and np.asarray(array).dtype.kind in 'iu':
        return int(array)
    raise TypeError(f'{op}: `{name}` must be an int, got {error_helpers.describe(value)} '
                    f'({type(value).__name__})')


def compared_int(value, op, name, index=False):
    """An int argument that TF's wrapper compares with Python ints before it becomes an int
    attribute (stack's, unstack's and softmax's axis): a tensor while a graph is built cannot be
    compared (OperatorNotAllowedInGraphError); an eager tensor or numpy scalar of one element is
    taken by its value, as the comparison and attribute conversion take it, unless `index` (the
    wrapper indexes a list with it, which a numpy float cannot); anything else is a TypeError."""
    if isinstance(value, (bool, np.bool_)) or is_int(value):
        return int(value)
    if isinstance(value, np.floating) and not index:
        return int(value)
    if hasattr(value, 'dtype') and hasattr(value, 'shape') and \
            not isinstance(value, (np.ndarray, np.generic)):
        if context.current_graph() is not None:
            raise errors.OperatorNotAllowedInGraphError(
                f'Using a symbolic `tf.Tensor` as a Python `bool` is not allowed: {op} compares '
                f'`{name}` ({error_helpers.describe(value)}) with the rank in Python')
        array = np.asarray(getattr(value, 'array', None))
        # an index must be one integer scalar; an attribute takes any one number
        if (array.ndim == 0 and array.dtype.kind in 'iu') if index else \
                (array.size == 1 and array.dtype.kind in 'iuf'):
            return int(array.ravel()[0])
    raise TypeError(f'{op}: `{name}` must be an int, got {error_helpers.describe(value)} '
                    f'({type(value).__name__})')


def int_input(value, op, name, attr, allowed='int32, int64', default=None):
    """Checks an int argument TF passes as an op input typed by the attribute `attr` (cumsum's
    axis 'Tidx', top_k's k 'Tk', roll's axis 'Taxis'): it is converted as any input is (a value
    that converts to nothing raises the conversion's error: ValueError eagerly, TypeError in a
    graph), then its type is the op's to refuse. Its rank and value are left to the op. When the
    OpDef gives `attr` a `default` type (Cumsum's and TopKV2's int32), a Python value is
    converted to that type first: bools, integral floats and empty lists pass, a fractional
    float is the conversion's TypeError."""
    tensor = hasattr(value, 'dtype') and hasattr(value, 'shape') and \
        not isinstance(value, (np.ndarray, np.generic))
    if default is not None and not tensor:
        if isinstance(value, float) and not value.is_integer():
            raise TypeError(f'{op}: Cannot convert {value!r} to EagerTensor of dtype {default} '
                            f'(`{name}`)')
        if isinstance(value, (bool, np.bool_, float, np.floating)) or (
                isinstance(value, (list, tuple)) and not value):
            return
    if tensor:
        dtype = value.dtype
    else:
        try:
            dtype = value_conversion.to_array(value, None).dtype
        except (TypeError, ValueError) as exc:
            raise type(exc)(f'{op}: `{name}` could not be converted to a tensor: {exc}') from None
        if dtype.kind == 'f':
            dtype = np.dtype(np.float32)  # Python floats convert to float32
    kind = getattr(dtype, 'kind', None)
    if getattr(dtype, 'is_integer', False) or kind in ('i', 'u'):
        return
    text = 'string' if kind in ('O', 'U', 'S') or getattr(dtype, 'name', '') == 'string' else \
        error_helpers.kernel_type_name(getattr(dtype, 'name', dtype))
    raise dtype_mismatch(f"{op}: Value for attr '{attr}' of {text} is not in the list of allowed "
                         f"values: {allowed}")


def _axis_values(value, op, name):
    """The ints an axis argument holds (an int, a list/tuple of ints, or an int tensor's value)."""
    if hasattr(value, 'dtype') and hasattr(value, 'shape') and \
            not isinstance(value, (np.ndarray, np.generic)):
        if not value.dtype.is_integer:
            raise dtype_mismatch(f'{op}: `{name}` must be an int32 or int64 tensor, got '
                                 f'{error_helpers.describe(value)}')
        array = getattr(value, 'array', None)
        if array is None:
            raise ValueError(f'{op}: `{name}` must be known when the graph is built; got the '
                             f'symbolic tensor {value!r}')
        return [int(a) for a in np.ravel(array)]
    if isinstance(value, (list, tuple, np.ndarray)):
        _convertible(value, op, name)
        return [python_int(a, op, name) for a in np.ravel(np.asarray(value, dtype=object))]
    if isinstance(value, str):
        raise dtype_mismatch(f'{op}: `{name}` must be an int, got the string {value!r}')
    if value is None or isinstance(value, (dict, set)) or type(value) is object:
        _convertible(value, op, name)
    return [python_int(value, op, name)]


def _convertible(value, op, name):
    """TF converts an axis to a tensor first: a value that converts to nothing is its conversion
    error (ValueError eagerly), and strings are the op's dtype refusal."""
    try:
        array = value_conversion.to_array(value, None)
    except (TypeError, ValueError) as exc:
        raise type(exc)(f'{op}: `{name}` could not be converted to a tensor: {exc}') from None
    if array.dtype.kind in 'OUS':
        raise dtype_mismatch(f'{op}: `{name}` must be int32 or int64, got strings {value!r}')


def axes(value, rank, op, name='axis', distinct=True):
    """An axis argument (int, list of ints or int tensor) as a tuple of non-negative ints in
    [0, rank) in the order given; negative axes count from the end. With an unknown rank they are
    returned as given. Out of range: invalid_argument; repeated (when `distinct`):
    InvalidArgumentError, which TF's kernels raise at run time in both modes."""
    values = _axis_values(value, op, name)
    if rank is None:
        return tuple(values)
    out = []
    for a in values:
        if not -rank <= a < rank:  # a scalar has no axis at all (TF: invalid dimension)
            raise invalid_argument(f'{op}: `{name}` {a} is out of range for a tensor of rank '
                                   f'{rank} (expected in [{-rank}, {rank}))')
        out.append(a % rank)
    if distinct and len(set(out)) != len(out):
        raise errors.InvalidArgumentError(f'{op}: `{name}` {values} holds a dimension twice')
    return tuple(out)


def axis(value, rank, op, name='axis', extra=0, attr=None, int32=False):
    """One axis (an int or a scalar int tensor) in [-rank - extra, rank + extra) as a non-negative
    int; `extra=1` for ops that add a dimension (expand_dims, stack, one_hot). `attr` names the
    type attribute of an op whose axis is a tensor input (gather's 'Taxis'): a float, bool or
    string axis is then the op's dtype refusal, as in TF, rather than a TypeError; `int32` for
    one its wrapper converts to int32 first (concat), where a float is that TypeError."""
    if int32 and isinstance(value, (float, str, np.floating)):
        raise TypeError(f'{op}: Cannot convert {value!r} to EagerTensor of dtype int32 (`{name}`)')
    if int32 and isinstance(value, (bool, np.bool_)):
        value = int(value)  # the wrapper's int32 conversion takes a Python bool as 0 or 1
    if attr is not None:  # a tensor input: converted, its dtype checked, then its rank
        if isinstance(value, (list, tuple, np.ndarray)):
            _convertible(value, op, name)
            raise invalid_argument(f'{op}: `{name}` must be a scalar, got a value of shape '
                                   f'{list(np.shape(value))}: {value!r}')
        _refuse_attr_type(value, op, attr)
    shape = getattr(value, 'shape', None)
    if not isinstance(value, (np.ndarray, np.generic)) and hasattr(value, 'dtype') and \
            getattr(shape, 'rank', None):
        raise invalid_argument(f'{op}: `{name}` must be a scalar but has rank {shape.rank} '
                               f'({error_helpers.describe(value)})')
    values = _axis_values(value, op, name)
    if len(values) != 1 or (isinstance(value, (list, tuple)) and not extra):
        raise TypeError(f'{op}: `{name}` must be a single int, got {value!r}')
    a = values[0]
    if rank is None:
        return a
    n = rank + extra
    if not -n <= a < n:
        raise invalid_argument(f'{op}: `{name}` {a} is out of range for a tensor of rank {rank} '
                               f'(expected in [{-n}, {n}))')
    return a % n


def _refuse_attr_type(value, op, attr):
    dtype = getattr(value, 'dtype', None)
    if hasattr(dtype, 'is_integer'):  # a tensor
        kind = 'i' if dtype.is_integer else dtype.name
    elif isinstance(value, (bool, np.bool_)):
        kind = 'bool'
    elif isinstance(value, (float, np.floating)):
        kind = 'float32'
    elif isinstance(value, (str, bytes)):
        kind = 'string'
    else:
        return
    if kind != 'i':
        raise dtype_mismatch(f"{op}: Value for attr '{attr}' of {error_helpers.kernel_type_name(kind)} "
                             f"is not in the list of allowed values: int32, int64")


def count(value, op, name, minimum=0):
    """A count or size argument (depth, num, k, num_split): an int >= minimum."""
    n = python_int(value, op, name)
    if n < minimum:
        raise invalid_argument(f'{op}: `{name}` must be at least {minimum}, got {n}')
    return n


def split_sizes(sizes, dim, op='split'):
    """Split sizes (ints, at most one -1) resolved against the split dimension `dim` (None when
    unknown): they must be non-negative and sum to it."""
    sizes = [python_int(s, op, 'num_or_size_splits') for s in sizes]
    unknown = [i for i, s in enumerate(sizes) if s == -1]
    if len(unknown) > 1 or any(s < -1 for s in sizes):
        raise invalid_argument(f'{op}: size_splits {sizes} may hold at most one -1 and no other '
                               f'negative size')
    if dim is None:
        return sizes
    known = sum(s for s in sizes if s != -1)
    if unknown and known <= dim:
        sizes[unknown[0]] = dim - known
    elif known != dim or unknown:
        raise invalid_argument(f'{op}: Determined shape must either match input shape along '
                               f'split_dim exactly if fully specified, or be less than the size '
                               f'of the input along split_dim if not fully specified. Got sizes '
                               f'{sizes} for a dimension of {dim}')
    return sizes


def window(value, n, op, name, rank=None):
    """Pool or conv `ksize`/`strides`/`dilations`: an int or a list of 1, n or n + 2 positive
    ints, returned as the n spatial values (a list of n + 2 must have 1 for batch and channels)."""
    values = [value] if is_int(value) else value
    if not isinstance(values, (list, tuple)):
        raise TypeError(f'{op}: `{name}` must be an int or a list of ints, got {value!r}')
    values = [python_int(v, op, name) for v in values]
    if len(values) == 1:
        values = values * n
    elif len(values) == n + 2:
        if values[0] != 1 or values[-1] != 1:
            raise invalid_argument(f'{op}: `{name}` {values} must be 1 in the batch and channel '
                                   f'dimensions')
        values = values[1:-1]
    elif len(values) != n:
        raise ValueError(f'{op}: `{name}` should be of length 1, {n} or {n + 2}, got {values}')
    if any(v <= 0 for v in values):
        raise invalid_argument(f'{op}: `{name}` must be positive, got {value!r}')
    return values


def padding(value, op, allowed=('SAME', 'VALID')):
    """A padding mode string, as TF spells it (case-insensitive where TF is)."""
    if not isinstance(value, str) or value.upper() not in allowed:
        raise ValueError(f'{op}: `padding` must be one of {", ".join(allowed)}, got {value!r}')
    return value.upper()


def same_shapes(tensors, op, name='inputs'):
    """Static shapes that must be equal (add_n): unknown dims are compatible with anything."""
    first = None
    for i, t in enumerate(tensors):
        d = t.shape.as_tuple()
        if d is None:
            continue
        if first is None:
            first = (i, d)
            continue
        j, e = first
        if len(e) != len(d) or any(a is not None and b is not None and a != b
                                   for a, b in zip(e, d)):
            raise invalid_argument(f'{op}: all {name} must have the same shape; {name}[{j}] is '
                                   f'{error_helpers.describe(tensors[j])} but {name}[{i}] is '
                                   f'{error_helpers.describe(t)}')


def op_name(name):
    """The `name` argument of a public function built of several ops (or of none): TF opens a
    name scope with it, so while a graph is built an invalid name is TF's ValueError, as it is
    for a single op (eagerly, names are ignored)."""
    if name is not None and context.current_graph() is not None:
        if not isinstance(name, str):  # TF's scope check reads it as a string
            raise TypeError(f"expected string or bytes-like object, got "
                            f"'{type(name).__name__}' for the name {name!r}")
        names.check_scope_name(name, nested=bool(context.current_frame().scope))
    return name


def shape_value(values, op):
    """A shape an op's kernel receives as an int tensor (fill, broadcast_to, zeros): a tuple of
    sizes, each >= 0, else TF's kernel error (InvalidArgumentError in both modes: it runs)."""
    if np.ndim(values) > 1:
        raise errors.InvalidArgumentError(f'{op}: dims must represent a vector, got shape '
                                          f'[{",".join(map(str, np.shape(values)))}]')
    out = tuple(int(d) for d in np.ravel(values))
    for d in out:
        if d < 0:
            raise errors.InvalidArgumentError(f'{op}: Dimension {d} must be >= 0')
    return out


def shape_tensor(t, op, name='shape'):
    """A shape given as a tensor (random ops, fill): an int32 or int64 vector (or scalar), else
    TF's errors: the op's dtype refusal, or a shape function's rank check."""
    if not t.dtype.is_integer:
        raise dtype_mismatch(f"{op}: Value for attr 'T' of {error_helpers.kernel_type_name(t.dtype)} is "
                             f"not in the list of allowed values: int32, int64 (`{name}`)")
    if t.shape.rank is not None and t.shape.rank > 1:
        raise invalid_argument(f'{op}: `{name}` must be a vector of {{int32,int64}}, got shape '
                               f'[{",".join(str(d) for d in t.shape.as_list())}]')
    return t


def scatter_shapes(indices, updates, shape, op):
    """The shapes of a scatter (scatter_nd, tensor_scatter_nd_*): `updates` must be
    indices.shape[:-1] + shape[indices.shape[-1]:]. Shapes are tuples of ints and None, or None
    when unknown; a mismatch is invalid_argument (ValueError while a graph is built)."""
    if indices is None or updates is None or shape is None or not indices or \
            indices[-1] is None:
        return
    outer = len(indices) - 1
    expected = tuple(indices[:-1]) + tuple(shape[indices[-1]:])
    if len(updates) != len(expected) or any(
            a is not None and b is not None and a != b for a, b in zip(updates, expected)):
        raise invalid_argument(
            f'{op}: Dimensions [0,{outer}) of indices[shape={_dims_text(indices)}] must match '
            f'dimensions [0,{outer}) of updates[shape={_dims_text(updates)}] (updates must have '
            f'shape {_dims_text(expected)} for a result of shape {_dims_text(shape)})')


def _dims_text(dims):
    return '[' + ','.join('?' if d is None else str(d) for d in dims) + ']'
