"""defun: TensorFlow 2's tensors, tapes and compiled functions on numpy.

This module is the package's face, `tf` in `import defun as tf`: it re-exports TensorFlow's public
names from the modules that define them (listed in docs/api.md) and defines nothing. `dir(tf)` shows
TensorFlow's names only (the layer packages, such as `defun.core`, stay importable but unlisted), and
a TensorFlow name that defun lacks raises NotInDefunError, saying so.
"""
# ruff: noqa: F401 (re-exports are the point of this module)
from defun import dtypes  # tf.dtypes
from defun.core.dtypes import (DType, as_dtype, float16, half, float32, float64, double, int8, int16,
    int32, int64, uint8, uint16, uint32, uint64, bool, complex64, complex128,
    string, resource, bfloat16)
from defun.core.dtypes import variant  # tf.variant: an Optional's (or a dataset's) tensor
from defun.core.shapes import TensorShape, TensorSpec
from defun.core.tensor import Tensor, convert_to_tensor, is_tensor
from defun.core import nest, errors
from defun.ops.framework.base_ops import (identity, cast, shape, reshape, broadcast_to,
    zeros_like, ones_like, fill)
from defun.ops.math.exports import (equal, not_equal, less, less_equal, greater, greater_equal,
    logical_and, logical_or, logical_not, where, add, subtract, multiply, divide, truediv,
    maximum, minimum, negative, square, add_n, clip_by_value, scalar_mul, pow, abs, sign, sqrt,
    exp, sin, cos, tan, asin, acos, atan, atan2, sinh, cosh, tanh, sigmoid, round, floor,
    complex, reduce_sum, reduce_mean, reduce_max, reduce_min, reduce_prod, reduce_any,
    reduce_all, reduce_logsumexp, argmax, argmin, cumsum, matmul, tensordot, einsum, norm)
from defun.ops.array.creation import constant, zeros, ones, eye, range, linspace, rank, newaxis
from defun.ops.array.joining import stack, unstack, concat, split, one_hot, size
from defun.ops.array.transform import (expand_dims, squeeze, transpose, tile, pad, slice,
    reverse)
from defun.ops.array.gathering import (gather, gather_nd, scatter_nd, tensor_scatter_nd_add,
    tensor_scatter_nd_sub, tensor_scatter_nd_update, tensor_scatter_nd_min,
    tensor_scatter_nd_max, boolean_mask)
from defun.ops.array.sorting import sort, argsort
from defun.ops.array.indexing import strided_slice
from defun.ops.math.truncating import truncatediv, truncatemod, realdiv, unique_with_counts
from defun.ops.debugging.debug import Assert, print
from defun import math, linalg, nn, random, debugging
from defun.state.variables import Variable
from defun.state.variable_policy import VariableAggregation, VariableSynchronization
from defun.ops.framework.indexed_slices import IndexedSlices, IndexedSlicesSpec
from defun.autodiff.tape import GradientTape
from defun.core.context import executing_eagerly, init_scope
from defun.graphs.graph import Graph, get_default_graph
from defun.graphs.operation import Operation
from defun.compiler.constant_value import get_static_value
from defun.graphs.scopes import name_scope, control_dependencies
from defun.graphs.scopes import get_current_name_scope, inside_function, is_symbolic_tensor
from defun.autodiff.gradients import gradients, UnconnectedGradients, AggregationMethod
from defun import compat
from defun.functions.function import function, Function
from defun.autodiff.custom_gradient import custom_gradient
from defun.autodiff.custom_gradient import recompute_grad
from defun.ops.framework.python_ops import stop_gradient, py_function, numpy_function
from defun.core.registry import RegisterGradient, no_gradient
from defun import eager
import autograph  # tf.autograph
from defun.functions.concrete import ConcreteFunction
from defun.functions.type_specs import type_spec_from_value
from defun import types  # tf.types.experimental.TraceType, FunctionType, ...
from defun.control_flow import (cond, case, switch_case, while_loop, TensorArray, map_fn, scan,
    foldl, foldr)
from defun.state.module import Module
from defun import config, version, test
from defun import queue  # tf.queue: FIFOQueue, eagerly
from defun import signal  # tf.signal: frame
from defun import summary  # tf.summary: event files for TensorBoard
from defun import train  # tf.train: checkpoints
from defun import saved_model
from defun.version import VERSION as __version__
from defun.core.device import device, DeviceSpec
from defun.ops.math.clipping import clip_by_norm, clip_by_global_norm, sequence_mask, meshgrid
from defun.ops.array.repeat_unique import (roll, repeat, unique, searchsorted, ensure_shape,
    identity_n, broadcast_static_shape, broadcast_dynamic_shape, shape_n, saturate_cast,
    unravel_index, histogram_fixed_width, no_op, group)
from defun.ops.array.repeat_unique import tuple_ as tuple  # TF's name
from defun.ops.array.sequences import reverse_sequence, histogram_fixed_width_bins, edit_distance
from defun.ops.math.math_ops import asinh, acosh, atanh
from defun.ops.debugging.asserts import assert_equal, assert_greater, assert_less
from defun.ops.debugging.check_ops import assert_rank  # TF's top-level asserts
from defun import data  # tf.data
from defun.data.optional import OptionalSpec
from defun.data.structure import NoneTensorSpec  # tf.NoneTensorSpec: a None inside a tf.data element
from defun import experimental  # tf.experimental.Optional
from defun import keras
from defun.tf_compat import internal as __internal__  # tf.__internal__, for Keras
from defun import bitwise  # tf.bitwise
from defun.ops.array.bitcast import bitcast
from defun import optimizers  # tf.optimizers
from defun import initializers
from defun.state.initializers import (zeros_initializer, ones_initializer, constant_initializer,
    random_normal_initializer, random_uniform_initializer)
from defun import sparse, ragged
from defun import sets  # tf.sets
from defun.ops.sparse.sparse_tensor import SparseTensor, SparseTensorSpec
from defun.ops.ragged.ragged_tensor import RaggedTensor, RaggedTensorSpec
from defun.core.composite import TypeSpec
from defun import strings, lookup, io, image
from defun.strings import as_string  # tf.as_string, as TF's top-level alias
from defun import distribute
from defun.parallel_for import vectorized_map
# the elementwise APIs, which take RaggedTensors too (as TF dispatches them)
from defun.ops.ragged.elementwise_api import (abs, acos, acosh, asin, asinh, atan, atanh,  # noqa: F811
    cos, cosh, exp, floor, logical_not, negative, round, sigmoid, sign, sin, sinh, sqrt,  # noqa: F811
    square, tan, tanh, clip_by_value, cast, zeros_like, ones_like, add, subtract, multiply,  # noqa: F811
    divide, truediv, maximum, minimum, pow, atan2, equal, not_equal, less, less_equal,  # noqa: F811
    greater, greater_equal, logical_and, logical_or, realdiv, truncatediv, truncatemod,  # noqa: F811
    where)  # noqa: F811
# the array APIs TF dispatches on SparseTensor and RaggedTensor arguments
from defun.ops.ragged.array_api import shape, size, rank, gather  # noqa: F811
from defun import raw_ops  # tf.raw_ops (the ops defun defines with TF's signatures)
from defun.core import unsupported as _unsupported

__getattr__ = _unsupported.missing_names(__name__, 'tf', _unsupported.TF_NAMESPACES)
__dir__ = _unsupported.tf_names_only(__name__)
