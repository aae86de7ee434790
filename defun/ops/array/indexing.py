"""Indexing: `Tensor.__getitem__` (strided slices) and `Tensor.__iter__`. The gradient of a slice
scatters the incoming gradient into zeros shaped like the sliced tensor (StridedSliceGrad), an op
whose own gradient is the slice again. gather, gather_nd, scatter_nd and boolean_mask are in
gathering.py.

A slice spec is a tuple of items, one per entry of the Python index: ('int', i), ('slice', start,
stop, step), ('new',) or ('ellipsis',). An entry given as a symbolic tensor is 'T' in the spec and is
passed as an extra op input, in order, so one traced function serves every index value.
"""
import functools

import numpy as np

from defun.core import errors
from defun.core.dispatch import apply_op
from defun.ops.array.joining import unstack
from defun.ops.support.helpers import dims, shape_arg_dims, static_value, to_tensor
from defun.ops.framework.base_ops import shape
from defun.core.registry import define_op
from defun.core.tensor import EagerTensor, Tensor
from defun.ops.support import validation

__all__ = ['strided_slice_spec', 'strided_slice']

DYNAMIC = 'T'
_INDEX_ERROR = ('Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and scalar '
                'tf.int32/tf.int64 tensors are valid indices, got {!r}')


# ---------------------------------------------------------------- slice specs

def _index_value(value, key):
    """A static int, or DYNAMIC for a symbolic scalar int tensor (then also returned)."""
    if isinstance(value, (int, np.integer)):
        return int(value), None
    if isinstance(value, Tensor):
        if not value.dtype.is_integer or value.shape.rank not in (0, None):
            raise TypeError(_INDEX_ERROR.format(key))
        if isinstance(value, EagerTensor):
            return int(value.array), None
        return DYNAMIC, value
    raise TypeError(_INDEX_ERROR.format(key))


def strided_slice_spec(key):
    """Turns a Python index into (spec, dynamic tensors)."""
    if type(key) is int:
        return (('int', key),), ()
    items = key if isinstance(key, tuple) else (key,)
    spec, dynamic = [], []

    def bound(v):
        if v is None:
            return None
        value, tensor = _index_value(v, key)
        if tensor is not None:
            dynamic.append(tensor)
        return value

    for item in items:
        if item is None:
            spec.append(('new',))
        elif item is Ellipsis:
            if ('ellipsis',) in spec:
                raise ValueError('Multiple ellipses in slice spec not allowed')
            spec.append(('ellipsis',))
        elif isinstance(item, slice):
            entry = ('slice', bound(item.start), bound(item.stop), bound(item.step))
            if entry[3] == 0:
                raise ValueError('slice step cannot be zero')
            spec.append(entry)
        else:
            spec.append(('int', bound(item)))
    return tuple(spec), dynamic


def _resolve(spec, rank, dynamic):
    """Pairs each spec item with the input dim it consumes (None for newaxis) and fills in the
    dynamic values; an Ellipsis (explicit, or implied at the end) expands to the unindexed dims."""
    dynamic = iter(dynamic)
    used = sum(1 for item in spec if item[0] in ('int', 'slice'))
    if rank is not None and used > rank:
        raise validation.invalid_argument(
            f'Index out of range using input dim {rank}; input has only {rank} dims')
    out, dim = [], 0
    if ('ellipsis',) not in spec:
        spec = spec + (('ellipsis',),)
    for item in spec:
        if item[0] == 'ellipsis':
            if rank is None:
                return None
            for _ in range(rank - used):
                out.append((('slice', None, None, None), dim))
                dim += 1
            continue
        item = tuple(next(dynamic) if v is DYNAMIC else v for v in item)
        out.append((item, None if item[0] == 'new' else dim))
        if item[0] != 'new':
            dim += 1
    return out


def _numpy_index(resolved, shape_):
    index = []
    for item, dim in resolved:
        if item[0] == 'new':
            index.append(None)
        elif item[0] == 'slice':
            index.append(slice(*item[1:]))
        else:
            i, n = int(item[1]), shape_[dim]
            if not -n <= i < n:
                raise validation.invalid_argument(
                    f'slice index {i} of dimension {dim} out of bounds. [Op:StridedSlice] for '
                    f'input shape {list(shape_)}')
            index.append(i)
    return tuple(index)


