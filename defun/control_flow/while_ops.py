"""while_loop and the functional While op it builds in a graph.

Eagerly the loop is a Python loop (tapes record the body's ops as usual). In a graph, cond and body
are traced once into FuncGraphs over placeholders with the loop variables' shape invariants, and one
`While` op (`StatelessWhile` when nothing in it touches state) runs them; the executor emits a real
Python `while` for it. Its inputs are the flattened loop variables, the tensors cond and body
capture, and the maximum iteration count if any; its outputs the final loop variables, the number of
iterations, and the per-iteration stacks of every body tensor a gradient may read (`accumulate`):
two outputs each, the values (zero-padded to the largest shape when shapes vary) and their shapes.
They are declared when the op is built, and the op never changes afterwards; a stack costs work
only where something reads it (see while_runner), i.e. in a gradient's forward pass.

Gradient (TF's while_v2): the body's gradient graph is built once; the tensors of the body it reads
come from the forward loop's stacks, and the gradient is itself a while_loop that runs the
iterations backwards feeding the body gradient row k of each stack. Captured tensors receive the sum
of their per-iteration gradients. That backward loop is an ordinary While, so it can be
differentiated again (its seeds for stacks reach the forward loop as gradients of its stacks).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from defun.core import context, dtypes, error_helpers, nest
from defun.core.composite import CompositeTensor, is_type_spec, spec_of
from defun.core.dispatch import apply_op
from defun.autodiff.gradient_graph import GradientGraph
from defun.graphs.operation import GraphTensor
from defun.control_flow import subgraph as cf
from defun.control_flow import lowering, while_emission
from defun.control_flow import while_runner as run
from defun.ops.framework import base_ops
from defun.ops.array import tensor_array_ops as ta_ops
from defun.core.registry import define_op
from defun.core.shapes import TensorShape
from defun.core.tensor import Tensor, convert_to_tensor
from defun.core.variable_base import is_variable, read_variable

__all__ = ['while_loop']


def _grad(op, *grads, needed=None):
    return _while_gradient(op, grads, needed)


# The gradient skips the loop's work for inputs no source depends on, and for stacks that get no
# gradient (see backprop.backward); the kernel builds only the stacks something reads.
_FACTS = dict(num_outputs=None, emit=while_emission.emit, skips_unneeded_inputs=True,
              accepts_missing_grads=True, kernel_takes_live_outputs=True,
              integer_outputs_seed=True, own_outputs=lambda op: op.attrs['n_vars'] + 1,
              lowering=lowering.lower_while)
WHILE = define_op('While', run.kernel, run.infer, _grad, stateful=True, **_FACTS)
STATELESS_WHILE = define_op('StatelessWhile', run.kernel, run.infer, _grad, **_FACTS)


# ---------------------------------------------------------------- building

def while_loop(cond: Callable[..., Any], body: Callable[..., Any], loop_vars: Any,
               shape_invariants: Any = None, parallel_iterations: int = 10, back_prop: bool = True,
               swap_memory: bool = False, maximum_iterations: Any = None,
               name: str | None = None) -> Any:
    """Repeats `loop_vars = body(*loop_vars)` while `cond(*loop_vars)`; returns the final loop_vars
    in loop_vars' structure."""
    if not callable(cond):
        raise TypeError('cond must be callable.')
    if not callable(body):
        raise TypeError('body must be callable.')
    if parallel_iterations < 1:
        raise TypeError('parallel_iterations must be a positive integer.')
    single = not isinstance(loop_vars, (list, tuple))
    raw = [loop_vars] if single else loop_vars
    if not nest.flatten(raw):
        raise ValueError('No loop variables provided')
    if context.executing_eagerly():
        # As TF: the body sees the values as given (a Python int stays one, numpy arrays combine
        # as numpy does); they become tensors once the loop ends.
        result = nest.map_structure(_loop_value, _eager_loop(cond, body, raw, maximum_iterations,
                                                             single))
    else:
        structure = nest.map_structure(_loop_value, raw)
        result = _graph_loop(cond, body, structure, shape_invariants, maximum_iterations,
                             name or 'while')
    return result[0] if single else result


def _loop_value(value):
    if value is None or cf.is_composite(value):
        return value
    if is_variable(value):
        return read_variable(value)
    return value if isinstance(value, Tensor) else convert_to_tensor(value)


