"""SparseSoftmaxCrossEntropyWithLogits's lowering for the native tier (jit_compile=True): one pass
per row of logits, as the numpy kernel computes it.

Each row: its maximum, the shifted logits and their exp (numba's scalar exp: it may round an
element differently from numpy's SIMD one), their sum in numpy's order (native_math's pairwise
sum), the loss log(sum) - shifted[label] and the backprop exp / sum, one subtracted at the
label. A label outside [0, classes) raises, as the kernel's check does (TF's InvalidArgumentError).
"""
import numpy as np

__all__ = ['sparse_xent_lowering']


def sparse_xent_lowering(op, ins, ctx):
    """SparseSoftmaxCrossEntropyWithLogits's OpDef.lowering (see the module docstring)."""
    logits, labels = op.inputs
    if not logits.shape.is_fully_defined() or logits.shape.rank < 1 or \
            logits.dtype.np_dtype.kind != 'f':
        raise ctx.NotLowerable(f'{op.type} {op.name!r}: only float logits of static shape')
    dims = logits.shape.as_tuple()
    classes, rows = dims[-1], int(np.prod(dims[:-1]))
    if not classes or not rows:
        raise ctx.NotLowerable(f'{op.type} {op.name!r}: an empty batch or no classes')
    dtype = ctx.dtype(logits)
    names = ('x', 'z', 'exp', 'loss', 'bp', 'r', 'c', 'top', 'total', 'label', op.name, op.name)
    x, z, e, loss, bp, r, c, top, total, label, loss_out, bp_out = (ctx.fresh(n) for n in names)
    loss_acc, lines = ctx.allocate(op.outputs[0], f'{loss}_acc', (rows,))
    bp_acc, more = ctx.allocate(op.outputs[1], f'{bp}_acc', (rows * classes,))
    shifted, more2 = ctx.allocate(op.outputs[1], f'{op.name}_shifted', (classes,))
    exp, more3 = ctx.allocate(op.outputs[1], e, (classes,))
    one = ctx.literal(1, logits.dtype)
    lines += more + more2 + more3 + [
        f'{x} = np.ascontiguousarray({ins[0]}).reshape({rows * classes})',
        f'{z} = np.ascontiguousarray({ins[1]}).reshape({rows})',
        f'for {r} in range({rows}):',
        f'    {label} = {z}[{r}]',
        f'    if {label} < 0 or {label} >= {classes}:',
        f"        raise IndexError('{op.type}: a label value is outside the valid range of "
        f"[0, {classes})')",
        f'    {top} = {x}[{r} * {classes}]',
        f'    for {c} in range(1, {classes}):',
        f'        {top} = np.maximum({top}, {x}[{r} * {classes} + {c}])',
        f'    for {c} in range({classes}):',
        f'        {shifted}[{c}] = {dtype}({x}[{r} * {classes} + {c}] - {top})',
        f'        {exp}[{c}] = {dtype}(np.exp({shifted}[{c}]))',
        f'    {total} = {dtype}({ctx.helper("pairwise_sum_f")}({exp}, 0, {classes}))',
        f'    {loss_acc}[{r}] = {dtype}(np.log({total})) - {shifted}[{label}]',
        f'    for {c} in range({classes}):',
        f'        {bp_acc}[{r} * {classes} + {c}] = {dtype}({exp}[{c}] / {total})',
        f'    {bp_acc}[{r} * {classes} + {label}] -= {one}']
    loss_dims, bp_dims = op.outputs[0].shape.as_tuple(), op.outputs[1].shape.as_tuple()
    if loss_dims:
        lines.append(f'{loss_out} = {loss_acc}.reshape({loss_dims!r})')
    else:
        lines.append(f'{loss_out} = {dtype}({loss_acc}[0])')
    lines.append(f'{bp_out} = {bp_acc}.reshape({bp_dims!r})')
    return lines, [loss_out, bp_out]


sparse_xent_lowering.fresh = True
