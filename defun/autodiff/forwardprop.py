"""Forward-mode automatic differentiation: TF's `tf.autodiff.ForwardAccumulator`.

An accumulator records the ops run inside its `with` block on a tape of its own (the same records
GradientTape keeps), and computes Jacobian-vector products on demand from the reverse-mode
gradients every op already has: the JVP is the transpose of the VJP ("double VJP"). With `u` a
dummy cotangent of `y`'s shape, `g(u) = (dy/dx)^T u` is linear in `u`, so the gradient of
`<g(u), tangent>` with respect to `u` is `(dy/dx) tangent`. Because the backward pass is itself
made of differentiable ops, the result can be differentiated again (Hessian-vector products with
a GradientTape) and accumulators nest."""
from __future__ import annotations

import logging

from defun.autodiff import backprop
from defun.autodiff.tape import GradientTape, TapeRecords, watch_tensor
from defun.core import context, nest
from defun.core.tensor import convert_to_tensor
from defun.core.variable_base import is_variable, read_variable
from defun.ops.array import joining as array_ops

_log = logging.getLogger('defun')


class ForwardAccumulator:
    """Computes Jacobian-vector products of the ops run inside its `with` block.

    `primals` (tensors or variables, any nested structure) are watched with `tangents` (the same
    structure, each converted to its primal's dtype); `jvp(y)` is the derivative of `y` in the
    direction of the tangents, None when `y` does not depend on any primal."""

    def __init__(self, primals, tangents):
        nest.assert_same_structure(primals, tangents)
        self._records = TapeRecords(False)
        self._pairs = []
        for primal, tangent in zip(nest.flatten(primals), nest.flatten(tangents)):
            self._watch(primal, tangent)
        self._recording = False

    def _watch(self, primal, tangent):
        source = primal if is_variable(primal) else convert_to_tensor(primal)
        if not source.dtype.is_floating and not source.dtype.is_complex:
            # As TF: a warning, and the primal is not watched (its jvp stays None).
            _log.warning('The dtype of the watched primal must be floating (e.g. tf.float32), '
                         'got %r', source.dtype)
            return
        tangent = convert_to_tensor(tangent, dtype=source.dtype)
        watch_tensor(self._records, source)
        self._pairs.append((source, tangent))

    def __enter__(self):
        if self._recording:
            raise ValueError('Accumulator is already recording.')
        context.push_tape(self._records)
        self._recording = True
        return self

    def __exit__(self, exc_type, exc, tb):
        if self._recording:
            context.pop_tape(self._records)
            self._recording = False
        return False

    def jvp(self, primals, unconnected_gradients='none'):
        """The JVP of each tensor in `primals` (a nested structure): None for a tensor that does
        not depend on the watched primals, or zeros with `unconnected_gradients='zero'`."""
        unconnected = backprop.normalize_unconnected(unconnected_gradients)
        return nest.map_structure(lambda y: self._jvp_one(y, unconnected), primals)

    def _jvp_one(self, y, unconnected):
        target = y if is_variable(y) else convert_to_tensor(y)
        result = None
        if target.dtype.is_floating or target.dtype.is_complex:
            result = self._double_vjp(target)
        if result is None and unconnected == 'zero':
            result = array_ops.zeros_like(read_variable(target) if is_variable(target) else target)
        return result

    def _double_vjp(self, target):
        value = read_variable(target) if is_variable(target) else target
        cotangent = array_ops.zeros_like(value)
        sources = [primal for primal, _ in self._pairs]
        with GradientTape() as transpose:
            transpose.watch(cotangent)
            # The accumulator never records its own backward pass; enclosing tapes (and the
            # transpose tape) do, which is what makes the result differentiable again.
            with context.recording_paused(self._records):
                vjps = backprop.gradient(self._records, target, sources, [cotangent])
        connected = [(g, t) for g, (_, t) in zip(vjps, self._pairs) if g is not None]
        if not connected:
            return None
        result = transpose.gradient([g for g, _ in connected], cotangent,
                                    output_gradients=[t for _, t in connected])
        return array_ops.zeros_like(value) if result is None else result
