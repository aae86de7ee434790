"""Lowering rules op tables share (OpDef.lowering, for the native tier of jit_compile=True).

A lowering receives (op, input expressions, ctx), ctx being the native tier's Lowerer; it returns
the expression of the op's output in numba source, or raises ctx.NotLowerable with the reason.
"""
__all__ = ['vector_math', 'select', 'cast']


def vector_math(fn):
    """A transcendental numpy function (`np.exp`): lowered inside native loops and on small
    arrays, left to numpy for large arrays outside loops (see Lowerer.vector_math)."""
    def lowering(op, ins, ctx):
        return ctx.vector_math(op, fn, ins)
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
