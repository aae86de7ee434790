"""The collectives as ops: an all-reduce of a list of tensors and an all-gather, whose kernels call
the strategy's engine. Inside a `tf.function` they are nodes of the traced graph (the generated code
calls them in program order; stateful, so never folded, pruned or moved), so a training step traces
as often as on one process and runs its collectives without leaving the compiled code.

One `CollectiveAllReduce` takes every gradient of a step: its kernel packs the tensors of each dtype
into one flat buffer and makes one engine call per dtype, not one per tensor.
"""
import numpy as np

from defun.core.dispatch import apply_op
from defun.core.registry import define_op
from defun.ops.support.helpers import dims

__all__ = ['all_reduce', 'all_gather', 'REDUCTIONS']

REDUCTIONS = ('sum', 'mean')


def _all_reduce_kernel(*arrays, engine, reduction):
    arrays = [np.asarray(a) for a in arrays]
    results = [None] * len(arrays)
    for dtype in dict.fromkeys(a.dtype for a in arrays):
        positions = [i for i, a in enumerate(arrays) if a.dtype == dtype]
        flat = np.concatenate([arrays[i].ravel() for i in positions])
        total = engine.allreduce(flat, 'sum')
        if reduction == 'mean':
            total = _mean(total, engine.world_size, dtype)
        offset = 0
        for i in positions:
            size = arrays[i].size
            results[i] = total[offset:offset + size].reshape(arrays[i].shape)
            offset += size
    return tuple(results)


def _mean(total, count, dtype):
    if dtype.kind in 'iub':   # an integer mean divides as TF's integer division does
        return (total // count).astype(dtype)
    return (total / np.asarray(count, dtype)).astype(dtype, copy=False)


def _all_reduce_infer(*inputs, engine, reduction):
    return [(t.dtype, dims(t)) for t in inputs]


def _all_reduce_grad(op, *grads):
    # Each replica's output depends on every replica's input: the gradient of a sum (a mean) of
    # the replicas' values is the sum (the mean) of the replicas' output gradients.
    return list(all_reduce(list(grads), op.get_attr('engine'), op.get_attr('reduction')))


ALL_REDUCE = define_op(
    'CollectiveAllReduce', _all_reduce_kernel, _all_reduce_infer, _all_reduce_grad,
    num_outputs=None, stateful=True,
    doc='The sum (or mean) of each input over all processes of the engine, in one buffer.')


def all_reduce(tensors, engine, reduction):
    """The `reduction` ('sum' or 'mean') of each tensor of the list over the engine's processes,
    as one op (so one fused exchange per dtype)."""
    if not tensors:
        return []
    return list(apply_op(ALL_REDUCE, tuple(tensors), {'engine': engine, 'reduction': reduction}))


def _all_gather_kernel(array, engine, axis):
    moved = np.moveaxis(np.asarray(array), axis, 0)
    return np.moveaxis(engine.allgather(moved), 0, axis)


def _all_gather_infer(x, engine, axis):
    shape = dims(x)
    if shape is not None:
        shape = shape[:axis] + (None,) + shape[axis + 1:]
    return x.dtype, shape


ALL_GATHER = define_op(
    'CollectiveAllGather', _all_gather_kernel, _all_gather_infer, None, stateful=True,
    doc="Every process's input concatenated along `axis`, in rank order.")


def all_gather(tensor, engine, axis):
    """Every process's `tensor` concatenated along `axis` (a non-negative int) in rank order."""
    return apply_op(ALL_GATHER, (tensor,), {'engine': engine, 'axis': axis})
