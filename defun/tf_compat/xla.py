"""`tensorflow.compiler.tf2xla.python.xla`: the XLA op Keras's `slice_update` uses, composed from
defun's ops (so it runs eagerly, in graphs, and differentiates through them)."""
from defun.core.tensor import convert_to_tensor
from defun.ops.array.creation import range as arange
from defun.ops.array.gathering import tensor_scatter_nd_update
from defun.ops.array.joining import stack
from defun.ops.framework.base_ops import cast, shape
from defun.ops.math.arithmetic import maximum, minimum
from defun.ops.math.clipping import meshgrid

__all__ = ['dynamic_update_slice']


def dynamic_update_slice(input, update, indices, name=None):  # noqa: A002 - TF's argument name
    """`input` with `update` written over the block starting at `indices` (XLA's
    DynamicUpdateSlice: a start index is clamped so that the block fits inside `input`)."""
    input = convert_to_tensor(input)
    update = convert_to_tensor(update, dtype=input.dtype)
    rank = update.shape.rank
    if rank is None or input.shape.rank != rank:
        raise ValueError(f'dynamic_update_slice: update of rank {rank} does not match input of '
                         f'rank {input.shape.rank}')
    if rank == 0:
        return update
    starts = cast(convert_to_tensor(indices), 'int64')
    in_shape = cast(shape(input), 'int64')
    up_shape = cast(shape(update), 'int64')
    starts = minimum(maximum(starts, 0), in_shape - up_shape)
    axes = [arange(up_shape[i], dtype='int64') + starts[i] for i in range(rank)]
    index = stack(meshgrid(*axes, indexing='ij'), axis=-1)
    return tensor_scatter_nd_update(input, index, update, name=name)
