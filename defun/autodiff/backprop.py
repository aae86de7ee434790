"""The backward pass, shared by eager tapes and symbolic `gradients()`, plus the tape's gradient,
jacobian and batch_jacobian.

`backward` works on any list of op-like nodes in execution order (tape records or graph Operations):
it keeps the ops that lie between the sources and the targets, then visits them in reverse execution
order. That order is a ready order: every consumer of an op's outputs ran after the op, so by the time
an op is visited all gradients for its outputs are in. Gradients arriving at a tensor from several
consumers are summed with `add_n` when the tensor's producer needs them, and dropped once used.
Missing gradients of an op's other float outputs are fed as zeros (gradient functions marked
whose OpDef says `accepts_missing_grads` get None instead and skip that work). The gradient functions are the
registry's, written with our own ops, so running them under an outer tape records them (higher order).
"""
from defun.core import dtypes, nest, registry
from defun.core.composite import CompositeTensor
from defun.core.tensor import Tensor, convert_to_tensor
from defun.ops.array import joining as array_ops
from defun.ops.framework.indexed_slices import IndexedSlices
from defun.ops.math import exports as math_ops
from defun.core.variable_base import is_variable, read_variable

__all__ = ['backward', 'gradient', 'jacobian', 'batch_jacobian', 'normalize_unconnected',
           'initial_grads', 'dense']


def normalize_unconnected(value):
    text = getattr(value, 'value', value)
    if text not in ('none', 'zero'):
        raise ValueError(f"Unknown value for unconnected_gradients: {value!r} "
                         f"(expected UnconnectedGradients.NONE or .ZERO)")
    return text


def _differentiable(tensor):
    dtype = tensor.dtype
    # A variant (an Optional's) carries its components' gradients, as in TF.
    return dtype.is_differentiable or dtype.name in ('resource', 'variant')


def _ops_between(ops, source_ids, target_ids, stop_ids):
    """The ops on some path from a source to a target, in reverse execution order; the ids of
    tensors the targets need gradients for; the ids of tensors that depend on a source."""
    reached = set(source_ids)
    blocked = stop_ids - source_ids if stop_ids else stop_ids
    forward = []
    for op in ops:
        for t in op.inputs:
            if id(t) in reached and id(t) not in blocked:
                forward.append(op)
                reached.update(id(o) for o in op.outputs)
                break
    needed = set(target_ids)
    backward_order = []
    for op in reversed(forward):
        if any(id(t) in needed and id(t) not in stop_ids for t in op.outputs):
            backward_order.append(op)
            needed.update(id(t) for t in op.inputs)
    return backward_order, needed, reached


def _sum(grads):
    """The sum of the gradients reaching one tensor: add_n, except that IndexedSlices alone stay
    sparse (their rows concatenated, as TF's aggregation; with a dense one all become dense)."""
    if grads is None:
        return None
    if len(grads) == 1:
        return grads[0]
    if any(isinstance(g, IndexedSlices) for g in grads):
        if all(isinstance(g, IndexedSlices) for g in grads):
            return _concat_slices(grads)
        grads = [dense(g) for g in grads]
    return math_ops.add_n(grads)


def _concat_slices(grads):
    flat = [g.flat() for g in grads]
    return IndexedSlices(array_ops.concat([v for _, v in flat], 0),
                         array_ops.concat([i for i, _ in flat], 0), grads[0].dense_shape)


def dense(grad):
    """A gradient as a tensor (an IndexedSlices converted as TF converts it)."""
    return convert_to_tensor(grad) if isinstance(grad, IndexedSlices) else grad


