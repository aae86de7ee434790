"""`tf.saved_model`: save an object with its Variables and traced functions; load it anywhere,
without its Python source and without running anything the files contain (see load.py)."""
from defun.saved_model import experimental  # noqa: F401  (tf.saved_model.experimental)
from defun.saved_model.graph_codec import FormatError  # noqa: F401
from defun.saved_model.layout import contains_saved_model  # noqa: F401
from defun.saved_model.load import load  # noqa: F401
from defun.saved_model.save import save  # noqa: F401
from defun.train.options import LoadOptions, SaveOptions  # noqa: F401

# TF's names for the parts of a SavedModel (defun's own file names where they differ).
DEFAULT_SERVING_SIGNATURE_DEF_KEY = 'serving_default'
SERVING, TRAINING, GPU, TPU = 'serve', 'train', 'gpu', 'tpu'
VARIABLES_DIRECTORY = VARIABLES_FILENAME = 'variables'
ASSETS_DIRECTORY = 'assets'
SAVED_MODEL_FILENAME_JSON = 'saved_model.json'

__all__ = ['save', 'load', 'contains_saved_model', 'FormatError', 'SaveOptions', 'LoadOptions',
           'DEFAULT_SERVING_SIGNATURE_DEF_KEY', 'SERVING', 'TRAINING', 'GPU', 'TPU',
           'VARIABLES_DIRECTORY', 'VARIABLES_FILENAME', 'ASSETS_DIRECTORY',
           'SAVED_MODEL_FILENAME_JSON']
