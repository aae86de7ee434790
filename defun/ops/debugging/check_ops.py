"""tf.debugging's structural checks: assert_rank(_at_least, _in), assert_scalar, assert_shapes,
assert_type, assert_integer, assert_same_float_dtype, assert_all_finite, assert_proper_iterable and
is_numeric_tensor.

What is known while tracing is checked then, with TF's exceptions (ValueError for ranks and shapes,
TypeError for dtypes, raised eagerly and at trace time alike); what only the run can tell (a rank or
a dimension left unknown by an input signature) becomes an Assert op, as in TF.
"""
import numpy as np

from defun.core import composite, context, dtypes
from defun.ops.framework import base_ops
from defun.ops.array import creation
from defun.ops.debugging import debug
from defun.ops.math import logic
from defun.ops.debugging.asserts import message_prefix
from defun.ops.support.helpers import static_value, to_tensor
from defun.core.tensor import Tensor
from defun.ops.support import validation

__all__ = ['assert_rank', 'assert_rank_at_least', 'assert_rank_in', 'assert_scalar',
           'assert_shapes', 'assert_type', 'assert_integer', 'assert_same_float_dtype',
           'assert_all_finite', 'assert_proper_iterable', 'is_numeric_tensor']


def _label(x):
    """How TF names a tensor in these messages: nothing eagerly, its graph name otherwise."""
    return '' if context.executing_eagerly() else x.name


def _static_ranks(ranks):
    """The ranks' values (None if one is not a constant); they must be int32 scalars."""
    values = []
    for r in ranks:
        assert_type(r, dtypes.int32)
        value = static_value(r)
        if value is not None and np.ndim(value) != 0:
            raise ValueError('Rank must be a scalar.')
        values.append(None if value is None else int(value))
    return None if None in values else values


def _rank_check(x, ranks, kind, message, name):
    with context.name_scope(name or f'assert_rank{kind}'):
        x = to_tensor(x, op=f'assert_rank{kind}')
        ranks = [to_tensor(r, name='rank', op=f'assert_rank{kind}') for r in ranks]
        prefix, label = message_prefix(message), _label(x)
        known, actual = _static_ranks(ranks), x.shape.rank
        if known is not None and actual is not None:
            ok = {'': actual == known[0], '_at_least': actual >= known[0],
                  '_in': actual in known}[kind]
            if not ok:
                wanted = tuple(known) if kind == '_in' else known[0]
                words = {'': 'rank', '_at_least': 'rank at least', '_in': 'rank in'}[kind]
                raise ValueError(f'{prefix}Tensor {label} must have {words} {wanted}.  '
                                 f'Received rank {actual}, shape {x.shape}')
            return None
        x_rank = creation.rank(x)
        tests = [logic.equal(x_rank, r) for r in ranks] if kind != '_at_least' else \
            [logic.greater_equal(x_rank, ranks[0])]
        condition = tests[0]
        for t in tests[1:]:
            condition = logic.logical_or(condition, t)
        words = {'': 'rank', '_at_least': 'rank at least', '_in': 'rank in'}[kind]
        data = [prefix, f'Tensor {label} must have {words}', *ranks, 'Received shape: ',
                base_ops.shape(x)]
        return debug.Assert(condition, data)


def assert_rank(x, rank, message=None, name=None):
    """Raises ValueError (statically) or InvalidArgumentError (at run time) unless x has `rank`."""
    return _rank_check(x, [rank], '', message, name)


def assert_rank_at_least(x, rank, message=None, name=None):
    """Raises unless x's rank is at least `rank`."""
    return _rank_check(x, [rank], '_at_least', message, name)


def assert_rank_in(x, ranks, message=None, name=None):
    """Raises unless x's rank is one of `ranks`."""
    return _rank_check(x, list(ranks), '_in', message, name)


def assert_scalar(tensor, message=None, name=None):
    """Raises ValueError unless `tensor`'s static shape is () (TF 2's version returns None)."""
    with context.name_scope(name or 'assert_scalar'):
        tensor = to_tensor(tensor, name='tensor', op='assert_scalar')
        if tensor.shape.rank != 0:
            where = '' if context.executing_eagerly() else f' for {tensor.name}'
            raise ValueError(f'{message_prefix(message)}Expected scalar shape{where}, saw '
                             f'shape: {tensor.shape}.')


def assert_type(tensor, tf_type, message=None, name=None):
    """Raises TypeError unless `tensor`'s dtype is `tf_type` (a static check)."""
    validation.op_name(name)
    tf_type = dtypes.as_dtype(tf_type)
    if not composite.is_composite(tensor):   # a SparseTensor or RaggedTensor keeps its dtype
        tensor = to_tensor(tensor, name='tensor', op='assert_type')
    if tensor.dtype is not tf_type:
        label = 'tensor' if context.executing_eagerly() else tensor.name
        raise TypeError(f'{message_prefix(message)}{label} must be of type {tf_type!r}; got '
                        f'{tensor.dtype!r}')


def assert_integer(x, message=None, name=None):
    """Raises TypeError unless x has an integer dtype (a static check)."""
    validation.op_name(name)
    x = to_tensor(x, op='assert_integer')
    if not x.dtype.is_integer:
        label = 'tensor' if context.executing_eagerly() else x.name
        raise TypeError(f'{message_prefix(message)}Expected "x" to be integer type.  Found: '
                        f'{label} of dtype {x.dtype}')


def _same_base_type(items, expected):
    """The one dtype of `items` (or `expected`); ValueError naming the first that differs."""
    first = None
    for item in items:
        if item is None:
            continue
        if expected is None:
            expected, first = item.dtype, _describe(item)
        elif item.dtype is not expected:
            against = f' as {first}' if first else ''
            raise ValueError(f'{_describe(item)}, type={item.dtype}, must be of the same type '
                             f'({expected}){against}.')
    return expected


