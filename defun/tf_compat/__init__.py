"""The one place that knows TensorFlow's private module paths, and how defun becomes `tensorflow`.

Keras 3's TensorFlow backend imports `tensorflow`, reaches `tf.__internal__`, and imports a few of
TF's private modules (`tensorflow.python.eager.context`, `tensorflow.python.trackable.
data_structures`, `tensorflow.compiler.tf2xla.python.xla`, ...). `finder` makes those imports
resolve to defun (see its docstring for when and how, and the switch that turns it off); the other
modules here are what those private paths hold, built on defun's public modules; `internal` is
`tf.__internal__`. Nothing else in defun names a private TensorFlow path.
"""
from defun.tf_compat.finder import (  # noqa: F401
    install, uninstall, is_installed, keras_api, enabled, TensorFlowConflictError, SWITCH)
from defun.tf_compat import finder

__all__ = ['install', 'uninstall', 'is_installed', 'keras_api', 'enabled',
           'TensorFlowConflictError', 'SWITCH']

# From `import defun` on, `import keras` (TensorFlow backend) finds defun as its `tensorflow`.
finder.hook()
