"""tf.strings ops on dense byte-string tensors: join, reduce_join, length, lower, upper, strip,
regex_full_match, regex_replace and substr.

Elements are bytes objects in numpy object arrays. TF's regular expressions are RE2's; Python's
`re` reads the same syntax for everything RE2 accepts except a few rarely used classes, and a
pattern is matched on the text (UTF-8 decoded, as RE2 matches whole characters) when the element
is valid UTF-8, else on its bytes. None of these ops is differentiable.
"""
import functools
import re

import numpy as np

from defun.core import dtypes, errors
from defun.core.dispatch import apply_op
from defun.core.registry import define_op
from defun.ops.support import validation
from defun.ops.support.helpers import broadcast_dims, dims, same_as_first, static_value, to_tensor
from defun.ops.ragged.ragged_tensor import is_ragged
from defun.ops.strings.support import as_array, map_elements, ragged_elementwise, scalar_bytes, string_input

__all__ = ['join', 'reduce_join', 'length', 'lower', 'upper', 'strip', 'regex_full_match',
           'regex_replace', 'substr', 'unsorted_segment_join']


# ---------------------------------------------------------------- join

def _join_infer(*inputs, separator):
    shape = ()
    for t in inputs:
        d = dims(t)
        if d is None:
            return dtypes.string, None
        if d != () and shape != () and d != shape:
            raise validation.invalid_argument(
                f'StringJoin: Input shapes do not match: {list(shape)} vs. {list(d)}')
        shape = d if d != () else shape
    return dtypes.string, shape


def _join_kernel(*arrays, separator):
    arrays = [as_array(a) for a in arrays]
    shape = ()
    for a in arrays:
        if a.ndim and shape and a.shape != shape:
            raise errors.InvalidArgumentError(
                f'Input shapes do not match: {list(shape)} vs. {list(a.shape)}')
        shape = a.shape if a.ndim else shape
    out = np.empty(shape, dtype=object)
    flat = out.reshape(-1)
    parts = [np.broadcast_to(a, shape).reshape(-1) for a in arrays]
    for i in range(flat.size):
        flat[i] = separator.join([p[i] for p in parts])
    return out


STRING_JOIN = define_op('StringJoin', _join_kernel, _join_infer, None)


def join(inputs, separator='', name=None):
    """Joins the strings of `inputs` (same shapes, or scalars) elementwise with `separator`."""
    tensors = tuple(string_input(v, 'join', f'inputs[{i}]') for i, v in enumerate(inputs))
    return apply_op(STRING_JOIN, tensors, {'separator': _bytes(separator)}, name)


def _bytes(text):
    return text.encode('utf-8') if isinstance(text, str) else bytes(text)


# ---------------------------------------------------------------- reduce_join

def _reduce_join_infer(x, axis, keepdims, separator):
    shape = dims(x)
    if shape is None:
        return dtypes.string, None
    return dtypes.string, tuple(1 if i in axis else d for i, d in enumerate(shape)
                                if keepdims or i not in axis)


def _reduce_join_kernel(x, axis, keepdims, separator):
    x = as_array(x)
    kept = [i for i in range(x.ndim) if i not in axis]
    moved = np.transpose(x, kept + list(axis))
    rows = moved.reshape(moved.shape[:len(kept)] + (int(np.prod(moved.shape[len(kept):])),))
    out = map_elements(separator.join, _rows_as_lists(rows))
    if keepdims:
        out = out.reshape([1 if i in axis else n for i, n in enumerate(x.shape)])
    return out


def _rows_as_lists(rows):
    out = np.empty(rows.shape[:-1], dtype=object)
    flat = out.reshape(-1)
    for i, row in enumerate(rows.reshape(flat.size, rows.shape[-1])):
        flat[i] = list(row)
    return out


def _reduce_join_ragged(rt, axis, keepdims, separator, name):
    if rt.ragged_rank != 1 or axis not in (1, -1) or keepdims:
        raise ValueError('reduce_join: a RaggedTensor is joined along its ragged axis only (a '
                         'ragged rank 1 tensor and axis=1)')
    return unsorted_segment_join(rt.values, rt.value_rowids(), rt.nrows(), separator, name)


REDUCE_JOIN = define_op('ReduceJoin', _reduce_join_kernel, _reduce_join_infer, None)


