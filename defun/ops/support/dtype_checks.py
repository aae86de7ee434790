"""TensorFlow's op type constraints for the math tables: which element types each op accepts, and the
error when an input has another.

A constraint is a string of numpy dtype kinds ('f' float, 'c' complex, 'i'/'u' integers, 'b' bool), so
that the eager kernels check an ndarray with one string lookup and the inference rules check a DType
the same way. As in TensorFlow, the eager failure is an InvalidArgumentError and the failure while a
graph is built is a TypeError, both naming the op, the input and the allowed types.

TensorFlow computes log(0) = -inf, sqrt(-1) = nan and 1/0 = inf silently; so do our kernels: numpy's
floating point RuntimeWarnings are silenced for code in defun's modules only (a filter set once here
costs nothing per call, unlike np.errstate).
"""
import numpy as np

from defun.core import error_helpers, errors
from defun.core.registry import Kernels

__all__ = ['FLOAT', 'INEXACT', 'REAL', 'NUMERIC', 'BOOL', 'checked_kernel', 'check_inputs',
           'dtype_error', 'half_in_float32', 'kernel_registered_for', 'UNARY', 'UNARY_REAL',
           'UNARY_COMPLEX', 'BINARY_MORE', 'unary_signature']

# TF's type lists of its elementwise ops (math_ops.cc's UNARY() / UNARY_REAL() / UNARY_COMPLEX() /
# BINARY_MORE() macros), in TF's order, for an op's define_op signature (see core/op_schema).
UNARY_REAL = '{bfloat16, half, float, double}'
UNARY_COMPLEX = '{bfloat16, half, float, double, complex64, complex128}'
UNARY = '{bfloat16, half, float, double, int8, int16, int32, int64, complex64, complex128}'
BINARY_MORE = ('{bfloat16, half, float, double, uint8, int8, uint16, int16, int32, uint32, uint64, '
               'int64, complex64, complex128}')


def unary_signature(types, name='x'):
    """The define_op signature fields of an op of one input `name: T` with T in `types`."""
    return {'inputs': (f'{name}: T',), 'attrs': (f'T: {types}',)}

FLOAT = 'f'
INEXACT = 'fc'      # float or complex
REAL = 'fiu'        # ordered numbers (comparisons, maximum, floordiv)
NUMERIC = 'fciu'
BOOL = 'b'

_KIND_NAMES = {'f': 'floating point', 'c': 'complex', 'i': 'signed integer',
               'u': 'unsigned integer', 'b': 'bool', 'O': 'string'}


def _allowed_text(kinds):
    return ' or '.join(_KIND_NAMES[k] for k in kinds)


def dtype_error(op, described, kinds, graph):
    """The error for an input whose element type `op` does not accept."""
    message = (f'{op}: expected a {_allowed_text(kinds)} tensor, got {described}'
               + ('; use tf.cast first' if 'f' in kinds else ''))
    return TypeError(message) if graph else errors.InvalidArgumentError(message)


def _array_text(array):
    shape = getattr(array, 'shape', ())
    return f'{array.dtype.name}[{",".join(str(d) for d in shape)}]'


def checked_kernel(kernel, kinds, op):
    """The kernel for define_op: eager calls reject arrays of other kinds, with TF's eager error;
    compiled graphs call `kernel` itself."""
    def checked(x, *rest, **attrs):
        if x.dtype.kind not in kinds:
            raise dtype_error(op, _array_text(x), kinds, graph=False)
        return kernel(x, *rest, **attrs)

    checked.__name__ = getattr(kernel, '__name__', op)
    # Graphs check dtypes once, in inference; the executor runs the unchecked kernel.
    return Kernels(checked, kernel)


def kernel_registered_for(kernel, kinds, kernel_kinds, op, op_type):
    """The kernel of an op whose signature takes more element types than TF has CPU kernels for
    (Reciprocal takes ints, but only float and complex run): graphs are built, and running one on
    another of `kinds` fails as TF's does, NotFoundError eagerly and InvalidArgumentError in a
    compiled function, both naming the op and its type attribute."""
    def attr_text(x):
        return f'{op_type}[T=DT_{error_helpers.kernel_type_name(x.dtype).upper()}]'

    def eager(x, *rest, **attrs):
        if x.dtype.kind not in kinds:
            raise dtype_error(op, _array_text(x), kinds, graph=False)
        if x.dtype.kind not in kernel_kinds:
            raise errors.NotFoundError(f'Could not find device for node: {{{{node {op_type}}}}} = '
                                       f'{attr_text(x)}: no CPU kernel for {x.dtype.name}')
        return kernel(x, *rest, **attrs)

    def compiled(x, *rest, **attrs):
        if x.dtype.kind not in kernel_kinds:
            raise errors.InvalidArgumentError(
                f"No OpKernel was registered to support Op '{op_type}' used by {{{{node "
                f"{op_type}}}}} with these attrs: [T=DT_{error_helpers.kernel_type_name(x.dtype).upper()}]")
        return kernel(x, *rest, **attrs)

    eager.__name__ = compiled.__name__ = getattr(kernel, '__name__', op_type)
    return Kernels(eager, compiled)


def check_inputs(op, kinds, *tensors):
    """Inference-time check (graph building): every tensor's dtype is of one of `kinds`."""
    for t in tensors:
        if t.dtype.np_dtype.kind not in kinds:
            raise dtype_error(op, error_helpers.describe(t), kinds, graph=True)


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
