"""The `tf.bitwise` namespace."""
from defun.ops.math.bitwise import *  # noqa: F401,F403
# the elementwise APIs, which take RaggedTensors too (as TF dispatches them)
from defun.ops.ragged.elementwise_api import (invert, bitwise_and, bitwise_or, bitwise_xor,  # noqa: F401,F811
    left_shift, right_shift)  # noqa: F401,F811
