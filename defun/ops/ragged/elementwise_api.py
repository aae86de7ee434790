"""TF's elementwise APIs as the namespaces export them: each takes RaggedTensor operands too.

TensorFlow dispatches its unary and binary elementwise APIs (`tf.abs`, `tf.math.log`, `tf.add`,
`tf.nn.relu`, `tf.strings.upper`, ...; the lists of `unary_elementwise_apis()` and
`binary_elementwise_apis()`) on RaggedTensor operands: a unary op maps the flat values and keeps the
row partition; a binary op needs its ragged operands to share one partition (a dense operand
broadcasts against the values). Each function here is the dense op, called as it is; only when that
call refuses its arguments (a RaggedTensor is no tensor) and an operand is ragged does it run on
the flat values instead, so dense calls take one extra Python call and nothing else. Tensor's
operators do not come through here (they have their own fast paths, and RaggedTensor its own
operators).
"""
import functools
import inspect

from defun.ops.debugging import debug
from defun.ops.framework import base_ops
from defun.ops.math import (arithmetic, bitwise as bitwise_ops, complex_numbers, elementary, logic,
                            math_ops, special, truncating)
from defun.ops.nn import activations, compositions
from defun.ops.ragged import ragged_math
from defun.ops.ragged.ragged_tensor import is_ragged
from defun.ops.sparse.sparse_tensor import is_sparse
from defun.ops.strings import formatting, hashing, string_ops

__all__ = ['unary', 'binary']


def _parameters(fn):
    return list(inspect.signature(fn).parameters)


def _mapped(x, sparse):
    """(values, rebuild) of a composite operand the op maps, or None."""
    if is_ragged(x):
        return x.flat_values, x.with_flat_values
    if sparse and is_sparse(x):
        return x.values, x.with_values
    return None


