"""The `tf.strings` namespace: ops on byte-string tensors (defun/ops/strings/)."""
from defun.ops.strings.string_ops import *  # noqa: F401,F403
from defun.ops.strings.formatting import *  # noqa: F401,F403
from defun.ops.strings.hashing import *  # noqa: F401,F403
from defun.ops.strings.ragged_ops import *  # noqa: F401,F403
