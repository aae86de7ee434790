"""Strings to numbers and back: tf.strings.to_number (StringToNumber), tf.strings.as_string
(AsString: C printf formats, as TF builds them) and tf.strings.format (StringFormat: tensors shown
as tf.print shows them). None of these ops is differentiable.
"""
import re

import numpy as np

from defun.core import dtypes, errors
from defun.core.dispatch import apply_op
from defun.core.registry import define_op
from defun.core.tensor import is_tensor
from defun.ops.debugging.debug import format_tensor
from defun.ops.support import validation
from defun.ops.support.helpers import dims, to_tensor
from defun.ops.strings.support import as_array, map_elements, ragged_elementwise, string_input

__all__ = ['to_number', 'as_string', 'format']


# ---------------------------------------------------------------- to_number

# What C's strtod reads (after TF strips whitespace): decimal and hex floats, inf and nan.
_FLOAT = re.compile(r'[+-]?(\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?|inf(inity)?|nan|'
                    r'0[xX][0-9a-fA-F]*\.?[0-9a-fA-F]*([pP][+-]?\d+)?)', re.IGNORECASE)
_INT = re.compile(r'[+-]?\d+')


def _parse(value, np_dtype):
    text = value.decode('utf-8', 'replace').strip()
    if np_dtype.kind == 'f':
        if _FLOAT.fullmatch(text):
            number = float.fromhex(text) if 'x' in text.lower() else float(text)
            return np_dtype.type(number)
    elif _INT.fullmatch(text):
        number = int(text)
        info = np.iinfo(np_dtype)
        if info.min <= number <= info.max:
            return number
    raise errors.InvalidArgumentError(
        f'StringToNumberOp could not correctly convert string: {value.decode("utf-8", "replace")}')


def _to_number_kernel(x, out_type):
    np_dtype = np.dtype(out_type)
    return map_elements(lambda v: _parse(v, np_dtype), x, np_dtype)


STRING_TO_NUMBER = define_op('StringToNumber', _to_number_kernel,
                             lambda x, out_type: (dtypes.as_dtype(out_type), dims(x)), None)

_NUMBER_TYPES = (dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64)


@ragged_elementwise
def to_number(string_tensor, out_type=dtypes.float32, name=None):
    """Parses each string as a number of `out_type` (float32, float64, int32 or int64)."""
    x = string_input(string_tensor, 'to_number', 'string_tensor')
    dtype = dtypes.as_dtype(out_type)
    if dtype not in _NUMBER_TYPES:
        raise TypeError(f"to_number: Value for attr 'out_type' of {dtype.name} is not in the list "
                        f'of allowed values: float, double, int32, int64')
    return apply_op(STRING_TO_NUMBER, (x,), {'out_type': dtype.np_dtype.name}, name)


# ---------------------------------------------------------------- as_string

def _printf_format(dtype, precision, scientific, shortest, width, fill):
    """The C format TF's AsString builds for one element of `dtype`."""
    if fill and fill not in ' +-0#':
        raise validation.invalid_argument(f'as_string: Fill argument not supported: "{fill}"')
    spec = '%' + fill + (str(width) if width > -1 else '')
    if dtype.is_floating or dtype.is_complex:
        spec += (f'.{precision}' if precision > -1 else '') + \
            ('g' if shortest else 'e' if scientific else 'f')
    elif precision > -1:
        raise validation.invalid_argument(
            f'as_string: precision not supported for datatype {dtype.name}')
    else:
        spec += 's' if dtype in (dtypes.bool, dtypes.string) else 'd'
    return spec


def _as_string_kernel(x, spec):
    x = as_array(x)
    kind = x.dtype.kind
    if kind == 'c':
        return map_elements(lambda v: f'({spec % v.real},{spec % v.imag})'.encode(), x)
    if kind == 'b':
        return map_elements(lambda v: (spec % ('true' if v else 'false')).encode(), x)
    if kind == 'O':
        return map_elements(lambda v: (spec % v.decode('utf-8', 'surrogateescape')).encode(
            'utf-8', 'surrogateescape'), x)
    if kind == 'f':
        return map_elements(lambda v: (spec % float(v)).encode(), x)
    return map_elements(lambda v: (spec % int(v)).encode(), x)


AS_STRING = define_op('AsString', _as_string_kernel,
                      lambda x, spec: (dtypes.string, dims(x)), None)


@ragged_elementwise
def as_string(input, precision=-1, scientific=False, shortest=False, width=-1, fill='',  # noqa: A002
              name=None):
    """Each element as text, formatted as C's printf with TF's flags."""
    x = to_tensor(input, name='input', op='as_string')
    if len(fill) > 1:
        raise validation.invalid_argument('as_string: Fill string must be one or fewer characters')
    if scientific and shortest:
        raise validation.invalid_argument(
            'as_string: Cannot select both scientific and shortest notation')
    spec = _printf_format(x.dtype, int(precision), scientific, shortest, int(width), fill)
    return apply_op(AS_STRING, (x,), {'spec': spec}, name)


# ---------------------------------------------------------------- format

def _shown(array, summarize):
    return format_tensor(as_array(array), summarize, quote=True)  # a string scalar is quoted


def _format_kernel(*arrays, pieces, summarize):
    shown = [_shown(a, summarize) for a in arrays]
    return ''.join(p + (shown[i] if i < len(shown) else '') for i, p in enumerate(pieces)).encode()


STRING_FORMAT = define_op('StringFormat', _format_kernel,
                          lambda *ts, pieces, summarize: (dtypes.string, ()), None)


def format(template, inputs, placeholder='{}', summarize=3, name=None):  # noqa: A001 - TF's name
    """`template` with each `placeholder` replaced by the next tensor of `inputs`, shown as
    tf.print shows it (the first and last `summarize` entries of each dimension)."""
    items = [inputs] if is_tensor(inputs) else list(inputs)
    pieces = template.split(placeholder)
    if len(pieces) - 1 != len(items):
        raise ValueError(f'The template expects {len(pieces) - 1} tensors, but the inputs only has '
                         f'{len(items)}. Please ensure the number of placeholders in template '
                         f'matches inputs length.')
    tensors = tuple(to_tensor(v, name=f'inputs[{i}]', op='format') for i, v in enumerate(items))
    attrs = {'pieces': tuple(pieces), 'summarize': -1 if summarize is None else int(summarize)}
    return apply_op(STRING_FORMAT, tensors, attrs, name)
