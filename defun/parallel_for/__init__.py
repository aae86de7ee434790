"""tf.vectorized_map: a function mapped over the first dimension of its inputs."""
from defun.parallel_for.vectorized_map import vectorized_map  # noqa: F401
