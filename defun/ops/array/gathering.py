"""gather, gather_nd and scatter_nd, with their gradients: each scatters the incoming gradient into
zeros shaped like the indexed tensor (as TF's do, densely), written as an op whose own gradient is
the forward indexing again. boolean_mask, built the same way, lives in boolean_mask.py and is
re-exported here.
"""
import math

import numpy as np

from defun.core import error_helpers, errors
from defun.core.dispatch import apply_op
from defun.ops.support.helpers import dims, static_value, to_tensor
from defun.ops.framework.base_ops import cast, reshape, shape
from defun.ops.framework.indexed_slices import IndexedSlices
from defun.ops.array.joining import concat, size
from defun.ops.math.logic import equal
from defun.ops.array.indexing import known_shape as _known_shape
from defun.core.registry import define_op
from defun.core.tensor import Tensor
from defun.ops.support import validation
from defun.ops.array.runtime_axis import gather_at_runtime_axis
from defun.ops.array.boolean_mask import BOOLEAN_MASK, BOOLEAN_MASK_GRAD, boolean_mask  # noqa: F401

__all__ = ['gather', 'gather_nd', 'scatter_nd', 'tensor_scatter_nd_add', 'tensor_scatter_nd_sub',
           'tensor_scatter_nd_update', 'tensor_scatter_nd_min', 'tensor_scatter_nd_max',
           'boolean_mask']


# ---------------------------------------------------------------- gather

def _check_range(indices, n):
    # TF's kernel text, with no op prefix: the eager wrapper ('[Op:GatherV2]') and a compiled
    # function's 'Detected at node GatherV2' already name the op (and the user's line).
    idx = np.asarray(indices)
    bad = (idx < 0) | (idx >= n)
    if bad.any():
        where = tuple(int(i) for i in np.argwhere(bad)[0])
        at = f'[{",".join(map(str, where))}]' if where else ''  # a scalar index: 'indices = 5'
        raise validation.invalid_argument(f'indices{at} = {idx[where]} is not in [0, {n})')
    return idx


_SCALAR_INDEX = (int, np.int32, np.int64)


def _blocks(shape, indices, axis, batch_dims):
    """GatherV2's geometry as flat sizes: (B batch elements, M dims between the batch dims and
    axis, A along axis, T after it, nI indices per batch element)."""
    return (math.prod(shape[:batch_dims]), math.prod(shape[batch_dims:axis]), shape[axis],
            math.prod(shape[axis + 1:]), math.prod(np.shape(indices)[batch_dims:]))


def _batched_take(params, idx, axis, batch_dims):
    """params[b, ..., idx[b, ...], ...] for every batch element b at once (one advanced index)."""
    b, m, a, t, ni = _blocks(params.shape, idx, axis, batch_dims)
    out = params.reshape(b, m, a, t)[np.arange(b)[:, None, None], np.arange(m)[None, :, None],
                                     idx.reshape(b, 1, ni)]
    return out.reshape(params.shape[:axis] + idx.shape[batch_dims:] + params.shape[axis + 1:])


def _gather_kernel(params, indices, axis, batch_dims):
    if axis == 0 and batch_dims == 0 and type(indices) in _SCALAR_INDEX and \
            0 <= indices < params.shape[0]:
        return params[indices]  # one row: the common case inside loops, without array checks
    idx = _check_range(indices, params.shape[axis])
    if batch_dims == 0:
        return np.take(params, idx, axis=axis)
    return _batched_take(params, idx, axis, batch_dims)


def _gather_infer(params, indices, axis, batch_dims):
    p, i = dims(params), dims(indices)
    if p is None or i is None:
        return params.dtype, None
    return params.dtype, p[:axis] + i[batch_dims:] + p[axis + 1:]


