"""The `tf.compat` namespace (only `v1.placeholder` and friends that graph code needs)."""
from defun.compat import v1  # noqa: F401
from defun.core.dimension import dimension_value  # noqa: F401
from defun.core.shapes import dimension_at_index  # noqa: F401
from defun.core import unsupported  # noqa: E402

__getattr__ = unsupported.missing_names(__name__, 'tf.compat',
                                        reason='Of tf.compat, only v1 (in part), dimension_value and '
                                        'dimension_at_index are.')
