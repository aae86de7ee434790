"""The `tf.compat.v1` namespace: the graph-building pieces of TF1 that this project supports."""
from defun.ops import creation
from defun.graph import placeholder, get_default_graph, Graph  # noqa: F401
from defun.gradients import gradients  # noqa: F401
from defun import unsupported


def constant(value, dtype=None, shape=None, name='Const', verify_shape=False):
    """TF1's constant: with `verify_shape`, a value whose shape differs from `shape` is an error
    (TypeError, as TF1) instead of being filled or reshaped."""
    if verify_shape and shape is not None:
        value_shape = tuple(creation.constant(value, dtype=dtype).shape.as_list())
        if value_shape != tuple(shape):
            raise TypeError('Expected Tensor with shape %s, but got shape %s.'
                            % (tuple(shape), value_shape))
    return creation.constant(value, dtype=dtype, shape=shape, name=name)


__getattr__ = unsupported.missing_names(
    __name__, 'tf.compat.v1', reason='Only the TF2 API and these graph-building pieces of '
    'compat.v1 are: placeholder, get_default_graph, Graph, gradients, constant.')
