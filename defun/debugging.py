"""The `tf.debugging` namespace: re-exports only."""
from defun.ops.debugging.debug import Assert, check_numerics  # noqa: F401
from defun.ops.debugging.asserts import *  # noqa: F401,F403
from defun.ops.debugging.check_ops import *  # noqa: F401,F403
from defun.core.debug_settings import *  # noqa: F401,F403
# the elementwise APIs, which take RaggedTensors too (as TF dispatches them)
from defun.ops.ragged.elementwise_api import (check_numerics)  # noqa: F401,F811
