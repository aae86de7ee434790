"""The `tf.math.special` namespace (tf.math.special.*): re-exports only."""
from defun.core import unsupported
from defun.ops.math.bessel import *  # noqa: F401,F403
from defun.ops.math.special_integrals import *  # noqa: F401,F403

__getattr__ = unsupported.missing_names(__name__, 'tf.math.special')
