"""Lowering rules op tables share (OpDef.lowering, for the native tier of jit_compile=True).

A lowering receives (op, input expressions, ctx), ctx being the native tier's Lowerer; it returns
the expression of the op's output in numba source, or raises ctx.NotLowerable with the reason.
"""
import numpy as np

__all__ = ['vector_math', 'select', 'cast', 'shape', 'fill_like', 'reshape', 'broadcast_to',
           'range_', 'reduce_sum', 'reduce_mean', 'sum_to_shape']


def vector_math(fn, float32=None):
    """A transcendental numpy function (`np.exp`): lowered inside native loops and on small
    arrays, left to numpy for large arrays outside loops (see Lowerer.vector_math). `float32`:
    the native_math helper computing it on float32 (one that vectorises), if any."""
    def lowering(op, ins, ctx):
        return ctx.vector_math(op, fn, ins, float32)
    lowering.elementwise = True   # the same text on elements (a fused loop) as on arrays
    return lowering


def select(op, ins, ctx):
    """SelectV2: a conditional expression on scalars, np.where on arrays."""
    c, a, b = ins
    if op.outputs[0].shape.rank == 0:
        return f'({a} if {c} else {b})'
    if any(t.shape.rank == 0 for t in op.inputs):
        raise ctx.NotLowerable(f'{op.type} {op.name!r}: a scalar operand with array operands')
    return f'np.where({c}, {a}, {b})'


def cast(op, ins, ctx):
    """Cast: numpy's conversion (float to int truncates toward zero, as TF's)."""
    source, target = op.inputs[0].dtype.np_dtype, op.outputs[0].dtype.np_dtype
    if source.kind == 'f' and target.kind in 'iu':
        raise ctx.NotLowerable(f'{op.type} {op.name!r}: float to integer casts of NaN or '
                               'out-of-range values differ in numba')
    if target.kind == 'b':
        return f'({ins[0]} != 0)'
    if op.outputs[0].shape.rank == 0:
        return ins[0]     # the Lowerer pins a scalar to the output dtype
    return f'{ins[0]}.astype({ctx.dtype(op.outputs[0])})'


def _static_dims(tensor):
    return tensor.shape.as_tuple() if tensor.shape.is_fully_defined() else None


def _new_array(op, ctx, fill):
    """An array of the op's static output shape, every element `fill` (a new array)."""
    out = op.outputs[0]
    dims = _static_dims(out)
    if dims is None:
        raise ctx.NotLowerable(f'{op.type} {op.name!r}: an output of unknown shape')
    return f'np.full({dims!r}, {fill}, {ctx.dtype(out)})'


def shape(op, ins, ctx):
    """Shape: a constant when the shape is static (passed in as a value), else read natively."""
    x, out = op.inputs[0], op.outputs[0]
    dtype = out.dtype.np_dtype
    dims = _static_dims(x)
    if dims is not None:
        return ctx.param(op.name, ('value', np.asarray(dims, dtype)))
    parts = ', '.join(f'{ins[0]}.shape[{d}]' for d in range(x.shape.rank))
    return f'np.array([{parts}], {ctx.dtype(out)})'


shape.plumbing = True   # not counted towards a cluster's size (partition.MIN_CLUSTER_OPS)


def fill_like(value):
    """OnesLike / ZerosLike: `value` of the input's shape and dtype."""
    def lowering(op, ins, ctx):
        out = op.outputs[0]
        if out.shape.rank == 0:
            return ctx.literal(value, out.dtype)
        return _new_array(op, ctx, ctx.literal(value, out.dtype))
    lowering.fresh = lowering.plumbing = True
    return lowering


def reshape(op, ins, ctx):
    """Reshape to a static shape: a view of the data (copied first if not C-contiguous); a
    scalar is spread into an array of one element, one element taken out as a scalar."""
    x, out = op.inputs[0], op.outputs[0]
    dims = _static_dims(out)
    if dims is None:
        raise ctx.NotLowerable(f'{op.type} {op.name!r}: a target shape unknown when built')
    if x.shape.rank == 0:
        return ins[0] if out.shape.rank == 0 else _new_array(op, ctx, ins[0])
    flat = f'np.ascontiguousarray({ins[0]})'
    if out.shape.rank == 0:
        return f'{flat}.reshape(1)[0]'
    return f'{flat}.reshape({dims!r})'


reshape.plumbing = True
reshape.shape_inputs = (1,)   # the target shape: the output's static shape is used


def broadcast_to(op, ins, ctx):
    """BroadcastTo a static shape, written out as a new C-contiguous array (numba's broadcast
    views have zero strides, which keep loops that read them from vectorising)."""
    x, out = op.inputs[0], op.outputs[0]
    dims = _static_dims(out)
    if dims is None:
        raise ctx.NotLowerable(f'{op.type} {op.name!r}: a target shape unknown when built')
    if x.shape.rank == 0:
        return ins[0] if out.shape.rank == 0 else _new_array(op, ctx, ins[0])
    if _static_dims(x) == dims:
        return ins[0]
    return f'np.ascontiguousarray(np.broadcast_to({ins[0]}, {dims!r}))'


broadcast_to.plumbing = True
broadcast_to.shape_inputs = (1,)


def range_(op, ins, ctx):
    """Range: numpy's arange in the op's dtype, after TF's checks (as the numpy tier's kernel)."""
    start, limit, delta = ins
    out = ctx.fresh(op.name)
    return [f'if {delta} == 0:',
            "    raise ValueError('Range: Requires delta != 0')",
            f'if ({delta} > 0 and {start} > {limit}) or ({delta} < 0 and {start} < {limit}):',
            "    raise ValueError('Range: Requires start <= limit when delta > 0, "
            "start >= limit when delta < 0')",
            f'{out} = np.arange({start}, {limit}, {delta}).astype({ctx.dtype(op.outputs[0])})'], [out]


