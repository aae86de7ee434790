"""The `tf.compat.v1` namespace: the graph-building pieces of TF1 that this project supports."""
from defun.graph import placeholder, get_default_graph, Graph  # noqa: F401
from defun.gradients import gradients  # noqa: F401