def reduce_join(inputs, axis=None, keepdims=False, separator='', name=None):
    """Joins the strings along `axis` (all axes when None), in order, with `separator`."""
    if is_ragged(inputs):
        return _reduce_join_ragged(inputs, axis, keepdims, separator, name)
    x = string_input(inputs, 'reduce_join', 'inputs')
    rank = x.shape.rank
    if axis is None:
        if rank is None:
            raise ValueError('reduce_join: `axis` must be given for an input of unknown rank')
        axes = tuple(range(rank))
    else:
        values = static_value(axis)
        if values is None:
            raise ValueError('reduce_join: `axis` must be known when the graph is built')
        axes = tuple(int(a) for a in np.reshape(np.asarray(values), [-1]))
        for a in axes:
            if rank is not None and not -rank <= a < rank:
                raise errors.OutOfRangeError(
                    f'reduce_join: Invalid reduction dimension {a} for input with {rank} '
                    'dimension(s)')
        axes = tuple(sorted(a % rank for a in axes)) if rank is not None else axes
    attrs = {'axis': axes, 'keepdims': bool(keepdims), 'separator': _bytes(separator)}
    return apply_op(REDUCE_JOIN, (x,), attrs, name)


# ---------------------------------------------------------------- length, case, strip

def _utf8_length(value):
    # Counts the bytes that start a character (not 10xxxxxx continuation bytes), as TF does.
    return sum(1 for b in value if b & 0xC0 != 0x80)


def _length_kernel(x, unit):
    count = len if unit == 'BYTE' else _utf8_length
    return map_elements(count, x, np.int32)


STRING_LENGTH = define_op('StringLength', _length_kernel,
                          lambda x, unit: (dtypes.int32, dims(x)), None)


def _unit(unit, op):
    if unit not in ('BYTE', 'UTF8_CHAR'):
        raise validation.invalid_argument(
            f"{op}: Value for attr 'unit' of \"{unit}\" is not in the list of allowed values: "
            f'"BYTE", "UTF8_CHAR"')
    return unit


@ragged_elementwise
def length(input, unit='BYTE', name=None):  # noqa: A002 - TF's argument name
    """The length of each string, in bytes or (unit='UTF8_CHAR') in UTF-8 characters."""
    x = string_input(input, 'length')
    return apply_op(STRING_LENGTH, (x,), {'unit': _unit(unit, 'length')}, name)


def _case_kernel(x, upper, encoding):
    if encoding == 'utf-8':  # Unicode case mapping of the decoded text
        convert = str.upper if upper else str.lower
        return map_elements(lambda v: convert(v.decode('utf-8')).encode('utf-8'), x)
    # No encoding: ASCII letters only, every other byte unchanged (as C's toupper/tolower).
    return map_elements(bytes.upper if upper else bytes.lower, x)


STRING_CASE = define_op('StringCase', _case_kernel, same_as_first, None)


def _case(input, upper, encoding, name):
    op = 'upper' if upper else 'lower'
    x = string_input(input, op)
    if encoding not in ('', 'utf-8'):
        raise validation.invalid_argument(f'{op}: encoding must be "" or "utf-8", got {encoding!r}')
    return apply_op(STRING_CASE, (x,), {'upper': upper, 'encoding': encoding}, name)


@ragged_elementwise
def lower(input, encoding='', name=None):  # noqa: A002
    """Lower-cases each string: ASCII letters, or all of Unicode with encoding='utf-8'."""
    return _case(input, False, encoding, name)


@ragged_elementwise
def upper(input, encoding='', name=None):  # noqa: A002
    """Upper-cases each string: ASCII letters, or all of Unicode with encoding='utf-8'."""
    return _case(input, True, encoding, name)


_ASCII_SPACE = b' \t\n\v\f\r'

STRING_STRIP = define_op('StringStrip', lambda x: map_elements(lambda v: v.strip(_ASCII_SPACE), x),
                         same_as_first, None)


@ragged_elementwise
def strip(input, name=None):  # noqa: A002
    """Removes leading and trailing ASCII whitespace from each string."""
    return apply_op(STRING_STRIP, (string_input(input, 'strip'),), None, name)


# ---------------------------------------------------------------- regular expressions

