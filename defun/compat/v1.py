"""The `tf.compat.v1` namespace: the graph-building pieces of TF1 that this project supports."""
from defun.graph import placeholder, get_default_graph, Graph  # noqa: F401
from defun.gradients import gradients  # noqa: F401
from defun import unsupported

__getattr__ = unsupported.missing_names(
    __name__, 'tf.compat.v1', reason='Only the TF2 API and these graph-building pieces of '
    'compat.v1 are: placeholder, get_default_graph, Graph, gradients.')