def _describe(item):
    return str(item) if context.executing_eagerly() or not isinstance(item, Tensor) \
        else item.name


def assert_same_float_dtype(tensors=None, dtype=None):
    """The common floating dtype of `tensors` and `dtype` (float32 if both are empty)."""
    dtype = None if dtype is None else dtypes.as_dtype(dtype)
    if tensors:
        dtype = _same_base_type(tensors, dtype)
    if dtype is None:
        return dtypes.float32
    if not dtype.is_floating:
        raise ValueError(f'Expected floating point type, got {dtype}.')
    return dtype


def assert_all_finite(x, message, name=None):
    """Returns x, raising InvalidArgumentError (with `message`) where it holds NaN or Inf."""
    return debug.check_numerics(x, message, name=name)


def assert_proper_iterable(values):
    """TypeError unless `values` is an iterable that is not a tensor, array or string."""
    if isinstance(values, (Tensor, np.ndarray, str, bytes)):
        raise TypeError(f'Expected argument "values" to be a "proper" iterable.  Found: '
                        f'{type(values)}')
    if not hasattr(values, '__iter__'):
        raise TypeError(f'Expected argument "values" to be iterable.  Found: {type(values)}')


def is_numeric_tensor(tensor):
    """True for a tensor of a number dtype (integer, floating or complex)."""
    return isinstance(tensor, Tensor) and (
        tensor.dtype.is_integer or tensor.dtype.is_floating or tensor.dtype.is_complex)


# ---------------------------------------------------------------- assert_shapes

def _parse_spec(x, spec, prefix):
    """(innermost, symbols): a spec that starts with ... or * constrains the last dimensions."""
    if not (hasattr(spec, '__iter__') or hasattr(spec, '__getitem__')):
        raise ValueError(f'{prefix}Tensor {_tensor_text(x)}.  Specified shape must be an '
                         f'iterable.  An iterable has the attribute `__iter__` or '
                         f'`__getitem__`.  Received specified shape: {spec}')
    symbols = tuple(spec)
    for i, s in enumerate(symbols):
        if (s is Ellipsis or s == '*') and i != 0:
            raise ValueError(f'{prefix}Tensor {_tensor_text(x)} specified shape index {i}.  '
                             f'Symbol `...` or `*` for a variable number of unspecified '
                             f'dimensions is only allowed as the first entry')
    innermost = bool(symbols) and (symbols[0] is Ellipsis or symbols[0] == '*')
    symbols = symbols[1:] if innermost else symbols
    return innermost, symbols or (1,)


def _tensor_text(x):
    return f'shape={x.shape} dtype={x.dtype.name}' if context.executing_eagerly() else x.name


def _actual_sizes(x):
    """x's dimension sizes, ints where static, scalar tensors where not; a scalar is [1]."""
    if x.shape.rank == 0:
        return [1]
    full = None
    sizes = []
    for i, d in enumerate(x.shape.as_list()):
        if d is None:
            full = base_ops.shape(x) if full is None else full
            sizes.append(full[i])
        else:
            sizes.append(int(d))
    return sizes


def _known(size):
    return isinstance(size, (int, np.integer)) or (isinstance(size, str) and size.isdigit())


def _check_ranks(constraints, message, name):
    for x, innermost, symbols in constraints:
        rank = len(symbols)
        if innermost:
            if rank > 1:
                assert_rank_at_least(x, rank, message=message, name=name)
        elif rank in (0, 1):
            assert_rank_in(x, [0, 1], message=message, name=name)
        else:
            assert_rank(x, rank, message=message, name=name)


def _check_size(x, dim, actual, wanted, how, prefix, shown=None, summarize=None):
    """One dimension against its specified size: statically when both are known."""
    if not isinstance(actual, Tensor) and not isinstance(wanted, Tensor):
        if int(actual) != int(wanted):
            raise ValueError(f'{prefix}{how}.  Tensor {_tensor_text(x)} dimension {dim} must '
                             f'have size {int(wanted)}.  Received size {int(actual)}, shape '
                             f'{x.shape}')
        return
    data = shown if shown is not None else [
        prefix, how, f'Tensor {_tensor_text(x)} dimension', dim, 'must have size', wanted,
        'Received shape: ', base_ops.shape(x)]
    debug.Assert(logic.equal(to_tensor(actual), to_tensor(wanted)), data, summarize)


def assert_shapes(shapes, data=None, summarize=None, message=None, name=None):
    """Checks tensors against symbolic shapes: ints fix a size, equal names (strings) must agree
    across tensors, None or '.' match anything, a leading ... or '*' allows more outer dims."""
    prefix = message_prefix(message)
    with context.name_scope(name or 'assert_shapes'):
        items = shapes.items() if isinstance(shapes, dict) else shapes
        constraints = []
        for x, spec in items:
            if spec is None:
                continue
            x = to_tensor(x, op='assert_shapes')
            constraints.append((x, *_parse_spec(x, spec, prefix)))
        _check_ranks(constraints, message, name)
        seen = {}
        for x, innermost, symbols in constraints:
            sizes = _actual_sizes(x)
            for i, symbol in enumerate(symbols):
                if symbol is None or symbol == '.':
                    continue
                dim = i - len(symbols) if innermost else i
                actual = sizes[dim]
                if _known(symbol):
                    _check_size(x, dim, actual, int(symbol), 'Specified explicitly', prefix,
                                data, summarize)
                elif symbol in seen:
                    wanted, by, at = seen[symbol]
                    how = f'Specified by tensor {_tensor_text(by)} dimension {at}'
                    _check_size(x, dim, actual, wanted, how, prefix, data, summarize)
                else:
                    seen[symbol] = (actual, x, dim)

