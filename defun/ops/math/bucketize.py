"""Bucketize: the index of each value's bucket among sorted boundaries (TF's raw op, which Keras's
Discretization layer and `digitize` use).

As TF's kernel, the bucket of x is the number of boundaries b with b <= x (an upper bound), the
boundaries being float32: a float64 input is compared with them in float64, an integer input is
converted to float32 first (as C++ compares an int with a float). NaN is past every boundary. The
op is not differentiable (its gradient is None).
"""
import numpy as np

from defun.core import dtypes, errors
from defun.core.dispatch import apply_op
from defun.core.registry import define_op
from defun.ops.support.helpers import dims, to_tensor

__all__ = ['bucketize']


def _bucketize_kernel(x, boundaries):
    bounds = np.asarray(boundaries, dtype=np.float32)
    if np.any(bounds[1:] < bounds[:-1]):
        raise errors.InvalidArgumentError('Expected sorted boundaries')   # at run time, as TF
    values = x.astype(np.float32) if x.dtype.kind in 'iu' else x
    return np.searchsorted(bounds, values, side='right').astype(np.int32)


BUCKETIZE = define_op(
    'Bucketize', _bucketize_kernel, lambda x, boundaries: (dtypes.int32, dims(x)), None,
    inputs=('input: T',), attrs=('T: {int32, int64, float, double}', 'boundaries: list(float)'))


def bucketize(input, boundaries, name=None):  # noqa: A002
    """int32 bucket indices of `input` (int32, int64, float32 or float64) against the sorted
    list of float `boundaries`: the number of boundaries at or below each value."""
    x = to_tensor(input, name='input', op='Bucketize')
    # The op's schema checks the list and its floats; the kernel reads them as float32.
    values = tuple(boundaries) if isinstance(boundaries, (list, tuple)) else boundaries
    return apply_op(BUCKETIZE, (x,), {'boundaries': values}, name)
