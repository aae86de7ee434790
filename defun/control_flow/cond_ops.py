"""The functional ops If and Case that cond, case and switch_case (cond.py) build in a graph:
their kernels, inference, emitters and gradient.

Each branch is a FuncGraph (capturing what it reads from outside) and one op selects at run time:
`If` (bool predicate; attrs then_branch and else_branch) or `Case` (int32 index, out of range
meaning the last branch; attr branches). Ops whose branches touch state are `If`/`Case`, the others
`StatelessIf`/`StatelessCase`, as in TF.

Gradient (TF's cond_v2): a Case/If over the gradients of the branches. Each branch's gradient graph
reads tensors of its forward branch, so the backward never recomputes a branch: the op declares,
when it is built, one extra output per tensor of each branch (`intermediates`: that branch's value,
zeros from the others), and never changes afterwards. An intermediate costs work only where
something reads it (the emitter asks the executor, the kernel is told `live_outputs`).
"""
from __future__ import annotations


import numpy as np

from defun.core import context, dtypes
from defun.core.dispatch import apply_op
from defun.compiler.executor import indent
from defun.autodiff.gradient_graph import GradientGraph
from defun.control_flow import lowering, subgraph as cf
from defun.ops.framework import base_ops
from defun.core.registry import define_op
from defun.core.shapes import TensorShape

__all__ = ['create', 'intermediates']


def _branches(attrs):
    if 'branches' in attrs:
        return list(attrs['branches'])
    return [attrs['then_branch'], attrs['else_branch']]


def _output_spec(graphs, i):
    shape = cf.most_specific_shape([g.outputs[i].shape for g in graphs])
    return graphs[0].outputs[i].dtype, shape.as_tuple()


def intermediates(graphs):
    """(branch index, tensor) for each tensor of a branch its gradient may read, in branch then
    creation order: the ops' outputs that are not already outputs of the branch."""
    found = []
    for b, g in enumerate(graphs):
        outputs = {id(t) for t in g.outputs}
        found += [(b, t) for op in g.get_operations() if not op.opdef.is_placeholder
                  for t in op.outputs if id(t) not in outputs]
    return found


def _zeros_shape(t):
    """The static shape of the zeros other branches give for intermediate t: t's own if fully
    known, else a scalar's (code that never reads a value needs no more)."""
    return t.shape if t.shape.is_fully_defined() else TensorShape([])


def _intermediate_spec(graphs, b, t):
    shapes = [t.shape if i == b else _zeros_shape(t) for i in range(len(graphs))]
    return t.dtype, cf.most_specific_shape(shapes).as_tuple()


def _infer(selector, *inputs, **attrs):
    graphs = _branches(attrs)
    return [_output_spec(graphs, i) for i in range(len(graphs[0].outputs))] + [
        _intermediate_spec(graphs, b, t) for b, t in intermediates(graphs)]


def _if_kernel(pred, *arrays, then_branch, else_branch, live_outputs=frozenset()):
    return _run_branch([then_branch, else_branch], 0 if pred else 1, arrays, live_outputs)


def _case_kernel(index, *arrays, branches, live_outputs=frozenset()):
    index = int(index)
    chosen = index if 0 <= index < len(branches) else len(branches) - 1
    return _run_branch(branches, chosen, arrays, live_outputs)


def _run_branch(graphs, chosen, arrays, live_outputs):
    """The outputs of branch `chosen`, then its live intermediates (zeros for other branches';
    None for the intermediates nothing reads)."""
    graph, n, declared = graphs[chosen], len(graphs[0].outputs), intermediates(graphs)
    extra = [(n + k, b, t) for k, (b, t) in enumerate(declared) if n + k in live_outputs]
    own = [t for _, b, t in extra if b == chosen]
    values = iter(cf.compiled(graph, list(graph.outputs) + own)(*arrays))
    result = [next(values) for _ in range(n)] + [None] * len(declared)
    for i, b, t in extra:
        result[i] = next(values) if b == chosen else _zeros_value(t)
    return tuple(result)


def _zeros_value(t):
    return np.zeros(_zeros_shape(t).as_tuple(), dtype=t.dtype.np_dtype)


def _grad(op, *grads, needed=None):
    return _cond_gradient(op, grads, needed)


