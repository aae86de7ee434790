"""Helpers the tests share: finite-difference gradient checks (first and second order) against the
tape, in float64.

`gradient_error(f, args)` compares the tape gradient of a random projection of f's output with
central differences, so one check covers the whole jacobian at the cost of one backward pass.
"""
import numpy as np

from defun.core import nest
from defun.ops.math.exports import reduce_sum
from defun.autodiff.tape import GradientTape
from defun.autodiff.backprop import dense
from defun.core.tensor import EagerTensor

__all__ = ['numeric_gradient', 'tape_gradient', 'gradient_error', 'second_order_error']


def _projection(f, args, weights):
    outs = [o for o in nest.flatten(f(*args)) if o is not None and o.dtype.is_floating]
    total = None
    for o, w in zip(outs, weights):
        term = (o * EagerTensor(np.asarray(w, dtype=o.dtype.np_dtype)))
        term = reduce_sum(term)
        total = term if total is None else total + term
    return total


def _weights_for(f, arrays, rng):
    outs = nest.flatten(f(*[EagerTensor(a) for a in arrays]))
    return [rng.uniform(0.5, 1.5, size=np.shape(o.array)) for o in outs
            if o is not None and o.dtype.is_floating]


def numeric_gradient(scalar_fn, arrays, wrt, delta=1e-6):
    """Central differences of scalar_fn(*arrays) (a Python float) w.r.t. arrays[wrt]."""
    base = arrays[wrt]
    grad = np.zeros_like(base, dtype=np.float64)
    for idx in np.ndindex(*np.shape(base)):
        plus = [a.copy() for a in arrays]
        minus = [a.copy() for a in arrays]
        plus[wrt][idx] += delta
        minus[wrt][idx] -= delta
        grad[idx] = (scalar_fn(*plus) - scalar_fn(*minus)) / (2 * delta)
    return grad


def tape_gradient(scalar_fn_tensors, arrays, wrt):
    """Tape gradients of scalar_fn_tensors(*tensors) w.r.t. the tensors at positions `wrt`."""
    tensors = [EagerTensor(a) for a in arrays]
    with GradientTape() as tape:
        for i in wrt:
            tape.watch(tensors[i])
        y = scalar_fn_tensors(*tensors)
    # Sparse gradients (a gather's IndexedSlices) are checked as the dense tensors they stand for.
    return [dense(g) for g in tape.gradient(y, [tensors[i] for i in wrt])]


def gradient_error(f, arrays, wrt=None, delta=1e-6, seed=0):
    """Max abs difference between tape and finite-difference gradients of a projection of f."""
    rng = np.random.default_rng(seed)
    arrays = [np.asarray(a) for a in arrays]
    wrt = [i for i, a in enumerate(arrays) if a.dtype.kind == 'f'] if wrt is None else wrt
    weights = _weights_for(f, arrays, rng)

    def objective(*tensors):
        return _projection(f, tensors, weights)

    analytic = tape_gradient(objective, arrays, wrt)
    worst = 0.0
    for g, i in zip(analytic, wrt):
        numeric = numeric_gradient(
            lambda *xs: float(objective(*[EagerTensor(x) for x in xs]).array), arrays, i, delta)
        g = np.zeros_like(numeric) if g is None else np.asarray(g.array)
        worst = max(worst, float(np.max(np.abs(g - numeric), initial=0.0)))
    return worst


def second_order_error(f, arrays, wrt=None, delta=1e-5, seed=1):
    """Like gradient_error, for the gradient of (a projection of) the first-order gradient."""
    rng = np.random.default_rng(seed)
    arrays = [np.asarray(a) for a in arrays]
    wrt = [i for i, a in enumerate(arrays) if a.dtype.kind == 'f'] if wrt is None else wrt
    weights = _weights_for(f, arrays, rng)
    outer_weights = [rng.uniform(0.5, 1.5, size=np.shape(arrays[i])) for i in wrt]

    def first_order(*tensors):
        with GradientTape() as inner:
            for i in wrt:
                inner.watch(tensors[i])
            y = _projection(f, tensors, weights)
        grads = inner.gradient(y, [tensors[i] for i in wrt])
        total = None
        for g, w in zip(grads, outer_weights):
            if g is None:
                continue
            term = reduce_sum(g * EagerTensor(w.astype(g.dtype.np_dtype)))
            total = term if total is None else total + term
        return total

    probe = first_order(*[EagerTensor(a) for a in arrays])
    if probe is None:
        return 0.0
    return gradient_error(lambda *ts: first_order(*ts), arrays, wrt, delta, seed)
