"""Element-type checks of the compositions that have no op of their own (lstsq, in_top_k): an op's
input types are its TF signature's, checked by the dispatch point (core/op_schema), so only a
function built from other ops whose signatures take more than TF's composite does checks here. As
in TensorFlow, the eager failure is an InvalidArgumentError and the failure while a graph is built
is a TypeError, both naming the function, the input and the allowed types. Also: half precision
computed as TF's kernels compute it.

A constraint is a string of numpy dtype kinds ('f' float, 'c' complex, 'i'/'u' integers, 'b' bool).
"""
import numpy as np

from defun.core import context, error_helpers, errors

__all__ = ['FLOAT', 'INEXACT', 'check_inputs', 'dtype_error', 'half_in_float32']

FLOAT = 'f'
INEXACT = 'fc'      # float or complex

_KIND_NAMES = {'f': 'floating point', 'c': 'complex', 'i': 'signed integer',
               'u': 'unsigned integer', 'b': 'bool', 'O': 'string'}


def _allowed_text(kinds):
    return ' or '.join(_KIND_NAMES[k] for k in kinds)


def dtype_error(op, described, kinds, graph):
    """The error for an input whose element type `op` does not accept."""
    message = (f'{op}: expected a {_allowed_text(kinds)} tensor, got {described}'
               + ('; use tf.cast first' if 'f' in kinds else ''))
    return TypeError(message) if graph else errors.InvalidArgumentError(message)


def check_inputs(op, kinds, *tensors):
    """Every tensor's dtype is of one of `kinds` (TF's error for the mode: eager or graph)."""
    graph = context.current_graph() is not None
    for t in tensors:
        if t.dtype.kind not in kinds:
            raise dtype_error(op, error_helpers.describe(t), kinds, graph=graph)


_HALF = np.dtype(np.float16)


def half_in_float32(kernel):
    """Wraps an elementwise kernel so that float16 input is computed in float32 and rounded once,
    as TF's kernels compute half precision (numpy's float16 arithmetic rounds after every step
    of a composite kernel, which is not TF's value for sigmoid, softmax, elu...)."""
    def kernel16(x, *rest, **attrs):
        if x.dtype is _HALF:
            return kernel(x.astype(np.float32), *rest, **attrs).astype(_HALF)
        return kernel(x, *rest, **attrs)

    kernel16.__name__ = getattr(kernel, '__name__', 'kernel')
    return kernel16
