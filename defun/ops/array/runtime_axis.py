"""gather and concat along an axis that is a tensor whose value is known only when the graph
runs (TF accepts one: the axis of GatherV2 and ConcatV2 is an input). Each op checks the axis when
it runs, as TF's kernel does; while the graph is built only the output's rank is known (gather:
params' rank + indices' rank - 1 - batch_dims; concat: the inputs' rank), as TF's inference says.
"""
import numpy as np

from defun.core import error_helpers
from defun.core.dispatch import apply_op
from defun.core.registry import define_op, get_op
from defun.ops.framework.base_ops import identity, shape
from defun.ops.support import validation
from defun.ops.support.helpers import dims

__all__ = ['gather_at_runtime_axis', 'concat_at_runtime_axis']


def _runtime_axis(params, axis, batch_dims):
    """The run-time axis checked as TF's kernel does (range of params' rank, then batch_dims)."""
    rank, a = np.ndim(params), int(np.asarray(axis))
    if not -rank <= a < rank:
        raise validation.invalid_argument(f'Expected axis in the range [{-rank}, {rank}), but got '
                                          f'{a}')
    a %= rank
    if a < batch_dims:
        raise validation.invalid_argument(f'batch_dims ({batch_dims}) must be less than or equal '
                                          f'to axis ({a})')
    return a


def _kernel(params, indices, axis, batch_dims):
    # GatherV2's own kernel, found by type: gathering.py builds on this module
    return get_op('GatherV2').kernel(params, indices, _runtime_axis(params, axis, batch_dims), batch_dims)


def _infer(params, indices, axis, batch_dims):
    p, i = dims(params), dims(indices)
    if p is None or i is None:
        return params.dtype, None
    return params.dtype, [None] * (len(p) + len(i) - 1 - batch_dims)


def _grad(op, g):
    params, indices, axis = op.inputs
    return apply_op(GATHER_AXIS_GRAD, (shape(params), indices, g, axis),
                    {'batch_dims': op.get_attr('batch_dims')}), None, None


def _grad_kernel(params_shape, indices, g, axis, batch_dims):
    a = _runtime_axis(np.empty(tuple(int(n) for n in params_shape), np.int8), axis, batch_dims)
    return get_op('GatherV2Grad').kernel(params_shape, indices, g, a, batch_dims)


GATHER_AXIS = define_op(
    'GatherV2RuntimeAxis', _kernel, _infer, _grad, inputs=(),
    doc='GatherV2 whose axis is an input, known only when the graph runs.')
GATHER_AXIS_GRAD = define_op(
    'GatherV2RuntimeAxisGrad', _grad_kernel, lambda s, i, g, a, batch_dims: (g.dtype, None),
    lambda op, grad: (None, None, apply_op(GATHER_AXIS, (grad, op.inputs[1], op.inputs[3]),
                                           {'batch_dims': op.get_attr('batch_dims')}), None),
    inputs=(), doc='Scatter-adds the gradient of a run-time-axis gather into zeros shaped like '
                   'its params.')


def gather_at_runtime_axis(params, indices, axis, batch_dims, name=None):
    """params gathered at indices along the int tensor `axis`, checked when the graph runs."""
    if not axis.dtype.is_integer or axis.shape.rank not in (None, 0):
        raise validation.dtype_mismatch(f'gather: `axis` must be an int32 or int64 scalar, got '
                                        f'{error_helpers.describe(axis)}')
    return apply_op(GATHER_AXIS, (params, indices, axis), {'batch_dims': batch_dims}, name)


# ---------------------------------------------------------------- concat

def _concat_axis(xs, axis):
    rank, a = np.ndim(xs[0]), int(np.asarray(axis))
    if not -rank <= a < rank:
        raise validation.invalid_argument(f'ConcatOp : Expected concatenating dimensions in the '
                                          f'range [{-rank}, {rank}), but got {a}')
    a %= rank
    first = np.shape(xs[0])
    for i, x in enumerate(xs[1:], 1):
        s = np.shape(x)
        pair = f'shape[0] = {list(first)} vs. shape[{i}] = {list(s)}'.replace(' ', '').replace(
            'vs.', ' vs. ').replace('=', ' = ')
        if len(s) != rank:
            raise validation.invalid_argument(f'ConcatOp : Ranks of all input tensors should '
                                              f'match: {pair}')
        for d in range(rank):
            if d != a and s[d] != first[d]:
                raise validation.invalid_argument(f'ConcatOp : Dimension {d} in both shapes '
                                                  f'must be equal: {pair}')
    return a


def _concat_kernel(axis, *xs):
    return np.concatenate(xs, axis=_concat_axis(xs, axis))


def _concat_infer(axis, *xs):
    ranks = {len(d) for d in map(dims, xs) if d is not None}
    return xs[0].dtype, ([None] * ranks.pop() if len(ranks) == 1 else None)


def _split_kernel(g, axis, *shapes):
    a = int(np.asarray(axis)) % np.ndim(g)
    return tuple(np.split(g, np.cumsum([int(s[a]) for s in shapes])[:-1], axis=a))


def _split_infer(g, axis, *shapes):
    d = dims(g)
    return [(g.dtype, None if d is None else [None] * len(d))] * len(shapes)


CONCAT_AXIS = define_op(
    'ConcatV2RuntimeAxis', _concat_kernel, _concat_infer,
    lambda op, g: [None] + list(apply_op(CONCAT_AXIS_GRAD, (g, op.inputs[0]) + tuple(
        shape(x) for x in op.inputs[1:]), {})),
    inputs=(), doc='ConcatV2 whose axis (its first input here) is known only when the graph runs.')
CONCAT_AXIS_GRAD = define_op(
    'ConcatV2RuntimeAxisGrad', _split_kernel, _split_infer,
    lambda op, *gs: [apply_op(CONCAT_AXIS, (op.inputs[1],) + tuple(gs), {}), None]
    + [None] * (len(op.inputs) - 2),
    num_outputs=None, inputs=(),
    doc='Splits the gradient of a run-time-axis concat into its inputs\' parts.')


def concat_at_runtime_axis(tensors, axis, name=None):
    """The tensors (two or more, one dtype) joined along the int tensor `axis`, checked when the
    graph runs."""
    if not axis.dtype.is_integer or axis.shape.rank not in (None, 0):
        raise validation.dtype_mismatch(f'concat: `axis` must be an int32 or int64 scalar, got '
                                        f'{error_helpers.describe(axis)}')
    if len(tensors) == 1:  # TF's concat of one tensor is that tensor, whatever the axis
        return identity(tensors[0])
    return apply_op(CONCAT_AXIS, (axis,) + tuple(tensors), {}, name)
