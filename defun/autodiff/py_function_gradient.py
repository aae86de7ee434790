"""The gradient of a `py_function` op in a graph, as TF's EagerPyFunc gradient.

The Python function is opaque to the graph, so its gradient comes from its own eager run: once the
op's gradient is built, each run of the op records the function's eager ops on a private tape
(`record`, set as the op's TapeSlot recorder), and the gradient op (`EagerPyFuncGrad`, one
stateful py op after it) runs that tape backwards from the output gradients. A gradient the tape
cannot give (an argument the function did not use, a result made outside TF) is a scalar zero,
as TF converts None there.
"""
import numpy as np

from defun.autodiff import backprop
from defun.autodiff.tape import TapeRecords
from defun.core import context, errors
from defun.core.dispatch import apply_op
from defun.core.registry import RegisterGradient, define_op
from defun.core.tensor import EagerTensor, Tensor, convert_to_tensor

__all__ = ['record']


def record(slot, func, args):
    """Runs func(*args) recording its eager ops on a tape that watches the float arguments; keeps
    (tape, arguments, results) in the slot for the gradient op."""
    records = TapeRecords(watch_accessed=False)
    for a in args:
        if a.dtype.is_differentiable:
            records.watch(a)
    with context.tape_stack([records]):
        result = func(*args)
    slot.last = (records, args, result)
    return result


def _grad_kernel(*dys, tape, tout):
    if tape.last is None:
        # TF keeps one tape per op too, and fails the same way (its KeyError, an UnknownError).
        raise errors.UnknownError(None, None, 'KeyError: no recorded run of this py_function is '
                                  'left for its gradient (one tape is kept per op: its latest '
                                  'run, for one gradient)')
    records, args, result = tape.last
    tape.last = None
    flat = list(result) if isinstance(result, (list, tuple)) else [result]
    targets = [t if isinstance(t, Tensor) else convert_to_tensor(t) for t in flat[:len(dys)]]
    with context.tape_stack([]):
        grads = backprop.gradient(records, targets, list(args),
                                  [EagerTensor(d) for d in dys])
    return tuple(_as_array(g, dtype) for g, dtype in zip(grads, tout))


def _as_array(grad, dtype):
    if grad is not None:
        return np.asarray(grad.numpy(), dtype=dtype.np_dtype)
    if not (dtype.is_floating or dtype.is_complex):
        # TF converts the missing gradient 0.0 to the argument's dtype, which fails for integers.
        raise errors.InvalidArgumentError(f'TypeError: Cannot convert 0.0 to EagerTensor of '
                                          f'dtype {dtype.name}')
    return np.zeros((), dtype=dtype.np_dtype)


def _grad_infer(*dys, tape, tout):
    return [(d, None) for d in tout]


GRADIENT = define_op('EagerPyFuncGrad', _grad_kernel, _grad_infer, None, num_outputs=None,
                     stateful=True, doc="A py_function's gradient: its recorded tape run backwards.")


@RegisterGradient('EagerPyFunc')
def _py_function_grad(op, *dys):
    slot = op.get_attr('tape')
    if any(dy is None for dy in dys):
        # TF passes every output gradient to its gradient op; an integer result has none.
        kinds = ', '.join('<NOT CONVERTIBLE TO TENSOR>' if d is None else d.dtype.name
                          for d in dys)
        raise TypeError(f"Tensors in list passed to 'input' of 'EagerPyFunc' Op have types "
                        f'[{kinds}] that are invalid.')
    slot.recorder = record
    return list(apply_op(GRADIENT, tuple(dys), {'tape': slot,
                                                'tout': [t.dtype for t in op.inputs]}))
