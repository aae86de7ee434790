"""TensorArray buffers a While loop may write in place.

A TensorArray write returns a new buffer (defun/ops/array/tensor_array_ops.py), which copies the whole
buffer: n writes in a loop cost O(n²). When loop variable j enters the body only to be written
(the write is the placeholder's one reader), the write's result is exactly the body's output j
and nothing else reads or stacks either value, the old buffer is dead after the write: the
emitter writes it in place (tensor_array_ops.write_in_place) and gives the loop its own copy of
the initial buffer once, before the first iteration, so the caller's value is never changed.
"""
from defun.ops.array import tensor_array_ops as ta_ops

__all__ = ['in_place_writes']


def in_place_writes(op, stacked):
    """{j: write op} of the loop variables of While op `op` whose writes may be in place;
    `stacked`: the body values the emitted loop keeps per iteration (for a gradient)."""
    body, n = op.attrs['body'], op.attrs['n_vars']
    held = [id(t) for t in body.outputs] + [id(t) for t in stacked]
    found = {}
    for j in range(n):
        placeholder, out = body.inputs[j], body.outputs[j]
        write = out.op
        if write.opdef is not ta_ops.WRITE or out is not write.outputs[0]:
            continue
        if write.inputs[0] is not placeholder or any(t is placeholder for t in write.inputs[1:]):
            continue
        if placeholder.consumers() != [write] or out.consumers():
            continue
        if id(placeholder) in held or held.count(id(out)) != 1:
            continue
        found[j] = write
    return found
