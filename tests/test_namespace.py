"""The public face holds TensorFlow's names only (issue 10): `dir(defun)` against the top-level names
of TensorFlow 2.21, recorded here from `dir(tensorflow)` (computed with TF, not with defun)."""
import json
import os
import subprocess
import sys

import defun

TF_TOP_LEVEL = frozenset("""
    AggregationMethod Assert CriticalSection DType DeviceSpec GradientTape Graph IndexedSlices
    IndexedSlicesSpec Module NoneTensorSpec Operation OptionalSpec RaggedTensor RaggedTensorSpec
    RegisterGradient SparseTensor SparseTensorSpec Tensor TensorArray TensorArraySpec
    TensorShape TensorSpec TypeSpec UnconnectedGradients Variable VariableAggregation
    VariableSynchronization abs acos acosh add add_n approx_top_k argmax argmin argsort as_dtype
    as_string asin asinh assert_equal assert_greater assert_less assert_rank atan atan2 atanh
    audio autodiff autograph batch_to_space bfloat16 bitcast bitwise bool boolean_mask
    broadcast_dynamic_shape broadcast_static_shape broadcast_to case cast check_pinned
    clip_by_global_norm clip_by_norm clip_by_value compat complex complex128 complex64 concat
    cond config constant constant_initializer control_dependencies conv
    conv2d_backprop_filter_v2 conv2d_backprop_input_v2 convert_to_tensor cos cosh cumsum
    custom_gradient data debugging device distribute divide double dtensor dtypes
    dynamic_partition dynamic_stitch edit_distance eig eigvals einsum ensure_shape equal errors
    executing_eagerly exp expand_dims experimental extract_volume_patches eye feature_column
    fftnd fill fingerprint float16 float32 float64 floor foldl foldr function gather gather_nd
    get_current_name_scope get_logger get_static_value grad_pass_through gradients graph_util
    greater greater_equal group guarantee_const half hessians histogram_fixed_width
    histogram_fixed_width_bins identity identity_n ifftnd image import_graph_def init_scope
    initializers inside_function int16 int32 int64 int8 io irfftnd is_symbolic_tensor is_tensor
    keras less less_equal linalg linspace lite load_library load_op_library logical_and
    logical_not logical_or lookup losses make_ndarray make_tensor_proto map_fn math matmul
    matrix_square_root maximum meshgrid metrics minimum mlir multiply name_scope negative nest
    newaxis nn no_gradient no_op nondifferentiable_batch_function norm not_equal numpy_function
    one_hot ones ones_initializer ones_like optimizers pad parallel_stack pow print profiler
    py_function qint16 qint32 qint8 quantization queue quint16 quint8 ragged
    ragged_fill_empty_rows ragged_fill_empty_rows_grad random random_index_shuffle
    random_normal_initializer random_uniform_initializer range rank raw_ops realdiv
    recompute_grad reduce_all reduce_any reduce_logsumexp reduce_max reduce_mean reduce_min
    reduce_prod reduce_sum register_tensor_conversion_function repeat
    required_space_to_batch_paddings reshape resource reverse reverse_sequence rfftnd roll round
    saturate_cast saved_model scalar_mul scan scatter_nd searchsorted security sequence_mask
    sets shape shape_n sigmoid sign signal sin sinh size slice sort space_to_batch
    space_to_batch_nd sparse split sqrt square squeeze stack stop_gradient strided_slice string
    strings subtract summary switch_case sysconfig tan tanh tensor_scatter_nd_add
    tensor_scatter_nd_max tensor_scatter_nd_min tensor_scatter_nd_sub tensor_scatter_nd_update
    tensordot test tile timestamp tools tpu train transpose truediv truncatediv truncatemod
    tuple type_spec_from_value types uint16 uint32 uint64 uint8 unique unique_with_counts
    unravel_index unstack variable_creator_scope variant vectorized_map version where while_loop
    xla zeros zeros_initializer zeros_like
""".split())

# Names ../shared/API.md gives defun's face although TF 2 keeps them elsewhere
# (tf.compat.v1.get_default_graph, tf.types.experimental.*Function) or has no such module.
API_EXTRAS = {'ConcreteFunction', 'Function', 'eager', 'get_default_graph'}


def test_top_level_names_are_tensorflows():
    # A fresh interpreter: importing a submodule later (defun.autodiff.gradient_check) binds it on the package.
    root = os.path.dirname(os.path.dirname(os.path.abspath(defun.__file__)))
    out = subprocess.run([sys.executable, '-c', 'import defun, json; print(json.dumps(dir(defun)))'],
                         capture_output=True, text=True, check=True, cwd=root)
    ours = {n for n in json.loads(out.stdout) if not n.startswith('_')}
    assert sorted(ours - TF_TOP_LEVEL - API_EXTRAS) == []


def test_helpers_left_the_face_but_stay_importable():
    from defun.core import context, registry
    from defun.ops.framework import base_ops
    from defun.ops.support import helpers as op_helpers
    for name in ('convert_like', 'sum_to', 'executor', 'context', 'registry', 'ceil', 'log'):
        assert not hasattr(defun, name), name
    assert callable(base_ops.sum_to) and callable(registry.get_gradient_function)
    assert callable(op_helpers.to_tensor) and callable(context.executing_eagerly)
    assert defun.math.log is not None and defun.math.ceil is not None


# dir(tf.errors) under TensorFlow 2.21, public names (recorded from TF).
TF_ERRORS = set("""
ABORTED ALREADY_EXISTS AbortedError AlreadyExistsError CANCELLED CancelledError DATA_LOSS
DEADLINE_EXCEEDED DataLossError DeadlineExceededError FAILED_PRECONDITION FailedPreconditionError
INTERNAL INVALID_ARGUMENT InternalError InvalidArgumentError NOT_FOUND NotFoundError OK OUT_OF_RANGE
OpError OperatorNotAllowedInGraphError OutOfRangeError PERMISSION_DENIED PermissionDeniedError
RESOURCE_EXHAUSTED ResourceExhaustedError UNAUTHENTICATED UNAVAILABLE UNIMPLEMENTED UNKNOWN
UnauthenticatedError UnavailableError UnimplementedError UnknownError
""".split())


def test_errors_namespace_is_tensorflows():
    from defun.core import error_helpers
    assert {n for n in dir(defun.errors) if not n.startswith('_')} == TF_ERRORS
    # defun's own helpers stay importable from their module
    for name in ('describe', 'kernel_failure', 'eager_op_error', 'filtered', 'staging_error'):
        assert callable(getattr(error_helpers, name)), name
    assert issubclass(error_helpers.InaccessibleTensorError, ValueError)
