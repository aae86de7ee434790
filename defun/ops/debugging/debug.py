"""Run-time checks and printing: check_numerics, Assert (the op the asserts of asserts.py and
check_ops.py build) and tf.print.

All are stateful ops, so a compiled function runs them in program order even when nothing uses their
result. Eagerly, Assert checks at once (TF's Python message, not its kernel's) and returns None;
while a graph is built it adds an Assert op, returned so it can be used in control_dependencies,
whose kernel shows its data as TF's Tensor::SummarizeValue does. tf.print formats tensors as
TF's PrintV2 does and writes when the op runs, to the stream named by `output_stream` looked up
at that moment (sys.stderr by default, so redirections made later are honoured).
"""
import sys

import numpy as np

from defun.core import context, error_helpers, nest
from defun.core.dispatch import apply_op
from defun.ops.support.helpers import same_as_first, to_tensor
from defun.core.registry import define_op
from defun.core.tensor import EagerTensor, Tensor, is_tensor
from defun.ops.support import validation

__all__ = ['check_numerics', 'Assert', 'print', 'format_tensor', 'summarize_value']


# ---------------------------------------------------------------- check_numerics

def _check_numerics_kernel(x, message):
    nan, inf = bool(np.isnan(x).any()), bool(np.isinf(x).any())
    if nan or inf:
        kind = 'Inf and NaN' if nan and inf else ('NaN' if nan else 'Inf')
        raise validation.invalid_argument(f'{message} : Tensor had {kind} values')
    return x


CHECK_NUMERICS = define_op(
    'CheckNumerics', _check_numerics_kernel, same_as_first,
    lambda op, g: check_numerics(g, 'Not a number (NaN) or infinity (Inf) values detected in '
                                    'gradient. ' + op.get_attr('message')),
    stateful=True)


def check_numerics(tensor, message, name=None):
    """Returns `tensor`, raising InvalidArgumentError (with `message`) if it holds NaN or Inf."""
    x = to_tensor(tensor, op='check_numerics')
    return apply_op(CHECK_NUMERICS, (x,), {'message': str(message)}, name)


# ---------------------------------------------------------------- asserts

def _assert_kernel(condition, *data, summarize):
    if not np.all(condition):
        shown = ' '.join(f'[{summarize_value(_c_escaped(d), summarize)}]' for d in data)
        raise validation.invalid_argument(f'assertion failed: {shown}')
    return ()


def _summarize_dims(a, limit, taken, parts, top=True):
    """Appends a's elements as TF's Tensor::SummarizeValue does: inner dims bracketed, the
    innermost space-separated, '...' where the first `limit` elements run out."""
    if taken[0] >= limit:
        return
    if a.ndim == 1:
        for i, v in enumerate(a):
            if taken[0] >= limit:
                if not top:  # the outermost run's '...' is added once, at the end
                    parts.append('...')
                return
            parts.append((' ' if i else '') + _format_scalar(v, a.dtype.kind))
            taken[0] += 1
        return
    for sub in a:
        opened = taken[0] < limit
        if opened:
            parts.append('[')
        _summarize_dims(sub, limit, taken, parts, top=False)
        if opened:
            parts.append(']')


def _printable_array(value):
    """`value` as an array the formatters walk: text as objects, float16 shown through float32."""
    a = np.asarray(value.array if isinstance(value, EagerTensor) else value)
    if a.dtype.kind in 'US':
        a = a.astype(object)
    if a.dtype == np.float16:
        a = a.astype(np.float32)
    return a


def summarize_value(value, summarize=3):
    """A tensor's value as TF's Assert kernel shows it: '1 2 3...', '[1 2][3 4]'."""
    a = _printable_array(value)
    if a.ndim == 0:
        return _format_scalar(a[()], a.dtype.kind)
    limit = a.size if summarize is None or summarize < 0 else min(int(summarize), a.size)
    parts = []
    _summarize_dims(a, limit, [0], parts)
    text = ''.join(parts)
    return text + '...' if limit < a.size else text


_C_ESCAPES = {ord('\\'): '\\\\', ord("'"): "\\'", ord('"'): '\\"', ord('\n'): '\\n',
              ord('\t'): '\\t', ord('\r'): '\\r'}


def _c_escape(s):
    text = s.decode('utf-8', 'backslashreplace') if isinstance(s, bytes) else str(s)
    return text.translate(_C_ESCAPES)


def _c_escaped(value):
    """String data C-escaped, as TF's Assert kernel shows it (`it\\'s`, `a\\nb`)."""
    a = np.asarray(value)
    if a.dtype.kind not in 'OSU':
        return value
    if a.ndim == 0:
        return np.asarray(_c_escape(a[()]), dtype=object)
    return np.vectorize(_c_escape, otypes=[object])(a)


ASSERT = define_op('Assert', _assert_kernel, lambda c, *data, summarize: [], None,
                   num_outputs=0, stateful=True)


def Assert(condition, data, summarize=None, name=None):
    """Raises InvalidArgumentError showing `data` when `condition` is False (at run time)."""
    cond = to_tensor(condition, op='Assert')
    if not cond.dtype.is_bool:
        raise TypeError(f'Assert: condition must be a bool tensor, got {error_helpers.describe(cond)}')
    tensors = [d if isinstance(d, Tensor) else to_tensor(d, op='Assert') for d in data]
    summarize = 3 if summarize is None else int(summarize)
    if context.executing_eagerly():
        if not np.all(cond.numpy()):
            # TF's eager Assert never reaches the kernel: its message is the Python one.
            shown = '\n'.join(_summarize_eager(t, summarize) for t in tensors)
            raise validation.invalid_argument(
                f"Expected '{condition!s}' to be true. Summarized data: {shown}")
        return None
    return apply_op(ASSERT, (cond, *tensors), {'summarize': summarize}, name)


