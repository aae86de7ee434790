"""tf.math.bincount of a RaggedTensor (TF's RaggedBincount): the counts of the flat values, or
with axis=-1 one dense row of counts per ragged row, as TF gives them. A dense `arr` goes to the
dense op unchanged."""
from defun.core import dtypes
from defun.ops.array.boolean_mask import boolean_mask
from defun.ops.array.transform import reshape
from defun.ops.framework.base_ops import cast
from defun.ops.math import math_ops
from defun.ops.math.exports import maximum, minimum, reduce_max
from defun.ops.ragged.ragged_tensor import is_ragged
from defun.ops.support import validation

__all__ = ['bincount']


def bincount(arr, weights=None, minlength=None, maxlength=None, dtype=dtypes.int32, name=None,
             axis=None, binary_output=False):
    """Counts of each value in the (non-negative integer) arr, optionally weighted; with
    axis=-1, one count per row of a 2-D arr (ragged rows included); with binary_output, 1 where
    a value occurs."""
    math_ops.check_binary_weights(weights, binary_output)
    if not is_ragged(arr):
        return math_ops.bincount(arr, weights, minlength, maxlength, dtype, name, axis,
                                 binary_output)
    flat_weights = None if weights is None else (
        weights.flat_values if is_ragged(weights) else reshape(weights, [-1]))
    if axis in (None, 0):
        return math_ops.bincount(arr.flat_values, flat_weights, minlength, maxlength, dtype,
                                 name, None, binary_output)
    if axis != -1 or arr.ragged_rank != 1 or arr.flat_values.shape.rank != 1:
        raise validation.invalid_argument(
            f'bincount: axis=-1 needs a RaggedTensor of rank 2, got {arr!r} and axis={axis}')
    values = cast(arr.flat_values, dtypes.int64)
    size = maximum(reduce_max(values) + 1, 0) if values.shape[0] != 0 else cast(0, dtypes.int64)
    if minlength is not None:
        size = maximum(size, cast(minlength, dtypes.int64))
    if maxlength is not None:
        size = minimum(size, cast(maxlength, dtypes.int64))
    # One flat histogram of (row, value) positions, values past the size dropped.
    keep = values < size
    positions = boolean_mask(cast(arr.value_rowids(), dtypes.int64) * size + values, keep)
    kept_weights = None if flat_weights is None else boolean_mask(flat_weights, keep)
    total = cast(cast(arr.nrows(), dtypes.int64) * size, dtypes.int32)
    counts = math_ops.bincount(positions, kept_weights, total, total, dtype, name, None,
                               binary_output)
    return reshape(counts, [cast(arr.nrows(), dtypes.int32), cast(size, dtypes.int32)])