def _body_result(result, structure):
    """The body's result in loop_vars' structure (a lone value for a single loop var is allowed,
    and lists and tuples are interchangeable, as in TF)."""
    if len(structure) == 1 and not (isinstance(result, (list, tuple)) and len(result) == 1):
        result = [result]
    try:
        nest.assert_same_structure(structure, result, check_types=False)
    except (ValueError, TypeError):
        raise ValueError(f'The body of tf.while_loop must return the same structure as loop_vars.'
                         f'\nloop_vars: {_shapes(structure)}\nbody returned: {_shapes(result)}') from None
    return nest.pack_sequence_as(structure, nest.flatten(result))


def _shapes(structure):
    """A loop structure for messages: each tensor as its dtype and shape (never its values)."""
    return nest.map_structure(
        lambda v: error_helpers.describe(v) if isinstance(v, Tensor) else v, structure)


def _eager_loop(cond, body, structure, maximum_iterations, single):
    limit = None if maximum_iterations is None else int(maximum_iterations)
    loop_vars, count = structure, 0
    while limit is None or count < limit:
        if not cond(*loop_vars):
            break
        result = body(*loop_vars)
        if not single and isinstance(result, Tensor):
            # Eagerly TF reads the result of a list of loop vars as a list: a tensor's rows.
            result = list(result)
        loop_vars = _body_result(result, structure)
        count += 1
    return loop_vars


def _graph_loop(cond, body, structure, shape_invariants, maximum_iterations, name):
    flat = cf.flatten(structure)
    paths = cf.leaf_paths(structure)
    invariants = _invariants(structure, shape_invariants, paths)
    template = _composite_template(structure, shape_invariants)
    cond_graph, body_graph = cf.new_subgraph(f'{name}_cond'), cf.new_subgraph(f'{name}_body')
    cond_vars = _loop_placeholders(cond_graph, flat, invariants)
    pred = cf.trace_into(cond_graph, lambda: cond(*cf.pack(template, cond_vars)))
    if isinstance(pred, (list, tuple)) and len(pred) == 1:
        pred = pred[0]
    cf.as_bool_scalar(pred if pred is not None else 0, 'The result of the while_loop cond')
    cond_graph.outputs = [pred]
    body_vars = _loop_placeholders(body_graph, flat, invariants)
    result = cf.trace_into(body_graph, lambda: body(*cf.pack(template, body_vars)))
    result = _body_result(result, structure)
    outputs = cf.flatten(result)
    _check_iteration(flat, outputs, invariants, paths)
    body_graph.outputs = outputs
    captured = cf.order_captures([cond_graph, body_graph], [cond_vars, body_vars])
    cf.notify_variable_reads([cond_graph, body_graph])
    inputs = flat + captured
    if maximum_iterations is not None:
        inputs.append(base_ops.cast(convert_to_tensor(maximum_iterations), dtypes.int32))
    attrs = {'cond': cond_graph, 'body': body_graph, 'n_vars': len(flat),
             'has_max': maximum_iterations is not None,
             'accumulate': _readable_tensors(body_graph, len(flat))}
    opdef = WHILE if cf.is_stateful([cond_graph, body_graph]) else STATELESS_WHILE
    out = apply_op(opdef, inputs, attrs, name)
    return cf.pack(_output_template(template, result), out[:len(flat)])


def _composite_template(structure, shape_invariants):
    """loop_vars with each composite tensor that has a shape invariant replaced by its spec with
    that shape (TF's rule), so the loop's placeholders and results take the relaxed shape."""
    if shape_invariants is None:
        return structure
    leaves = []
    for leaf, shape in _shape_pairs(structure, shape_invariants):
        if shape is not None and isinstance(leaf, CompositeTensor):
            leaves.append(shape if is_type_spec(shape) else spec_of(leaf)._with_shape(
                shape if isinstance(shape, TensorShape) else TensorShape(shape)))
        else:
            leaves.append(leaf)
    return nest.pack_sequence_as(structure, leaves)


def _output_template(structure, result):
    """loop_vars' structure, with the composites the body returned (they know more, e.g. the
    element shape a TensorArray's writes fixed)."""
    leaves = [r if isinstance(r, cf.CompositeValue) else s
              for s, r in zip(nest.flatten(structure), nest.flatten(result))]
    return nest.pack_sequence_as(structure, leaves)


def _loop_placeholders(graph, flat, invariants):
    return [graph.add_placeholder(t.dtype, inv.as_tuple(), 'loop_var')
            for t, inv in zip(flat, invariants)]


def _shape_pairs(structure, shape_invariants):
    """(leaf of loop_vars, its shape invariant) pairs (an invariant may itself be a list)."""
    if shape_invariants is None:
        return [(leaf, None) for leaf in nest.flatten(structure)]
    try:
        return [(leaf, shape) for _, leaf, shape in
                nest.flatten_up_to_with_paths(structure, shape_invariants)]
    except nest.StructureMismatch as exc:
        raise ValueError(f'shape_invariants must have the same structure as loop_vars; got '
                         f'{exc.deep!r} for {exc.shallow!r}') from None


