"""How the While op runs: its kernel (a Python loop over the compiled cond and body), the emitter
writing that loop into generated code, and the per-iteration stacks its gradient reads.

Outputs of a While op: the final loop variables, the iteration count, then for each body tensor its
gradient may read (`accumulate`, every tensor of the body but its captures) its values stacked per
iteration (zero-padded when shapes vary) and their shapes. Only the stacks something reads are
built: the emitter asks the executor (`is_used`), the kernel is told (`live_outputs`).
"""
import numpy as np

from defun import dtypes
from defun.executor import PythonInts, indent
from defun.control_flow import loop_counters
from defun.control_flow import subgraph as cf

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


def live_stacks(n_vars, accumulate, is_live):
    """The indices k of the accumulated tensors whose stack outputs is_live(output index) says are
    read."""
    return [k for k in range(len(accumulate))
            if is_live(n_vars + 1 + 2 * k) or is_live(n_vars + 2 + 2 * k)]


def kernel(*arrays, cond, body, n_vars, has_max, accumulate, live_outputs=frozenset()):
    """The loop, run directly (constant folding, or a big graph's first, interpreted call)."""
    limit = int(arrays[-1]) if has_max else None
    captured = arrays[n_vars:len(arrays) - int(has_max)]
    kept = live_stacks(n_vars, accumulate, live_outputs.__contains__)
    cond_fn = cf.compiled(cond, cond.outputs)
    body_fn = cf.compiled(body, list(body.outputs) + [accumulate[k] for k in kept])
    loop, stacks, count = list(arrays[:n_vars]), [[] for _ in kept], 0
    while (limit is None or count < limit) and cond_fn(*loop, *captured)[0]:
        out = body_fn(*loop, *captured)
        loop = list(out[:n_vars])
        for stack, value in zip(stacks, out[n_vars:]):
            stack.append(value)
        count += 1
    parts = [(None, None)] * len(accumulate)
    for k, s in zip(kept, stacks):
        t = accumulate[k]
        parts[k] = stack_iterations(s, t.shape.as_tuple(), t.dtype.np_dtype)
    return tuple(loop) + (np.int32(count),) + tuple(part for pair in parts for part in pair)


def emit(op, in_names, out_names, ctx):
    """A Python `while` loop with the cond and body graphs written inline (no call per
    iteration); the op's outputs double as the loop variables. Counters proven to stay in int32
    (loop_counters) run as Python ints; the iteration count is kept only when something reads it."""
    attrs = op.attrs
    n = attrs['n_vars']
    kept = live_stacks(n, attrs['accumulate'], lambda i: ctx.is_used(op.outputs[i]))
    accumulate = [attrs['accumulate'][k] for k in kept]
    cond_graph, body_graph = attrs['cond'], attrs['body']
    loop, count, stacks = out_names[:n], out_names[n], [out_names[n + 1 + 2 * k] for k in kept]
    captured = in_names[n:len(in_names) - int(attrs['has_max'])]
    counters = loop_counters.find_counters(op)
    lines, limits = [], {}
    for j in range(n):
        lines.append(f'{loop[j]} = {_int_text(op.inputs[j], in_names[j])}' if j in counters else
                     f'{loop[j]} = {in_names[j]}')
    for c in counters.values():
        if not isinstance(c.limit, int):
            m = c.limit[1]
            limits[m] = limits.get(m) or ctx.fresh(f'{captured[m]}_int')
            lines.append(f'{limits[m]} = int({captured[m]})')
    counting = attrs['has_max'] or ctx.is_used(op.outputs[n])
    if counting:
        lines.append(f'{count} = 0')
    lines += [f'{s} = []' for s in stacks]
    feeds = loop + captured
    ints = [loop[j] for j in counters]
    starts = {j: op.inputs[j].static_value() if hasattr(op.inputs[j], 'static_value') else None
              for j in counters}
    rising = [loop[j] for j, c in counters.items()
              if c.delta > 0 and starts[j] is not None and int(starts[j]) >= 0]
    tested = [loop[j] for j, c in counters.items() if c.delta < 0 and isinstance(c.limit, int)
              and c.limit >= (0 if c.symbol == '>=' else -1)]
    cond_ints = PythonInts(ints, {c.compare: _compare_text(c, loop, limits) for c in
                                  counters.values()}, outputs=[0], nonnegative=rising)
    cond_lines, (test,) = ctx.inline(cond_graph, list(cond_graph.inputs), cond_graph.outputs[:1],
                                     feeds, cond_ints)
    step = []
    if attrs['has_max']:
        limit = ctx.fresh('maximum_iterations')
        lines.append(f'{limit} = int({in_names[-1]})')
        step += [f'if {count} >= {limit}:', '    break']
    header = _while_header(cond_lines, test) if not attrs['has_max'] else None
    if header is None:
        lines.append('while True:')
        step += cond_lines + [f'if not {test}:', '    break']
    else:
        lines.append(header)
    body_ints = PythonInts(ints, {c.step: _step_text(c, loop) for c in counters.values()},
                           outputs=list(counters), nonnegative=rising + tested)
    body_lines, outs = ctx.inline(body_graph, list(body_graph.inputs),
                                  list(body_graph.outputs) + accumulate, feeds, body_ints)
    step += body_lines
    # Stacks first: an accumulated value may be a loop variable about to be rebound.
    step += [f'{s}.append({value})' for s, value in zip(stacks, outs[n:])]
    step += parallel_assignment(loop, outs[:n])
    if counting:
        step.append(f'{count} += 1')
    lines += indent(step or ['pass'])
    lines += _stack_lines(op, kept, stacks, accumulate, out_names, ctx)
    lines += [f'{loop[j]} = np.int32({loop[j]})' for j in counters]
    if counting:
        lines.append(f'{count} = np.int32({count})')
    return lines