def _gather_grad(op, g):
    """Along axis 0, TF's sparse gradient: the incoming rows as an IndexedSlices of params' shape
    (a variable's optimizer then updates those rows only); else the dense scatter."""
    params, indices = op.inputs
    attrs = {'axis': op.get_attr('axis'), 'batch_dims': op.get_attr('batch_dims')}
    if attrs['axis'] == 0 and attrs['batch_dims'] == 0:
        params_shape = shape(params)
        rows = concat([reshape(size(indices), [1]), params_shape[1:]], 0)
        return IndexedSlices(reshape(g, rows), reshape(indices, [-1]), params_shape), None
    return apply_op(GATHER_GRAD, (shape(params), indices, g), attrs), None


def _gather_expression(op, names):
    """One row, `params[i]`, for a scalar index on axis 0 where i >= 0 (the kernel's own fast
    path); a negative index runs the kernel (its error), one past the end fails in numpy and the
    executor reruns the kernel for TF's error."""
    params, indices = op.inputs
    if op.attrs['axis'] != 0 or op.attrs['batch_dims'] != 0 or indices.shape.rank != 0 or \
            params.shape.rank in (None, 0):
        return None
    return f'{names[0]}[{names[1]}]', (1,)


def _gather_lowering(op, ins, ctx):
    """Rows of a static-shaped matrix on axis 0: one row, `params[i]`, for a scalar index, or a
    batch of them (an embedding lookup) for a vector of indices, each index's range checked
    (TF's rule)."""
    params, indices = op.inputs
    if op.attrs['axis'] != 0 or op.attrs['batch_dims'] != 0 or indices.shape.rank not in (0, 1) \
            or params.shape.rank in (None, 0):
        raise ctx.NotLowerable(f'{op.type} {op.name!r}: only rows by a scalar or a vector of indices')
    out = ctx.fresh(op.name)
    check = "raise IndexError('GatherV2: index out of range')"
    if indices.shape.rank == 0:
        return [f'if {ins[1]} < 0 or {ins[1]} >= {ins[0]}.shape[0]:', f'    {check}',
                f'{out} = {ins[0]}[{ins[1]}]'], [out]
    dims = op.outputs[0].shape
    if not dims.is_fully_defined():
        raise ctx.NotLowerable(f'{op.type} {op.name!r}: a batch of rows of unknown shape')
    dims = dims.as_tuple()
    rows, r, i = ctx.fresh(f'{op.name}_rows'), ctx.fresh('r'), ctx.fresh('i')
    name, lines = ctx.allocate(op.outputs[0], rows, dims)
    return lines + [f'for {r} in range({dims[0]}):',
                    f'    {i} = {ins[1]}[{r}]',
                    f'    if {i} < 0 or {i} >= {ins[0]}.shape[0]:',
                    f'        {check}',
                    f'    {name}[{r}] = {ins[0]}[{i}]',
                    f'{out} = {name}'], [out]


GATHER = define_op('GatherV2', _gather_kernel, _gather_infer, _gather_grad,
                   expression=_gather_expression, index_inputs=lambda op: (1,),
                   lowering=_gather_lowering)


def _gather_grad_kernel(params_shape, indices, g, axis, batch_dims):
    shape = tuple(int(n) for n in params_shape)
    g, idx = np.asarray(g), np.asarray(indices)
    b, m, a, t, ni = _blocks(shape, idx, axis, batch_dims)
    # Rows of a [B * A, M * T] table (the gathered axis first): one scatter for all batch elements.
    if b == 1:
        rows = idx.reshape(-1)
    else:
        rows = (np.arange(b)[:, None] * a + idx.reshape(b, ni)).reshape(-1)
    if m == 1:
        values = g.reshape(b * ni, t)
    else:
        values = g.reshape(b, m, ni, t).transpose(0, 2, 1, 3).reshape(b * ni, m * t)
    table = np.zeros((b * a, m * t), dtype=g.dtype)
    if ni == 1:
        table[rows] = values           # one index per batch element: the rows are distinct
    elif m * t == 1:
        np.add.at(table.reshape(-1), rows, values.reshape(-1))
    else:
        # Sums in index order, as the elementwise adds before did (and TF's segment sum does).
        np.add.at(table, rows, values)
    if m == 1:
        return table.reshape(shape)
    return table.reshape(b, a, m, t).transpose(0, 2, 1, 3).reshape(shape)


