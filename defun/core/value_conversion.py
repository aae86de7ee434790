"""Python and numpy values to the ndarray a tensor holds, by TensorFlow 2's rules.

Python floats become float32, ints int32 (int64 when too large), numpy arrays keep their dtype,
strings become object arrays of bytes, and a requested dtype never silently truncates a float to an
integer. Failures raise TF's exception classes, which differ between eager conversion and
conversion while a graph is built (`conversion_error`). tensor.convert_to_tensor builds on this.
"""
from __future__ import annotations

import numpy as np

from defun.core import context, dtypes

__all__ = ['to_array', 'conversion_error', 'string_array', 'box_string']


def to_array(value, dtype):
    """Converts a Python or numpy value to an ndarray of `dtype` (inferred by TF's rules when None).

    Failures raise TF's classes, which differ between eager conversion and conversion while a
    graph is built (see `conversion_error`); a float or complex value that a requested integer or
    bool dtype would truncate is a TypeError in both.
    """
    is_numpy = isinstance(value, (np.ndarray, np.generic))
    if type(value) is int and 2 ** 63 <= value < 2 ** 64 and (dtype is None or dtype.is_integer) \
            and context.current_graph() is not None:
        # While a graph is built TF's converter reads such an int with numpy: a uint64 (which
        # a requested integer dtype wraps), where eager conversion refuses it.
        array = np.asarray(value, np.uint64)
        return array if dtype is None else array.astype(dtype.np_dtype)
    if not is_numpy:
        # Python ints beyond int64 convert only to a float or complex dtype (as TF's converter).
        _check_python_value(value, _int_range(dtype), dtype)
    try:
        array = np.asarray(value)
    except (ValueError, TypeError):
        raise conversion_error('ragged', value) from None
    if array.dtype.kind == 'O' or array.dtype.kind in 'US':
        return _object_array(value, array, dtype, is_numpy)
    if not is_numpy and array.dtype.kind in 'iufc' and isinstance(value, (list, tuple)) and \
            _holds_bool(value):  # numpy reads True as 1; TF refuses bools mixed with numbers
        raise conversion_error('mixed', value)
    if dtype is None:
        return _default_array(array, is_numpy)
    target = dtype.np_dtype
    if array.dtype == target:
        return array
    if array.size and not _safe_kind_change(array, dtype, is_numpy):
        raise TypeError(f'Cannot convert {_short(value)} to EagerTensor of dtype {dtype.name}')
    # Python ints within int64 wrap around to a narrower integer dtype, as TF's converter does
    # (`tf.constant(300, tf.uint8)` is 44, `uint8_tensor + 300` adds 44).
    return array.astype(target)


_PYTHON_LEAVES = (int, float, complex, str, bytes, np.generic, np.ndarray)


def _int_range(dtype):
    """The Python ints TF's converter accepts for `dtype` (None: any, for float and complex):
    int64's range, or uint64's for uint64."""
    if dtype is not None and (dtype.is_floating or dtype.is_complex):
        return None
    if dtype is not None and dtype.name == 'uint64':
        return range(0, 2 ** 64)
    return range(-2 ** 63, 2 ** 63)


def _check_python_value(value, int_range, dtype=None):
    """Raises TF's error for a value of a type no tensor holds (None, objects, dicts, sets...),
    at the top level or inside a nested list, and for ints outside `int_range` (unless None)."""
    if isinstance(value, _PYTHON_LEAVES):
        if int_range is not None and type(value) is int and value not in int_range:
            raise conversion_error('int_range', value, dtype)
        return
    if isinstance(value, (list, tuple)):
        for v in value:
            if isinstance(v, (list, tuple)) or not isinstance(v, _PYTHON_LEAVES):
                try:
                    _check_python_value(v, int_range, dtype)
                except (TypeError, ValueError):
                    if context.current_graph() is None:
                        raise  # eagerly TF names the element; in a graph, the whole list
                    raise conversion_error('mixed', value) from None
            elif int_range is not None and type(v) is int and v not in int_range:
                raise conversion_error('int_range', value, dtype)
        return
    if hasattr(value, '__array__') and not isinstance(value, type):
        return
    raise conversion_error('unsupported', value)