def _invariants(structure, shape_invariants, paths):
    result = []
    for leaf, shape in _shape_pairs(structure, shape_invariants):
        if cf.is_composite(leaf):
            result.extend(cf.component_invariants(leaf, shape))
        elif shape is None:
            result.append(leaf.shape)
        else:
            shape = shape if isinstance(shape, TensorShape) else TensorShape(
                getattr(shape, 'shape', shape))
            path = paths[len(result)]
            if not leaf.shape.is_subtype_of(shape):
                raise ValueError(
                    f'The shape invariant specified for loop_vars{path} is not compatible with the '
                    f'initial shape of the loop variable. It enters the loop with shape '
                    f'{leaf.shape}, but the specified shape invariant is {shape}.')
            result.append(shape)
    return result


def _check_iteration(flat, outputs, invariants, paths):
    for path, before, after, shape in zip(paths, flat, outputs, invariants):
        label = f'loop_vars{path}'
        if after is None:
            raise ValueError(f'The body of tf.while_loop returned None for {label}')
        if after.dtype is not before.dtype:
            raise TypeError(f'Loop var {label} enters the loop with type {before.dtype.name}, but '
                            f'has type {after.dtype.name} after 1 iteration. A loop variable must '
                            f'keep its dtype (use tf.cast in the body).')
        if not after.shape.is_subtype_of(shape):
            raise ValueError(
                f'Loop var {label} enters the loop with shape {shape}, but has shape {after.shape} '
                f'after one iteration. To allow the shape to vary across iterations, use the '
                f'`shape_invariants` argument of tf.while_loop to specify a less-specific shape.')


# ---------------------------------------------------------------- gradient

class _BodyGradient:
    """The gradient of one iteration, built once: from gradients of the body's outputs (and of
    accumulated tensors, for higher order) to gradients of its loop variables and captures."""

    def __init__(self, body, n, diff, accumulated_seeds, captures):
        targets = [body.outputs[i] for i in diff] + list(accumulated_seeds)
        # A seed for a loop variable takes the variable's shape invariant (the body's input).
        shapes = [body.inputs[i].shape for i in diff] + [t.shape for t in accumulated_seeds]
        self.gradient = gradient = GradientGraph(
            body, targets, [body.inputs[i] for i in diff] + [body.inputs[n + j] for j in captures],
            f'{body.name}_grad', seed_shapes=shapes, outer_graph=context.current_graph())
        self.graph = gradient.graph
        self.dy, self.dacc = gradient.seeds[:len(diff)], gradient.seeds[len(diff):]
        with gradient.building():
            dx = [g if g is not None else base_ops.zeros_like(dy)
                  for g, dy in zip(gradient.grads, self.dy)]
        dc = dict(zip(captures, gradient.grads[len(diff):]))
        self.captured = [j for j in range(len(body.inputs) - n) if dc.get(j) is not None]
        self.graph.outputs = dx + [dc[j] for j in self.captured]

    def body_tensors(self, body):
        """(body tensor, placeholder) for each tensor of the forward body the gradient reads."""
        return self.gradient.forward_reads()


def _differentiable_vars(body, n):
    return [i for i in range(n) if body.outputs[i].dtype.is_differentiable]


def _source_kind(body, n, t):
    """How the gradient loop gets body tensor t: the op's input (loop-invariant captures), a
    constant, or row k of a stack the forward loop accumulated."""
    for j, x in enumerate(body.inputs[n:]):
        if x is t:
            return 'captured', j
    value = t.op.graph.fold(t) if not t.op.opdef.is_placeholder else None
    if value is not None and np.size(value) <= 64:
        return 'constant', value
    return 'accumulated', t


def _readable_tensors(body, n):
    """Every tensor of the body a gradient may read per iteration, in creation order: the loop
    variables and each op's outputs (captures are read from the op's inputs instead)."""
    return tuple(body.inputs[:n]) + tuple(
        t for op in body.get_operations() if not op.opdef.is_placeholder for t in op.outputs)


def _stack_outputs(fwd, t):
    """The forward op's outputs stacking body tensor t per iteration (values, shapes)."""
    k = next((i for i, x in enumerate(fwd.attrs['accumulate']) if x is t), None)
    if k is None:
        raise ValueError(f'{t.name} was added to the body of {fwd.name} after the loop was built; '
                         f'its gradient cannot read it')
    index = fwd.attrs['n_vars'] + 1 + 2 * k
    return fwd.outputs[index], fwd.outputs[index + 1]