def _emitter(test_of):
    """Python if/elif/else with each branch's graph written inline (only the outputs the op has);
    test_of(selector_name, i) is the test choosing branch i (the last branch is the `else`)."""

    def emit(op, in_names, out_names, ctx):
        graphs = _branches(op.attrs)
        n = len(graphs[0].outputs)
        live = [(n + k, b, t) for k, (b, t) in enumerate(intermediates(graphs))
                if ctx.is_used(op.outputs[n + k])]
        names = out_names[:n] + [out_names[i] for i, _, _ in live]
        lines = []
        for i, g in enumerate(graphs):
            if i == len(graphs) - 1:
                lines.append('else:' if i else 'if True:')
            else:
                lines.append(f'{"if" if i == 0 else "elif"} {test_of(in_names[0], i)}:')
            own = [t for _, b, t in live if b == i]
            branch, outs = ctx.inline(g, list(g.inputs), list(g.outputs) + own, in_names[1:])
            own_names = iter(outs[n:])
            outs = outs[:n] + [next(own_names) if b == i else
                               ctx.bind(_zeros_value(t), 'zeros') for _, b, t in live]
            if names:
                branch.append(f'{", ".join(names)}, = {", ".join(outs)},')
            lines += indent(branch or ['pass'])
        return lines
    return emit


_emit_if = _emitter(lambda pred, i: pred)
_emit_case = _emitter(lambda index, i: f'{index} == {i}')
# The gradient skips branches' work for inputs no source depends on, and for outputs that get no
# gradient (see backprop.backward); the kernel computes only the intermediates something reads.
_FACTS = dict(num_outputs=None, skips_unneeded_inputs=True, accepts_missing_grads=True,
              kernel_takes_live_outputs=True,
              own_outputs=lambda op: len(_branches(op.attrs)[0].outputs))

_lower_if = lowering.lower_branches(_branches, lambda pred, i: pred)
_lower_case = lowering.lower_branches(_branches, lambda index, i: f'{index} == {i}')
IF = define_op('If', _if_kernel, _infer, _grad, stateful=True, emit=_emit_if, lowering=_lower_if,
               **_FACTS)
STATELESS_IF = define_op('StatelessIf', _if_kernel, _infer, _grad, emit=_emit_if,
                         lowering=_lower_if, **_FACTS)
CASE = define_op('Case', _case_kernel, _infer, _grad, stateful=True, emit=_emit_case,
                 lowering=_lower_case, **_FACTS)
STATELESS_CASE = define_op('StatelessCase', _case_kernel, _infer, _grad, emit=_emit_case,
                           lowering=_lower_case, **_FACTS)


def create(kind, selector, graphs, inputs):
    """Adds the If/Case op (its intermediates are declared by inference: see `intermediates`)."""
    stateful = cf.is_stateful(graphs)
    if kind == 'If':
        opdef = IF if stateful else STATELESS_IF
        attrs = {'then_branch': graphs[0], 'else_branch': graphs[1]}
    else:
        opdef = CASE if stateful else STATELESS_CASE
        attrs = {'branches': list(graphs)}
    outputs = apply_op(opdef, [selector] + list(inputs), attrs)
    return list(outputs)


# ---------------------------------------------------------------- gradient

class _BranchGradient:
    """The gradient graph of one branch: seeds for the op outputs that receive gradients, and the
    gradient of each branch input (None when unconnected)."""

    def __init__(self, graphs, b, seed_indices, sources):
        self.branch = branch = graphs[b]
        targets = [_branch_target(graphs, b, i) for i in seed_indices]
        self.gradient = GradientGraph(branch, [t for t, _ in targets],
                                      [branch.inputs[j] for j in sources], f'{branch.name}_grad',
                                      seed_shapes=[shape for _, shape in targets],
                                      outer_graph=context.current_graph())
        self.graph = self.gradient.graph
        self.seeds = self.gradient.seeds
        self.grads = [None] * len(branch.inputs)
        for j, g in zip(sources, self.gradient.grads):
            self.grads[j] = g

    def set_outputs(self, wanted):
        """Outputs: the gradient of each wanted input, zeros where this branch has none."""
        outputs = []
        with self.gradient.building():
            for j in wanted:
                g = self.grads[j]
                outputs.append(g if g is not None else self._zeros_for_input(j))
        self.graph.outputs = outputs

    def _zeros_for_input(self, j):
        x = self.branch.inputs[j]
        if x.dtype is dtypes.resource:
            variable = self.branch.variable_for(x)
            return self.graph.add_constant(np.zeros(variable.shape.as_tuple(),
                                                    variable.dtype.np_dtype))
        return base_ops.zeros_like(x)