def _summarize_eager(tensor, summarize):
    """One data item of TF's eager Assert message: its first elements, comma-separated."""
    arr = np.asarray(tensor.numpy())
    if arr.ndim == 0:
        return str(arr[()]) if summarize != 0 else ''
    flat = arr.reshape(-1)
    shown = [str(v) for v in (flat if summarize < 0 else flat[:summarize])]
    return ', '.join(shown + ['...'] if len(shown) < flat.size else shown)


# ---------------------------------------------------------------- print

def _format_scalar(value, kind):
    if kind == 'b':
        return '1' if value else '0'
    if kind == 'f':
        if isinstance(value, np.float64):
            text = '%.15g' % value
            return text if float(text) == value or value != value else '%.17g' % value
        value = np.float32(value)
        text = '%.6g' % value
        return text if np.float32(text) == value or value != value else '%.9g' % value
    if kind == 'O':
        return value.decode(errors='replace') if isinstance(value, bytes) else str(value)
    return str(value)


def _format_dims(a, edge, depth):
    n = a.shape[0]
    show = range(n) if edge < 0 or n <= 2 * edge else list(range(edge)) + [None] + \
        list(range(n - edge, n))
    if a.ndim == 1:
        items = ['...' if i is None else _element(a[i], a.dtype.kind) for i in show]
        return '[' + ' '.join(items) + ']'
    spacing = '\n' * (a.ndim - 1) + ' ' * (depth + 1)
    parts = ['...' if i is None else _format_dims(a[i], edge, depth + 1) for i in show]
    return '[' + spacing.join(parts) + ']'


def _element(value, kind):
    if kind == 'O':
        text = value.decode(errors='replace') if isinstance(value, bytes) else str(value)
        return '"' + text.encode('unicode_escape').decode('ascii').replace('"', '\\"') + '"'
    return _format_scalar(value, kind)


def format_tensor(value, summarize=3):
    """A tensor's value as tf.print shows it: '[1 2 ... 9]', nested rows on new lines."""
    a = _printable_array(value)
    if a.ndim == 0:
        return _format_scalar(a[()], a.dtype.kind)
    return _format_dims(a, -1 if summarize is None else int(summarize), 0)


class _Slot:
    """Stands for the i-th tensor in a printed structure; its repr marks where the value goes."""

    def __init__(self, index):
        self.index = index

    def __repr__(self):
        return f'\x00{self.index}\x00'


def _template(inputs):
    """(pieces, tensors): each input's text with tensors cut out as ints (their input index)."""
    pieces, tensors = [], []
    for item in inputs:
        if is_tensor(item):
            pieces.append([len(tensors)])
            tensors.append(to_tensor(item, op='print'))
            continue
        flat = nest.flatten(item) if isinstance(item, (list, tuple, dict)) else [item]
        if not any(is_tensor(v) for v in flat):
            pieces.append([item if isinstance(item, str) else str(item)])
            continue
        slots = []
        for v in flat:
            if is_tensor(v):
                slots.append(_Slot(len(tensors)))
                tensors.append(to_tensor(v, op='print'))
            else:
                slots.append(v)
        text = str(nest.pack_sequence_as(item, slots)).split('\x00')
        pieces.append([int(t) if i % 2 else t for i, t in enumerate(text)])
    return tuple(tuple(p) for p in pieces), tensors


def _print_kernel(*arrays, template, output_stream, sep, end, summarize):
    texts = [''.join(format_tensor(arrays[p], summarize) if isinstance(p, int) else p
                     for p in piece) for piece in template]
    line = sep.join(texts) + end
    if output_stream.startswith('file://'):
        with open(output_stream[len('file://'):], 'a') as f:
            f.write(line)
        return ()
    stream = sys.stdout if output_stream == 'stdout' else sys.stderr
    stream.write(line)
    stream.flush()
    return ()


PRINT = define_op('PrintV2', _print_kernel, lambda *ts, **attrs: [], None,
                  num_outputs=0, stateful=True, inputs=())  # the printed tensors, not TF's string


_DEFAULT_STREAM = sys.stderr  # print's default, bound when this module was imported


def _stream_name(stream):
    if stream is sys.stdout or stream == 'stdout' or stream is sys.__stdout__:
        return 'stdout'
    if stream is sys.stderr or stream == 'stderr' or stream is sys.__stderr__ or \
            stream is _DEFAULT_STREAM:
        return 'stderr'
    if isinstance(stream, str) and stream.startswith('file://'):
        return stream
    raise ValueError(f'Unsupported output stream, logging level, or file.{stream!r}. Supported '
                     f'streams are sys.stdout, sys.stderr, and "file://" URIs.')


def print(*inputs, output_stream=_DEFAULT_STREAM, summarize=3, sep=' ', end='\n', name=None):  # noqa
    """tf.print: prints when run (each call of a compiled function), TF's tensor format."""
    template, tensors = _template(inputs)
    attrs = {'template': template, 'output_stream': _stream_name(output_stream), 'sep': sep,
             'end': end, 'summarize': 3 if summarize is None else int(summarize)}
    op = apply_op(PRINT, tuple(tensors), attrs, name)
    return None if context.executing_eagerly() else op