range_.fresh = range_.plumbing = True


def reduce_sum(op, ins, ctx):
    """Sum over static shapes in numpy's order, so float results are numpy's bit for bit: all
    elements, or trailing axes (each row pairwise, native_math.pairwise_sum_f), or leading axes
    (rows added one after another into the first); other axis sets stay in the numpy tier."""
    x = op.inputs[0]
    dims = _static_dims(x)
    if dims is None:
        raise ctx.NotLowerable(f'{op.type} {op.name!r}: an input of unknown shape')
    if x.shape.rank == 0:
        return ins[0]
    axes = op.attrs['axis']
    axes = sorted({a % len(dims) for a in np.ravel(axes).tolist()} if axes is not None
                  else range(len(dims)))
    if not axes:
        raise ctx.NotLowerable(f'{op.type} {op.name!r}: no axes to reduce')
    inner = int(np.prod(dims[axes[0]:])) if axes == list(range(axes[0], len(dims))) else None
    outer = int(np.prod(dims[:axes[-1] + 1])) if axes == list(range(axes[-1] + 1)) else None
    size = int(np.prod(dims))
    if not size or (inner is None and outer is None):
        raise ctx.NotLowerable(f'{op.type} {op.name!r}: axes {axes} of shape {dims}')
    return _sum_lines(op, ctx, ins[0], size, inner, outer)


def _sum_lines(op, ctx, x, size, inner, outer):
    out = op.outputs[0]
    flat, name, r, c = (ctx.fresh(h) for h in (f'{op.name}_flat', op.name, 'r', 'c'))
    lines = [f'{flat} = np.ascontiguousarray({x}).reshape({size})']
    floats = out.dtype.np_dtype.kind == 'f'
    if inner is not None:   # rows of `inner` elements, each summed (a full sum: one row)
        rows = size // inner
        acc, alloc = ctx.allocate(out, f'{op.name}_acc', (rows,))
        if floats:
            row = f'{ctx.helper("pairwise_sum_f")}({flat}, {r} * {inner}, {inner})'
            lines += alloc + [f'for {r} in range({rows}):', f'    {acc}[{r}] = {row}']
        else:
            lines += alloc + [f'for {r} in range({rows}):', f'    {acc}[{r}] = 0',
                              f'    for {c} in range({inner}):',
                              f'        {acc}[{r}] += {flat}[{r} * {inner} + {c}]']
    else:                   # leading axes: rows of the rest added in order into the first
        cols = size // outer
        acc, alloc = ctx.allocate(out, f'{op.name}_acc', (cols,))
        lines += alloc + [f'for {c} in range({cols}):', f'    {acc}[{c}] = {flat}[{c}]',
                          f'for {r} in range(1, {outer}):', f'    for {c} in range({cols}):',
                          f'        {acc}[{c}] += {flat}[{r} * {cols} + {c}]']
    if out.shape.rank == 0:
        return lines + [f'{name} = {ctx.dtype(out)}({acc}[0])'], [name]
    return lines + [f'{name} = {acc}.reshape({out.shape.as_tuple()!r})'], [name]


reduce_sum.fresh = True


def reduce_mean(op, ins, ctx):
    """Mean of floats: the Sum above (numpy's order), divided by the count in the dtype, as
    np.mean does; integer means (truncating division) stay in the numpy tier."""
    x, out = op.inputs[0], op.outputs[0]
    if out.dtype.np_dtype.kind != 'f':
        raise ctx.NotLowerable(f'{op.type} {op.name!r}: an integer mean')
    dims = _static_dims(x)
    if dims is None or x.shape.rank == 0:
        raise ctx.NotLowerable(f'{op.type} {op.name!r}: an input of unknown shape or a scalar')
    lines, (total,) = reduce_sum(op, ins, ctx)
    count = int(np.prod(dims)) // max(int(np.prod(out.shape.as_tuple())), 1)
    name = ctx.fresh(op.name)
    return lines + [f'{name} = {ctx.pin(f"{total} / {ctx.literal(count, out.dtype)}", out)}'], [name]


reduce_mean.fresh = True


def sum_to_shape(op, ins, ctx):
    """SumToShape (a broadcast gradient summed back to an input's shape) when the summed axes
    lead: rows added one after another into the first (the kernel's BLAS dot may add in another
    order: results agree to float rounding); the same shape is the value itself."""
    g, out = op.inputs[0], op.outputs[0]
    shape_, target = _static_dims(g), _static_dims(out)
    if shape_ is None or target is None:
        raise ctx.NotLowerable(f'{op.type} {op.name!r}: shapes unknown when built')
    if shape_ == target:
        return ins[0]
    lead = len(shape_) - len(target)
    axes = list(range(lead)) + [i + lead for i, d in enumerate(target)
                                if d == 1 and shape_[i + lead] != 1]
    size = int(np.prod(shape_))
    if axes != list(range(len(axes))) or not size:
        raise ctx.NotLowerable(f'{op.type} {op.name!r}: {shape_} to {target}')
    return _sum_lines(op, ctx, ins[0], size, None, int(np.prod(shape_[:len(axes)])))


sum_to_shape.fresh = True
sum_to_shape.shape_inputs = (1,)   # read for its shape only, known when built
