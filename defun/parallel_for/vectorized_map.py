"""tf.vectorized_map: fn applied to each slice of `elems` along their first dimension, the
results stacked, as TF defines it.

TF converts fn's graph op by op into batched ops (its pfor compiler) and falls back to a while
loop for ops it cannot convert. defun traces fn once, as a tf.function of one element's
signature, and runs that compiled function in a while loop over the elements (map_fn), which is
TF's fallback for every op: results, gradients and use inside tf.function are TF's; the batched
speed-up is not. Results that do not depend on the element (constants, Python numbers) are
repeated for every element, as TF's broadcast gives them; a None result stays None.
"""
from defun.control_flow.higher_order import map_fn
from defun.core import errors, nest
from defun.core.shapes import TensorSpec
from defun.core.tensor import convert_to_tensor
from defun.functions.function import function

__all__ = ['vectorized_map']


def _batch_size(tensors):
    sizes = set()
    for t in tensors:
        if t.shape.rank == 0:
            raise IndexError(f'vectorized_map: every tensor of elems needs a first dimension to '
                             f'map over, got the scalar {t!r} (list index out of range)')
        if t.shape.rank is not None and t.shape[0] is not None:
            sizes.add(t.shape[0])
    if len(sizes) > 1:
        raise errors.InvalidArgumentError(f'vectorized_map: the tensors of elems must have the '
                                          f'same first dimension, got sizes {sorted(sizes)}')


def vectorized_map(fn, elems, fallback_to_while_loop=True, warn=True):
    """Stacks fn(x) for each x sliced from `elems` (a nested structure of tensors) along its
    first dimension; fn's result may be any nested structure of tensors (and None)."""
    if not callable(fn):
        raise TypeError(f'vectorized_map: fn must be callable, got {fn!r}')
    flat = [convert_to_tensor(e) for e in nest.flatten(elems)]
    _batch_size(flat)
    packed = nest.pack_sequence_as(elems, flat)

    def one(*xs):
        return fn(nest.pack_sequence_as(elems, list(xs)))

    specs = [TensorSpec(t.shape[1:] if t.shape.rank is not None else None, t.dtype)
             for t in flat]
    concrete = function(one).get_concrete_function(*specs)   # fn traced once
    structure = concrete.structured_outputs
    leaves = nest.flatten(structure)
    kept = [i for i, v in enumerate(leaves) if v is not None]
    if not kept:
        return structure
    signature = tuple(TensorSpec(leaves[i].shape, leaves[i].dtype) for i in kept)

    def body(x):
        out = nest.flatten(concrete(*nest.flatten(x)))
        return tuple(convert_to_tensor(out[i]) for i in kept)

    stacked = map_fn(body, packed, fn_output_signature=signature)
    results = list(leaves)
    for i, value in zip(kept, stacked):
        results[i] = value
    return nest.pack_sequence_as(structure, results)
