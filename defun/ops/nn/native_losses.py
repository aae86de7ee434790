"""Lowerings of softmax and the softmax cross-entropies for the native tier (jit_compile=True): one
pass per row of logits (the last axis), as the numpy kernels compute it.

Each row: its maximum, the shifted logits and their exp (numba's scalar exp: it may round an
element differently from numpy's SIMD one), their sum in numpy's order (native_math's pairwise
sum); then per op: Softmax exp / sum, LogSoftmax shifted - log(sum); the sparse cross-entropy's
loss log(sum) - shifted[label] and backprop exp / sum, one subtracted at the label (a label
outside [0, classes) raises, as the kernel's check does: TF's InvalidArgumentError); the dense
one's loss -sum(labels * (shifted - log(sum))) and backprop exp / sum * sum(labels) - labels.
"""
import numpy as np

__all__ = ['softmax_lowering', 'log_softmax_lowering', 'sparse_xent_lowering', 'xent_lowering']


class _Rows:
    """The shared part: names, scratch rows and the loop head computing shifted, exp, total."""

    def __init__(self, op, ins, ctx):
        logits = op.inputs[0]
        if not logits.shape.is_fully_defined() or logits.shape.rank < 1 or \
                logits.dtype.np_dtype not in (np.float32, np.float64):
            raise ctx.NotLowerable(f'{op.type} {op.name!r}: only float logits of static shape')
        axis = op.attrs.get('axis', -1)
        if axis not in (-1, logits.shape.rank - 1):
            raise ctx.NotLowerable(f'{op.type} {op.name!r}: only the last axis')
        dims = logits.shape.as_tuple()
        self.classes, self.rows = dims[-1], int(np.prod(dims[:-1]))
        if not self.classes or not self.rows:
            raise ctx.NotLowerable(f'{op.type} {op.name!r}: an empty batch or no classes')
        self.ctx, self.op, self.dtype = ctx, op, ctx.dtype(logits)
        self.x, self.r, self.c, self.top, self.total = (
            ctx.fresh(h) for h in ('x', 'r', 'c', 'top', 'total'))
        self.lines = []
        self.shifted = self.scratch(f'{op.name}_shifted', (self.classes,))
        self.exp = self.scratch(f'{op.name}_exp', (self.classes,))

    def scratch(self, hint, dims, tensor=None):
        name, lines = self.ctx.allocate(tensor if tensor is not None else self.op.outputs[-1],
                                        hint, dims)
        self.lines += lines
        return name

    def at(self, row_array=None):
        """The element (r, c) of a flat [rows * classes] array."""
        return f'{row_array or self.x}[{self.r} * {self.classes} + {self.c}]'

    def head(self, logits_expr, checks=()):
        k, d = self.classes, self.dtype
        sum_ = self.ctx.helper('pairwise_sum_f')
        self.lines += [f'{self.x} = np.ascontiguousarray({logits_expr}).reshape({self.rows * k})',
                       f'for {self.r} in range({self.rows}):']
        self.lines += ['    ' + line for line in checks]
        self.lines += [
            f'    {self.top} = {self.x}[{self.r} * {k}]',
            f'    for {self.c} in range(1, {k}):',
            f'        {self.top} = np.maximum({self.top}, {self.at()})',
            f'    for {self.c} in range({k}):',
            f'        {self.shifted}[{self.c}] = {d}({self.at()} - {self.top})',
            f'        {self.exp}[{self.c}] = {d}(np.exp({self.shifted}[{self.c}]))',
            f'    {self.total} = {d}({sum_}({self.exp}, 0, {k}))']

    def result(self, flat, tensor):
        """(name of `tensor`'s value from its flat array `flat`, lines)."""
        name = self.ctx.fresh(tensor.op.name)
        dims = tensor.shape.as_tuple()
        if dims:
            return name, [f'{name} = {flat}.reshape({dims!r})']
        return name, [f'{name} = {self.dtype}({flat}[0])']


def _each(rows, lines):
    """`lines` inside the row loop, once per class."""
    return [f'    for {rows.c} in range({rows.classes}):'] + ['        ' + line for line in lines]