def _object_array(value, array, dtype, is_numpy):
    """An array numpy could only make of objects: strings become string tensors, the rest fail."""
    if _all_strings(array) and (is_numpy or _all_strings(np.array(value, dtype=object))):
        # Strings only become string tensors: a requested numeric dtype must not be ignored
        # (it was, and `int_tensor * 'text'` then repeated the string).
        if dtype is not None and dtype is not dtypes.string:
            raise TypeError(f'Cannot convert {_short(value)} to EagerTensor of dtype {dtype.name}')
        # numpy's own string arrays drop trailing NULs: a Python value is read as objects.
        return string_array(array if is_numpy else np.array(value, dtype=object))
    return _raise(conversion_error('numpy_object' if is_numpy else 'mixed', value))


def _raise(exc):
    raise exc


def conversion_error(kind, value, dtype=None):
    """TF's error for a value that does not convert. Eagerly TF's C converter raises ValueError;
    while a graph is built, make_tensor_proto raises TypeError (ValueError for None and ragged
    lists). kind: 'unsupported' type, 'mixed' element types, 'ragged' list, 'int_range' Python
    int, 'numpy_object' array. An int out of range of a requested integer `dtype` is a
    ValueError in both modes (as TF's shape and size arguments give)."""
    eager = context.current_graph() is None
    if kind == 'int_range' and dtype is not None and dtype.is_integer:
        return ValueError(f"Can't convert Python sequence with out-of-range integer to "
                          f"{dtype.name} Tensor: {_short(value)}")
    if kind == 'ragged':
        return ValueError("Can't convert non-rectangular Python sequence to Tensor.")  # TF's text
    if not eager:
        if value is None:
            return ValueError('None values not supported.')
        return TypeError(f'Failed to convert elements of {_short(value)} to Tensor. Consider '
                         f'casting elements to a supported type. See '
                         f'https://www.tensorflow.org/api_docs/python/tf/dtypes for supported TF '
                         f'dtypes.')
    if kind == 'unsupported':
        return ValueError(f'Attempt to convert a value ({_short(value)}) with an unsupported type '
                          f'({type(value)}) to a Tensor.')
    if kind == 'int_range':
        return ValueError(f"Can't convert Python sequence with out-of-range integer to Tensor: "
                          f'{_short(value)}')
    if kind == 'numpy_object':
        return ValueError(f'Failed to convert a NumPy array to a Tensor (Unsupported object type '
                          f'{_first_unsupported(value)}).')
    return ValueError(f"Can't convert Python sequence with mixed types to Tensor: "
                      f'{_short(value)}')


def _holds_bool(value):
    if isinstance(value, (list, tuple)):
        return any(_holds_bool(v) for v in value)
    return isinstance(value, (bool, np.bool_))


def _first_unsupported(array):
    """The type name of the first element of an object array that is not a string (TF's text)."""
    for item in np.ravel(array):
        if not isinstance(item, (str, bytes)):
            return type(item).__name__
    return 'object'


def _default_array(array, is_numpy):
    if is_numpy:
        return array
    kind = array.dtype.kind
    if kind == 'f':
        return array.astype(np.float32)
    if kind == 'i':
        info = np.iinfo(np.int32)
        if array.size == 0 or (array.min() >= info.min and array.max() <= info.max):
            return array.astype(np.int32)
        return array.astype(np.int64)
    return array


def _safe_kind_change(array, dtype, is_numpy):
    src, dst = dtypes.np_kind(array.dtype), dtype.kind
    if src == dst:
        return True
    if dst == 'c':
        return src in 'biuf'
    if dst == 'f':
        return src in 'biu'
    if dst in 'iu':
        if src in 'iub':
            return True
        # numpy arrays of a float dtype may be cast explicitly (tf.constant does); Python floats never.
        return is_numpy and src == 'f'
    if dst == 'b':
        return False
    return False


def box_string(value):
    """A bytes object as the rank-0 payload of a string tensor."""
    out = np.empty((), dtype=object)
    out[()] = value
    return out


def string_array(array):
    """The payload of a string tensor: an object array of bytes (str encoded as UTF-8), as TF."""
    flat = [v.encode('utf-8') if isinstance(v, str) else bytes(v) for v in array.flat]
    out = np.empty(len(flat), dtype=object)
    out[:] = flat
    return out.reshape(array.shape)


def _all_strings(array):
    return all(isinstance(v, (str, bytes)) for v in array.flat)


def _short(value):
    text = repr(value)
    return text if len(text) < 80 else text[:77] + '...'
