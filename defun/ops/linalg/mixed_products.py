"""BatchMatMulV3: a batched matrix product whose operands and result may differ in dtype, what
`tf.linalg.matmul(a, b, output_type=...)` builds when the output type is not both operands'
(quantized layers multiply int8 by int8 into int32). As in TF it takes adjoints, not transposes,
and TF's CPU kernels run only some (Ta, Tb, Tout) triples: the others are TF's NotFoundError
("Could not find device") eagerly, InvalidArgumentError ("No OpKernel") from a function.
"""
import numpy as np

from defun.core import context, dtypes, errors
from defun.core.dispatch import apply_op
from defun.core.registry import define_op
from defun.ops.framework.base_ops import sum_to
from defun.ops.support import helpers as op_helpers, validation
from defun.ops.support.helpers import dims

__all__ = ['batch_matmul_v3']

_SAME = ('float32', 'float64', 'int16', 'int32', 'int64', 'bfloat16', 'complex64', 'complex128')
_BYTES = ('int8', 'uint8')
# TF 2.21's CPU kernels of BatchMatMulV3, as (Ta, Tb, Tout) names.
CPU_TRIPLES = frozenset([(t, t, t) for t in _SAME] + [(a, b, 'int32') for a in _BYTES for b in _BYTES]
                        + [(a, 'bfloat16', 'bfloat16') for a in _BYTES]
                        + [('bfloat16', b, 'bfloat16') for b in _BYTES])
_C_NAMES = {'float32': 'FLOAT', 'float64': 'DOUBLE', 'float16': 'HALF'}


def _operand(x, adjoint, out):
    x = x.astype(out, copy=False)
    return np.conj(np.swapaxes(x, -1, -2)) if adjoint else x


def _kernel(a, b, adj_x, adj_y, Tout):  # noqa: N803 - TF's attribute name
    if np.ndim(a) < 2 or np.ndim(b) < 2:
        raise validation.invalid_argument(
            f'BatchMatMulV3: inputs must be at least rank 2, got shapes {list(np.shape(a))} and '
            f'{list(np.shape(b))}')
    out = Tout.np_dtype
    return np.matmul(_operand(a, adj_x, out), _operand(b, adj_y, out))


def _infer(a, b, adj_x, adj_y, Tout):  # noqa: N803
    sa, sb = dims(a), dims(b)
    if sa is None or sb is None:
        return Tout, None
    if len(sa) < 2 or len(sb) < 2:
        raise validation.invalid_argument(
            f'BatchMatMulV3: inputs must be at least rank 2, got shapes {list(sa)} and {list(sb)}')
    m, ka = (sa[-1], sa[-2]) if adj_x else (sa[-2], sa[-1])
    kb, n = (sb[-1], sb[-2]) if adj_y else (sb[-2], sb[-1])
    if ka is not None and kb is not None and ka != kb:
        raise validation.invalid_argument(
            f'BatchMatMulV3: Matrix size-incompatible: In[0]: {list(sa)}, In[1]: {list(sb)}')
    return Tout, tuple(op_helpers.broadcast_dims(sa[:-2], sb[:-2], 'matmul')) + (m, n)


def _grad(op, g):
    """d(X Y) with X = adj_x(a), Y = adj_y(b): dX = g Y^H, dY = X^H g, each in its input's dtype
    (an integer operand gets none)."""
    a, b = op.inputs
    ax, ay = op.get_attr('adj_x'), op.get_attr('adj_y')
    ga = gb = None
    if a.dtype.is_differentiable:
        ga = (batch_matmul_v3(b, g, ay, True, a.dtype) if ax else
              batch_matmul_v3(g, b, False, not ay, a.dtype))
        ga = sum_to(ga, a)
    if b.dtype.is_differentiable:
        gb = (batch_matmul_v3(g, a, True, ax, b.dtype) if ay else
              batch_matmul_v3(a, g, not ax, False, b.dtype))
        gb = sum_to(gb, b)
    return ga, gb


BATCH_MATMUL_V3 = define_op('BatchMatMulV3', _kernel, _infer, _grad)


def _no_kernel(a, b, out):
    node = (f'BatchMatMulV3[Ta=DT_{_c_name(a)}, Tb=DT_{_c_name(b)}, Tout=DT_{_c_name(out)}]')
    if context.executing_eagerly():
        return errors.NotFoundError(f'Could not find device for node: {{{{node BatchMatMulV3}}}} '
                                    f'= {node} [Op:BatchMatMulV3]')
    return errors.InvalidArgumentError(
        f"No OpKernel was registered to support Op 'BatchMatMulV3' used by {{{{node "
        f'BatchMatMulV3}}}} with these attrs: [{node}]')


def _c_name(dtype):
    return _C_NAMES.get(dtype.name, dtype.name.upper())


def batch_matmul_v3(a, b, adj_x, adj_y, output_type, name=None):
    """The product of adj_x(a) and adj_y(b) (batched, broadcast), computed in `output_type`."""
    output_type = dtypes.as_dtype(output_type)
    if (a.dtype.name, b.dtype.name, output_type.name) not in CPU_TRIPLES:
        raise _no_kernel(a.dtype, b.dtype, output_type)
    attrs = {'adj_x': bool(adj_x), 'adj_y': bool(adj_y), 'Tout': output_type}
    return apply_op(BATCH_MATMUL_V3, (a, b), attrs, name)
