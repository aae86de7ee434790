"""How tf.nn's convolution and pooling wrappers read their window arguments and data formats.

The ops themselves work channels-last (NWC, NHWC, NDHWC) and take the spatial values of `ksize`,
`strides` and `dilations`; a channels-first layout (NCW, NCHW, NCDHW), which TF's default
(oneDNN) CPU kernels accept, is transposed to channels-last around the op, so its gradient is the
transposes' and the op's.
"""
import numpy as np

from defun.core import context, error_helpers, errors
from defun.ops.array.gathering import gather
from defun.ops.array.transform import transpose
from defun.ops.support import validation

__all__ = ['check_format', 'channels_first', 'full_list', 'int_or_list', 'padding_mode',
           'to_channels_last', 'from_channels_last', 'sizes_to_channels_last', 'flat_ints',
           'hw_arg', 'padding_arg', 'padding_attrs', 'check_rank']


def flat_ints(value, name, op):
    """The ints of a window argument as TF's wrappers read them (make_int: a float is truncated,
    anything else, a nested list included, is TypeError); a tensor is iterated, which a graph
    being built does not allow."""
    if hasattr(value, 'dtype') and hasattr(value, 'shape') and not isinstance(value, np.ndarray) \
            and context.current_graph() is not None:
        raise errors.OperatorNotAllowedInGraphError(
            f'Iterating over a symbolic `tf.Tensor` is not allowed: `{name}` of {op} must be a '
            f'list of ints, got {error_helpers.describe(value)}')
    items = list(value) if isinstance(value, (list, tuple)) else \
        list(np.reshape(np.asarray(value, dtype=object), [-1]))
    out = []
    for v in items:
        if isinstance(v, (float, np.floating)):
            out.append(int(v))
        elif validation.is_int(v) or (hasattr(v, 'dtype') and np.ndim(v) == 0):
            out.append(validation.python_int(v, op, name))
        else:
            raise TypeError(f"Expected int for argument '{name}' not {v!r}.")
    return out


def hw_arg(value, name, op, data_format=None):
    """strides/ksize/dilations as TF accepts them (int, [h, w] or [1, h, w, 1], [1, 1, h, w] in
    NCHW) -> (h, w)."""
    if value is None:
        return (1, 1)
    values = flat_ints(value, name, op)
    if len(values) == 4 and channels_first(data_format):
        values = [values[0], values[2], values[3], values[1]]
    if len(values) == 1:
        values = [values[0], values[0]]
    elif len(values) == 4:
        if values[0] != 1 or values[3] != 1:
            raise validation.invalid_argument(
                f'{op}: {name} in the batch and depth dimensions must be 1, got {values}')
        values = values[1:3]
    elif len(values) != 2:  # TF's wrapper check: ValueError in both modes
        raise ValueError(f'{name} should be of length 1, 2 or 4. Received: {name}={values} of '
                         f'length {len(values)}')
    if min(values) <= 0:
        message = f'{op}: {name} must be positive, got {value!r}'
        # TF's pool kernels check the window at run time (InvalidArgumentError in both modes);
        # strides and dilations are checked by the shape function.
        raise (errors.InvalidArgumentError(message) if name == 'ksize'
               else validation.invalid_argument(message))
    return tuple(values)


def padding_arg(padding, op):
    text = padding.upper() if isinstance(padding, str) else padding
    if text not in ('SAME', 'VALID'):
        raise validation.invalid_argument(f"{op}: padding must be 'SAME' or 'VALID', got "
                                          f'{padding!r}')
    return text


def check_rank(x, rank, op, layout):
    if x.shape.rank not in (None, rank):
        raise ValueError(f'{op}: input must be {rank}-D ({layout}), got '
                         f'{error_helpers.describe(x)}')
    return x


def _pairs(padding, rank):
    """TF's _convert_padding: a list of [before, after] pairs, one per dim of the input."""
    for i, pair in enumerate(padding):
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            raise ValueError(f'When `padding` is a list, each element of `padding` must be a '
                             f'list/tuple of size 2. Received: padding={padding} with element '
                             f'at index {i} of size {len(pair) if hasattr(pair, "__len__") else 1}')
    if len(padding) != rank:
        raise ValueError(f'When padding is a list, it must be of size {rank}. Received: '
                         f'padding={padding} of size {len(padding)}')
    return [[validation.python_int(v, 'explicit_paddings', 'padding') for v in pair]
            for pair in padding]