@functools.lru_cache(maxsize=256)
def _compiled(pattern):
    """(text regex, bytes regex) for a pattern given as bytes; caches strings only."""
    try:
        text = pattern.decode('utf-8')
        return re.compile(text), re.compile(pattern)
    except (re.error, UnicodeDecodeError) as exc:
        raise errors.InvalidArgumentError(
            f'Invalid pattern: {pattern.decode("utf-8", "replace")}, error: {exc}') from None


def _on_text(fn, value, pattern, *args):
    """fn(regex, subject, *args) on the element decoded when it is UTF-8, else on its bytes."""
    text_re, bytes_re = _compiled(pattern)
    try:
        subject = value.decode('utf-8')
    except UnicodeDecodeError:
        return fn(bytes_re, value, *args)
    result = fn(text_re, subject, *args)
    return result.encode('utf-8') if isinstance(result, str) else result


def _full_match_kernel(x, pattern):
    pattern = scalar_bytes(pattern)
    return map_elements(lambda v: _on_text(lambda r, s: r.fullmatch(s) is not None, v, pattern),
                        x, np.bool_)


REGEX_FULL_MATCH = define_op(
    'RegexFullMatch', _full_match_kernel, lambda x, pattern: (dtypes.bool, dims(x)), None)


def _pattern_input(pattern, op, name='pattern'):
    p = string_input(pattern, op, name)
    if p.shape.rank not in (0, None):
        raise validation.invalid_argument(f'{op}: `{name}` must be a scalar, got shape {p.shape}')
    return p


@ragged_elementwise
def regex_full_match(input, pattern, name=None):  # noqa: A002
    """Whether each whole string matches the regular expression `pattern` (RE2 syntax)."""
    x = string_input(input, 'regex_full_match')
    return apply_op(REGEX_FULL_MATCH, (x, _pattern_input(pattern, 'regex_full_match')), None, name)


def _rewrite_function(rewrite):
    """RE2's rewrite string (\\0 the match, \\1..\\9 groups, \\\\ a backslash) as a function of a
    match: an unmatched group gives nothing."""
    pieces, i = [], 0
    while i < len(rewrite):
        c = rewrite[i]
        if c == '\\' and i + 1 < len(rewrite) and (rewrite[i + 1].isdigit() or rewrite[i + 1] == '\\'):
            nxt = rewrite[i + 1]
            pieces.append(int(nxt) if nxt.isdigit() else '\\')
            i += 2
            continue
        pieces.append(c)
        i += 1

    def replace(match):
        return ''.join(p if isinstance(p, str) else (match.group(p) or '') for p in pieces)
    return replace


def _replace_kernel(x, pattern, rewrite, replace_global):
    pattern, rewrite = scalar_bytes(pattern), scalar_bytes(rewrite)
    text_fn = _rewrite_function(rewrite.decode('utf-8', 'surrogateescape'))
    count = 0 if replace_global else 1

    def one(regex, subject):
        if isinstance(subject, bytes):
            fn = (lambda m: text_fn(_TextMatch(m)).encode('utf-8', 'surrogateescape'))
            return regex.sub(fn, subject, count=count)
        return regex.sub(text_fn, subject, count=count)
    return map_elements(lambda v: _on_text(one, v, pattern), x)


class _TextMatch:
    """A bytes match read as text, so one rewrite function serves both kinds of subject."""

    def __init__(self, match):
        self.match = match

    def group(self, i):
        g = self.match.group(i)
        return None if g is None else g.decode('utf-8', 'surrogateescape')


REGEX_REPLACE = define_op('RegexReplace', _replace_kernel,
                          lambda x, pattern, rewrite, replace_global: (dtypes.string, dims(x)), None)


@ragged_elementwise
def regex_replace(input, pattern, rewrite, replace_global=True, name=None):  # noqa: A002
    """Replaces the matches of `pattern` (all, or the first) in each string by `rewrite`."""
    x = string_input(input, 'regex_replace')
    inputs = (x, _pattern_input(pattern, 'regex_replace'),
              _pattern_input(rewrite, 'regex_replace', 'rewrite'))
    return apply_op(REGEX_REPLACE, inputs, {'replace_global': bool(replace_global)}, name)


# ---------------------------------------------------------------- substr