def unary(fn, sparse=False):
    """`fn` that maps the flat values of a ragged first operand (its row partition kept), and
    with `sparse` (the ops TF lets map a SparseTensor: they keep zero at zero) the values of a
    sparse one."""
    params = _parameters(fn)
    if params[1:] == ['name']:   # the common (x, name=None): no argument packing per call
        @functools.wraps(fn)
        def api(x, name=None):
            try:
                return fn(x, name)
            except (TypeError, ValueError):
                mapped = _mapped(x, sparse)
                if mapped is None:
                    raise
            return mapped[1](fn(mapped[0], name))
        return api

    @functools.wraps(fn)
    def general(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except (TypeError, ValueError):
            x = args[0] if args else kwargs.get(params[0])
            mapped = _mapped(x, sparse)
            if mapped is None:
                raise
        values, rebuild = mapped
        if args:
            return rebuild(fn(values, *args[1:], **kwargs))
        return rebuild(fn(**dict(kwargs, **{params[0]: values})))
    return general


def binary(fn):
    """`fn` on ragged operands sharing a row partition (or one ragged, one dense)."""
    names = _parameters(fn)[:2]
    if _parameters(fn)[2:] == ['name']:   # the common (x, y, name=None)
        @functools.wraps(fn)
        def api(x, y, name=None):
            try:
                return fn(x, y, name)
            except (TypeError, ValueError):
                if not (is_ragged(x) or is_ragged(y)):
                    raise
            return ragged_math.elementwise(lambda a, b: fn(a, b, name), x, y)
        return api

    @functools.wraps(fn)
    def general(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except (TypeError, ValueError):
            operands = dict(zip(names, args), **{k: kwargs[k] for k in names if k in kwargs})
            if len(operands) != 2 or not any(is_ragged(v) for v in operands.values()):
                raise
        rest = {k: v for k, v in kwargs.items() if k not in names}
        return ragged_math.elementwise(lambda a, b: fn(a, b, *args[2:], **rest),
                                       operands[names[0]], operands[names[1]])
    return general


def _where(fn):
    """tf.where(condition, x, y) elementwise on ragged operands sharing a row partition."""
    @functools.wraps(fn)
    def api(condition, x=None, y=None, name=None):
        try:
            return fn(condition, x, y, name)
        except (TypeError, ValueError):
            operands = (condition, x, y)
            if x is None or y is None or not any(is_ragged(v) for v in operands):
                raise
        hint = next((v.dtype for v in (x, y) if is_ragged(v)), None)
        return ragged_math.elementwise_n(lambda c, a, b: fn(c, a, b, name), operands, hint)
    return api


where = _where(logic.where)

# -- unary (TF's unary_elementwise_apis that defun has)
abs = unary(elementary.abs, sparse=True)  # noqa: A001 - TF's names
acos = unary(elementary.acos)
acosh = unary(math_ops.acosh)
angle = unary(truncating.angle)
asin = unary(elementary.asin, sparse=True)
asinh = unary(math_ops.asinh, sparse=True)
atan = unary(elementary.atan, sparse=True)
atanh = unary(math_ops.atanh, sparse=True)
ceil = unary(elementary.ceil)
conj = unary(arithmetic.conj)
cos = unary(elementary.cos)
cosh = unary(elementary.cosh)
digamma = unary(special.digamma)
erf = unary(elementary.erf, sparse=True)
erfc = unary(elementary.erfc)
erfinv = unary(special.erfinv)
exp = unary(elementary.exp)
expm1 = unary(elementary.expm1)
floor = unary(elementary.floor)
imag = unary(complex_numbers.imag)
is_finite = unary(logic.is_finite)
is_inf = unary(logic.is_inf)
is_nan = unary(logic.is_nan)
lgamma = unary(special.lgamma)
log = unary(elementary.log)
log1p = unary(elementary.log1p)
log_sigmoid = unary(math_ops.log_sigmoid)
logical_not = unary(logic.logical_not)
ndtri = unary(special.ndtri)
negative = unary(arithmetic.negative, sparse=True)
real = unary(complex_numbers.real)
reciprocal = unary(elementary.reciprocal)
reciprocal_no_nan = unary(math_ops.reciprocal_no_nan)
rint = unary(truncating.rint)
round = unary(elementary.round)  # noqa: A001
rsqrt = unary(elementary.rsqrt)
sigmoid = unary(elementary.sigmoid)
sign = unary(elementary.sign, sparse=True)
sin = unary(elementary.sin, sparse=True)
sinh = unary(elementary.sinh)
softplus = unary(elementary.softplus)
sqrt = unary(elementary.sqrt, sparse=True)
square = unary(arithmetic.square, sparse=True)
tan = unary(elementary.tan, sparse=True)
tanh = unary(elementary.tanh, sparse=True)
clip_by_value = unary(arithmetic.clip_by_value)
cast = unary(base_ops.cast, sparse=True)
zeros_like = unary(base_ops.zeros_like)
ones_like = unary(base_ops.ones_like)
check_numerics = unary(debug.check_numerics)
invert = unary(bitwise_ops.invert)
elu = unary(activations.elu)
gelu = unary(activations.gelu)
leaky_relu = unary(activations.leaky_relu)
log_softmax = unary(activations.log_softmax)
relu = unary(activations.relu)
relu6 = unary(activations.relu6)
silu = unary(activations.silu)
selu = unary(compositions.selu)
softsign = unary(compositions.softsign)
as_string = unary(formatting.as_string)
to_number = unary(formatting.to_number)
length = unary(string_ops.length)
lower = unary(string_ops.lower)
upper = unary(string_ops.upper)
strip = unary(string_ops.strip)
regex_full_match = unary(string_ops.regex_full_match)
regex_replace = unary(string_ops.regex_replace)
substr = unary(string_ops.substr)
to_hash_bucket = unary(hashing.to_hash_bucket)
to_hash_bucket_fast = unary(hashing.to_hash_bucket_fast)
to_hash_bucket_strong = unary(hashing.to_hash_bucket_strong)

# -- binary (TF's binary_elementwise_apis that defun has)
add = binary(arithmetic.add)
subtract = binary(arithmetic.subtract)
multiply = binary(arithmetic.multiply)
divide = binary(arithmetic.divide)
truediv = binary(arithmetic.truediv)
divide_no_nan = binary(arithmetic.divide_no_nan)
floordiv = binary(arithmetic.floordiv)
floormod = binary(arithmetic.floormod)
maximum = binary(arithmetic.maximum)
minimum = binary(arithmetic.minimum)
pow = binary(elementary.pow)  # noqa: A001
atan2 = binary(elementary.atan2)
equal = binary(logic.equal)
not_equal = binary(logic.not_equal)
less = binary(logic.less)
less_equal = binary(logic.less_equal)
greater = binary(logic.greater)
greater_equal = binary(logic.greater_equal)
logical_and = binary(logic.logical_and)
logical_or = binary(logic.logical_or)
logical_xor = binary(logic.logical_xor)
multiply_no_nan = binary(math_ops.multiply_no_nan)
squared_difference = binary(math_ops.squared_difference)
xdivy = binary(math_ops.xdivy)
xlog1py = binary(math_ops.xlog1py)
xlogy = binary(math_ops.xlogy)
realdiv = binary(truncating.realdiv)
truncatediv = binary(truncating.truncatediv)
truncatemod = binary(truncating.truncatemod)
bitwise_and = binary(bitwise_ops.bitwise_and)
bitwise_or = binary(bitwise_ops.bitwise_or)
bitwise_xor = binary(bitwise_ops.bitwise_xor)
left_shift = binary(bitwise_ops.left_shift)
right_shift = binary(bitwise_ops.right_shift)