@functools.lru_cache(maxsize=1024)
def _static_index(spec, shape_):
    """The numpy index of a spec without dynamic entries, cached: eager code repeats its keys."""
    return _numpy_index(_resolve(spec, len(shape_), ()), shape_)


def _strided_slice_kernel(x, *dynamic, spec):
    if not dynamic:
        return x[_static_index(spec, np.shape(x))]
    return x[_numpy_index(_resolve(spec, np.ndim(x), [int(v) for v in dynamic]), np.shape(x))]


def _strided_slice_dims(d, spec, dynamic):
    values = [static_value(t) for t in dynamic]
    resolved = _resolve(spec, None if d is None else len(d),
                        [DYNAMIC if v is None else int(v) for v in values])
    if resolved is None:
        return None
    result = []
    for item, dim in resolved:
        if item[0] == 'new':
            result.append(1)
        elif item[0] == 'int':
            n = d[dim]
            if item[1] is not DYNAMIC and n is not None and not -n <= item[1] < n:
                raise validation.invalid_argument(
                    f'slice index {item[1]} of dimension {dim} out of bounds for input shape '
                    f'{list(d)}')
        else:
            n = d[dim]
            if n is None or DYNAMIC in item[1:]:
                result.append(None)
            else:
                result.append(len(range(*slice(*item[1:]).indices(n))))
    return tuple(result)


def _strided_slice_grad(op, g):
    x = op.inputs[0]
    dynamic = op.inputs[1:]
    grad = apply_op(STRIDED_SLICE_GRAD, (shape(x), g, *dynamic), {'spec': op.get_attr('spec')})
    return (grad,) + (None,) * len(dynamic)


def _subscript(spec, names):
    """The spec as numpy subscript text ('x[i, 1:3, None]'), dynamic entries by name."""
    dynamic = iter(names)

    def bound(v):
        return '' if v is None else next(dynamic) if v is DYNAMIC else repr(v)

    items = []
    for item in spec:
        if item[0] == 'new':
            items.append('None')
        elif item[0] == 'ellipsis':
            items.append('...')
        elif item[0] == 'int':
            items.append(bound(item[1]))
        else:
            start, stop = bound(item[1]), bound(item[2])
            step = bound(item[3])
            items.append(f'{start}:{stop}:{step}' if step else f'{start}:{stop}')
    return ', '.join(items)


def _strided_slice_expression(op, names):
    """A slice as numpy indexing (`xs[t]`, `x[:, 1:3]`): numpy's integer, slice, newaxis and
    ellipsis semantics are the kernel's (ints in [-n, n), slices clamped, unindexed dims kept);
    out-of-range ints fail there and the executor reruns the kernel for TF's error."""
    if not op.attrs['spec']:
        return None
    return f'{names[0]}[{_subscript(op.attrs["spec"], names[1:])}]'


def _strided_slice_lowering(op, ins, ctx):
    """`x[i]` (one integer index on the first axis; numpy's and TF's [-n, n) range, checked):
    the other slices stay in the numpy tier."""
    spec = op.attrs['spec']
    if len(spec) != 1 or spec[0][0] != 'int' or not op.inputs[0].shape.rank:
        raise ctx.NotLowerable(f'{op.type} {op.name!r}: only x[i] is lowered')
    x, out = ins[0], ctx.fresh(op.name)
    i = ins[1] if spec[0][1] is DYNAMIC else repr(spec[0][1])
    return [f'if {i} < -{x}.shape[0] or {i} >= {x}.shape[0]:',
            "    raise IndexError('StridedSlice: index out of range')",
            f'{out} = {x}[{i}]'], [out]


def _strided_slice_partial(op, partial):
    """A slice of a partly known vector (`tf.shape(x)[1:]`, `tf.shape(x)[0]`)."""
    values = partial(op.inputs[0])
    dynamic = [static_value(t) for t in op.inputs[1:]]
    if not isinstance(values, list) or any(v is None for v in dynamic):
        return None
    elements = np.empty(len(values), dtype=object)
    elements[:] = values
    try:
        picked = elements[_numpy_index(_resolve(op.get_attr('spec'), 1, [int(v) for v in dynamic]),
                                       elements.shape)]
    except (IndexError, errors.InvalidArgumentError):
        return None
    return picked.tolist() if isinstance(picked, np.ndarray) else picked


