"""tf.debugging's element-wise asserts: assert_equal, assert_none_equal, assert_less(_equal),
assert_greater(_equal), assert_near and the sign asserts (assert_negative, ...).

They are compositions of the comparison ops and the Assert op, so they add no op of their own.
Eagerly they check at once and raise InvalidArgumentError with TF's message (the failing indices
and values, then the first elements of each side); while a graph is built they check at trace time
when both sides are constants (TF raises InvalidArgumentError then too) and otherwise add an Assert
op, returned so it can be used in control_dependencies.
"""
import numpy as np

from defun.core import context, errors
from defun.ops.math import arithmetic, elementary, logic, reductions
from defun.ops.debugging import debug
from defun.ops.support.helpers import static_value, to_tensor
from defun.core.tensor import EagerTensor, Tensor

__all__ = ['assert_equal', 'assert_none_equal', 'assert_less', 'assert_less_equal',
           'assert_greater', 'assert_greater_equal', 'assert_near', 'assert_negative',
           'assert_non_negative', 'assert_positive', 'assert_non_positive']

# symbol, the op building the element-wise test, numpy's version for constant folding
_BINARY = {'equal': ('==', logic.equal, np.equal),
           'none_equal': ('!=', logic.not_equal, np.not_equal),
           'less': ('<', logic.less, np.less),
           'less_equal': ('<=', logic.less_equal, np.less_equal),
           'greater': ('>', logic.greater, np.greater),
           'greater_equal': ('>=', logic.greater_equal, np.greater_equal)}


def message_prefix(message):
    """How TF's rank, shape and sign asserts put a user message in front of their own."""
    return f'{message}.  ' if message else ''


def _summary_count(summarize):
    if summarize is None:
        return 3
    summarize = int(summarize)
    return summarize if summarize >= 0 else 10 ** 9  # negative: everything, as TF


def eager_text(data, summarize):
    """TF's eager assert message: one line per item, tensors as a list of their first elements."""
    lines = []
    for item in data:
        if isinstance(item, Tensor):
            arr = item.numpy()
            if np.ndim(arr) == 0:
                lines.append(str(arr))
                continue
            flat = np.reshape(arr, (-1,))
            shown = [str(v) for v in flat[:summarize]]
            lines.append(str(shown + ['...'] if len(shown) < flat.size else shown))
        else:
            lines.append(str(item))
    return '\n'.join(lines)


def static_text(data):
    """TF's message for an assert decided at trace time: constants shown as numpy prints them."""
    lines = []
    for item in data:
        value = static_value(item) if isinstance(item, Tensor) else None
        lines.append(str(item) if value is None else str(value))
    return '\n'.join(lines)


def _failure_data(symbol, x, y, test, summarize):
    """The eager message's items: where the test failed (same non-scalar shapes only), then the
    first elements of x and y."""
    data = [f'Condition x {symbol} y did not hold.']
    if summarize <= 0:
        return data
    xv, yv = np.asarray(x.numpy()), np.asarray(y.numpy())
    if xv.shape == yv.shape and xv.ndim:
        bad = ~np.asarray(test.numpy())
        where = np.argwhere(bad)
        n = min(summarize, len(where))
        data += [f'Indices of first {n} different values:', where[:n],
                 'Corresponding x values:', xv[bad].reshape(-1)[:n],
                 'Corresponding y values:', yv[bad].reshape(-1)[:n]]
    for label, v in (('x', xv), ('y', yv)):
        flat = v.reshape(-1)
        n = min(flat.size, summarize)
        data += [f'First {n} elements of {label}:', flat[:n]]
    return data


def _name(t):
    """A graph tensor's name; an eager tensor captured by the graph being built has none yet."""
    return t.name if not isinstance(t, EagerTensor) else 'captured eager tensor'


def _binary_assert(kind, x, y, data, summarize, message, name):
    symbol, test_fn, static_fn = _BINARY[kind]
    with context.name_scope(name or f'assert_{kind}'):
        x, y = to_tensor(x, op=f'assert_{kind}'), to_tensor(y, name='y', op=f'assert_{kind}')
        test = test_fn(x, y)
        if context.executing_eagerly():
            if np.all(test.numpy()):
                return None
            count = _summary_count(summarize)
            if data is None:
                data = _failure_data(symbol, x, y, test, count)
            if message is not None:
                data = [message] + list(data)
            raise errors.InvalidArgumentError(eager_text(data, count))
        if data is None:
            data = [f'Condition x {symbol} y did not hold element-wise:', f'x ({_name(x)}) = ', x,
                    f'y ({_name(y)}) = ', y]
        if message is not None:
            data = [message] + list(data)
        xv, yv = static_value(x), static_value(y)
        if xv is not None and yv is not None:
            if not np.all(static_fn(xv, yv)):
                raise errors.InvalidArgumentError(static_text(data))
            return None
        return debug.Assert(reductions.reduce_all(test), data, summarize)


