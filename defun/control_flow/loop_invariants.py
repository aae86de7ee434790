"""Values of a While body that are the same in every iteration, computed once before the loop.

A body op is loop-invariant when it runs no sub-graphs, has no control inputs, and reads only the
loop's captured tensors, constants and other invariant values; a stateful op qualifies only when
it merely reads state (OpDef.reads_only, a variable read) and nothing in the loop writes state.
The emitter writes these ops once, before the first iteration (only if there is one, so a loop
that never runs computes nothing), and a gradient's per-iteration stack of such a value is one
value repeated (a zero-copy broadcast view), not a copy per iteration.
"""
__all__ = ['hoistable_ops', 'writes_state']


def hoistable_ops(op):
    """The body ops of While op `op` to compute once before its loop, in graph order."""
    attrs = op.attrs
    body, n = attrs['body'], attrs['n_vars']
    if attrs['has_max']:
        return []   # the loop may stop before its cond: keep the simple form
    reads_allowed = not writes_state([attrs['cond'], body])
    invariant = {id(t) for t in body.inputs[n:]}
    hoisted = []
    for o in body.get_operations():
        opdef = o.opdef
        if opdef.is_placeholder or o.control_inputs or opdef.emit is not None:
            continue
        if not o.inputs:
            if opdef.fold is not None and not opdef.stateful:   # a constant
                invariant.update(id(t) for t in o.outputs)
            continue
        if opdef.stateful and not (opdef.reads_only and reads_allowed):
            continue
        if all(id(t) in invariant for t in o.inputs):
            invariant.update(id(t) for t in o.outputs)
            hoisted.append(o)
    return hoisted


def writes_state(graphs):
    """Whether an op of these graphs (or of graphs their control flow runs) may change state."""
    for graph in graphs:
        for o in graph.get_operations():
            if not o.opdef.stateful or o.opdef.reads_only:
                continue
            nested = [v for v in o.attrs.values() if hasattr(v, 'get_operations')]
            if o.opdef.emit is not None and nested and not writes_state(nested):
                continue
            return True
    return False
