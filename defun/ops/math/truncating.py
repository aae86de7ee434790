"""More elementwise math: rint (round half to even), angle, TF's truncating integer division
and remainder (C's `/` and `%`, tf.truncatediv / tf.truncatemod), realdiv; and
invert_permutation and unique_with_counts.

rint and the truncating forms have no gradient, as in TF; angle's gradient is TF's (for a
complex input; a real input's angle is a constant, 0 or pi).
"""
import collections

import numpy as np

from defun.core import dtypes
from defun.core.dispatch import apply_op
from defun.ops.math.arithmetic import truediv
from defun.ops.framework.base_ops import sum_to, zeros_like
from defun.ops.math.complex_numbers import complex, imag, real
from defun.ops.math.logic import less, where
from defun.ops.support.helpers import binary_args, broadcast_dims, dims, to_tensor
from defun.ops.support import validation
from defun.core.registry import define_op

__all__ = ['rint', 'angle', 'invert_permutation', 'nextafter']   # tf.math; the others are tf.<name>


RINT = define_op('Rint', np.rint, lambda x: (x.dtype, dims(x)), None)


def rint(x, name=None):
    """Rounds to the nearest integer, halves to even (as np.rint and TF's Rint)."""
    return apply_op(RINT, (to_tensor(x, op='rint'),), None, name)


def _angle_kernel(z):
    # atan2 in float64, rounded once: TF's float32 atan2 agrees with that, numpy's may not.
    return np.arctan2(np.imag(z).astype(np.float64),
                      np.real(z).astype(np.float64)).astype(np.real(z).dtype)


def _angle_grad(op, g):
    z = op.inputs[0]
    inverse = 1 / complex(imag(z), real(z))
    return -complex(g, zeros_like(g)) * inverse


ANGLE = define_op('Angle', _angle_kernel,
                  lambda z: (dtypes.float64 if z.dtype == dtypes.complex128 else dtypes.float32,
                             dims(z)), _angle_grad)


def angle(input, name=None):
    """The argument of each complex element; for real ones, pi where negative and 0 elsewhere."""
    validation.op_name(name)
    z = to_tensor(input, op='angle')
    if z.dtype.is_complex:
        return apply_op(ANGLE, (z,), None, name)
    zero = zeros_like(z)
    return where(less(z, zero), zero + np.pi, zero)


NEXTAFTER = define_op('NextAfter', np.nextafter,
                      lambda x, y: (x.dtype, broadcast_dims(dims(x), dims(y), 'nextafter')),
                      lambda op, g: (sum_to(g, op.inputs[0]),
                                     sum_to(zeros_like(g), op.inputs[1])))


def nextafter(x1, x2, name=None):
    """The next representable value after x1 towards x2 (gradient: 1 for x1, 0 for x2, as TF)."""
    x, y = binary_args(x1, x2, 'nextafter')
    return apply_op(NEXTAFTER, (x, y), None, name)


def _truncate_kernel(kind):
    def kernel(x, y):
        if x.dtype.kind in 'iu' and not np.all(y):
            raise validation.invalid_argument(f'{kind}: Integer division by zero')
        if kind == 'truncatemod':
            return np.fmod(x, y)
        if x.dtype.kind in 'iu':
            quotient = np.abs(x) // np.abs(y)
            return (np.sign(x) * np.sign(y) * quotient).astype(x.dtype)
        return np.trunc(np.divide(x, y))
    return kernel


def _binary_infer(op):
    def infer(x, y):
        return x.dtype, broadcast_dims(dims(x), dims(y), op)
    return infer


TRUNCATE_DIV = define_op('TruncateDiv', _truncate_kernel('truncatediv'),
                         _binary_infer('truncatediv'), None)
TRUNCATE_MOD = define_op('TruncateMod', _truncate_kernel('truncatemod'),
                         _binary_infer('truncatemod'), None)


def truncatediv(x, y, name=None):
    """Division rounding toward zero (C's integer `/`); not differentiable, as in TF."""
    x, y = binary_args(x, y, 'truncatediv')
    return apply_op(TRUNCATE_DIV, (x, y), None, name)


def truncatemod(x, y, name=None):
    """The remainder with the sign of `x` (C's `%`, fmod); not differentiable, as in TF."""
    x, y = binary_args(x, y, 'truncatemod')
    return apply_op(TRUNCATE_MOD, (x, y), None, name)


def realdiv(x, y, name=None):
    """x / y for floating or complex tensors of one dtype (TF's RealDiv)."""
    x, y = binary_args(x, y, 'realdiv')
    if x.dtype.is_integer:
        raise TypeError(f'realdiv: Value for attr T of {x.dtype.name} is not in the list of '
                        f'allowed values (floating and complex types)')
    return truediv(x, y, name=name or 'RealDiv')


def _invert_permutation_kernel(x):
    n = x.size
    if x.ndim != 1 or sorted(x.tolist()) != list(range(n)):
        raise validation.invalid_argument(f'invert_permutation: {x.tolist()} is not a '
                                          f'permutation of 0..{n - 1}')
    out = np.empty_like(x)
    out[x] = np.arange(n, dtype=x.dtype)
    return out


INVERT_PERMUTATION = define_op('InvertPermutation', _invert_permutation_kernel,
                               lambda x: (x.dtype, dims(x)), None)


def invert_permutation(x, name=None):
    """The permutation y with y[x[i]] = i."""
    t = to_tensor(x, op='invert_permutation')
    if t.dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError(f'invert_permutation: x must be int32 or int64, got {t.dtype.name}')
    return apply_op(INVERT_PERMUTATION, (t,), None, name)


UniqueWithCounts = collections.namedtuple('UniqueWithCounts', ['y', 'idx', 'count'])


def _unique_counts_kernel(x, out_idx):
    if x.ndim != 1:
        raise validation.invalid_argument(f'unique_with_counts: input must be a vector, got '
                                          f'shape {list(x.shape)}')
    # equal_nan=False: TF keeps every NaN apart (NaN equals nothing, not even NaN)
    values, first, inverse, counts = np.unique(x, return_index=True, return_inverse=True,
                                               return_counts=True, equal_nan=False)
    order = np.argsort(first, kind='stable')   # TF keeps the order of first appearance
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    index = out_idx.np_dtype
    return values[order], rank[inverse].astype(index), counts[order].astype(index)


UNIQUE_WITH_COUNTS = define_op(
    'UniqueWithCounts', _unique_counts_kernel,
    lambda x, out_idx: [(x.dtype, (None,)), (out_idx, dims(x)), (out_idx, (None,))], None,
    num_outputs=3)


def unique_with_counts(x, out_idx=dtypes.int32, name=None):
    """(y, idx, count): unique's values and indices, with how often each value occurs."""
    t = to_tensor(x, name='x', op='unique_with_counts')
    return UniqueWithCounts(*apply_op(UNIQUE_WITH_COUNTS, (t,),
                                      {'out_idx': dtypes.as_dtype(out_idx)}, name))
