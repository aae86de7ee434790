"""The `tf.nn` namespace."""
from defun.ops.nn.activations import *  # noqa: F401,F403
from defun.ops.nn.conv import *  # noqa: F401,F403
from defun.ops.array.sorting import top_k  # noqa: F401
from defun.ops.math.exports import sigmoid, tanh  # noqa: F401  (shared with tf.math)
from defun.ops.nn.compositions import *  # noqa: F401,F403
from defun.ops.nn.conv3d import *  # noqa: F401,F403
from defun.ops.nn.pool3d import *  # noqa: F401,F403
from defun.ops.nn.conv_transpose import *  # noqa: F401,F403
from defun.ops.nn.ctc import *  # noqa: F401,F403
from defun.ops.nn.by_rank import *  # noqa: F401,F403  (rank-generic convolution and pooling)
from defun.ops.math.elementary import softplus  # noqa: F401  (shared with tf.math)
from defun.ops.math.math_ops import in_top_k  # noqa: F401  (shared with tf.math)
from defun.ops.nn import experimental  # noqa: F401  (tf.nn.experimental)
from defun.ops.nn.isotonic import isotonic_regression  # noqa: F401
from defun.ops.sparse.sparse_embedding import (embedding_lookup_sparse,  # noqa: F401
    safe_embedding_lookup_sparse)
from defun.ops.ragged.array_api import embedding_lookup  # noqa: F401,F811  (ragged ids too)
# the elementwise APIs, which take RaggedTensors too (as TF dispatches them)
from defun.ops.ragged.elementwise_api import (sigmoid, softplus, tanh, elu, gelu,  # noqa: F401,F811
    leaky_relu, log_softmax, relu, relu6, silu, selu, softsign)  # noqa: F401,F811
