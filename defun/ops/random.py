"""Random ops: normal, uniform (float and int) and shuffle, drawing from the process-wide generator
that tf.random.set_seed resets (context.random_generator()).

They are stateful: each run draws anew, and the executor keeps them in program order and never
folds them at trace time. TF gives them no gradient. The `seed` argument is accepted; repeatability
comes from the global seed (a seeded program draws the same sequence on every run).
"""
import numpy as np

from defun import context, dtypes, errors
from defun.dispatch import apply_op
from defun.ops import op_helpers
from defun.ops.op_helpers import dims, to_tensor
from defun.registry import define_op
from defun.tensor import Tensor
from defun.ops import validation

__all__ = ['normal', 'uniform', 'shuffle']


def _shape_arg(shape, op):
    if isinstance(shape, Tensor):
        if not shape.dtype.is_integer:
            raise TypeError(f'{op}: shape must be an int32 or int64 tensor, got '
                            f'{errors.describe(shape)}')
        return shape
    return to_tensor(shape, dtype=dtypes.int32, name='shape', op=op)


def _shape_infer(shape_t, dtype, **attrs):
    value = op_helpers.static_value(shape_t)
    if value is not None:
        return dtype, tuple(int(n) for n in np.reshape(value, [-1]))
    n = shape_t.shape.as_tuple()
    return dtype, None if not n or n[0] is None else (None,) * n[0]


def _sizes(shape_array):
    sizes = tuple(int(n) for n in np.reshape(shape_array, [-1]))
    if any(n < 0 for n in sizes):
        raise validation.invalid_argument(f'Dimension -1 must be >= 0 in shape {list(sizes)}')
    return sizes


RANDOM_NORMAL = define_op(
    'RandomStandardNormal',
    lambda s, dtype, seed: context.random_generator().standard_normal(_sizes(s)).astype(
        dtype.np_dtype), _shape_infer, None, stateful=True)
RANDOM_UNIFORM = define_op(
    'RandomUniform',
    lambda s, dtype, seed: context.random_generator().random(_sizes(s)).astype(dtype.np_dtype),
    _shape_infer, None, stateful=True)


def _uniform_int_kernel(s, minval, maxval, seed):
    if not minval < maxval:
        raise validation.invalid_argument(f'Need minval < maxval: {minval} >= {maxval} '
                                          f'[Op:RandomUniformInt]')
    return context.random_generator().integers(minval, maxval, size=_sizes(s),
                                               dtype=np.asarray(minval).dtype)


RANDOM_UNIFORM_INT = define_op(
    'RandomUniformInt', _uniform_int_kernel,
    lambda s, lo, hi, seed: _shape_infer(s, lo.dtype), None, stateful=True)


def _float_dtype(dtype, op):
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise TypeError(f'{op}: dtype must be a floating point type, got {dtype.name}')
    return dtype


def _seed(seed):
    context.check_random_seed(seed)  # tf.config.experimental.enable_op_determinism's rule
    return None if seed is None else int(seed)


def normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    """Samples from N(mean, stddev**2)."""
    dtype = _float_dtype(dtype, 'random.normal')
    z = apply_op(RANDOM_NORMAL, (_shape_arg(shape, 'random.normal'),),
                 {'dtype': dtype, 'seed': _seed(seed)}, name)
    stddev = to_tensor(stddev, dtype=dtype, name='stddev', op='random.normal')
    mean = to_tensor(mean, dtype=dtype, name='mean', op='random.normal')
    return z * stddev + mean


def uniform(shape, minval=0, maxval=None, dtype=dtypes.float32, seed=None, name=None):
    """Samples from [minval, maxval): floats, or integers when dtype is int32/int64."""
    dtype = dtypes.as_dtype(dtype)
    s = _shape_arg(shape, 'random.uniform')
    if dtype.is_integer:
        if maxval is None:
            raise ValueError(f'Must specify maxval for integer dtype {dtype.name}')
        if dtype not in (dtypes.int32, dtypes.int64):
            raise TypeError(f'random.uniform: integer dtype must be int32 or int64, got '
                            f'{dtype.name}')
        lo = to_tensor(minval, dtype=dtype, name='minval', op='random.uniform')
        hi = to_tensor(maxval, dtype=dtype, name='maxval', op='random.uniform')
        return apply_op(RANDOM_UNIFORM_INT, (s, lo, hi), {'seed': _seed(seed)}, name)
    dtype = _float_dtype(dtype, 'random.uniform')
    u = apply_op(RANDOM_UNIFORM, (s,), {'dtype': dtype, 'seed': _seed(seed)}, name)
    lo = to_tensor(minval, dtype=dtype, name='minval', op='random.uniform')
    hi = to_tensor(1 if maxval is None else maxval, dtype=dtype, name='maxval',
                   op='random.uniform')
    return u * (hi - lo) + lo


def _shuffle_kernel(x, seed):
    if np.ndim(x) == 0:
        raise validation.invalid_argument('random.shuffle: value must be at least 1-D')
    return x[context.random_generator().permutation(np.shape(x)[0])]


RANDOM_SHUFFLE = define_op('RandomShuffle', _shuffle_kernel,
                           lambda x, seed: (x.dtype, dims(x)), None, stateful=True)


def shuffle(value, seed=None, name=None):
    """`value` with its first dimension randomly permuted."""
    x = to_tensor(value, op='random.shuffle')
    if x.shape.rank == 0:
        raise validation.invalid_argument(f'random.shuffle: value must be at least 1-D, got '
                                          f'{errors.describe(x)}')
    return apply_op(RANDOM_SHUFFLE, (x,), {'seed': _seed(seed)}, name)

