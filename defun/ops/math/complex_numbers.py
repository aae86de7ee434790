"""Complex numbers: complex(real, imag), real and imag, each a `define_op` entry and its public
function. Their gradients are TF's (the gradient of a complex op is complex), written with these
same ops so they differentiate again.
"""
import numpy as np

from defun.core import dtypes
from defun.core.dispatch import apply_op
from defun.ops.support import helpers as op_helpers
from defun.ops.framework.base_ops import sum_to, zeros_like
from defun.ops.support.helpers import dims, to_tensor
from defun.core.registry import define_op
from defun.ops.support import validation
from defun.ops.support.docs import documented

__all__ = ['complex', 'real', 'imag']

_COMPLEX_OF = {dtypes.float32: dtypes.complex64, dtypes.float64: dtypes.complex128}


def _complex_kernel(re, im):
    result = np.empty(np.broadcast_shapes(np.shape(re), np.shape(im)),
                      dtype=np.result_type(re.dtype, np.complex64))
    result.real = re
    result.imag = im
    return result


def _complex_infer(re, im):
    return _COMPLEX_OF[re.dtype], op_helpers.broadcast_dims(dims(re), dims(im), 'complex')


def _complex_grad(op, g):
    re, im = op.inputs
    return sum_to(real(g), re), sum_to(imag(g), im)


COMPLEX = define_op('Complex', _complex_kernel, _complex_infer, _complex_grad)
REAL = define_op('Real', np.real, lambda x: (x.dtype.real_dtype, dims(x)),
                 lambda op, g: complex(g, zeros_like(g)))
IMAG = define_op('Imag', np.imag, lambda x: (x.dtype.real_dtype, dims(x)),
                 lambda op, g: complex(zeros_like(g), g))


def complex(real, imag, name=None):
    """real + imag * 1j: float32 parts give complex64, float64 parts complex128."""
    re = to_tensor(real, name='real', op='complex')
    im = to_tensor(imag, name='imag', op='complex')
    if re.dtype not in _COMPLEX_OF or im.dtype is not re.dtype:
        # TF's wrapper checks the pair itself, a TypeError before the op's signature is read
        raise TypeError(f'The `real` and `imag` components have incorrect types: {re.dtype.name} '
                        f'{im.dtype.name}. They must be consistent, and one of [tf.float32, '
                        f'tf.float64]')
    return apply_op(COMPLEX, (re, im), None, name)


def real(input, name=None):
    """The real part of `input` (a real tensor is returned as it is; bool and string are
    refused with TF's TypeError)."""
    validation.op_name(name)
    x = to_tensor(input, name='input', op='real')
    if x.dtype.is_bool or x.dtype.name == 'string':
        raise TypeError(f"input must be a numeric tensor, but got tensor with dtype "
                        f"<dtype: '{x.dtype.name}'>")
    return apply_op(REAL, (x,), None, name) if x.dtype.is_complex else x


@documented('complex_part',
            'Returns the imaginary part of a complex tensor (zeros for a real one).')
def imag(input, name=None):
    validation.op_name(name)
    x = to_tensor(input, name='input', op='imag')
    if x.dtype.is_complex:
        return apply_op(IMAG, (x,), None, name)
    return zeros_like(x)
