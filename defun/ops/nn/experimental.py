"""tf.nn.experimental: dropout with stateless noise (a seed pair gives the same mask every
call, TF's bits) or with noise from a user's uniform sampler."""
from defun.ops.nn.compositions import dropout_with
from defun.ops.random.stateless import stateless_uniform

__all__ = ['stateless_dropout', 'general_dropout']


def stateless_dropout(x, rate, seed, rng_alg=None, noise_shape=None, name=None):
    return dropout_with(x, rate, noise_shape,
                        lambda shape, dtype: stateless_uniform(shape, seed=seed, dtype=dtype))


def general_dropout(x, rate, uniform_sampler, noise_shape=None, name=None):
    return dropout_with(x, rate, noise_shape, uniform_sampler)
