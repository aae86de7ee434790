"""How the While op runs: its kernel (a Python loop over the compiled cond and body), the emitter
writing that loop into generated code, and the per-iteration stacks its gradient reads.

Outputs of a While op: the final loop variables, the iteration count, then for each accumulated body
tensor its values stacked per iteration (zero-padded when shapes vary) and their shapes.
"""
import numpy as np

from defun import dtypes
from defun.ops import control_flow as cf

__all__ = []


def accumulator_specs(t):
    d = t.shape.as_tuple()
    return [(t.dtype, None if d is None else (None,) + d),
            (dtypes.int32, (None, None if d is None else len(d)))]


def infer(*inputs, cond, body, n_vars, has_max, accumulate):
    specs = [(x.dtype, x.shape.as_tuple()) for x in body.inputs[:n_vars]]
    specs.append((dtypes.int32, ()))
    return specs + [spec for t in accumulate for spec in accumulator_specs(t)]


def stack_iterations(values, element_shape, np_dtype):
    """The values a loop accumulated, one row per iteration, and their shapes. When the shapes
    differ (an inner loop's stacks, a growing loop variable) the rows are zero-padded to the
    largest shape, so the stack stays an ordinary differentiable tensor."""
    if not values:
        known = element_shape is not None and None not in element_shape
        rank = 0 if element_shape is None else len(element_shape)
        return (np.zeros((0,) + (tuple(element_shape) if known else ()), dtype=np_dtype),
                np.zeros((0, rank), dtype=np.int32))
    shapes = np.array([np.shape(v) for v in values], dtype=np.int32).reshape(len(values), -1)
    try:
        return np.stack(values), shapes
    except ValueError:
        padded = np.zeros((len(values),) + tuple(shapes.max(axis=0)), dtype=np_dtype)
        for i, value in enumerate(values):
            padded[(i,) + tuple(slice(0, d) for d in np.shape(value))] = value
        return padded, shapes


def kernel(*arrays, cond, body, n_vars, has_max, accumulate):
    """The loop, run directly (constant folding, or an op applied outside generated code)."""
    limit = int(arrays[-1]) if has_max else None
    captured = arrays[n_vars:len(arrays) - int(has_max)]
    cond_fn = cf.compiled(cond, cond.outputs)
    body_fn = cf.compiled(body, list(body.outputs) + list(accumulate))
    loop, stacks, count = list(arrays[:n_vars]), [[] for _ in accumulate], 0
    while (limit is None or count < limit) and cond_fn(*loop, *captured)[0]:
        out = body_fn(*loop, *captured)
        loop = list(out[:n_vars])
        for stack, value in zip(stacks, out[n_vars:]):
            stack.append(value)
        count += 1
    return tuple(loop) + (np.int32(count),) + tuple(
        part for s, t in zip(stacks, accumulate)
        for part in stack_iterations(s, t.shape.as_tuple(), t.dtype.np_dtype))


def emit(op, in_names, out_names, bind):
    """A Python while loop over the compiled cond and body; the outputs double as loop variables."""
    attrs = op.attrs
    n, accumulate = attrs['n_vars'], list(attrs['accumulate'])
    cond_fn = bind(cf.compiled(attrs['cond'], attrs['cond'].outputs), f'{op.name}_cond')
    body_fn = bind(cf.compiled(attrs['body'], list(attrs['body'].outputs) + accumulate),
                   f'{op.name}_body')
    loop, count, stacks = out_names[:n], out_names[n], out_names[n + 1::2]
    captured = in_names[n:len(in_names) - int(attrs['has_max'])]
    args = ', '.join(loop + captured)
    test = f'{cond_fn}({args})[0]'
    if attrs['has_max']:
        test = f'{count} < {in_names[-1]} and {test}'
    lines = [f'{", ".join(loop)}, = {", ".join(in_names[:n])},', f'{count} = 0']
    lines += [f'{s} = []' for s in stacks]
    lines.append(f'while {test}:')
    if stacks:
        step = bind(None, f'{op.name}_step')  # a fresh name, used as a local
        lines.append(f'    {", ".join(loop)}, *{step} = {body_fn}({args})')
        lines += [f'    {s}.append({step}[{k}])' for k, s in enumerate(stacks)]
    else:
        lines.append(f'    {", ".join(loop)}, = {body_fn}({args})')
    lines.append(f'    {count} += 1')
    if stacks:
        stack_fn = bind(stack_iterations, 'stack_iterations')
        for k, (s, t) in enumerate(zip(stacks, accumulate)):
            shape = bind(t.shape.as_tuple(), f'{s}_shape')
            dtype = bind(t.dtype.np_dtype, f'{s}_dtype')
            lines.append(f'{s}, {out_names[n + 2 + 2 * k]} = {stack_fn}({s}, {shape}, {dtype})')
    lines.append(f'{count} = np.int32({count})')
    return lines
