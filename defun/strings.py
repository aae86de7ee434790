"""The `tf.strings` namespace: ops on byte-string tensors (defun/ops/strings/)."""
from defun.core import unsupported
from defun.ops.strings.string_ops import *  # noqa: F401,F403
from defun.ops.strings.formatting import *  # noqa: F401,F403
from defun.ops.strings.hashing import *  # noqa: F401,F403
from defun.ops.strings.ragged_ops import *  # noqa: F401,F403
# the elementwise APIs, which take RaggedTensors too (as TF dispatches them)
from defun.ops.ragged.elementwise_api import (as_string, to_number, length, lower, upper,  # noqa: F401,F811
    strip, regex_full_match, regex_replace, substr, to_hash_bucket, to_hash_bucket_fast,  # noqa: F401,F811
    to_hash_bucket_strong)  # noqa: F401,F811

# Python's unicodedata has no Script property, and ICU's script codes would need ICU's data.
__getattr__ = unsupported.missing_names(__name__, 'tf.strings', {
    'unicode_script': "ICU's Unicode script data; Python's unicodedata has no Script property"})
