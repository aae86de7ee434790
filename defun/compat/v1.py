"""The `tf.compat.v1` namespace: the graph-building pieces of TF1 that this project supports."""
from defun.ops.array import creation
from defun.graphs.graph import placeholder, get_default_graph, Graph  # noqa: F401
from defun.autodiff.gradients import gradients  # noqa: F401
from defun.core import context, unsupported
from defun.core.dimension import Dimension, dimension_value  # noqa: F401
from defun.core.shapes import dimension_at_index  # noqa: F401
from defun.ops.summary.summary_proto import SummaryMetadata  # noqa: F401


def constant(value, dtype=None, shape=None, name='Const', verify_shape=False):
    """TF1's constant: with `verify_shape`, a value whose shape differs from `shape` is an error
    (TypeError, as TF1) instead of being filled or reshaped."""
    if verify_shape and shape is not None:
        value_shape = tuple(creation.constant(value, dtype=dtype).shape.as_list())
        if value_shape != tuple(shape):
            raise TypeError('Expected Tensor with shape %s, but got shape %s.'
                            % (tuple(shape), value_shape))
    return creation.constant(value, dtype=dtype, shape=shape, name=name)


def enable_tensor_equality():
    """TF2's default: `==` on tensors and Variables is elementwise, and they are unhashable."""
    context.set_tensor_equality(True)


def disable_tensor_equality():
    """TF1's rule: `==` on tensors and Variables compares identity, and they hash by identity."""
    context.set_tensor_equality(False)


def reset_default_graph():
    """Clears the default graph: the next `get_default_graph()` is a new, empty one."""
    context.reset_default_graph()


__getattr__ = unsupported.missing_names(
    __name__, 'tf.compat.v1', reason='Only the TF2 API and these graph-building pieces of '
    'compat.v1 are: placeholder, get_default_graph, Graph, gradients, constant, Dimension, '
    'dimension_value, dimension_at_index, enable_tensor_equality, disable_tensor_equality, '
    'reset_default_graph.')
