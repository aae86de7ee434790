"""How the native tier (jit_compile=True) writes control flow: a While as a native `while` loop,
If and Case as native branches, with their graphs written inline by the Lowerer (OpDef.lowering;
see defun/compiler/jit/). Loop counters are plain native integers pinned to int32, so they cost
what a C loop counter costs.

Only the ops' own results are lowered: a loop whose per-iteration stacks, or a conditional whose
intermediates, a gradient reads stays in the numpy tier (the report says so), which keeps them.
"""
from defun.compiler.jit.lowerer import indent

__all__ = ['lower_while', 'lower_branches']


def _check_types(op, produced, ctx):
    """numba needs each loop variable or branch result to keep one type: same dtype and rank."""
    for t, result in zip(op.outputs, produced):
        if result.dtype != t.dtype or result.shape.rank != t.shape.rank or t.shape.rank is None:
            raise ctx.NotLowerable(f'{op.type} {op.name!r}: {t.name} changes its dtype or rank '
                                   'between iterations or branches')


def lower_while(op, ins, ctx):
    """A While op as `while True: <cond>; if not c: break; <body>; vars = results`."""
    attrs = op.attrs
    n, cond, body = attrs['n_vars'], attrs['cond'], attrs['body']
    stacks = op.outputs[n + 1:]
    if any(ctx.is_used(t) for t in stacks):
        raise ctx.NotLowerable(f'{op.type} {op.name!r}: keeps per-iteration values for a '
                               'gradient (stacks are built by the numpy tier)')
    _check_types(op, body.outputs[:n], ctx)
    captured = ins[n:len(ins) - int(attrs['has_max'])]
    loop_vars = [ctx.fresh(f'{op.name}_{j}') for j in range(n)]
    count = ctx.fresh(f'{op.name}_count')
    ctx.depth += 1
    try:
        cond_lines, (test,) = ctx.inline(cond, loop_vars + captured, cond.outputs)
        body_lines, results = ctx.inline(body, loop_vars + captured, body.outputs[:n])
    finally:
        ctx.depth -= 1
    lines = [f'{v} = {source}' for v, source in zip(loop_vars, ins[:n])]
    lines += [f'{count} = 0', 'while True:']
    if attrs['has_max']:
        lines += [f'    if {count} >= {ins[-1]}:', '        break']
    lines += indent(cond_lines) + [f'    if not {test}:', '        break'] + indent(body_lines)
    lines += [f'    {", ".join(loop_vars)}, = {", ".join(results)},', f'    {count} += 1']
    return lines, loop_vars + [f'np.int32({count})'] + [None] * len(stacks)


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
