"""The `tf.lookup` namespace: immutable lookup tables (defun/ops/lookup/)."""
from defun.ops.lookup.tables import *  # noqa: F401,F403