def _int_text(tensor, name):
    value = tensor.static_value() if hasattr(tensor, 'static_value') else None
    return repr(int(value)) if value is not None else f'int({name})'


def _compare_text(counter, loop, limits):
    limit = counter.limit if isinstance(counter.limit, int) else limits[counter.limit[1]]
    return f'{loop[counter.index]} {counter.symbol} {limit}'


def _step_text(counter, loop):
    sign = '+' if counter.delta > 0 else '-'
    return f'{loop[counter.index]} {sign} {abs(counter.delta)}'


def _while_header(cond_lines, test):
    """`while <test>:` when the cond is one expression bound to the test's name, else None."""
    if not cond_lines:
        return f'while {test}:'
    if len(cond_lines) != 1:
        return None
    text, owner = cond_lines[0] if isinstance(cond_lines[0], tuple) else (cond_lines[0], None)
    prefix = f'{test} = '
    if not text.startswith(prefix) or '\n' in text:
        return None
    return (f'while {text[len(prefix):]}:', owner)


def parallel_assignment(targets, sources):
    """Lines rebinding each target to its source as if all at once, one name at a time (no tuple
    packing); a cycle of names (a swap) falls back to one tuple assignment."""
    pending = [(t, s) for t, s in zip(targets, sources) if t != s]
    lines = []
    while pending:
        read = {s for _, s in pending}
        ready = next((p for p in pending if p[0] not in read), None)
        if ready is None:
            lines.append(f'{", ".join(t for t, _ in pending)}, = '
                         f'{", ".join(s for _, s in pending)},')
            break
        lines.append(f'{ready[0]} = {ready[1]}')
        pending.remove(ready)
    return lines


def _stack_lines(op, kept, stacks, accumulate, out_names, ctx):
    if not stacks:
        return []
    n = op.attrs['n_vars']
    stack_fn = ctx.bind(stack_iterations, 'stack_iterations')
    lines = []
    for k, s, t in zip(kept, stacks, accumulate):
        shape = ctx.bind(t.shape.as_tuple(), f'{s}_shape')
        dtype = ctx.bind(t.dtype.np_dtype, f'{s}_dtype')
        lines.append(f'{s}, {out_names[n + 2 + 2 * k]} = {stack_fn}({s}, {shape}, {dtype})')
    return lines
