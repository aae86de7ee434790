"""How the While op runs: its kernel (a Python loop over the compiled cond and body) and the
per-iteration stacks its gradient reads (the emitter writing the loop into generated code is
while_emission.py).

Outputs of a While op: the final loop variables, the iteration count, then for each body tensor its
gradient may read (`accumulate`, every tensor of the body but its captures) its values stacked per
iteration (zero-padded when shapes vary) and their shapes. Only the stacks something reads are
built: the emitter asks the executor (`is_used`), the kernel is told (`live_outputs`).
"""
import numpy as np

from defun.core import dtypes
from defun.control_flow import subgraph as cf

__all__ = []

# The rows a stack of a loop whose trip count is known at run time only starts with (grow_rows).
FIRST_ROWS = 16


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


def repeat_value(value, count, element_shape, np_dtype):
    """The stacks of a loop-invariant value: `value` repeated `count` times, as a read-only
    broadcast view (no copy per iteration), and its shape per row; empty stacks when the loop did
    not run (value None)."""
    if value is None or count == 0:
        return stack_iterations([], element_shape, np_dtype)
    shape = np.asarray(np.shape(value), dtype=np.int32)
    return (np.broadcast_to(value, (count,) + np.shape(value)),
            np.broadcast_to(shape, (count, len(shape))))


def stack_with_previous(initial, values, element_shape, np_dtype):
    """The stacks of a loop variable as each iteration receives it and as it leaves it (`values`,
    a static shape): views of one buffer [initial, values...], shifted by one row."""
    buffer = np.stack([np.asarray(initial, dtype=np_dtype)] + list(values))
    return split_previous(buffer, element_shape)


def split_previous(buffer, element_shape):
    """(stack, shapes) of the rows but the last, then of the rows but the first, as views."""
    _, shapes = rows_of(buffer[1:], element_shape)
    return buffer[:-1], shapes, buffer[1:], shapes


def rows_of(buffer, element_shape):
    """A filled stack of static element shape and its shapes (one row per iteration)."""
    rank = len(element_shape)
    return buffer, np.broadcast_to(np.asarray(element_shape, dtype=np.int32), (len(buffer), rank))


def grow_rows(buffer):
    """Makes room for more rows in a stack the emitted loop fills in place, by resizing the
    array itself (realloc: a large buffer usually grows without a copy, so the rows are not held
    twice as a list and its join would be). Safe because nothing but the loop holds the buffer or
    a view of it until trim_rows."""
    buffer.resize((len(buffer) + max(len(buffer) // 2, FIRST_ROWS),) + buffer.shape[1:],
                  refcheck=False)


def trim_rows(buffer, rows):
    """Cuts a grown stack (grow_rows) to the `rows` the loop filled, in place."""
    buffer.resize((rows,) + buffer.shape[1:], refcheck=False)
