"""`tf.nn.isotonic_regression`: the non-increasing (or non-decreasing) sequence nearest to each
vector along an axis in squared error, and the segments on which it is constant.

The IsotonicRegression op solves the non-increasing problem along the last axis by pooling
adjacent violators: each value starts a block, and a block whose mean exceeds the one before it
merges into it (equal means stay apart, as TF's kernel keeps them). The solution is piecewise
constant, so its gradient is, as TF's, the mean of the output gradient over each segment.
`decreasing=False` negates input and output; another axis is moved last and back.
"""
import numpy as np

from defun.core import dtypes
from defun.core.dispatch import apply_op
from defun.core.registry import define_op
from defun.ops.array.gathering import gather
from defun.ops.array.transform import transpose
from defun.ops.framework.base_ops import cast, ones_like, reshape, shape
from defun.ops.math.arithmetic import maximum
from defun.ops.math.segments import unsorted_segment_sum
from defun.ops.array.creation import range as range_
from defun.ops.support import validation
from defun.ops.support.helpers import dims, to_tensor

__all__ = ['isotonic_regression']


def _pool_adjacent_violators(row):
    sums, counts = [], []
    for value in row:
        sums.append(float(value))
        counts.append(1)
        while len(sums) > 1 and sums[-2] / counts[-2] < sums[-1] / counts[-1]:
            last_sum, last_count = sums.pop(), counts.pop()
            sums[-1] += last_sum
            counts[-1] += last_count
    values = np.repeat([s / c for s, c in zip(sums, counts)], counts)
    return values, np.repeat(np.arange(len(counts), dtype=np.int32), counts)


def _isotonic_kernel(x, output_dtype):
    flat = np.asarray(x, np.float64).reshape(-1, x.shape[-1]) if x.size else \
        np.zeros((0, x.shape[-1] if x.ndim else 0))
    out = np.empty(flat.shape, output_dtype.np_dtype)
    segments = np.empty(flat.shape, np.int32)
    for i, row in enumerate(flat):
        out[i], segments[i] = _pool_adjacent_violators(row)
    return out.reshape(x.shape), segments.reshape(x.shape)


def _isotonic_grad(op, grad, unused_segments_grad):
    """The mean of `grad` over each segment of each row (TF's gradient)."""
    segments = op.outputs[1]
    n = shape(segments)[-1]
    flat_segments = reshape(segments, [-1, n])
    rows = shape(flat_segments)[0]
    ids = reshape(flat_segments + reshape(range_(rows) * n, [-1, 1]), [-1])
    flat_grad = reshape(grad, [-1])
    total = unsorted_segment_sum(flat_grad, ids, rows * n)
    count = unsorted_segment_sum(ones_like(flat_grad), ids, rows * n)
    mean = total / maximum(count, 1)
    return cast(reshape(gather(mean, ids), shape(grad)), op.inputs[0].dtype)


ISOTONIC = define_op(
    'IsotonicRegression', _isotonic_kernel,
    lambda x, output_dtype: ((output_dtype, dims(x)), (dtypes.int32, dims(x))),
    _isotonic_grad, num_outputs=2,
    inputs=('input: T',), attrs=('T: realnumbertype',))


def isotonic_regression(inputs, decreasing=True, axis=-1):
    """(solution, segments) of the isotonic regression of each vector of `inputs` along `axis`:
    the nearest non-increasing sequence (non-decreasing with decreasing=False)."""
    x = to_tensor(inputs, name='inputs', op='isotonic_regression')
    rank = x.shape.rank
    ax = validation.axis(axis, rank, 'isotonic_regression')
    output_dtype = x.dtype if x.dtype.is_floating else dtypes.float64
    perm = list(range(rank))
    perm[ax], perm[-1] = perm[-1], perm[ax]
    moved = x if ax == rank - 1 else transpose(x, perm)
    if not decreasing:
        moved = -moved
    out, segments = apply_op(ISOTONIC, (moved,), {'output_dtype': output_dtype})
    if not decreasing:
        out = -out
    if ax != rank - 1:
        out, segments = transpose(out, perm), transpose(segments, perm)
    return out, segments