def assert_equal(x, y, message=None, summarize=None, name=None):
    """Raises InvalidArgumentError unless x == y everywhere (broadcasting)."""
    return _binary_assert('equal', x, y, None, summarize, message, name)


def assert_none_equal(x, y, summarize=None, message=None, name=None):
    """Raises InvalidArgumentError unless x != y everywhere (broadcasting)."""
    return _binary_assert('none_equal', x, y, None, summarize, message, name)


def assert_less(x, y, message=None, summarize=None, name=None):
    """Raises InvalidArgumentError unless x < y everywhere (broadcasting)."""
    return _binary_assert('less', x, y, None, summarize, message, name)


def assert_less_equal(x, y, message=None, summarize=None, name=None):
    """Raises InvalidArgumentError unless x <= y everywhere (broadcasting)."""
    return _binary_assert('less_equal', x, y, None, summarize, message, name)


def assert_greater(x, y, message=None, summarize=None, name=None):
    """Raises InvalidArgumentError unless x > y everywhere (broadcasting)."""
    return _binary_assert('greater', x, y, None, summarize, message, name)


def assert_greater_equal(x, y, message=None, summarize=None, name=None):
    """Raises InvalidArgumentError unless x >= y everywhere (broadcasting)."""
    return _binary_assert('greater_equal', x, y, None, summarize, message, name)


# ---------------------------------------------------------------- against zero

def _sign_assert(kind, symbol, x, message, summarize, name):
    op = {'less': 'assert_negative', 'greater_equal': 'assert_non_negative',
          'greater': 'assert_positive', 'less_equal': 'assert_non_positive'}[kind]
    with context.name_scope(name or op):
        x = to_tensor(x, op=op)
        label = f'shape={x.shape} dtype={x.dtype.name}' if context.executing_eagerly() \
            else x.name
        header = f'Condition x {symbol} 0 did not hold element-wise:'
        # TF's assert_non_positive runs its two lines together (a missing comma in TF).
        data = [message_prefix(message)] + (
            [header + f'x ({label}) = ', x] if kind == 'less_equal'
            else [header, f'x ({label}) = ', x])
        zero = to_tensor(0, dtype=x.dtype, op=op)
        return _binary_assert(kind, x, zero, data, summarize, None, None)


def assert_negative(x, message=None, summarize=None, name=None):
    """Raises InvalidArgumentError unless x < 0 everywhere."""
    return _sign_assert('less', '<', x, message, summarize, name)


def assert_non_negative(x, message=None, summarize=None, name=None):
    """Raises InvalidArgumentError unless x >= 0 everywhere."""
    return _sign_assert('greater_equal', '>=', x, message, summarize, name)


def assert_positive(x, message=None, summarize=None, name=None):
    """Raises InvalidArgumentError unless x > 0 everywhere."""
    return _sign_assert('greater', '>', x, message, summarize, name)


def assert_non_positive(x, message=None, summarize=None, name=None):
    """Raises InvalidArgumentError unless x <= 0 everywhere."""
    return _sign_assert('less_equal', '<=', x, message, summarize, name)


# ---------------------------------------------------------------- near

def assert_near(x, y, rtol=None, atol=None, message=None, summarize=None, name=None):
    """Raises InvalidArgumentError unless |x - y| < atol + rtol * |y| everywhere; the tolerances
    default to 10 machine epsilons of x's (real) dtype."""
    with context.name_scope(name or 'assert_near'):
        x = to_tensor(x, op='assert_near')
        y = to_tensor(y, dtype=x.dtype, name='y', op='assert_near')
        real = x.dtype.real_dtype if x.dtype.is_complex else x.dtype
        if not (real.is_floating or real.is_integer):
            raise TypeError(f'assert_near: x must be numeric, got {x.dtype.name}')
        eps = np.finfo(real.as_numpy_dtype).eps if real.is_floating else 0
        rtol = to_tensor(10 * eps if rtol is None else rtol, dtype=real, name='rtol',
                         op='assert_near')
        atol = to_tensor(10 * eps if atol is None else atol, dtype=real, name='atol',
                         op='assert_near')
        eager = context.executing_eagerly()
        names = [f'shape={t.shape} dtype={t.dtype.name}' if eager else t.name for t in (x, y)]
        data = [message_prefix(message),
                f'x and y not equal to tolerance rtol = {rtol!s}, atol = {atol!s}',
                f'x ({names[0]}) = ', x, f'y ({names[1]}) = ', y]
        tol = arithmetic.add(atol, arithmetic.multiply(rtol, elementary.abs(y)))
        close = logic.less(elementary.abs(arithmetic.subtract(x, y)), tol)
        return debug.Assert(reductions.reduce_all(close), data, summarize)
