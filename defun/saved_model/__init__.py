"""`tf.saved_model`: save an object with its Variables and traced functions; load it anywhere,
without its Python source and without running anything the files contain (see load.py)."""
from defun.saved_model.graph_codec import FormatError  # noqa: F401
from defun.saved_model.layout import contains_saved_model  # noqa: F401
from defun.saved_model.load import load  # noqa: F401
from defun.saved_model.save import save  # noqa: F401

__all__ = ['save', 'load', 'contains_saved_model', 'FormatError']
