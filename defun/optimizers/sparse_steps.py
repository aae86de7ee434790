"""What the update steps of SGD, Adam, RMSprop and Adagrad (sgd_adam_rules.py) use on a sparse
gradient (an IndexedSlices, the gradient of a gather or an embedding lookup), to compute as TF
2.21's Keras computes on the TensorFlow backend, where elementwise ops keep IndexedSlices sparse:

- a unary op, or a product with a scalar, applies to the rows (`square` squares each row, so a row
  named twice contributes the sum of the squares, not the square of the sum);
- a product or quotient with a dense tensor gathers that tensor's rows at the indices;
- a sum or difference with a dense tensor densifies the rows first (rows named twice add up);
- assigning an IndexedSlices to a variable (assign_add, assign_sub) scatters its rows.

Any other optimizer sees the gradient as the dense tensor it converts to.
"""
from defun.ops.array.gathering import gather
from defun.ops.framework.indexed_slices import IndexedSlices
from defun.core.tensor import convert_to_tensor

__all__ = ['rows', 'dense', 'over', 'is_sparse']


def is_sparse(gradient):
    return isinstance(gradient, IndexedSlices)


def rows(g, fn):
    """fn applied to the rows of g (a unary op, or a product with a scalar)."""
    return IndexedSlices(fn(g.values), g.indices, g.dense_shape)


def dense(g):
    """g as a dense tensor (rows named twice add up)."""
    return convert_to_tensor(g)


def over(g, dense):
    """The rows of g divided by the rows of `dense` at g's indices."""
    return IndexedSlices(g.values / gather(dense, g.indices), g.indices, g.dense_shape)