GATHER_GRAD = define_op(
    'GatherV2Grad', _gather_grad_kernel, lambda s, i, g, axis, batch_dims: (g.dtype, _known_shape(s)),
    lambda op, grad: (None, None, apply_op(GATHER, (grad, op.inputs[1]), {'axis': op.get_attr('axis'),
                                                   'batch_dims': op.get_attr('batch_dims')})),
    doc='Scatter-adds the gradient of GatherV2 into zeros shaped like its params.')


def gather(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None):
    """Slices of `params` along `axis` at `indices` (per batch element with batch_dims)."""
    x = to_tensor(params, op='gather')
    idx = to_tensor(indices, op='gather')
    if not idx.dtype.is_integer:
        raise validation.dtype_mismatch(f"gather: Value for attr 'Tindices' of "
                                        f"{error_helpers.kernel_type_name(idx.dtype)} is not in the list "
                                        f"of allowed values: int16, int32, int64")
    pr, ir = x.shape.rank, idx.shape.rank
    batch_dims = int(batch_dims)
    if batch_dims < 0:
        if ir is None:
            raise ValueError('gather: negative batch_dims needs indices of known rank')
        batch_dims += ir
    if isinstance(axis, Tensor) and axis.dtype.is_integer:  # a value folded now, or at run time
        known = static_value(axis)
        if known is None:
            return gather_at_runtime_axis(x, idx, axis, batch_dims, name)
        axis = int(np.ravel(known)[0]) if np.size(known) == 1 else axis
    axis = batch_dims if axis is None else validation.axis(axis, None, 'gather', attr='Taxis')
    if pr is None:
        if axis < 0:
            raise ValueError('gather: a negative axis needs params of known rank')
    else:
        if not -pr <= axis < pr:
            raise validation.invalid_argument(
                f'gather: Expected axis in the range [{-pr}, {pr}), but got {axis} for params '
                f'{error_helpers.describe(x)}')
        axis %= pr
    if axis < batch_dims or (ir is not None and batch_dims > ir):
        raise validation.invalid_argument(
            f'gather: batch_dims ({batch_dims}) must be less than or equal to axis ({axis}) and '
            f'to the rank of indices ({ir})')
    return apply_op(GATHER, (x, idx), {'axis': axis, 'batch_dims': batch_dims}, name)


# ---------------------------------------------------------------- gather_nd / scatter_nd

def _nd_index(params_shape, indices, batch_dims, op):
    """The numpy index tuple for gather_nd-style indices, batch coordinates included."""
    idx = np.asarray(indices)
    k = idx.shape[-1]
    batch = idx.shape[:batch_dims]
    coords = [np.arange(n).reshape((-1,) + (1,) * (idx.ndim - 2 - b))
              for b, n in enumerate(batch)]
    for j in range(k):
        n = params_shape[batch_dims + j]
        comp = idx[..., j]
        bad = (comp < 0) | (comp >= n)
        if bad.any():
            where = tuple(int(i) for i in np.argwhere(bad)[0])
            raise validation.invalid_argument(
                f'{op}: indices{list(where)} = {list(idx[where])} does not index into param '
                f'shape {list(params_shape)}')
        coords.append(comp)
    return tuple(coords)


def _gather_nd_kernel(params, indices, batch_dims):
    return params[_nd_index(params.shape, indices, batch_dims, 'GatherNd')]