def _branch_target(graphs, b, i):
    """(tensor, seed shape) standing for op output i in branch b: a branch output, or an
    intermediate, which another branch's zeros stand for (a tensor of a different graph there,
    so its seed reaches nothing)."""
    n = len(graphs[0].outputs)
    if i < n:
        t = graphs[b].outputs[i]
        return t, t.shape
    owner, t = intermediates(graphs)[i - n]
    return t, t.shape if owner == b else _zeros_shape(t)


def _branch_tensor_source(graphs, b, t):
    """Where the gradient of branch b reads forward tensor t from: ('input', j) for an input of
    the op, else ('output', k) for output k of the op (a branch output or an intermediate)."""
    g = graphs[b]
    for j, x in enumerate(g.inputs):
        if x is t:
            return 'input', j
    for k, out in enumerate(g.outputs):
        if out is t:
            return 'output', k
    n = len(graphs[0].outputs)
    for k, (owner, x) in enumerate(intermediates(graphs)):
        if x is t and owner == b:
            return 'output', n + k
    raise ValueError(f'{t.name} was added to branch {g.name} after the op was built; its '
                     f'gradient cannot read it')


def _cond_gradient(op, grads, needed):
    fwd = cf.forward_operation(op)
    graphs = _branches(fwd.attrs)
    grads = cf.known_zeros(grads) + [None] * (len(fwd.outputs) - len(grads))
    seed_indices = [i for i, g in enumerate(grads)
                    if g is not None and fwd.outputs[i].dtype.is_differentiable]
    if not seed_indices:
        return [None] * len(op.inputs)
    sources = [j for j in range(len(graphs[0].inputs)) if needed is None or needed[1 + j]]
    plans = [_BranchGradient(graphs, b, seed_indices, sources) for b in range(len(graphs))]
    wanted = [j for j in range(len(graphs[0].inputs)) if any(p.grads[j] is not None for p in plans)]
    if not wanted:
        return [None] * len(op.inputs)
    for plan in plans:
        plan.set_outputs(wanted)
    union, slots = _gradient_inputs(op, graphs, plans)
    for plan, slot in zip(plans, slots):
        plan.graph.inputs = plan.seeds + [_slot(plan.graph, slot, t) for t in union]
    seeds = [grads[i] for i in seed_indices]
    kind = 'If' if fwd.opdef in (IF, STATELESS_IF) else 'Case'
    selector = cf.graph_tensor_in_current(fwd.inputs[0])
    inputs = [cf.graph_tensor_in_current(t) for t in union]
    outputs = create(kind, selector, [p.graph for p in plans], seeds + inputs)
    result = [None] * len(op.inputs)
    for j, g in zip(wanted, outputs):
        result[1 + j] = g
    return result


def _slot(graph, slot, t):
    """The placeholder of `graph` for gradient input t (an unused one if the branch ignores t)."""
    ph = slot.get(id(t))
    return ph if ph is not None else graph.add_placeholder(t.dtype, t.shape.as_tuple(), 'unused')


def _gradient_inputs(op, graphs, plans):
    """The tensors the gradient op takes after the seeds, and per branch the placeholder standing
    for each: forward inputs, forward outputs (intermediates), or tensors of enclosing graphs.

    Forward inputs are taken as `op` received them (for a tape's record, the tensors the tape
    tracks), so an enclosing tape sees the gradient use them (second order)."""
    fwd = cf.forward_operation(op)
    union, seen, slots = [], set(), []
    for b, plan in enumerate(plans):
        slot = {}
        forward = {id(source) for source, _ in plan.gradient.forward_reads()}
        for source, ph in plan.graph.captures:
            if id(source) in forward:
                kind, index = _branch_tensor_source(graphs, b, source)
                outer = op.inputs[1 + index] if kind == 'input' else fwd.outputs[index]
            else:
                outer = source
            slot[id(outer)] = ph
            if id(outer) not in seen:
                seen.add(id(outer))
                union.append(outer)
        slots.append(slot)
    return union, slots