def _char_starts(value):
    """Byte offsets at which each UTF-8 character of `value` starts, and len(value) last."""
    return [i for i, b in enumerate(value) if b & 0xC0 != 0x80] + [len(value)]


def _substr_one(value, pos, n, unit, index):
    starts = _char_starts(value) if unit == 'UTF8_CHAR' else None
    size = len(starts) - 1 if starts else len(value)
    if not -size <= pos <= size:
        raise errors.InvalidArgumentError(
            f'pos {pos} out of range for string {value!r} at index {index}')
    begin = pos + size if pos < 0 else pos
    end = size if n < 0 else min(size, begin + n)
    return value[starts[begin]:starts[end]] if starts else value[begin:end]


def _substr_kernel(x, pos, n, unit):
    x, pos, n = as_array(x), np.asarray(pos), np.asarray(n)
    shape = np.broadcast_shapes(x.shape, pos.shape, n.shape)
    xs, ps, ns = (np.broadcast_to(a, shape).reshape(-1) for a in (x, pos, n))
    out = np.empty(shape, dtype=object)
    flat = out.reshape(-1)
    for i in range(flat.size):
        flat[i] = _substr_one(xs[i], int(ps[i]), int(ns[i]), unit, i)
    return out


def _substr_infer(x, pos, n, unit):
    if dims(pos) is not None and dims(n) is not None and dims(pos) != dims(n):
        raise validation.invalid_argument(
            f'substr: `pos` and `len` must have the same shape, got {pos.shape} and {n.shape}')
    return dtypes.string, broadcast_dims(dims(x), dims(pos), 'substr')


SUBSTR = define_op('Substr', _substr_kernel, _substr_infer, None)


@ragged_elementwise
def substr(input, pos, len, unit='BYTE', name=None):  # noqa: A002 - TF's argument names
    """The substrings starting at `pos` (from the end when negative) of `len` bytes or UTF-8
    characters (to the end when negative); `pos` and `len` broadcast against the strings."""
    x = string_input(input, 'substr')
    p = validation.element_type(to_int_tensor(pos, 'pos'), 'i', 'substr', 'pos')
    n = to_int_tensor(len, 'len', p.dtype)
    return apply_op(SUBSTR, (x, p, n), {'unit': _unit(unit, 'substr')}, name)


def to_int_tensor(value, name, dtype=None):
    from_value = to_tensor(value, dtype=dtype, name=name, op='substr', hint=dtypes.int32)
    return validation.element_type(from_value, 'i', 'substr', name)


# ---------------------------------------------------------------- unsorted_segment_join

def _segment_join_kernel(x, ids, num_segments, separator):
    x, ids = as_array(x), np.asarray(ids)
    n = int(num_segments)
    rows = x.reshape((ids.size,) + x.shape[ids.ndim:])
    groups = [[] for _ in range(n)]
    for i, segment in enumerate(ids.reshape(-1).tolist()):
        if not 0 <= segment < n:
            raise errors.InvalidArgumentError(
                f'segment_ids are not allowed to exceed num_segments or to have negative values '
                f'(segment_ids[{i}] = {segment}, num_segments = {n}).')
        groups[segment].append(rows[i])
    out = np.empty((n,) + rows.shape[1:], dtype=object)
    for s, members in enumerate(groups):
        joined = _join_kernel(*members, separator=separator) if members else np.array(b'', object)
        out[s] = joined if joined.ndim else joined[()]
    return out


def _segment_join_infer(x, ids, num_segments, separator):
    d, k = dims(x), dims(ids)
    n = static_value(num_segments)
    lead = (None if n is None else int(n),)
    return dtypes.string, None if d is None or k is None else lead + d[len(k):]


UNSORTED_SEGMENT_JOIN = define_op('UnsortedSegmentJoin', _segment_join_kernel,
                                  _segment_join_infer, None)


def unsorted_segment_join(inputs, segment_ids, num_segments, separator='', name=None):
    """Joins the strings of `inputs` whose segment ids are equal, in order of appearance."""
    x = string_input(inputs, 'unsorted_segment_join', 'inputs')
    ids = to_int_tensor(segment_ids, 'segment_ids')
    n = to_int_tensor(num_segments, 'num_segments')
    return apply_op(UNSORTED_SEGMENT_JOIN, (x, ids, n), {'separator': _bytes(separator)}, name)