def _read_row(t, stacks, k):
    """Row k of the stacks of t (values cut to the row's own shape unless t's shape is static)."""
    values, shapes = stacks
    if t.shape.is_fully_defined():
        return ta_ops.read_element(values, k)
    return ta_ops.read_padded(values, shapes, k)


def _while_gradient(op, grads, needed):
    fwd = cf.forward_operation(op)
    body, n = fwd.attrs['body'], fwd.attrs['n_vars']
    grads = cf.known_zeros(grads) + [None] * (len(fwd.outputs) - len(grads))
    accumulated = list(fwd.attrs['accumulate'])
    acc_seeds = [k for k, g in enumerate(grads[n + 1::2]) if g is not None]
    # With no gradient in (only an integer output was a target), the loop still runs backwards on
    # zeros: TF gives its inputs zeros, not None.
    diff = _differentiable_vars(body, n)
    captures = [j for j in range(len(body.inputs) - n) if needed is None or needed[n + j]]
    plan = _BodyGradient(body, n, diff, [accumulated[k] for k in acc_seeds], captures)
    feeds, t_of, outer = _body_feeds(plan, op, body, n)
    cur = cf.graph_tensor_in_current
    dy0 = [cur(grads[i]) if grads[i] is not None else base_ops.zeros_like(cur(fwd.outputs[i]))
           for i in diff]
    dc0 = [_zeros_like_captured(body, n, j, cur(fwd.inputs[n + j])) for j in plan.captured]
    acc_grads = [(accumulated[k], (cur(grads[n + 1 + 2 * k]), cur(fwd.outputs[n + 2 + 2 * k])))
                 for k in acc_seeds]
    n_dy = len(diff)

    def grad_body(k, *state):
        values = {id(ph): dy for ph, dy in zip(plan.dy, state[:n_dy])}
        values.update({id(ph): _read_row(t, g, k) for ph, (t, g) in zip(plan.dacc, acc_grads)})
        for ph, kind, payload in feeds:
            values[id(ph)] = (_read_row(t_of[id(ph)], payload, k) if kind == 'accumulated' else
                              convert_to_tensor(payload) if kind == 'constant' else payload)
        values.update({id(ph): source for ph, source in outer})
        out = cf.import_graph(plan.graph, values, plan.graph.outputs)
        sums = [total + g for total, g in zip(state[n_dy:], out[n_dy:])]
        return (k - 1,) + tuple(out[:n_dy]) + tuple(sums)

    invariants = [TensorShape([])] + [body.inputs[i].shape for i in diff] + [t.shape for t in dc0]
    start = cur(fwd.outputs[n]) - 1
    result = while_loop(lambda k, *state: k >= 0, grad_body, (start,) + tuple(dy0) + tuple(dc0),
                        shape_invariants=invariants, name=f'{fwd.name}_grad')
    grads_in = [None] * len(op.inputs)
    for i, g in zip(diff, result[1:1 + n_dy]):
        grads_in[i] = g
    for j, g in zip(plan.captured, result[1 + n_dy:]):
        grads_in[n + j] = g
    return grads_in


def _body_feeds(plan, op, body, n):
    """How each forward-body tensor the gradient body reads is fed per backward iteration: a
    captured input of the loop, a row of a per-iteration stack, or a constant; plus the gradient
    body's own captures from outside the forward body.

    A captured input is fed as `op` received it: for a tape's record that is the tensor the tape
    tracks (say an eager tensor a traced function captured), so an enclosing tape differentiating
    this gradient sees its use (second order)."""
    fwd = cf.forward_operation(op)
    feeds, t_of = [], {}
    for t, ph in plan.body_tensors(body):
        t_of[id(ph)] = t
        kind, payload = _source_kind(body, n, t)
        if kind == 'captured':
            payload = cf.graph_tensor_in_current(op.inputs[n + payload])
        elif kind == 'accumulated':
            payload = [cf.graph_tensor_in_current(s) for s in _stack_outputs(fwd, t)]
        feeds.append((ph, kind, payload))
    outer = [(ph, source) for source, ph in plan.graph.captures
             if not (isinstance(source, GraphTensor) and source.op.graph is body)]
    return feeds, t_of, outer


def _zeros_like_captured(body, n, j, outer):
    """Zeros to start summing the gradient of capture j (a variable's, for a variable handle)."""
    if outer.dtype is dtypes.resource:
        variable = body.variable_for(body.inputs[n + j])
        return convert_to_tensor(np.zeros(variable.shape.as_tuple(), variable.dtype.np_dtype))
    return base_ops.zeros_like(outer)
