"""IndexedSlices to dense tensors, as TF's conversion: an unsorted segment sum of the rows into
`dense_shape[0]` rows, warning (in a graph) when the dense tensor would hold 100 million elements
or more; registered as the type's tensor conversion, so any op taking a tensor densifies one."""
import warnings

import numpy as np

from defun.core import context
from defun.core.tensor import register_tensor_conversion_function
from defun.ops.framework.base_ops import reshape
from defun.ops.framework.indexed_slices import IndexedSlices
from defun.ops.math.segments import unsorted_segment_sum
from defun.ops.support.helpers import static_value

__all__ = ['indexed_slices_to_dense']

_LARGE_SPARSE_NUM_ELEMENTS = 100000000  # TF's threshold for the warning


def indexed_slices_to_dense(value, dtype=None):
    if dtype is not None and dtype != value.dtype:
        raise ValueError(f'Incompatible tensor conversion requested to `dtype` {dtype.name} for '
                         f'IndexedSlices ({value!s}) with dtype {value.dtype.name}')
    if value.dense_shape is None:
        raise ValueError(f'Tensor conversion requested for IndexedSlices for argument `value` '
                         f'without dense_shape: {value!s}')
    if context.current_graph() is not None:
        known = static_value(value.dense_shape)
        if known is not None and np.prod(known) >= _LARGE_SPARSE_NUM_ELEMENTS:
            warnings.warn(f'Converting sparse IndexedSlices to a dense Tensor with '
                          f'{int(np.prod(known))} elements. This may consume a large amount of '
                          f'memory.', stacklevel=4)
    if value.indices.shape.rank == 1:
        return unsorted_segment_sum(value.values, value.indices, value.dense_shape[0])
    indices, values = value.flat()
    return reshape(unsorted_segment_sum(values, indices, value.dense_shape[0]), value.dense_shape)


register_tensor_conversion_function(IndexedSlices, indexed_slices_to_dense)
