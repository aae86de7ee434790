"""TF2's core initializers (tf.zeros_initializer, tf.ones_initializer, tf.constant_initializer,
tf.random_normal_initializer, tf.random_uniform_initializer): callables `init(shape, dtype)` that
build a tensor, with get_config / from_config.

As in TF, a seeded random initializer draws from the stateless ops with seed [seed, 0], so every
call gives the same values; an unseeded one draws from the stateful ops (and the global seed).
"""
import numpy as np

from defun.core import dtypes
from defun.ops.random import stateful as random_ops
from defun.ops.random import stateless as random_stateless
from defun.ops.framework.base_ops import fill, reshape
from defun.ops.array.creation import ones, zeros
from defun.core.tensor import convert_to_tensor

__all__ = ['zeros_initializer', 'ones_initializer', 'constant_initializer',
           'random_normal_initializer', 'random_uniform_initializer']


class Initializer:
    """The base class: subclasses define __call__(shape, dtype) and get_config()."""

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def _numeric(dtype):
    dtype = dtypes.as_dtype(dtype)
    if not (dtype.is_floating or dtype.is_integer or dtype.is_complex or dtype is dtypes.bool):
        raise ValueError(f'Argument `dtype` expected to be numeric or boolean. Received {dtype}.')
    return dtype


class zeros_initializer(Initializer):
    """Initializer giving tensors of zeros: `init(shape, dtype=tf.float32)`."""
    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        return zeros(shape, _numeric(dtype))


class ones_initializer(Initializer):
    """Initializer giving tensors of ones: `init(shape, dtype=tf.float32)`."""
    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        return ones(shape, _numeric(dtype))


class constant_initializer(Initializer):
    """A scalar fills the shape; a list or array must have exactly as many elements."""

    def __init__(self, value=0):
        self.value = value

    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        dtype = _numeric(dtype)
        value = convert_to_tensor(self.value, dtype=dtype)
        n = value.shape.num_elements()
        dims = [int(d) for d in np.reshape(np.asarray(shape), [-1])]
        if value.shape.rank == 0:
            return fill(dims, value)
        if n != int(np.prod(dims, dtype=np.int64)):
            raise TypeError(f'Eager execution of tf.constant with unsupported shape. Tensor '
                            f'{value.numpy()} (converted from {self.value}) has {n} elements, '
                            f'but got `shape` {tuple(dims)} with {int(np.prod(dims))} elements).')
        return reshape(value, dims)

    def get_config(self):
        return {'value': self.value}


class random_normal_initializer(Initializer):
    """Initializer drawing normal values.

    Args:
      mean: The mean.
      stddev: The standard deviation.
      seed: An int; with the global seed, makes the draws reproducible.
    """
    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean, self.stddev, self.seed = mean, stddev, seed

    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        dtype = random_ops.float_dtype(dtype, 'random_normal_initializer')
        if self.seed is None:
            return random_ops.normal(shape, self.mean, self.stddev, dtype)
        return random_stateless.stateless_normal(shape, [self.seed, 0], self.mean, self.stddev,
                                                 dtype)

    def get_config(self):
        return {'mean': self.mean, 'stddev': self.stddev, 'seed': self.seed}


class random_uniform_initializer(Initializer):
    """Initializer drawing uniform values in [minval, maxval).

    Args:
      minval: The lower bound.
      maxval: The upper bound (excluded).
      seed: An int; with the global seed, makes the draws reproducible.
    """
    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        self.minval, self.maxval, self.seed = minval, maxval, seed

    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        dtype = _numeric(dtype)
        if self.seed is None:
            return random_ops.uniform(shape, self.minval, self.maxval, dtype)
        return random_stateless.stateless_uniform(shape, [self.seed, 0], self.minval,
                                                  self.maxval, dtype)

    def get_config(self):
        return {'minval': self.minval, 'maxval': self.maxval, 'seed': self.seed}