def _gather_nd_infer(params, indices, batch_dims):
    p, i = dims(params), dims(indices)
    if p is None or i is None or i[-1] is None:
        return params.dtype, None
    if i[-1] > len(p) - batch_dims:
        raise validation.invalid_argument(
            f'gather_nd: index innermost dimension length must be <= params rank; saw: {i[-1]} '
            f'vs. {len(p) - batch_dims}')
    return params.dtype, i[:-1] + p[batch_dims + i[-1]:]


GATHER_ND = define_op(
    'GatherNd', _gather_nd_kernel, _gather_nd_infer,
    lambda op, g: (apply_op(SCATTER_ND, (op.inputs[1], g, shape(op.inputs[0], op.inputs[1].dtype)),
                            {'batch_dims': op.get_attr('batch_dims')}), None))


def gather_nd(params, indices, batch_dims=0, name=None):
    """Slices of `params` at the coordinates in the last axis of `indices`."""
    x = to_tensor(params, op='gather_nd')
    idx = to_tensor(indices, op='gather_nd')
    if idx.shape.rank == 0:
        raise validation.invalid_argument('gather_nd: indices must be at least a vector')
    return apply_op(GATHER_ND, (x, idx), {'batch_dims': int(batch_dims)}, name)


def _scatter_nd_kernel(indices, updates, shape_, batch_dims):
    target = validation.shape_value(shape_, 'scatter_nd')
    if not batch_dims:
        _kernel_scatter_shapes(indices, updates, target, 'scatter_nd')
    result = np.zeros(target, dtype=np.asarray(updates).dtype)
    np.add.at(result, _nd_index(result.shape, indices, batch_dims, 'ScatterNd'), updates)
    return result


def _kernel_scatter_shapes(indices, updates, shape_, op):
    try:
        validation.scatter_shapes(np.shape(indices), np.shape(updates), shape_, op)
    except ValueError as exc:  # a kernel's check: InvalidArgumentError in both modes
        raise errors.InvalidArgumentError(str(exc)) from None


def _scatter_nd_infer(indices, updates, shape_, batch_dims):
    target = _known_shape(shape_)
    if not batch_dims:
        validation.scatter_shapes(dims(indices), dims(updates), target, 'scatter_nd')
    return updates.dtype, target


def _tensor_scatter_infer(op):
    def infer(tensor, indices, updates):
        validation.scatter_shapes(dims(indices), dims(updates), dims(tensor), op)
        return tensor.dtype, tensor.shape
    return infer


SCATTER_ND = define_op(
    'ScatterNd', _scatter_nd_kernel, _scatter_nd_infer,
    lambda op, g: (None, apply_op(GATHER_ND, (g, op.inputs[0]),
                                  {'batch_dims': op.get_attr('batch_dims')}), None))


def scatter_nd(indices, updates, shape, name=None):
    """Zeros of `shape` with `updates` added at `indices` (duplicates add up)."""
    idx = to_tensor(indices, op='scatter_nd')
    u = to_tensor(updates, op='scatter_nd')
    s = shape if isinstance(shape, Tensor) else to_tensor(shape, dtype=idx.dtype, op='scatter_nd')
    return apply_op(SCATTER_ND, (idx, u, s), {'batch_dims': 0}, name)



def _tensor_scatter_add_kernel(tensor, indices, updates):
    _kernel_scatter_shapes(indices, updates, tensor.shape, 'tensor_scatter_nd_add')
    result = np.array(tensor, copy=True)
    np.add.at(result, _nd_index(result.shape, indices, 0, 'TensorScatterAdd'), updates)
    return result


def _tensor_scatter_update_kernel(tensor, indices, updates):
    _kernel_scatter_shapes(indices, updates, tensor.shape, 'tensor_scatter_nd_update')
    result = np.array(tensor, copy=True)
    result[_nd_index(result.shape, indices, 0, 'TensorScatterUpdate')] = updates
    return result


def _gather_updates(op, g):
    return apply_op(GATHER_ND, (g, op.inputs[1]), {'batch_dims': 0})


