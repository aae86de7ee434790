"""matmul with an `output_type` other than its operands' dtype: TF's BatchMatMulV3, whose CPU
kernels multiply int8 and uint8 matrices (in any pairing) into int32 products, exactly (each
operand widened to int32 first, as the accumulation is). Other pairings of operand and output
types have no CPU kernel in TF, and are refused with its NotFoundError.

The products are integers, so the op is not differentiable.
"""
from defun.core import context, dtypes, errors
from defun.core.dispatch import apply_op
from defun.core.registry import define_op, get_op
from defun.ops.math.arithmetic import conj
from defun.ops.support.helpers import to_tensor

__all__ = ['matmul_with_output_type']

# (Ta, Tb, Tout) TF's CPU kernels run where an output type differs from an operand's.
_KERNELS = {(a, b, 'int32') for a in ('int8', 'uint8') for b in ('int8', 'uint8')}
_TF_NAMES = {'float16': 'half', 'float32': 'float', 'float64': 'double'}


# MatMul's kernel and shape inference, found in the registry: its module (products.py) calls
# this one, so cannot be imported here.
def _kernel(x, y, adj_x, adj_y, Tout):
    wide = Tout.np_dtype
    return get_op('MatMul').kernel(x.astype(wide), y.astype(wide), adj_x, adj_y)


def _infer(x, y, adj_x, adj_y, Tout):
    return Tout, get_op('MatMul').infer(x, y, transpose_a=adj_x, transpose_b=adj_y)[1]


BATCH_MATMUL_V3 = define_op('BatchMatMulV3', _kernel, _infer, None)


def _no_kernel(a, b, out):
    names = [f'{attr}=DT_{_TF_NAMES.get(t.name, t.name).upper()}'
             for attr, t in (('Ta', a), ('Tb', b), ('Tout', out))]
    node = ', '.join(names)
    if context.executing_eagerly():
        return errors.NotFoundError(
            f'Could not find device for node: {{{{node BatchMatMulV3}}}} = BatchMatMulV3[{node}]'
            f' [Op:BatchMatMulV3]')
    return errors.InvalidArgumentError(
        f"No OpKernel was registered to support Op 'BatchMatMulV3' used by {{{{node "
        f"BatchMatMulV3}}}} with these attrs: [{node}]")


def matmul_with_output_type(a, b, adjoint_a, adjoint_b, output_type, name):
    """The product of `a` and `b` (each conjugate-transposed when asked) as `output_type`, or None
    when that is both operands' dtype (then the plain MatMul is TF's op)."""
    out = dtypes.as_dtype(output_type)
    a = to_tensor(a, name='a', op='matmul')
    b = to_tensor(b, name='b', op='matmul', hint=a.dtype)
    if out is a.dtype and out is b.dtype:
        return None
    if (a.dtype.name, b.dtype.name, out.name) not in _KERNELS:
        raise _no_kernel(a.dtype, b.dtype, out)
    a, b = (conj(a) if adjoint_a else a), (conj(b) if adjoint_b else b)
    attrs = {'adj_x': bool(adjoint_a), 'adj_y': bool(adjoint_b), 'Tout': out}
    return apply_op(BATCH_MATMUL_V3, (a, b), attrs, name)
