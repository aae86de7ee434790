"""The `tf.strings` namespace: ops on byte-string tensors (defun/ops/strings/)."""
from defun.core import unsupported
from defun.ops.strings.string_ops import *  # noqa: F401,F403
from defun.ops.strings.formatting import *  # noqa: F401,F403
from defun.ops.strings.hashing import *  # noqa: F401,F403
from defun.ops.strings.ragged_ops import *  # noqa: F401,F403

# Python's unicodedata has no Script property, and ICU's script codes would need ICU's data.
__getattr__ = unsupported.missing_names(__name__, 'tf.strings', {
    'unicode_script': "ICU's Unicode script data; Python's unicodedata has no Script property"})
