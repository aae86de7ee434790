"""The `tf.lookup` namespace: immutable lookup tables (defun/ops/lookup/) and, under
`tf.lookup.experimental`, the mutable ones (defun/state/lookup_tables.py)."""
import types

from defun.ops.lookup.tables import *  # noqa: F401,F403
from defun.state.lookup_tables import DenseHashTable, MutableHashTable

experimental = types.SimpleNamespace(DenseHashTable=DenseHashTable,
                                     MutableHashTable=MutableHashTable)
