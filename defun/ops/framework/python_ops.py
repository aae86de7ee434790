"""Ops that run user Python: the custom-gradient marker, stop_gradient, py_function, numpy_function.

`CustomGradient` passes its first inputs through unchanged; its other inputs are the arguments (and
variable handles) the user's function read, and its gradient calls the user's gradient function, so
tapes, `gradients()` and compiled backward graphs all use it the same way.
"""
import functools

import numpy as np

from defun.core import context, dtypes, errors, nest
from defun.core.dispatch import apply_op
from defun.ops.support.helpers import dims, same_as_first, to_tensor
from defun.core.registry import define_op
from defun.core.tensor import EagerTensor, Tensor
from defun.core.value_conversion import to_array

__all__ = ['stop_gradient', 'py_function', 'numpy_function', 'TapeSlot', 'PY_FUNCTION']


STOP_GRADIENT = define_op('StopGradient', lambda x: x, same_as_first, None)


def stop_gradient(input, name=None):
    """Passes `input` through; no gradient flows back through it."""
    return apply_op(STOP_GRADIENT, (to_tensor(input, op='stop_gradient'),), None, name)


def _custom_kernel(*arrays, n_out, grad_fn, n_args):
    return tuple(arrays[:n_out])


def _custom_infer(*inputs, n_out, grad_fn, n_args):
    return [(t.dtype, dims(t)) for t in inputs[:n_out]]


def _custom_grad(op, *grads):
    n_out = op.get_attr('n_out')
    arg_grads, var_grads = op.get_attr('grad_fn')(*grads)
    return [None] * n_out + list(arg_grads) + list(var_grads)


CUSTOM_GRADIENT = define_op('CustomGradient', _custom_kernel, _custom_infer, _custom_grad,
                            num_outputs=None,
                            doc='Identity on the first n_out inputs; gradient from user code.')


def custom_gradient_op(outputs, args, handles, grad_fn):
    """The marker op: returns new tensors equal to `outputs` whose gradient is grad_fn(*dys) ->
    (grads for args, grads for the variables of `handles`)."""
    attrs = {'n_out': len(outputs), 'grad_fn': grad_fn, 'n_args': len(args)}
    return apply_op(CUSTOM_GRADIENT, tuple(outputs) + tuple(args) + tuple(handles), attrs)


def _tout_list(Tout):
    if isinstance(Tout, (list, tuple)):
        return [dtypes.as_dtype(t) for t in Tout], True
    return [dtypes.as_dtype(Tout)], False


def _result_values(result, tout, func):
    """The values of `func`'s `result` that the op outputs, as TF takes them: None is no value, a
    list or tuple gives its first len(Tout) items (extra ones are dropped), anything else is one
    value; fewer values than `Tout` declares is an error."""
    if result is None:
        flat = []
    elif isinstance(result, (list, tuple)):
        flat = list(result)[:len(tout)]
    else:
        flat = [result]
    if len(flat) != len(tout):
        raise errors.InvalidArgumentError(
            f'{getattr(func, "__name__", "func")} returns {len(flat)} values, but expects to see '
            f'{len(tout)} values.')
    return flat


class TapeSlot:
    """One py_function op's link to its gradient. Once a gradient of the op is built, `recorder`
    is set (autodiff's, as TF marks the function as needing graph-mode gradients): each run then
    records the function's eager ops on a tape and keeps it in `last`, which the gradient op
    consumes. Only the latest run is kept, as TF's tape cache keeps one per op."""

    __slots__ = ('recorder', 'last')

    def __init__(self):
        self.recorder = None
        self.last = None


def _py_kernel(*arrays, func, tout, as_tensors, tape=None):
    args = [EagerTensor(a) for a in arrays] if as_tensors else [np.asarray(a) for a in arrays]
    if tape is not None and tape.recorder is not None:
        result = tape.recorder(tape, func, args)
    else:
        result = func(*args)
    flat = _result_values(result, tout, func)
    out = []
    for value, dtype in zip(flat, tout):
        array = value.numpy() if hasattr(value, 'numpy') else value
        # A string result holds bytes, as every string tensor (numpy's str arrays included).
        out.append(to_array(array, dtype) if dtype is dtypes.string
                   else np.asarray(array, dtype=dtype.np_dtype))
    return tuple(out)


