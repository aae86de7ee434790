"""The segment reductions of tf.math: segment_* and unsorted_segment_* sum, prod, mean, max and
min (math_ops.py re-exports them).

Each is one op (numpy's ufunc.at); their gradients gather the output gradient back to the data
rows, max/min splitting it evenly among the rows equal to the result (TF's rule). Empty segments
hold 0 for sum/mean and the segment_ forms, and the dtype's lowest/highest finite value for the
unsorted_segment max/min, as in TF.
"""
import numpy as np

from defun.core.dispatch import apply_op
from defun.ops.support import validation
from defun.ops.math.arithmetic import divide_no_nan
from defun.ops.framework.base_ops import cast, ones_like, zeros_like
from defun.ops.array.gathering import gather
from defun.ops.math.logic import equal, where
from defun.ops.support.helpers import dims, static_value, to_tensor
from defun.ops.math.reductions import reduce_max
from defun.ops.array.transform import expand_dims
from defun.core.registry import define_op
from defun.ops.support.docs import documented

__all__ = ['unsorted_segment_sum', 'unsorted_segment_mean', 'unsorted_segment_max',
           'unsorted_segment_min', 'unsorted_segment_prod', 'segment_prod', 'segment_sum',
           'segment_mean', 'segment_max', 'segment_min']


_INITIAL = {'sum': lambda dt: 0, 'prod': lambda dt: 1, 'max': lambda dt: _extreme(dt, low=True),
            'min': lambda dt: _extreme(dt, low=False)}
_UFUNC = {'sum': np.add, 'prod': np.multiply, 'max': np.maximum, 'min': np.minimum}


def _extreme(dtype, low):
    info = np.finfo(dtype) if dtype.kind == 'f' else np.iinfo(dtype)   # TF: the finite extremes
    return info.min if low else info.max


def _segment_kernel(kind):
    def kernel(data, ids, num_segments):
        n = int(num_segments)
        ids = np.asarray(ids)
        if ids.shape != data.shape[:ids.ndim]:
            raise validation.invalid_argument(
                f'unsorted_segment_{kind}: segment_ids shape {list(ids.shape)} must be a prefix '
                f'of data shape {list(data.shape)}')
        if ids.size and ids.max() >= n:
            raise validation.invalid_argument(
                f'unsorted_segment_{kind}: segment_ids[{int(np.argmax(ids))}] = {ids.max()} is '
                f'out of range [0, {n})')
        out = np.full((n,) + data.shape[ids.ndim:], _INITIAL[kind](data.dtype), data.dtype)
        keep = ids >= 0   # TF drops negative ids
        _UFUNC[kind].at(out, ids[keep], data[keep])
        return out
    return kernel


def _segment_infer(data, ids, num_segments):
    d, i = dims(data), dims(ids)
    n = static_value(num_segments)
    head = (None if n is None else int(n),)
    if d is None or i is None:
        return data.dtype, None
    return data.dtype, head + d[len(i):]


def _gather_rows(g, ids):
    """g's segment rows for each data row; zero for the rows TF dropped (negative ids)."""
    safe = where(ids >= 0, ids, zeros_like(ids))
    rows = gather(g, safe)
    mask = cast(ids >= 0, g.dtype)
    for _ in range(rows.shape.rank - mask.shape.rank):
        mask = expand_dims(mask, -1)
    return rows * mask


def _segment_sum_grad(op, g):
    return _gather_rows(g, op.inputs[1]), None, None


def _segment_extremum_grad(op, g):
    data, ids, num = op.inputs
    out = op.outputs[0]
    hits = cast(equal(data, _gather_rows(out, ids)), g.dtype)
    counts = apply_op(SEGMENT_SUM, (hits, ids, num))
    return _gather_rows(divide_no_nan(g, counts), ids) * hits, None, None


def _signature(types, index_types):
    """TF's UnsortedSegment* signature, with the data types `types`."""
    return {'inputs': ('data: T', 'segment_ids: Tindices', 'num_segments: Tnumsegments'),
            'attrs': (f'T: {types}', f'Tindices: {index_types}', 'Tnumsegments: {int32, int64}')}


def _segment_sum_lowering(op, ins, ctx):
    """Rows of data added into their segment's row one after another, in the kernel's order
    (np.add.at's), for a vector of ids and a static output shape; negative ids dropped."""
    data, ids = op.inputs[:2]
    out = op.outputs[0]
    if ids.shape.rank != 1 or not (data.shape.is_fully_defined() and out.shape.is_fully_defined()):
        raise ctx.NotLowerable(f'{op.type} {op.name!r}: only a vector of ids and static shapes')
    dims, rows = out.shape.as_tuple(), data.shape.as_tuple()[0]
    cols = int(np.prod(dims[1:]))
    acc, lines = ctx.allocate(out, f'{op.name}_acc', (dims[0] * cols,))
    x, r, c, s, name = (ctx.fresh(h) for h in ('x', 'r', 'c', 's', op.name))
    return lines + [
        f'{acc}[:] = 0',
        f'{x} = np.ascontiguousarray({ins[0]}).reshape({rows * cols})',
        f'for {r} in range({rows}):',
        f'    {s} = {ins[1]}[{r}]',
        f'    if {s} >= {dims[0]}:',
        f"        raise IndexError('{op.type}: a segment id is out of range')",
        f'    if {s} >= 0:',
        f'        for {c} in range({cols}):',
        f'            {acc}[{s} * {cols} + {c}] += {x}[{r} * {cols} + {c}]',
        f'{name} = {acc}.reshape({dims!r})'], [name]


