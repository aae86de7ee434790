"""The op tables, by TF namespace. Importing this package defines every op; each table module holds
its ops' kernels, inference rules and gradients side by side. The tables import only the bottom
layer (defun/core/) and each other; control flow, whose ops hold sub-graphs, is a layer above
(defun/control_flow/)."""
import warnings

# Defining the ops is the point of these imports (each table registers its ops when imported).
from defun.ops.framework import base_ops, variable_ops, python_ops  # noqa: F401
from defun.ops.math import exports, clipping, math_ops, special, densify  # noqa: F401
from defun.ops.array import creation, joining, transform, indexing, gathering, sorting  # noqa: F401
from defun.ops.array import repeat_unique, tensor_array_ops  # noqa: F401
from defun.ops.nn import activations, conv, compositions  # noqa: F401
from defun.ops.random import stateful, stateless  # noqa: F401
from defun.ops.debugging import debug  # noqa: F401
from defun.ops.linalg import diagonals, cholesky, decompositions  # noqa: F401
from defun.ops.strings import string_ops, formatting, hashing, ragged_ops  # noqa: F401
from defun.ops.lookup import tables  # noqa: F401
from defun.ops.io import serialization, parsing, encodings  # noqa: F401
from defun.ops.image import resize, color, crops, codecs, suppression  # noqa: F401
from defun.ops import tensor_methods

tensor_methods.install()  # Tensor's operators are ops: the one place that puts them on Tensor
# As TF's kernels, defun's are silent about IEEE events (1/0 is inf, 0/0 nan): numpy's warnings
# for them are off in defun's own modules and in its generated code ('defun.generated').
warnings.filterwarnings('ignore', r'(divide by zero|invalid value|overflow|underflow) encountered',
                        RuntimeWarning, r'defun(\.|$)')