TENSOR_SCATTER_ADD = define_op(
    'TensorScatterAdd', _tensor_scatter_add_kernel, _tensor_scatter_infer('tensor_scatter_nd_add'),
    lambda op, g: (g, None, _gather_updates(op, g)))

TENSOR_SCATTER_UPDATE = define_op(
    'TensorScatterUpdate', _tensor_scatter_update_kernel,
    _tensor_scatter_infer('tensor_scatter_nd_update'),
    lambda op, g: (apply_op(TENSOR_SCATTER_UPDATE, (g, op.inputs[1], _gather_updates(op, g) * 0)),
                   None, _gather_updates(op, g)))


def _tensor_scatter(op_def, tensor, indices, updates, name, opname):
    t = to_tensor(tensor, op=opname)
    idx = to_tensor(indices, op=opname)
    u = to_tensor(updates, dtype=t.dtype, op=opname)
    return apply_op(op_def, (t, idx, u), {}, name)


def tensor_scatter_nd_add(tensor, indices, updates, name=None):
    """A copy of `tensor` with `updates` added at `indices` (duplicates add up)."""
    return _tensor_scatter(TENSOR_SCATTER_ADD, tensor, indices, updates, name,
                           'tensor_scatter_nd_add')


def tensor_scatter_nd_sub(tensor, indices, updates, name=None):
    """A copy of `tensor` with `updates` subtracted at `indices`."""
    t = to_tensor(tensor, op='tensor_scatter_nd_sub')
    u = to_tensor(updates, dtype=t.dtype, op='tensor_scatter_nd_sub')
    return _tensor_scatter(TENSOR_SCATTER_ADD, t, indices, -u, name, 'tensor_scatter_nd_sub')


def tensor_scatter_nd_update(tensor, indices, updates, name=None):
    """A copy of `tensor` with the slices at `indices` replaced by `updates`."""
    return _tensor_scatter(TENSOR_SCATTER_UPDATE, tensor, indices, updates, name,
                           'tensor_scatter_nd_update')

def _tensor_scatter_extremum_kernel(ufunc, op_type):
    def kernel(tensor, indices, updates):
        result = np.array(tensor, copy=True)
        ufunc.at(result, _nd_index(result.shape, indices, 0, op_type), updates)
        return result
    return kernel


def _scatter_extremum_grad(op, g):
    # TF's rule: the gradient goes to every input equal to the result, split evenly among ties.
    x, indices, updates = op.inputs
    out = op.outputs[0]
    x_hits = cast(equal(x, out), g.dtype)
    update_hits = cast(equal(updates, _gather_updates(op, out)), g.dtype)
    hits = x_hits + scatter_nd(indices, update_hits, shape(x, out_type=indices.dtype))
    return g * x_hits / hits, None, _gather_updates(op, g / hits) * update_hits


TENSOR_SCATTER_MIN = define_op(
    'TensorScatterMin', _tensor_scatter_extremum_kernel(np.minimum, 'TensorScatterMin'),
    lambda t, i, u: (t.dtype, t.shape), _scatter_extremum_grad)
TENSOR_SCATTER_MAX = define_op(
    'TensorScatterMax', _tensor_scatter_extremum_kernel(np.maximum, 'TensorScatterMax'),
    lambda t, i, u: (t.dtype, t.shape), _scatter_extremum_grad)


def tensor_scatter_nd_min(tensor, indices, updates, name=None):
    """A copy of `tensor` where each indexed element is the minimum of itself and its updates."""
    return _tensor_scatter(TENSOR_SCATTER_MIN, tensor, indices, updates, name,
                           'tensor_scatter_nd_min')


def tensor_scatter_nd_max(tensor, indices, updates, name=None):
    """A copy of `tensor` where each indexed element is the maximum of itself and its updates."""
    return _tensor_scatter(TENSOR_SCATTER_MAX, tensor, indices, updates, name,
                           'tensor_scatter_nd_max')
