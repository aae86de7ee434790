"""Run-time checks and printing: check_numerics, Assert, assert_equal, assert_greater and tf.print.

All are stateful ops, so a compiled function runs them in program order even when nothing uses their
result. Eagerly, the asserts check at once and return None; while a graph is built they fold to a
check at trace time when both sides are known, as TF does, and otherwise add an Assert op (returned,
so it can be used in control_dependencies). tf.print formats tensors as TF's PrintV2 does and writes
when the op runs, to the stream named by `output_stream` looked up at that moment (sys.stderr by
default, so redirections made later are honoured).
"""
import sys

import numpy as np

from defun import context, errors, nest
from defun.dispatch import apply_op
from defun.ops import op_helpers, logic
from defun.ops.op_helpers import same_as_first, to_tensor
from defun.registry import define_op
from defun.tensor import EagerTensor, Tensor, is_tensor
from defun.ops import validation

__all__ = ['check_numerics', 'Assert', 'assert_equal', 'assert_greater', 'assert_less',
           'assert_greater_equal', 'assert_less_equal', 'assert_none_equal', 'assert_positive',
           'assert_negative', 'assert_non_negative', 'assert_non_positive', 'assert_rank', 'print',
           'format_tensor']


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
    x = op_helpers.float_only(to_tensor(tensor, op='check_numerics'), 'check_numerics')
    return apply_op(CHECK_NUMERICS, (x,), {'message': str(message)}, name)


# ---------------------------------------------------------------- asserts

def _assert_kernel(condition, *data, summarize):
    if not np.all(condition):
        shown = ' '.join(f'[{format_tensor(_c_escaped(d), summarize)}]' for d in data)
        raise validation.invalid_argument(f'assertion failed: {shown}')
    return ()


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
        raise TypeError(f'Assert: condition must be a bool tensor, got {errors.describe(cond)}')
    tensors = [d if isinstance(d, Tensor) else to_tensor(d, op='Assert') for d in data]
    summarize = 3 if summarize is None else int(summarize)
    op = apply_op(ASSERT, (cond, *tensors), {'summarize': summarize}, name)
    return None if context.executing_eagerly() else op


_COMPARISONS = {'equal': ('==', np.equal), 'greater': ('>', np.greater), 'less': ('<', np.less),
                'greater_equal': ('>=', np.greater_equal), 'less_equal': ('<=', np.less_equal),
                'none_equal': ('!=', np.not_equal)}
_GRAPH_COMPARISONS = {'equal': logic.equal, 'greater': logic.greater, 'less': logic.less,
                      'greater_equal': logic.greater_equal, 'less_equal': logic.less_equal,
                      'none_equal': logic.not_equal}


def _comparison_message(kind, x, y, xv, yv, message, summarize):
    symbol = _COMPARISONS[kind][0]
    prefix = f'{message}\n' if message else ''
    if kind == 'equal' and np.shape(xv) == np.shape(yv):
        bad = np.argwhere(~np.equal(xv, yv))[:summarize]
        return (f'{prefix}Condition x == y did not hold.\nIndices of first {len(bad)} different '
                f'values:\n{bad}\nCorresponding x values:\n{np.asarray(xv)[tuple(bad.T)]}\n'
                f'Corresponding y values:\n{np.asarray(yv)[tuple(bad.T)]}')
    return (f'{prefix}Condition x {symbol} y did not hold element-wise:\n'
            f'x (shape={x.shape} dtype={x.dtype.name}) = \n{format_tensor(xv, summarize)}\n'
            f'y (shape={y.shape} dtype={y.dtype.name}) = \n{format_tensor(yv, summarize)}')


def _assert_compare(kind, x, y, message, summarize, name):
    op = f'assert_{kind}'
    x, y = op_helpers.binary_args(x, y, op)
    op_helpers.broadcast_dims(x.shape.as_tuple(), y.shape.as_tuple(), op)
    summarize = 3 if summarize is None else int(summarize)
    xv, yv = op_helpers.static_value(x), op_helpers.static_value(y)
    if xv is not None and yv is not None:
        if not np.all(_COMPARISONS[kind][1](xv, yv)):
            # TF's static check raises the run-time class even while a graph is built.
            raise errors.InvalidArgumentError(
                _comparison_message(kind, x, y, xv, yv, message, summarize))
        return None
    # The kernel reduces the elementwise condition itself, so no reduce_all op is needed.
    condition = _GRAPH_COMPARISONS[kind](x, y)
    header = f'{message + chr(10) if message else ""}Condition x {_COMPARISONS[kind][0]} y did ' \
             f'not hold element-wise:'
    return Assert(condition, [header, 'x = ', x, 'y = ', y], summarize, name)


def assert_equal(x, y, message=None, summarize=None, name=None):
    """Raises InvalidArgumentError unless x == y everywhere (broadcasting)."""
    return _assert_compare('equal', x, y, message, summarize, name)


def assert_greater(x, y, message=None, summarize=None, name=None):
    """Raises InvalidArgumentError unless x > y everywhere (broadcasting)."""
    return _assert_compare('greater', x, y, message, summarize, name)


def assert_less(x, y, message=None, summarize=None, name=None):
    return _assert_compare('less', x, y, message, summarize, name)


def assert_greater_equal(x, y, message=None, summarize=None, name=None):
    return _assert_compare('greater_equal', x, y, message, summarize, name)


def assert_less_equal(x, y, message=None, summarize=None, name=None):
    return _assert_compare('less_equal', x, y, message, summarize, name)


def assert_none_equal(x, y, message=None, summarize=None, name=None):
    return _assert_compare('none_equal', x, y, message, summarize, name)


def _against_zero(kind, x, message, summarize, name):
    x = op_helpers.to_tensor(x, name='x', op=f'assert_{kind}')
    zero = op_helpers.to_tensor(np.zeros((), x.dtype.np_dtype))
    return _assert_compare(kind, x, zero, message, summarize, name)


def assert_positive(x, message=None, summarize=None, name=None):
    return _against_zero('greater', x, message, summarize, name)


def assert_negative(x, message=None, summarize=None, name=None):
    return _against_zero('less', x, message, summarize, name)


def assert_non_negative(x, message=None, summarize=None, name=None):
    return _against_zero('greater_equal', x, message, summarize, name)


def assert_non_positive(x, message=None, summarize=None, name=None):
    return _against_zero('less_equal', x, message, summarize, name)


def assert_rank(x, rank, message=None, name=None):
    """Raises ValueError unless x has the given (static) rank."""
    x = op_helpers.to_tensor(x, name='x', op='assert_rank')
    if x.shape.rank is not None and x.shape.rank != int(rank):
        prefix = f'{message}.  ' if message else ''
        raise ValueError(f'{prefix}Tensor  must have rank {int(rank)}.  Received rank '
                         f'{x.shape.rank}, shape {x.shape}')
    return None


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
    a = np.asarray(value.array if isinstance(value, EagerTensor) else value)
    if a.dtype.kind in 'US':
        a = a.astype(object)
    if a.dtype == np.float16:
        a = a.astype(np.float32)
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
                  num_outputs=0, stateful=True)


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
