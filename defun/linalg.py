"""The `tf.linalg` namespace."""
from defun.ops.linalg import det, einsum, inv, matmul, solve, tensordot  # noqa: F401
from defun.ops.linalg_norm import norm  # noqa: F401
from defun.ops.creation import eye  # noqa: F401
from defun.ops.linalg_diag import *  # noqa: F401,F403
from defun.ops.linalg_solve import *  # noqa: F401,F403
from defun.ops.linalg_decomp import *  # noqa: F401,F403
from defun.ops.linalg_solve import LogMatrixDeterminant  # noqa: F401
from defun.ops.nn_more import l2_normalize  # noqa: F401
from defun.ops.clip_ops import global_norm  # noqa: F401
from defun.ops.special import cross  # noqa: F401
