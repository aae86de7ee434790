"""The `tf.linalg` namespace."""
from defun.ops.linalg.products import det, einsum, inv, matmul, solve, tensordot  # noqa: F401
from defun.ops.linalg.norms import norm  # noqa: F401
from defun.ops.array.creation import eye  # noqa: F401
from defun.ops.linalg.diagonals import *  # noqa: F401,F403
from defun.ops.linalg.cholesky import *  # noqa: F401,F403
from defun.ops.linalg.decompositions import *  # noqa: F401,F403
from defun.ops.linalg.cholesky import LogMatrixDeterminant  # noqa: F401
from defun.ops.nn.compositions import l2_normalize  # noqa: F401
from defun.ops.math.clipping import global_norm  # noqa: F401
from defun.ops.math.special import cross  # noqa: F401
from defun.ops.linalg.linear_operator import *  # noqa: F401,F403
from defun.ops.linalg.eig_lu import *  # noqa: F401,F403