STRIDED_SLICE = define_op(
    'StridedSlice', _strided_slice_kernel,
    lambda x, *dyn, spec: (x.dtype, _strided_slice_dims(dims(x), spec, dyn)), _strided_slice_grad,
    expression=_strided_slice_expression, index_inputs=lambda op: range(1, len(op.inputs)),
    partial_fold=_strided_slice_partial, lowering=_strided_slice_lowering)


def _strided_slice_grad_kernel(shape_, g, *dynamic, spec):
    result = np.zeros(tuple(int(n) for n in shape_), dtype=np.asarray(g).dtype)
    index = _numpy_index(_resolve(spec, result.ndim, [int(v) for v in dynamic]), result.shape)
    result[index] = g
    return result


def known_shape(shape_tensor):
    return shape_arg_dims(shape_tensor)


STRIDED_SLICE_GRAD = define_op(
    'StridedSliceGrad', _strided_slice_grad_kernel,
    lambda s, g, *dyn, spec: (g.dtype, known_shape(s)),
    lambda op, grad: (None, apply_op(STRIDED_SLICE, (grad, *op.inputs[2:]),
                                     {'spec': op.get_attr('spec')}))
    + (None,) * (len(op.inputs) - 2),
    inputs=())  # (shape, dy, dynamic bounds...): not TF's order


def _getitem(self, key):
    spec, dynamic = strided_slice_spec(key)
    return apply_op(STRIDED_SLICE, (self, *dynamic), {'spec': spec}, 'strided_slice')


def strided_slice(input_, begin, end, strides=None, begin_mask=0, end_mask=0, ellipsis_mask=0,
                  new_axis_mask=0, shrink_axis_mask=0, var=None, name=None):
    """tf.strided_slice: the masks and bounds become the Python index they stand for (bit i of a
    mask describes entry i), so it is the very op `x[...]` builds."""
    del var
    begin, end = _bound_entries(begin), _bound_entries(end)
    strides = [1] * len(begin) if strides is None else _bound_entries(strides)
    if not len(begin) == len(end) == len(strides):
        raise ValueError(f'strided_slice: begin, end and strides must have the same length, got '
                         f'{len(begin)}, {len(end)} and {len(strides)}')
    key = []
    for i, (b, e, s) in enumerate(zip(begin, end, strides)):
        bit = 1 << i
        if ellipsis_mask & bit:
            key.append(Ellipsis)
        elif new_axis_mask & bit:
            key.append(None)
        elif shrink_axis_mask & bit:
            key.append(b)
        else:
            key.append(slice(None if begin_mask & bit else b, None if end_mask & bit else e, s))
    input_ = to_tensor(input_)
    spec, dynamic = strided_slice_spec(tuple(key))
    return apply_op(STRIDED_SLICE, (input_, *dynamic), {'spec': spec}, name or 'StridedSlice')


def _bound_entries(value):
    """A 1-D begin/end/strides argument as a list of Python ints or scalar int tensors."""
    if isinstance(value, EagerTensor):
        value = value.array
    if isinstance(value, Tensor):
        n = dims(value)
        if n is None or n[0] is None:
            raise ValueError('strided_slice: begin, end and strides need a known length')
        return [value[i] for i in range(n[0])]
    return [int(v) for v in np.reshape(np.asarray(value), [-1])]


def _iter(self):
    d = dims(self)
    if d == ():
        raise TypeError('Cannot iterate over a scalar tensor.')
    if isinstance(self, EagerTensor):
        return (_getitem(self, i) for i in range(d[0]))
    if d is None or d[0] is None:
        raise errors.OperatorNotAllowedInGraphError(
            f'Iterating over a symbolic tf.Tensor of shape {self.shape} (unknown first '
            f'dimension) is not allowed while tracing: iterate over tf.range(tf.shape(x)[0]) and '
            f'index, or let AutoGraph convert the loop (tf.function(autograph=True)).')
    return iter(unstack(self, num=d[0]))


# This table's Python operators on Tensor (installed by defun/ops/tensor_methods.py).
OPERATORS = {'__getitem__': _getitem, '__iter__': _iter}
