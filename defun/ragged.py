"""The `tf.ragged` namespace."""
from defun.ops.ragged.factories import *  # noqa: F401,F403
from defun.core import unsupported as _unsupported

# TF's tf.ragged names that defun lacks say so (the others are Python's usual AttributeError).
__getattr__ = _unsupported.missing_names(__name__, 'tf.ragged', {
    'cross': 'feature crosses of ragged inputs; tf.sparse.cross takes sparse and dense ones',
    'cross_hashed': 'hashed feature crosses of ragged inputs; tf.sparse.cross_hashed takes sparse '
                    'and dense ones'})