def padding_attrs(padding, op, rank, data_format=None):
    """The op attributes of a `padding` argument: {'padding': 'SAME' | 'VALID'}, or for a list of
    pairs {'padding': 'EXPLICIT', 'explicit_paddings': TF's flat list in channels-last order}."""
    if not isinstance(padding, (list, tuple)):
        if padding == 'EXPLICIT':
            raise ValueError('"EXPLICIT" is not a valid value for `padding`. To use explicit '
                             'padding, `padding` must be a list.')
        return {'padding': padding_arg(padding, op)}
    pairs = _pairs(padding, rank)
    if channels_first(data_format):
        pairs = [pairs[0]] + pairs[2:] + [pairs[1]]
    if any(v < 0 for pair in pairs for v in pair):
        raise validation.invalid_argument('All elements of explicit_paddings must be '
                                          'nonnegative')
    if any(pairs[0] + pairs[-1]):
        raise validation.invalid_argument('Nonzero explicit padding in the batch or depth '
                                          'dimensions is not supported')
    return {'padding': 'EXPLICIT', 'explicit_paddings': tuple(v for pair in pairs for v in pair)}


def check_format(data_format, allowed, op):
    if data_format not in allowed:
        raise validation.invalid_argument(
            f"{op}: Value for attr 'data_format' of {data_format!r} is not in the list of "
            f'allowed values: {", ".join(allowed)}')


def channels_first(data_format):
    return data_format is not None and data_format.startswith('NC')


def full_list(value, n, data_format, name, op):
    """An op attribute TF requires as a list of n + 2 ints (1 in the batch and channel dims),
    as the n spatial values."""
    if not isinstance(value, (list, tuple)):
        raise TypeError(f"Expected list for '{name}' argument to '{op}' Op, not {value!r}.")
    values = [validation.python_int(v, op, name) for v in value]
    if len(values) < n + 2:
        raise validation.invalid_argument(
            f"Length for attr '{name}' of {len(values)} must be at least minimum {n + 2}")
    if len(values) != n + 2:
        raise errors.InvalidArgumentError(
            f'{op}: Sliding window {name} field must specify {n + 2} dimensions')
    first = channels_first(data_format)
    outer = (values[0], values[1]) if first else (values[0], values[-1])
    if outer != (1, 1):
        what = 'dilations' if name == 'dilations' else 'strides'
        raise validation.invalid_argument(
            f'Current implementation does not yet support {what} in the batch and depth '
            f'dimensions.')
    spatial = tuple(values[2:] if first else values[1:-1])
    if min(spatial) <= 0:
        raise validation.invalid_argument(f'{op}: {name} must be positive, got {values}')
    return spatial


def int_or_list(value, n, data_format, name):
    """TF's reading of an int or a list of 1, n or n + 2 ints, as the full list of n + 2."""
    if value is None:
        return [1] * (n + 2)
    values = [value] if isinstance(value, int) else list(value)
    if len(values) == 1:
        values = values * n
    if len(values) == n:
        return [1, 1] + values if channels_first(data_format) else [1] + values + [1]
    if len(values) == n + 2:
        return values
    raise ValueError(f'{name} should be of length 1, {n} or {n + 2}. Received: {name}={value} of '
                     f'length {len(values)}')


def padding_mode(padding, op):
    """SAME or VALID as TF's 3-D ops take it (the op's schema checks the spelling)."""
    if not isinstance(padding, str):
        raise TypeError(f"Expected string for argument 'padding' not {padding!r}.")
    return padding


def _to_last(rank):
    return [0] + list(range(2, rank)) + [1]


def _to_first(rank):
    return [0, rank - 1] + list(range(1, rank - 1))


def to_channels_last(x, data_format):
    if not channels_first(data_format):
        return x
    return transpose(x, _to_last(len(data_format)))


def from_channels_last(y, data_format):
    if not channels_first(data_format):
        return y
    return transpose(y, _to_first(len(data_format)))


def sizes_to_channels_last(sizes, data_format):
    """A shape vector in `data_format`'s order (conv_transpose's output_shape), channels last."""
    if not channels_first(data_format):
        return sizes
    return gather(sizes, _to_last(len(data_format)))
