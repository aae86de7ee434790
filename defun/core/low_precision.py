"""Kernels on low-precision tensors (bfloat16, float8, int4): run widened, rounded back once.

numpy's kernels meet ml_dtypes arrays unevenly: ufuncs take them (computing in float32 and
rounding each result, as TF's CPU kernels compute bfloat16), but `matmul` answers in float32,
`einsum` refuses them, linalg answers in float64, and reductions accumulate in bfloat16 where TF
accumulates in float32. So every kernel call with a low-precision input or output is made here,
and no kernel knows about these types: the low-precision inputs are widened (bfloat16 and float8
to float32, int4 to int8: exact), the kernel runs, and each output is rounded to the dtype TF
gives it (the op's own inference), round-to-nearest-even as ml_dtypes and TF cast. Values that
are only moved (reshape, gather, concat) come back unchanged; an elementwise op or a reduction
rounds once, as TF's kernels do. An op TF computes step by step in the low precision (a running
sum: cumsum, prod, add_n) says so (OpDef.low_precision_steps): its kernel gets the arrays as they
are (numpy's ufuncs on ml_dtypes arrays round every step), its outputs still rounded to type.

The eager dispatch point sends a call here when the op's signature check says an input is of
such a type (`op_schema`: they are left out of its fast sets); the compiler writes a node with
such an input or output as a call of `widened_kernel(op, ...)`, and folds constants with it.
"""
from __future__ import annotations

import numpy as np

from defun.core import dtypes

__all__ = ['any_low_precision', 'run', 'eager_output_dtypes', 'widened_kernel', 'LOW_TYPES']

LOW_TYPES = frozenset(dtypes.LOW_PRECISION_TYPES)
_WIDER = dtypes.LOW_PRECISION   # numpy dtype -> the numpy dtype its kernels compute in


def any_low_precision(inputs) -> bool:
    """Whether an eager input holds a low-precision array."""
    return any(getattr(t, 'array', None) is not None and t.array.dtype in _WIDER for t in inputs)


def _widen(array):
    wider = _WIDER.get(getattr(array, 'dtype', None))
    return array if wider is None else array.astype(wider)


def _narrow(value, dtype):
    """`value` in the low-precision `dtype` its op gives it (anything else is left as it is)."""
    if dtype is None or dtype not in LOW_TYPES:
        return value
    target = dtype.np_dtype
    if isinstance(value, (np.ndarray, np.generic)) and value.dtype != target:
        return np.asarray(value).astype(target)
    return value


def run(kernel, arrays, attrs, out_dtypes, single, steps=False):
    """`kernel` on `arrays` widened (as they are with `steps`: the op's low_precision_steps);
    its outputs rounded to `out_dtypes` (a list of DTypes, one per output, or None where unknown:
    a widened output then goes back to its input's type)."""
    wide = arrays if steps else [_widen(a) for a in arrays]
    out = kernel(*wide, **attrs) if attrs else kernel(*wide)
    if out_dtypes is None:
        back = {np.dtype(w): d for d, w in _WIDER.items() if any(a.dtype == d for a in arrays
                                                                   if hasattr(a, 'dtype'))}
        out_dtypes = [_back_to(o, back) for o in ((out,) if single else out)]
    if single:
        return _narrow(out, out_dtypes[0])
    return type(out)(_narrow(o, d) for o, d in zip(out, out_dtypes)) \
        if isinstance(out, (tuple, list)) else out


def _back_to(value, back):
    npd = back.get(getattr(value, 'dtype', None))
    return None if npd is None else dtypes.from_numpy(npd)


def eager_output_dtypes(opdef, inputs, attrs):
    """The dtypes of an eager call's outputs by the op's inference rule, or None when it cannot
    say (a rule that needs graph tensors): outputs are then rounded back by their own dtype."""
    try:
        inferred = opdef.infer(*inputs, **attrs) if attrs else opdef.infer(*inputs)
    except Exception:  # noqa: BLE001 - the kernel reports bad inputs; here it is only advice
        return None
    if isinstance(inferred, tuple) and len(inferred) == 2 and isinstance(inferred[0],
                                                                         dtypes.DType):
        return [inferred[0]]
    try:
        return [d for d, _ in inferred]
    except (TypeError, ValueError):
        return None


def widened_kernel(op, kernel):
    """The kernel a compiled graph calls for node `op` when a tensor it reads or writes is of a
    low-precision type (`kernel` run widened, outputs rounded to the node's dtypes), else None."""
    if not any(t.dtype in LOW_TYPES for t in op.inputs) and \
            not any(t.dtype in LOW_TYPES for t in op.outputs):
        return None
    out_dtypes = [t.dtype for t in op.outputs]
    single = op.opdef.num_outputs == 1
    steps = op.opdef.low_precision_steps

    def low_precision_kernel(*arrays, **attrs):
        return run(kernel, arrays, attrs, out_dtypes, single, steps)
    low_precision_kernel.__name__ = f'{op.type}_widened'
    return low_precision_kernel