def _per_class_op(op, ins, ctx, element):
    rows = _Rows(op, ins, ctx)
    out = rows.scratch(f'{op.name}_flat', (rows.rows * rows.classes,), op.outputs[0])
    rows.head(ins[0])
    rows.lines += _each(rows, [f'{rows.at(out)} = {rows.dtype}({element(rows)})'])
    name, tail = rows.result(out, op.outputs[0])
    return rows.lines + tail, [name]


def softmax_lowering(op, ins, ctx):
    """Softmax over the last axis (see the module docstring)."""
    return _per_class_op(op, ins, ctx, lambda r: f'{r.exp}[{r.c}] / {r.total}')


def log_softmax_lowering(op, ins, ctx):
    """LogSoftmax over the last axis (see the module docstring)."""
    return _per_class_op(op, ins, ctx,
                         lambda r: f'{r.shifted}[{r.c}] - {r.dtype}(np.log({r.total}))')


def sparse_xent_lowering(op, ins, ctx):
    """SparseSoftmaxCrossEntropyWithLogits (see the module docstring)."""
    rows = _Rows(op, ins, ctx)
    k, d = rows.classes, rows.dtype
    loss = rows.scratch(f'{op.name}_loss', (rows.rows,), op.outputs[0])
    bp = rows.scratch(f'{op.name}_backprop', (rows.rows * k,), op.outputs[1])
    label, z = ctx.fresh('label'), ctx.fresh('z')
    rows.lines.append(f'{z} = np.ascontiguousarray({ins[1]}).reshape({rows.rows})')
    rows.head(ins[0], [
        f'{label} = {z}[{rows.r}]',
        f'if {label} < 0 or {label} >= {k}:',
        f"    raise IndexError('{op.type}: a label value is outside the valid range of [0, {k})')"])
    rows.lines += [f'    {loss}[{rows.r}] = {d}(np.log({rows.total})) - {rows.shifted}[{label}]']
    rows.lines += _each(rows, [f'{rows.at(bp)} = {d}({rows.exp}[{rows.c}] / {rows.total})'])
    rows.lines += [f'    {bp}[{rows.r} * {k} + {label}] -= {ctx.literal(1, op.outputs[1].dtype)}']
    return _two_results(rows, loss, bp)


def xent_lowering(op, ins, ctx):
    """SoftmaxCrossEntropyWithLogits, labels of the logits' shape (see the module docstring)."""
    rows = _Rows(op, ins, ctx)
    k, d = rows.classes, rows.dtype
    if op.inputs[1].shape.as_tuple() != op.inputs[0].shape.as_tuple():
        raise ctx.NotLowerable(f'{op.type} {op.name!r}: labels of another shape')
    loss = rows.scratch(f'{op.name}_loss', (rows.rows,), op.outputs[0])
    bp = rows.scratch(f'{op.name}_backprop', (rows.rows * k,), op.outputs[1])
    terms = rows.scratch(f'{op.name}_terms', (k,))
    z, log_total, mass = ctx.fresh('z'), ctx.fresh('log_total'), ctx.fresh('mass')
    sum_ = ctx.helper('pairwise_sum_f')
    rows.lines.append(f'{z} = np.ascontiguousarray({ins[1]}).reshape({rows.rows * k})')
    rows.head(ins[0])
    rows.lines += [f'    {log_total} = {d}(np.log({rows.total}))']
    rows.lines += _each(rows, [
        f'{terms}[{rows.c}] = {d}({rows.at(z)} * {d}({rows.shifted}[{rows.c}] - {log_total}))'])
    rows.lines += [f'    {loss}[{rows.r}] = -{d}({sum_}({terms}, 0, {k}))',
                   f'    {mass} = {d}({sum_}({z}, {rows.r} * {k}, {k}))']
    rows.lines += _each(rows, [
        f'{rows.at(bp)} = {d}({d}({d}({rows.exp}[{rows.c}] / {rows.total}) * {mass}) - '
        f'{rows.at(z)})'])
    return _two_results(rows, loss, bp)


def _two_results(rows, loss, bp):
    loss_name, tail = rows.result(loss, rows.op.outputs[0])
    bp_name, tail2 = rows.result(bp, rows.op.outputs[1])
    return rows.lines + tail + tail2, [loss_name, bp_name]


for _lowering in (softmax_lowering, log_softmax_lowering, sparse_xent_lowering, xent_lowering):
    _lowering.fresh = True
