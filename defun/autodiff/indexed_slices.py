"""tf.IndexedSlices, as the gradient machinery names it: the type itself lives with the op tables
(defun/ops/framework/indexed_slices.py, its dense conversion in defun/ops/math/densify.py), since
the gradient of a gather produces it."""
from defun.ops.framework.indexed_slices import IndexedSlices, IndexedSlicesSpec, is_indexed_slices
from defun.ops.math.densify import indexed_slices_to_dense

__all__ = ['IndexedSlices', 'IndexedSlicesSpec', 'is_indexed_slices', 'indexed_slices_to_dense']
