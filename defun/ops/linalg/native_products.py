"""MatMul's lowering for the native tier (jit_compile=True): the product written as loops.

Native code multiplies small matrices itself (numba's np.dot would need scipy); larger ones stay
with numpy's BLAS, far faster there. Each output element sums its k products in k's order (BLAS
blocks the sum differently: results agree to float rounding). The loops are chosen so that the
innermost one runs along memory with no dependency between its steps, which LLVM turns into SIMD
code without reassociating any sum (numba compiles without fastmath):

- a matrix times a column (m x k by k x 1, an RNN step): `acc += column_p * y[p]` for each p, the
  columns read as rows of the matrix's transpose (a view under transpose_a, else a copy made once
  per call of a parameter);
- an outer product (k = 1, an RNN step's weight gradient): `out[i, :] = x[i] * y`;
- otherwise k outermost, then rows, then columns (`out[i, :] += x[i, p] * y[p, :]`).

The result is a new array (`fresh`): inside a native loop the Lowerer allocates it once before the
loop when it does not outlive the iteration. Measured on an RNN gradient's 64 x 64 steps, these
forms ran the backward loop 3-4x faster than a zero-filled accumulator indexed in two dimensions.
"""
import numpy as np

__all__ = ['matmul_lowering', 'outer_shape']

NATIVE_MATMUL_UP_TO = 1 << 18   # multiply-adds
# A product of matrices (not a matrix and a vector) this large runs faster in BLAS even inside
# a loop (measured: a char-RNN step's 32x64 by 64x64 products made its native loops slower than
# numpy's).
GENERAL_UP_TO = 1 << 13
_UNROLL = 8   # columns per pass of a matrix-column product (measured: 4 and 8 against 1)
_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))


def matmul_lowering(op, ins, ctx):
    """MatMul's OpDef.lowering (see the module docstring)."""
    a, b = op.inputs
    sa, sb = a.shape, b.shape
    if not (sa.is_fully_defined() and sb.is_fully_defined() and sa.rank == 2 and sb.rank == 2) \
            or a.dtype.np_dtype not in _FLOATS:
        raise ctx.NotLowerable(f'{op.type} {op.name!r}: only float matrices of static shape')
    ta, tb = op.attrs['transpose_a'], op.attrs['transpose_b']
    (m, n), k = op.outputs[0].shape.as_tuple(), sb[1 if tb else 0]
    if m * n * k > NATIVE_MATMUL_UP_TO and ctx.depth == 0 or \
            m * n * k > GENERAL_UP_TO and n > 1 and k > 1:
        raise ctx.NotLowerable(f'{op.type} {op.name!r}: {m}x{k} by {k}x{n}: BLAS is faster')
    if not m * n * k:
        raise ctx.NotLowerable(f'{op.type} {op.name!r}: an empty product')
    out = op.outputs[0]
    column = ins[0] if ta else ctx.transposed(ins[0]) if n == 1 else None
    if n == 1 and column is not None:
        return _matrix_column(ctx, out, column, _flat(ins[1], k), m, k)
    if k == 1:
        return _outer(ctx, out, _flat(ins[0], m), _flat(ins[1], n), m, n)
    x = ins[0] + ('.T' if ta else '')
    y = ins[1] + ('.T' if tb else '')
    return _general(ctx, out, x, y, m, n, k)


matmul_lowering.fresh = True   # always a new array (Lowerer: the loop-allocation rule)


def outer_shape(op):
    """(m, n) when MatMul `op` multiplies a column by a row (k = 1, m and n > 1, floats of static
    shape): a fused loop of the native tier then computes it element by element, x[i] * y[j],
    with the elementwise ops that read it (an RNN's weight gradient and its running sum become
    one pass over the matrix instead of three). Else None."""
    a, b = op.inputs
    if not (a.shape.is_fully_defined() and b.shape.is_fully_defined() and a.shape.rank == 2
            and b.shape.rank == 2) or a.dtype.np_dtype not in _FLOATS:
        return None
    k = b.shape.as_tuple()[1 if op.attrs['transpose_b'] else 0]
    m, n = op.outputs[0].shape.as_tuple()
    return (m, n) if k == 1 and m > 1 and n > 1 else None


def outer_vectors(op, ins):
    """The source of the two vectors of outer product `op` (see outer_shape), as 1-d arrays."""
    m, n = outer_shape(op)
    return _flat(ins[0], m), _flat(ins[1], n)


matmul_lowering.outer_shape = outer_shape
matmul_lowering.outer_vectors = outer_vectors


def _flat(name, size):
    """A vector (either orientation of a k x 1 or 1 x k matrix) as a 1-d view of its data."""
    return f'np.ascontiguousarray({name}).reshape({size})'


def _matrix_column(ctx, out, column, y, m, k):
    acc, lines = ctx.allocate(out, f'{out.op.name}_acc', (m,))
    yv, i, p, yp, name = (ctx.fresh(h) for h in ('yv', 'i', 'p', 'yp', out.op.name))
    ys = [ctx.fresh(f'y{u}') for u in range(_UNROLL)]
    top = 1 + (k - 1) // _UNROLL * _UNROLL
    # acc + c0 * y0 + c1 * y1 + ... is evaluated left to right: the same sum, in the same order,
    # as one p at a time, with one load and store of acc per _UNROLL columns instead of each.
    terms = ' + '.join(f'{column}[{p} + {u}, {i}] * {ys[u]}' for u in range(_UNROLL))
    lines += [f'{yv} = {y}',
              f'{yp} = {yv}[0]',
              f'for {i} in range({m}):',
              f'    {acc}[{i}] = {column}[0, {i}] * {yp}']
    if top > 1:
        lines += [f'for {p} in range(1, {top}, {_UNROLL}):']
        lines += [f'    {ys[u]} = {yv}[{p} + {u}]' for u in range(_UNROLL)]
        lines += [f'    for {i} in range({m}):',
                  f'        {acc}[{i}] = {acc}[{i}] + {terms}']
    if top < k:
        lines += [f'for {p} in range({top}, {k}):',
                  f'    {yp} = {yv}[{p}]',
                  f'    for {i} in range({m}):',
                  f'        {acc}[{i}] += {column}[{p}, {i}] * {yp}']
    lines += [f'{name} = {acc}.reshape(({m}, 1))']
    return lines, [name]


def _outer(ctx, out, x, y, m, n):
    name, lines = ctx.allocate(out, out.op.name, (m, n))
    xv, yv, xi, i, j = (ctx.fresh(h) for h in ('xv', 'yv', 'xi', 'i', 'j'))
    lines += [f'{xv} = {x}',
              f'{yv} = {y}',
              f'for {i} in range({m}):',
              f'    {xi} = {xv}[{i}]',
              f'    for {j} in range({n}):',
              f'        {name}[{i}, {j}] = {xi} * {yv}[{j}]']
    return lines, [name]


def _general(ctx, out, x, y, m, n, k):
    name, lines = ctx.allocate(out, out.op.name, (m, n))
    i, j, p = (ctx.fresh(h) for h in ('i', 'j', 'p'))
    lines += [f'for {i} in range({m}):',
              f'    for {j} in range({n}):',
              f'        {name}[{i}, {j}] = {x}[{i}, 0] * {y}[0, {j}]',
              f'for {p} in range(1, {k}):',
              f'    for {i} in range({m}):',
              f'        for {j} in range({n}):',
              f'            {name}[{i}, {j}] += {x}[{i}, {p}] * {y}[{p}, {j}]']
    return lines, [name]