_segment_sum_lowering.fresh = True
_segment_sum_lowering.shape_inputs = (2,)   # num_segments: the output's static shape holds it
SEGMENT_SUM = define_op('UnsortedSegmentSum', _segment_kernel('sum'), _segment_infer,
                        _segment_sum_grad, **_signature('numbertype', '{int16, int32, int64}'),
                        lowering=_segment_sum_lowering, low_precision_steps=True)
def _segment_prod_grad(op, g):
    """TF's rule: the product of the other rows of the segment, counting zeros so that no
    division by zero happens (a segment with one zero sends its gradient to that row only)."""
    data, ids, num = op.inputs
    is_zero = equal(data, zeros_like(data))
    nonzero = where(is_zero, ones_like(data), data)
    zeros_in = _gather_rows(apply_op(SEGMENT_SUM, (cast(is_zero, data.dtype), ids, num)), ids)
    others = _gather_rows(apply_op(SEGMENT_PROD, (nonzero, ids, num)), ids)
    none = zeros_like(data)
    lone_zero = where(is_zero, where(equal(zeros_in, ones_like(data)), others, none), none)
    grad = where(equal(zeros_in, none), others / nonzero, lone_zero)
    return _gather_rows(g, ids) * grad, None, None


SEGMENT_PROD = define_op('UnsortedSegmentProd', _segment_kernel('prod'), _segment_infer,
                         _segment_prod_grad, **_signature('numbertype', '{int16, int32, int64}'),
                         low_precision_steps=True)
SEGMENT_MAX = define_op('UnsortedSegmentMax', _segment_kernel('max'), _segment_infer,
                        _segment_extremum_grad, **_signature('realnumbertype', '{int32, int64}'))
SEGMENT_MIN = define_op('UnsortedSegmentMin', _segment_kernel('min'), _segment_infer,
                        _segment_extremum_grad, **_signature('realnumbertype', '{int32, int64}'))


def _segment_args(data, segment_ids, num_segments, op):
    x = to_tensor(data, name='data', op=op)
    ids = to_tensor(segment_ids, name='segment_ids', op=op)
    if num_segments is None:   # the sorted segment_* forms: as many segments as the largest id
        num_segments = reduce_max(ids) + 1 if ids.shape.rank != 0 else ids + 1
    n = to_tensor(num_segments, name='num_segments', op=op)
    return x, ids, cast(n, ids.dtype)


@documented('unsorted_segment', 'Computes the sum of the rows given each segment id.')
def unsorted_segment_sum(data, segment_ids, num_segments, name=None):
    return apply_op(SEGMENT_SUM, _segment_args(data, segment_ids, num_segments,
                                               'unsorted_segment_sum'), None, name)


def unsorted_segment_prod(data, segment_ids, num_segments, name=None):
    """The product of the rows of each segment (1 for a segment no row names)."""
    return apply_op(SEGMENT_PROD, _segment_args(data, segment_ids, num_segments,
                                                'unsorted_segment_prod'), None, name)


def segment_prod(data, segment_ids, name=None):
    """unsorted_segment_prod with as many segments as the largest id + 1."""
    return apply_op(SEGMENT_PROD, _segment_args(data, segment_ids, None, 'segment_prod'), None,
                    name)


@documented('unsorted_segment', 'Computes the maximum of the rows given each id.')
def unsorted_segment_max(data, segment_ids, num_segments, name=None):
    return apply_op(SEGMENT_MAX, _segment_args(data, segment_ids, num_segments,
                                               'unsorted_segment_max'), None, name)


@documented('unsorted_segment', 'Computes the minimum of the rows given each id.')
def unsorted_segment_min(data, segment_ids, num_segments, name=None):
    return apply_op(SEGMENT_MIN, _segment_args(data, segment_ids, num_segments,
                                               'unsorted_segment_min'), None, name)


@documented('unsorted_segment', 'Computes the mean of the rows given each id.')
def unsorted_segment_mean(data, segment_ids, num_segments, name=None):
    x, ids, n = _segment_args(data, segment_ids, num_segments, 'unsorted_segment_mean')
    total = apply_op(SEGMENT_SUM, (x, ids, n))
    counts = apply_op(SEGMENT_SUM, (ones_like(cast(ids, x.dtype)), ids, n))
    for _ in range(total.shape.rank - counts.shape.rank):
        counts = expand_dims(counts, -1)
    return divide_no_nan(total, counts)


@documented('segment', "Computes the sum of each segment of `data`'s rows.")
def segment_sum(data, segment_ids, name=None):
    return apply_op(SEGMENT_SUM, _segment_args(data, segment_ids, None, 'segment_sum'), None,
                    name)


@documented('segment', "Computes the maximum of each segment of `data`'s rows.")
def segment_max(data, segment_ids, name=None):
    validation.op_name(name)
    return _sorted_extremum(SEGMENT_MAX, data, segment_ids, 'segment_max')


@documented('segment', "Computes the minimum of each segment of `data`'s rows.")
def segment_min(data, segment_ids, name=None):
    validation.op_name(name)
    return _sorted_extremum(SEGMENT_MIN, data, segment_ids, 'segment_min')


def _sorted_extremum(opdef, data, segment_ids, op):
    """The sorted forms give 0 for a segment no row names (TF's SegmentMax/Min)."""
    x, ids, n = _segment_args(data, segment_ids, None, op)
    result = apply_op(opdef, (x, ids, n))
    counts = apply_op(SEGMENT_SUM, (ones_like(ids), ids, n))
    for _ in range(result.shape.rank - counts.shape.rank):
        counts = expand_dims(counts, -1)
    return where(counts > 0, result, zeros_like(result))


@documented('segment', "Computes the mean of each segment of `data`'s rows.")
def segment_mean(data, segment_ids, name=None):
    validation.op_name(name)
    x, ids, n = _segment_args(data, segment_ids, None, 'segment_mean')
    return unsorted_segment_mean(x, ids, n)