def backward(ops, target_grads, source_ids, grad_fn_of=registry.get_gradient_function,
             stop_ids=frozenset()):
    """Runs the gradient functions of `ops` backwards from the targets.

    target_grads: dict id(tensor) -> list of incoming gradients for each target.
    Returns a dict id(source) -> summed gradient (absent when unconnected).
    """
    # A stopped tensor that is also a source still gets its gradient (TF's `gradients`): only
    # what lies below it is cut off, so it blocks the walk but not its own accumulation.
    order, needed, reached = _ops_between(ops, source_ids, set(target_grads), stop_ids)
    stop_ids = stop_ids - source_ids if stop_ids else stop_ids
    pending = {k: list(v) for k, v in target_grads.items()}
    results = {}
    for op in order:
        out_grads = _gather_output_grads(op, pending, source_ids, results)
        if out_grads is None:
            continue
        out_grads = _without_integer_seeds(op, out_grads)
        if out_grads is None:
            continue
        grad_fn = grad_fn_of(op)
        if grad_fn is None:
            continue
        # The flags are facts of the op's own gradient; an override (gradient_override_map) is a
        # plain gradient function.
        own = grad_fn is op.opdef.grad
        if not (own and op.opdef.takes_indexed_slices):
            out_grads = [dense(g) for g in out_grads]
        if not (own and op.opdef.accepts_missing_grads):
            out_grads = _zeros_for_missing(op, out_grads)
        if own and op.opdef.skips_unneeded_inputs:
            # Gradient functions of whole loops and branches can skip the work for inputs that
            # depend on no source (e.g. a loop's data when only its weights are differentiated).
            in_grads = grad_fn(op, *out_grads, needed=[
                id(t) in reached and id(t) not in stop_ids for t in op.inputs])
        else:
            in_grads = grad_fn(op, *out_grads)
        if not isinstance(in_grads, (list, tuple)):
            in_grads = [in_grads]
        if len(in_grads) != len(op.inputs):
            raise ValueError(
                f"The gradient function of op '{op.name}' (type {op.type}) returned "
                f'{len(in_grads)} gradients for {len(op.inputs)} inputs')
        for t, g in zip(op.inputs, in_grads):
            if g is None or id(t) not in needed or id(t) in stop_ids or not _differentiable(t):
                continue
            pending.setdefault(id(t), []).append(g)
    for sid in source_ids:
        if sid not in results and sid in pending:
            results[sid] = _sum(pending.pop(sid))
    return results


def _without_integer_seeds(op, out_grads):
    """The gradients of `op`'s outputs with the seeds of integer targets taken out: None when
    only those arrived and the op does not run its gradient for them (TF: a Cast to int gives
    None, a function call or while loop gives its inputs zeros)."""
    seeded = [None if g is None or _differentiable(t) else g for t, g in zip(op.outputs, out_grads)]
    if not any(g is not None for g in seeded):
        return out_grads
    out_grads = [g if _differentiable(t) else None for t, g in zip(op.outputs, out_grads)]
    if any(g is not None for g in out_grads) or op.opdef.integer_outputs_seed:
        return out_grads
    return None


def _zeros_for_missing(op, out_grads):
    return [array_ops.zeros_like(t) if g is None and t.dtype.is_differentiable else g
            for t, g in zip(op.outputs, out_grads)]


def _gather_output_grads(op, pending, source_ids, results):
    grads = []
    any_grad = False
    for t in op.outputs:
        key = id(t)
        if key in source_ids:
            g = results.get(key)
            if g is None and key in pending:
                g = results[key] = _sum(pending.pop(key))
        else:
            g = _sum(pending.pop(key, None))
        any_grad = any_grad or g is not None
        grads.append(g)
    # None when nothing flows in; otherwise the gradients, None where an output got none (filled
    # with zeros unless the gradient function says it handles None: see `backward`).
    return grads if any_grad else None


def _source_tensor(source):
    """A variable's gradient flows to its handle; everything else is its own key. (Variables of
    other libraries built on defun's, such as Keras's, may spell their dtype as a string.)"""
    if is_variable(source):
        return source.handle, dtypes.as_dtype(source.dtype)
    if not isinstance(source, Tensor):
        raise TypeError(f'GradientTape.gradient sources must be tensors or variables, got '
                        f'{source!r} of type {type(source).__name__}')
    return source, source.dtype


def initial_grads(flat_targets, output_gradients, keys=None, identity_ids=frozenset()):
    """The seed gradient of each target (ones, or its output gradient), keyed by id(key) (the
    target itself unless `keys` says otherwise). Targets that are not differentiable get none,
    except those in `identity_ids`: a target that is also a source gets its seed back (TF)."""
    keys = flat_targets if keys is None else keys
    if output_gradients is None:
        flat_out = [None] * len(flat_targets)
    else:
        flat_out = nest.flatten(output_gradients)
        if len(flat_out) != len(flat_targets):
            raise ValueError(f'output_gradients has {len(flat_out)} entries for '
                             f'{len(flat_targets)} targets')
    target_grads = {}
    for t, key, g in zip(flat_targets, keys, flat_out):
        # An integer target is seeded too: the ops that run a gradient for it say so
        # (OpDef.integer_outputs_seed); for the others the seed stops at its producer.
        if t is None or not (t.dtype.is_differentiable or t.dtype.is_integer or
                             id(key) in identity_ids):
            continue
        if g is None:
            g = array_ops.ones_like(t)
        else:
            g = math_ops.convert_like(g, t)
        target_grads.setdefault(id(key), []).append(g)
    return target_grads