def _py_infer(*inputs, func, tout, as_tensors, tape=None):
    return [(d, None) for d in tout]


# Its gradient (the tape its run recorded, run backwards) is autodiff's: py_function_gradient.
PY_FUNCTION = define_op('EagerPyFunc', _py_kernel, _py_infer, num_outputs=None, stateful=True)
NUMPY_FUNCTION = define_op('PyFunc', _py_kernel, _py_infer, None, num_outputs=None, stateful=True)


def _arguments(inp):
    """`inp` as TF reads it: a tensor is iterated (its rows are the arguments), which a graph
    being built or a scalar does not allow."""
    if isinstance(inp, Tensor):
        if context.current_graph() is not None:
            raise errors.OperatorNotAllowedInGraphError(
                'Iterating over a symbolic `tf.Tensor` is not allowed: `inp` must be a list of '
                'arguments, not a tensor')
        if inp.shape.rank == 0:
            raise TypeError('Cannot iterate over a scalar tensor.')
        return list(inp)
    if isinstance(inp, (list, tuple)):
        return list(inp)  # each item one argument (a nested list is one tensor), as TF
    return nest.flatten(inp)


def _run_python_op(opdef, func, inp, Tout, as_tensors, name):
    tout, is_list = _tout_list(Tout)
    values = _arguments(inp)
    if not as_tensors and context.executing_eagerly():
        # Eagerly TF hands numpy_function its Python values as numpy reads them (1.5 a
        # float64, 2 an int64); in a graph they are constants of TF's dtypes (float32, int32).
        values = [v if isinstance(v, Tensor) else np.asarray(v) for v in values]
    inputs = tuple(to_tensor(x, op=opdef.type) for x in values)
    attrs = {'func': func, 'tout': tout, 'as_tensors': as_tensors}
    if as_tensors:
        attrs['tape'] = TapeSlot()
    outs = apply_op(opdef, inputs, attrs, name)
    return list(outs) if is_list else outs[0]


def _as_decorator(wrap, func, inp, Tout, name):
    """TF's decorator form: `@tf.py_function(Tout=...)` (no func) wraps the decorated function,
    whose call arguments become `inp`."""
    kind = wrap.__name__
    if func is not None:
        if inp is None:
            raise TypeError(f'Missing argument `inp`:\n  You must set the `inp` argument (the list '
                            f'of arguments to the\n  function), unless you use `tf.{kind}` as a '
                            f'decorator(`func=None`).')
        return None
    if inp is not None:
        raise TypeError(f"Don't set the `inp` argument when using tf.{kind} as a decorator "
                        f'(`func=None`).')
    if Tout is None:
        raise TypeError('Tout is required: the dtype (or list of dtypes) the function returns')

    def decorator(f):
        @functools.wraps(f)
        def call(*args):
            return wrap(f, list(args), Tout, name=name)
        return call
    return decorator


def py_function(func=None, inp=None, Tout=None, name=None):
    """Runs `func` on eager tensors when the op executes (inside compiled functions: at run time).
    Called eagerly it simply runs `func`, so a tape differentiates through it; in a graph, the
    op's gradient runs backwards the tape its last run recorded (as TF's)."""
    decorator = _as_decorator(py_function, func, inp, Tout, name)
    if decorator is not None:
        return decorator
    if context.executing_eagerly():
        tout, is_list = _tout_list(Tout)
        result = func(*[to_tensor(x, op='py_function') for x in _arguments(inp)])
        flat = _result_values(result, tout, func)
        out = [to_tensor(v, dtype=d, op='py_function') for v, d in zip(flat, tout)]
        return out if is_list else out[0]
    return _run_python_op(PY_FUNCTION, func, inp, Tout, True, name)


def numpy_function(func=None, inp=None, Tout=None, stateful=True, name=None):
    """Runs `func` on numpy arrays when the op executes; not differentiable."""
    decorator = _as_decorator(numpy_function, func, inp, Tout, name)
    if decorator is not None:
        return decorator
    return _run_python_op(NUMPY_FUNCTION, func, inp, Tout, False, name)
