"""The `tf.compat` namespace (only `v1.placeholder` and friends that graph code needs)."""
from defun.compat import v1  # noqa: F401
from defun.compat.text import as_bytes, as_str, as_str_any, as_text, path_to_str  # noqa: F401
from defun.core.dimension import dimension_value  # noqa: F401
from defun.core.shapes import dimension_at_index  # noqa: F401
from defun.core import unsupported  # noqa: E402

__getattr__ = unsupported.missing_names(__name__, 'tf.compat',
                                        reason='Of tf.compat, only v1 (in part), the text helpers '
                                        '(as_bytes, as_text, ...), dimension_value and '
                                        'dimension_at_index are.')
