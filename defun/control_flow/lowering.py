"""How the native tier (jit_compile=True) writes control flow: a While as a native `while` loop,
If and Case as native branches, with their graphs written inline by the Lowerer (OpDef.lowering;
see defun/compiler/jit/). Loop counters are plain native integers pinned to int32, so they cost
what a C loop counter costs.

Only the ops' own results are lowered: a loop whose per-iteration stacks, or a conditional whose
intermediates, a gradient reads stays in the numpy tier (the report says so), which keeps them.
"""
from defun.compiler.jit.lowerer import Repeated, indent

__all__ = ['lower_while', 'lower_branches']


def _check_types(op, produced, ctx):
    """numba needs each loop variable or branch result to keep one type: same dtype and rank."""
    for t, result in zip(op.outputs, produced):
        if result.dtype != t.dtype or result.shape.rank != t.shape.rank or t.shape.rank is None:
            raise ctx.NotLowerable(f'{op.type} {op.name!r}: {t.name} changes its dtype or rank '
                                   'between iterations or branches')


def lower_while(op, ins, ctx):
    """A While op as `while True: <cond>; if not c: break; <body>; vars = results`, filling
    the per-iteration stacks a gradient reads (while_runner's outputs) in growing buffers."""
    attrs = op.attrs
    n, cond, body = attrs['n_vars'], attrs['cond'], attrs['body']
    accumulate = attrs['accumulate']
    kept = [k for k in range(len(accumulate))
            if ctx.is_used(op.outputs[n + 1 + 2 * k]) or ctx.is_used(op.outputs[n + 2 + 2 * k])]
    for k in kept:
        if not accumulate[k].shape.is_fully_defined():
            raise ctx.NotLowerable(f'{op.type} {op.name!r}: a gradient reads values of varying '
                                   'shape per iteration')
    _check_types(op, body.outputs[:n], ctx)
    captured = ins[n:len(ins) - int(attrs['has_max'])]
    loop_vars = [ctx.fresh(f'{op.name}_{j}') for j in range(n)]
    count = ctx.fresh(f'{op.name}_count')
    ctx.depth += 1
    try:
        with ctx.loop_allocations() as allocations:
            cond_lines, (test,) = ctx.inline(cond, loop_vars + captured, cond.outputs)
            body_lines, results = ctx.inline(
                body, loop_vars + captured, list(body.outputs[:n]) + [accumulate[k] for k in kept])
    finally:
        ctx.depth -= 1
    stacks = [_Stack(accumulate[k], ctx, count, value in ctx.params)
              for k, value in zip(kept, results[n:])]
    lines = [f'{v} = {source}' for v, source in zip(loop_vars, ins[:n])] + allocations
    lines += [f'{count} = 0'] + [line for s in stacks for line in s.create()] + ['while True:']
    if attrs['has_max']:
        lines += [f'    if {count} >= {ins[-1]}:', '        break']
    lines += indent(cond_lines) + [f'    if not {test}:', '        break'] + indent(body_lines)
    for s, value in zip(stacks, results[n:]):
        lines += indent(s.append(value))
        s.value = value
    lines += [f'    {", ".join(loop_vars)}, = {", ".join(results[:n])},', f'    {count} += 1']
    outputs = [None] * (2 * len(accumulate))
    for k, s in zip(kept, stacks):
        lines += s.finish()
        outputs[2 * k:2 * k + 2] = s.outputs()
    return lines, loop_vars + [f'np.int32({count})'] + outputs


class _Stack:
    """One stack a gradient reads: rows appended to a buffer that doubles when full, then its
    filled rows (a view) and their shapes, as while_runner.stack_iterations gives them. A value
    the same in every iteration (`invariant`: a parameter of the native code, such as a hoisted
    variable read) is not copied: the stack is that value repeated (lowerer.Repeated)."""

    def __init__(self, tensor, ctx, count, invariant):
        self.invariant, self.value = invariant, None
        self.dims, self.count = tensor.shape.as_tuple(), count
        self.dtype = ctx.dtype(tensor)
        self.buffer, self.grown = ctx.fresh('stack_buffer'), ctx.fresh('grown')
        self.values, self.shapes = ctx.fresh('stack'), ctx.fresh('stack_shapes')

    def _shape(self, rows):
        return '(' + ', '.join([rows] + [str(d) for d in self.dims]) + ',)'

    def create(self):
        if self.invariant:
            return []
        return [f'{self.buffer} = np.empty({self._shape("16")}, {self.dtype})']

    def append(self, value):
        if self.invariant:
            return []
        b, g, c = self.buffer, self.grown, self.count
        return [f'if {c} == {b}.shape[0]:',
                f'    {g} = np.empty({self._shape(f"2 * {c}")}, {self.dtype})',
                f'    {g}[:{c}] = {b}',
                f'    {b} = {g}',
                f'{b}[{c}] = {value}']

    def outputs(self):
        if self.invariant:
            return [Repeated(self.value, self.count, self.dims, False),
                    Repeated(self.value, self.count, self.dims, True)]
        return [self.values, self.shapes]

    def finish(self):
        if self.invariant:
            return []
        lines = [f'{self.values} = {self.buffer}[:{self.count}]',
                 f'{self.shapes} = np.empty(({self.count}, {len(self.dims)}), np.int32)']
        lines += [f'{self.shapes}[:, {d}] = {size}' for d, size in enumerate(self.dims)]
        return lines


def lower_branches(graphs, test_of):
    """The lowering of If (test_of(pred, i) = pred) or Case (index == i): native if/elif/else
    with each branch written inline (the last branch is the `else`, as Case's default)."""

    def lowering(op, ins, ctx):
        n = len(graphs(op.attrs)[0].outputs)
        if any(ctx.is_used(t) for t in op.outputs[n:]):
            raise ctx.NotLowerable(f'{op.type} {op.name!r}: a gradient reads its intermediates')
        if op.inputs[0].shape.rank != 0:
            raise ctx.NotLowerable(f'{op.type} {op.name!r}: a non-scalar predicate')
        results = [ctx.fresh(f'{op.name}_{i}') for i in range(n)]
        lines = []
        branches = graphs(op.attrs)
        for i, g in enumerate(branches):
            _check_types(op, g.outputs, ctx)
            if i == len(branches) - 1:
                lines.append('else:' if i else 'if True:')
            else:
                lines.append(f'{"if" if i == 0 else "elif"} {test_of(ins[0], i)}:')
            branch, outs = ctx.inline(g, ins[1:], list(g.outputs))
            if results:
                branch.append(f'{", ".join(results)}, = {", ".join(outs)},')
            lines += indent(branch or ['pass'])
        return lines, results + [None] * (len(op.outputs) - n)
    return lowering
