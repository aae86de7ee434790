"""The op tables. Importing this package defines every op; each table module holds its ops' kernels,
inference rules and gradients side by side (see DESIGN.md, rule 1). The tables import only the
registry, dispatch, tensor types and helpers; control flow, whose ops hold sub-graphs, is the layer
above (defun/control_flow/)."""
from defun.ops import base_ops, math, creation, array, state  # noqa: F401  (defining the ops is the point)
from defun.ops import transform, indexing, gathering, sorting, nn, nn_conv, random, debug  # noqa: F401
from defun.ops import python_ops, linalg_diag, linalg_solve, linalg_decomp  # noqa: F401,E402
from defun.ops import random_stateless  # noqa: F401
from defun.ops import nn_more, clip_ops, math_more, array_more, special  # noqa: F401
from defun.ops import tensor_array_ops  # noqa: F401
from defun.ops import op_docs  # noqa: F401,E402  (sets the wrappers' docstrings)
