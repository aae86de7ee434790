"""defun: TensorFlow 2's tensors, tapes and compiled functions on numpy. This module only re-exports
the public surface (listed in docs/api.md); nothing is defined here."""
from defun.core import dtypes
from defun.core.dtypes import (DType, as_dtype, float16, half, float32, float64, double, int8, int16,  # noqa
                          int32, int64, uint8, uint16, uint32, uint64, bool, complex64, complex128,
                          string, resource)
from defun.core.shapes import TensorShape, TensorSpec  # noqa
from defun.core.tensor import Tensor, convert_to_tensor, is_tensor  # noqa
from defun.core import nest, errors  # noqa
from defun.ops.framework.base_ops import *  # noqa: F401,F403  (each op table's __all__ is its public surface)
from defun.ops.math.exports import *  # noqa: F401,F403
from defun.ops.array.creation import *  # noqa: F401,F403
from defun.ops.array.joining import *  # noqa: F401,F403
from defun.ops.array.transform import *  # noqa
from defun.ops.array.gathering import *  # noqa
from defun.ops.array.sorting import *  # noqa
from defun.ops.array.indexing import strided_slice  # noqa
from defun.ops.math.truncating import truncatediv, truncatemod, realdiv, unique_with_counts  # noqa
from defun.ops.debugging.debug import Assert, print  # noqa
from defun import math, linalg, nn, random, debugging  # noqa: F401
from defun.state.variables import Variable  # noqa
from defun.autodiff.indexed_slices import IndexedSlices  # noqa
from defun.autodiff.tape import GradientTape  # noqa
from defun.core.context import executing_eagerly, init_scope  # noqa
from defun.graphs.graph import Graph, get_default_graph  # noqa
from defun.graphs.operation import Operation  # noqa
from defun.compiler.folding import get_static_value  # noqa
from defun.graphs.scopes import name_scope, control_dependencies  # noqa
from defun.graphs.scopes import get_current_name_scope, inside_function, is_symbolic_tensor  # noqa
from defun.autodiff.gradients import gradients, UnconnectedGradients, AggregationMethod  # noqa
from defun import compat  # noqa
from defun.functions.function import function, Function  # noqa
from defun.autodiff.custom_gradient import custom_gradient  # noqa
from defun.ops.framework.python_ops import stop_gradient, py_function, numpy_function  # noqa
from defun.core.registry import RegisterGradient, no_gradient, NotDifferentiable, get_gradient_function  # noqa
from defun import eager  # noqa
import autograph  # noqa: F401  (tf.autograph)
from defun.functions.concrete import ConcreteFunction  # noqa
from defun import types  # noqa: F401  (tf.types.experimental.TraceType, FunctionType, ...)
from defun.control_flow import *  # noqa: F401,F403
from defun.state.module import Module  # noqa
from defun import config, version, test  # noqa
from defun import train  # noqa: F401  (tf.train: checkpoints)
from defun import saved_model  # noqa: F401
from defun.version import VERSION as __version__  # noqa
from defun.core.device import device, DeviceSpec  # noqa
from defun.ops.math.clipping import clip_by_norm, clip_by_global_norm, sequence_mask, meshgrid  # noqa
from defun.ops.array.repeat_unique import *  # noqa
from defun.ops.array.repeat_unique import tuple_ as tuple  # noqa: A001  (TF's name)
from defun.ops.math.math_ops import asinh, acosh, atanh  # noqa
from defun.ops.debugging.asserts import assert_equal, assert_greater, assert_less  # noqa: E402
from defun.ops.debugging.check_ops import assert_rank  # noqa: E402  (TF's top-level asserts)
from defun import data  # noqa: E402  (tf.data)
from defun import experimental  # noqa: E402  (tf.experimental.Optional)
from defun import keras  # noqa: E402
from defun import optimizers  # noqa: E402  (tf.optimizers)
from defun import strings, lookup, io, image  # noqa: E402  (tf.strings, tf.lookup, tf.io, tf.image)
from defun import sparse, ragged  # noqa: E402  (tf.sparse, tf.ragged)
from defun.ops.sparse.sparse_tensor import SparseTensor, SparseTensorSpec  # noqa: E402
from defun.ops.ragged.ragged_tensor import RaggedTensor, RaggedTensorSpec  # noqa: E402
from defun.core.composite import TypeSpec  # noqa: E402
from defun.ops.framework.indexed_slices import IndexedSlicesSpec  # noqa: E402
from defun.core import unsupported as _unsupported  # noqa: E402
__getattr__ = _unsupported.missing_names(__name__, 'tf', _unsupported.TF_NAMESPACES)  # TF names not here

# The face holds TensorFlow's names only (issue 10): defun's own modules (any not named as one of
# TF 2.21's namespaces below), the op tables' helpers and the aliases TF 2 keeps under tf.math
# alone are dropped here; each stays importable from its module (`from defun import registry`,
# `defun.math.log`, `defun.ops.framework.base_ops.sum_to`).
for _name, _value in list(globals().items()):
    if type(_value) is type(dtypes) and _value.__name__ == f'{__name__}.{_name}' and _name not in (
            'audio', 'autodiff', 'autograph', 'bitwise', 'compat', 'config', 'data', 'debugging',
            'distribute', 'dtensor', 'dtypes', 'errors', 'experimental', 'feature_column',
            'graph_util', 'image', 'initializers', 'io', 'keras', 'linalg', 'lite', 'lookup',
            'losses', 'math', 'metrics', 'mlir', 'nest', 'nn', 'optimizers', 'profiler',
            'quantization', 'queue', 'ragged', 'random', 'raw_ops', 'saved_model', 'security',
            'sets', 'signal', 'sparse', 'strings', 'summary', 'sysconfig', 'test', 'tools', 'tpu',
            'train', 'types', 'version', 'xla', 'eager'):
        del globals()[_name]
for _name in ('convert_like', 'sum_to', 'reduced_shape', 'static_or_tensor_shape',
              'get_gradient_function', 'NotDifferentiable',
              'ceil', 'conj', 'cumprod', 'divide_no_nan', 'erf', 'erfc', 'expm1', 'floordiv', 'floormod',
              'imag', 'is_finite', 'is_inf', 'is_nan', 'log', 'log1p', 'logical_xor', 'mod',
              'real', 'reciprocal', 'reduce_std', 'reduce_variance', 'rsqrt', 'softplus'):
    globals().pop(_name, None)
del _name, _value
from defun.initializers import *  # noqa
