"""Fusion in the native tier: a run of elementwise ops over arrays of one static shape becomes one
loop over the elements, each op a scalar expression inside it, with no temporary arrays: only
the values read after the run (or returned) are written, element by element, into arrays.

Measured here: numba's own array expressions, one statement per op, ran a three-op chain over 10
million float32s five times slower than numpy (an array and a generic loop per statement); the
same chain as one explicit loop ran 1.1x faster than numpy's three calls. An op is fusable when its
lowering is elementwise (a template, or a function marked `elementwise`, such as vector_math),
its output has a fully known shape of rank >= 1, and each input is a scalar or has exactly that
shape (no other broadcasting). Each element is pinned to the op's dtype, as scalars are.
"""
__all__ = ['fusable', 'groups', 'write_group']


def _outer(op):
    """The (m, n) of `op` when it is an outer product a fused loop computes element by element
    (its lowering's `outer_shape`, MatMul's), else None."""
    lowering = op.opdef.lowering
    outer_shape = getattr(lowering, 'outer_shape', None)
    return outer_shape(op) if outer_shape is not None and len(op.inputs) == 2 else None


def fusable(op):
    """Whether `op` may join a fused loop (see the module docstring)."""
    opdef = op.opdef
    lowering = opdef.lowering
    if lowering is not None and _outer(op) is not None:
        return True
    elementwise = isinstance(lowering, (str, tuple)) or getattr(lowering, 'elementwise', False)
    if not (elementwise or (opdef.is_identity and not op.control_inputs)) or len(op.outputs) != 1:
        return False
    shape = op.outputs[0].shape
    if not shape.is_fully_defined() or shape.rank == 0:
        return False
    dims = shape.as_tuple()
    return all(t.shape.rank == 0 or (t.shape.is_fully_defined() and t.shape.as_tuple() == dims)
               for t in op.inputs)


def groups(ops):
    """`ops` in an order that keeps their dependencies, as lists: runs of fusable ops of one
    shape, and other ops alone. Constants move ahead of the run they are met in, and an op that
    reads nothing of the open run waits until it closes, so that it does not split the run (in
    an RNN's backward step, the matrix-vector product between the weight gradient's outer
    product and its running sum)."""
    runs, current, waiting, made = [], [], [], set()

    def close():
        runs.append(list(current))
        runs.extend([op] for op in waiting)
        current.clear()
        waiting.clear()
        made.clear()

    for op in ops:
        reads = {id(t) for t in op.inputs}
        if not op.inputs and not fusable(op):
            runs.append([op])   # a constant: written before the run, which it cannot split
            continue
        if fusable(op) and current and not reads & made and \
                current[-1].outputs[0].shape.as_tuple() == op.outputs[0].shape.as_tuple():
            current.append(op)
            continue
        if current and not fusable(op) and not reads & {id(t) for o in current for t in o.outputs}:
            waiting.append(op)
            made.update(id(t) for t in op.outputs)
            continue
        if current:
            close()
        if fusable(op):
            current.append(op)
        else:
            runs.append([op])
    if current:
        close()
    return runs


def write_group(low, group, names, read_after):
    """The lines of one fused loop for `group`; `read_after(tensor)` tells whether something
    after the group reads a value (it is then written into an array). A group with an outer
    product loops over rows and columns (its vectors read by row and by column), any other
    over the flat elements."""
    members = {id(t) for op in group for t in op.outputs}
    out = group[0].outputs[0]
    dims, size = out.shape.as_tuple(), out.shape.num_elements()
    outer = any(_outer(op) for op in group)
    if outer:
        row, col = low.fresh('r'), low.fresh('c')
        i = f'{row} * {dims[1]} + {col}'
    else:
        i = low.fresh('i')
    before, body, after, element, products = [], [], [], {}, {}
    for op in group:
        if _outer(op):
            vectors = op.opdef.lowering.outer_vectors(op, [names[id(t)] for t in op.inputs])
            x, y = (low.fresh(f'{op.name}_{a}') for a in 'xy')
            before += [f'{x} = {vectors[0]}', f'{y} = {vectors[1]}']
            products[op] = f'{x}[{row}] * {y}[{col}]'
            continue
        for t in op.inputs:
            if id(t) in members or id(t) in element or t.shape.rank == 0:
                continue
            flat = low.fresh(f'{names[id(t)]}_flat')
            source = names[id(t)] if len(dims) == 1 else \
                f'np.ascontiguousarray({names[id(t)]}).reshape({size})'
            before.append(f'{flat} = {source}')
            element[id(t)] = f'{flat}[{i}]'
    for op in group:
        t = op.outputs[0]
        ins = [element.get(id(x)) or names[id(x)] for x in op.inputs]
        if op.opdef.is_identity:
            element[id(t)] = ins[0]
        else:
            value = low.fresh(f'{op.name}_e')
            text = products[op] if op in products else _text(op, ins, low)
            body.append(f'{value} = {low.dtype(t)}({text})')
            element[id(t)] = value
        names[id(t)] = None   # not an array unless written below
        if read_after(t):
            flat, allocation = low.allocate(t, f'{op.name}_flat', (size,))
            before += allocation
            body.append(f'{flat}[{i}] = {element[id(t)]}')
            array = low.fresh(op.name)
            after.append(f'{array} = {flat}' if len(dims) == 1 else
                         f'{array} = {flat}.reshape({dims!r})')
            names[id(t)] = array
    if outer:
        loop = [f'for {row} in range({dims[0]}):', f'    for {col} in range({dims[1]}):']
        return before + loop + ['        ' + b for b in body] + after
    return before + [f'for {i} in range({size}):'] + ['    ' + b for b in body] + after


def _text(op, ins, low):
    lowering = op.opdef.lowering
    if isinstance(lowering, tuple):
        lowering = lowering[0]
    if isinstance(lowering, str):
        return lowering.format(*ins, dtype=low.dtype(op.outputs[0]))
    return lowering(op, ins, low)