def gradient(records, target, sources, output_gradients=None, unconnected_gradients='none'):
    """The gradient of a tape: sums over targets, one result per source in sources' structure."""
    unconnected = normalize_unconnected(unconnected_gradients)
    targets = [part for t in nest.flatten(target) for part in gradient_parts(t)]
    if any(isinstance(s, CompositeTensor) for s in nest.flatten(sources)):
        return _composite_gradient(records, targets, sources, output_gradients,
                                   unconnected_gradients)
    flat_sources = nest.flatten(sources)
    keyed = [_source_tensor(s) for s in flat_sources]
    source_ids = {id(k) for k, _ in keyed}
    # As TF: a variable target stands for its handle, so d v / d v is 1 (and a target that is
    # also a source gets its output gradient, watched or not, whatever its dtype).
    target_keys = [t.handle if is_variable(t) else t for t in targets]
    identity_ids = source_ids.intersection(id(k) for k in target_keys)
    target_grads = initial_grads([_read(t) for t in targets], output_gradients, target_keys,
                                 identity_ids)
    grads = backward(records.entries, target_grads, source_ids)
    flat = []
    for (key, dtype), source in zip(keyed, flat_sources):
        g = grads.get(id(key)) if dtype.is_differentiable or id(key) in identity_ids else None
        if g is None and unconnected == 'zero':
            g = array_ops.zeros_like(_read(source))
        flat.append(g)
    return nest.pack_sequence_as(sources, flat)


def gradient_parts(value):
    """The tensors a gradient flows through for `value` (TF's composite gradient protocol): a
    ragged tensor's flat values; a tensor itself; other composites (SparseTensor) refused."""
    if not isinstance(value, CompositeTensor):
        return [value]
    if hasattr(value, 'with_flat_values'):
        return [value.flat_values]
    raise ValueError(f'Type {type(value).__name__} is not supported as a gradient source or '
                     f'gradient target.')


def _composite_gradient(records, targets, sources, output_gradients, unconnected):
    """Gradients for sources that include ragged tensors, as TF gives them: the ragged tensor
    with the gradient of its flat values in their place (None when unconnected)."""
    leaves = nest.flatten(sources)
    wrt = [gradient_parts(leaf)[0] for leaf in leaves]
    grads = gradient(records, targets, wrt, output_gradients, unconnected)
    out = [g if g is None or not isinstance(leaf, CompositeTensor) else
           leaf.with_flat_values(dense(g)) for leaf, g in zip(leaves, grads)]
    return nest.pack_sequence_as(sources, out)


def _is_variable(value):
    return hasattr(value, 'handle') and hasattr(value, 'read_value')


def _read(value):
    """Variables used as targets or zero templates read their current value."""
    return read_variable(value) if is_variable(value) else value


def jacobian(records, target, sources, unconnected_gradients='none'):
    """d target / d sources, one row of gradients per element of target, shaped target + source."""
    flat_sources = nest.flatten(sources)
    n = target.shape.num_elements()  # static, so that tracing a function works too
    if n is None:
        n = int(array_ops.size(target))
    rows = []
    for i in range(n):
        seed = array_ops.reshape(array_ops.one_hot(i, n, dtype=target.dtype), array_ops.shape(target))
        rows.append(gradient(records, target, flat_sources, seed, unconnected_gradients))
    out = []
    for j, s in enumerate(flat_sources):
        column = [row[j] for row in rows]
        if any(c is None for c in column):
            out.append(None)
            continue
        stacked = array_ops.stack(column) if column else array_ops.zeros(
            [0] + list(_read(s).shape), dtype=_read(s).dtype)
        out.append(array_ops.reshape(stacked, array_ops.concat(
            [array_ops.shape(target), array_ops.shape(_read(s))], 0)))
    return nest.pack_sequence_as(sources, out)


def batch_jacobian(records, target, source, unconnected_gradients='none'):
    """Per-example jacobian: result[b] = d target[b] / d source[b]; examples must be independent."""
    batch = target.shape[0]
    flat_target = array_ops.reshape(target, [batch, -1])
    m = flat_target.shape[1]
    rows = []
    for j in range(m):
        seed = array_ops.reshape(
            array_ops.one_hot(array_ops.fill([batch], j), m, dtype=target.dtype),
            array_ops.shape(target))
        g = gradient(records, target, source, seed, unconnected_gradients)
        if g is None:
            return None
        rows.append(array_ops.reshape(g, [batch, -1]))
    stacked = array_ops.stack(rows, axis=1)
    return array_ops.reshape(stacked, array_ops.concat(
        [array_ops.shape(target), array_ops.shape(source)[1:]], 0))
