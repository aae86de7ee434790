"""Ops that rearrange a tensor's elements without computing new values: transpose, tile, pad
(constant and mirror modes), slice and reverse; expand_dims and squeeze (expand_squeeze.py) are
re-exported as part of this family.

Each op is one `define_op` entry (kernel, inference, gradient) followed by its public function. The
gradients are TF's: the adjoint rearrangement (transpose by the inverse permutation, slice out of a
padded gradient, pad a sliced one, fold a tiled or mirror-padded gradient back).
"""
import numpy as np

from defun.core import error_helpers, errors
from defun.core.dispatch import apply_op
from defun.ops.support import helpers as op_helpers
from defun.ops.math.arithmetic import conj
from defun.ops.array.joining import stack
from defun.ops.array.creation import sum_axes, zeros
from defun.ops.array.expand_squeeze import expand_dims, squeeze
from defun.ops.support.helpers import dims, same_as_first, to_tensor
from defun.ops.framework.base_ops import reshape, shape
from defun.core.registry import define_op
from defun.core.tensor import Tensor
from defun.ops.support import validation

builtin_slice = slice  # this module defines tf.slice

__all__ = ['expand_dims', 'squeeze', 'transpose', 'tile', 'pad', 'slice', 'reverse']


def _int_vector(value, op, arg):
    return op_helpers.int_input(value, op, arg)


def _attr_type_name(value):
    """The dtype of an attribute's value as TF's kernels name it ('float', 'string')."""
    if isinstance(value, Tensor):
        return error_helpers.kernel_type_name(value.dtype)
    kind = np.asarray(value, dtype=object if isinstance(value, str) else None).dtype.kind
    return {'f': 'float', 'c': 'complex64', 'b': 'bool'}.get(kind, 'string')


def _known_ints(t):
    """The value of an int tensor as a tuple of ints when known now, else None."""
    value = op_helpers.static_value(t)
    return None if value is None else tuple(int(v) for v in np.reshape(value, [-1]))


# ---------------------------------------------------------------- transpose

def _transpose_infer(x, perm):
    d = dims(x)
    if d is None:
        return x.dtype, None
    return x.dtype, tuple(reversed(d)) if perm is None else tuple(d[p] for p in perm)


def _transpose_grad(op, g):
    perm = op.get_attr('perm')
    return transpose(g, None if perm is None else list(np.argsort(perm)))


TRANSPOSE = define_op('Transpose', lambda x, perm: np.transpose(x, perm), _transpose_infer,
                      _transpose_grad)


def transpose(a, perm=None, conjugate=False, name='transpose'):
    """Permutes the dimensions of `a` by `perm` (default: reversed).

    Args:
      a: A `Tensor`.
      perm: A permutation of its dimensions.
      conjugate: Also conjugate complex values.
      name: A name for the operation (optional).
    """
    x = to_tensor(a, op='transpose')
    if perm is not None:
        kind = perm.dtype.name if isinstance(perm, Tensor) else np.asarray(perm).dtype.kind
        if kind not in ('int32', 'int64', 'i', 'u'):
            name_ = {'f': 'float', 'b': 'bool', 'float32': 'float', 'float64': 'double'}.get(
                kind, kind if isinstance(perm, Tensor) else np.asarray(perm).dtype.name)
            raise validation.dtype_mismatch(
                f"Value for attr 'Tperm' of {name_} is not in the list of allowed values: int32, "
                'int64 [Op:Transpose]')
        perm = _known_ints(perm if isinstance(perm, Tensor) else np.asarray(perm))
        if perm is None:
            raise ValueError('transpose: `perm` must be known while the graph is built')
        r = x.shape.rank
        if r is not None and sorted(perm) != list(np.arange(r)):
            raise validation.invalid_argument(
                f'transpose expects a vector of size {r}. But input(1) is a vector of size '
                f'{len(perm)}' if len(perm) != r else
                f'transpose: perm {list(perm)} is not a permutation of 0..{r - 1} for '
                f'{error_helpers.describe(x)}')
    result = apply_op(TRANSPOSE, (x,), {'perm': perm}, name)
    return conj(result) if conjugate else result


# ---------------------------------------------------------------- tile

def _tile_infer(x, multiples):
    d, m = dims(x), _known_ints(multiples)
    if d is None:
        n = multiples.shape.as_tuple()
        return x.dtype, None if not n or n[0] is None else (None,) * n[0]
    if m is None:
        return x.dtype, (None,) * len(d)
    if len(m) != len(d):
        raise validation.invalid_argument(f'Expected multiples argument to be a vector of length '
                                          f'{len(d)} but got length {len(m)}')
    return x.dtype, tuple(None if a is None or k < 0 else a * k for a, k in zip(d, m))


def _tile_grad(op, g):
    # Reshape to [m0, d0, m1, d1, ...] and sum over the multiples' axes (TF's rule).
    x, multiples = op.inputs
    split_shape = reshape(stack([multiples, shape(x, out_type=multiples.dtype)], axis=1), [-1])
    n = multiples.shape[0]
    summed = sum_axes(reshape(g, split_shape), tuple(range(0, 2 * n, 2)))
    return summed, None


def _tile_kernel(x, multiples):
    m = tuple(int(k) for k in multiples)
    for i, k in enumerate(m):
        if k < 0:  # TF's kernel checks it, at run time in graphs too
            raise errors.InvalidArgumentError(f'tile: Expected multiples[{i}] >= 0, but got {k}')
    return np.tile(x, m)


TILE = define_op('Tile', _tile_kernel, _tile_infer, _tile_grad)


def tile(input, multiples, name=None):
    """Repeats `input` `multiples[i]` times along each dimension i.

    Args:
      input: A `Tensor`.
      multiples: One int per dimension of `input`.
      name: A name for the operation (optional).
    """
    x = to_tensor(input, op='tile')
    m = _int_vector(multiples, 'tile', 'multiples')
    known, r = _known_ints(m), x.shape.rank
    if known is not None and r is not None and len(known) != r:
        raise validation.invalid_argument(
            f'Expected multiples argument to be a vector of length {r} but got length '
            f'{len(known)} (tile of {error_helpers.describe(x)})')
    return apply_op(TILE, (x, m), None, name)


# ---------------------------------------------------------------- pad

_MIRROR_OFFSET = {'REFLECT': 1, 'SYMMETRIC': 0}


def _check_paddings(d, p, mode):
    if len(p) != 2 * len(d):
        raise validation.invalid_argument(
            f'The first dimension of paddings must be the rank of inputs[{len(p) // 2},2], '
            f'input shape: {list(d)}')
    pairs = list(zip(p[::2], p[1::2]))
    for i, ((before, after), n) in enumerate(zip(pairs, d)):
        if before < 0 or after < 0:
            raise validation.invalid_argument(f'Paddings must be non-negative: {before} {after}')
        if mode in _MIRROR_OFFSET and n is not None:
            limit = n - _MIRROR_OFFSET[mode]
            if before > limit or after > limit:
                raise validation.invalid_argument(
                    f'paddings must be no greater than the dimension size ({n}) '
                    f'{"minus one " if mode == "REFLECT" else ""}in {mode} mode: {before}, '
                    f'{after} greater than {limit} in dimension {i}')
    return pairs


def _pad_infer(x, paddings, *rest, mode='CONSTANT'):
    d, p = dims(x), _known_ints(paddings)
    if d is None:
        n = paddings.shape.as_tuple()
        return x.dtype, None if not n or n[0] is None else (None,) * n[0]
    if p is None:
        return x.dtype, (None,) * len(d)
    pairs = _check_paddings(d, p, mode)
    return x.dtype, tuple(None if n is None else n + a + b for n, (a, b) in zip(d, pairs))


def _pad_kernel(x, paddings, constant_values):
    pairs = _check_paddings(np.shape(x), tuple(np.reshape(paddings, [-1])), 'CONSTANT')
    return np.pad(x, pairs, constant_values=constant_values)


def _slice_padded(op, g):
    """The gradient of a pad: the un-padded window of g."""
    x, paddings = op.inputs[0], op.inputs[1]
    begin = reshape(slice(paddings, [0, 0], [-1, 1]), [-1])
    return slice(g, begin, shape(x, out_type=paddings.dtype))


PAD = define_op('PadV2', _pad_kernel, _pad_infer,
                lambda op, g: (_slice_padded(op, g), None, None))


def _mirror_pad_kernel(x, paddings, mode):
    pairs = _check_paddings(np.shape(x), tuple(np.reshape(paddings, [-1])), mode)
    return np.pad(x, pairs, mode='reflect' if mode == 'REFLECT' else 'symmetric')


def _mirror_pad_grad_kernel(g, paddings, mode):
    offset = _MIRROR_OFFSET[mode]
    result = g
    for axis, (before, after) in enumerate(np.reshape(paddings, [-1, 2])):
        before, after = int(before), int(after)
        n = result.shape[axis] - before - after
        core = np.array(np.take(result, np.arange(before, before + n), axis=axis))
        moved = np.moveaxis(core, axis, 0)
        left = np.moveaxis(np.take(result, np.arange(before), axis=axis), axis, 0)
        right = np.moveaxis(np.take(result, np.arange(before + n, before + n + after), axis=axis),
                            axis, 0)
        np.add.at(moved, before - 1 + offset - np.arange(before), left)
        np.add.at(moved, n - 1 - offset - np.arange(after), right)
        result = core
    return result


def _mirror_pad_grad_infer(g, paddings, mode):
    d, p = dims(g), _known_ints(paddings)
    if d is None or p is None:
        return g.dtype, None if d is None else (None,) * len(d)
    return g.dtype, tuple(None if n is None else n - a - b for n, a, b in zip(d, p[::2], p[1::2]))


MIRROR_PAD = define_op('MirrorPad', _mirror_pad_kernel, _pad_infer,
                       lambda op, g: (mirror_pad_grad(g, op.inputs[1], op.get_attr('mode')), None))
MIRROR_PAD_GRAD = define_op(
    'MirrorPadGrad', _mirror_pad_grad_kernel, _mirror_pad_grad_infer,
    lambda op, g: (apply_op(MIRROR_PAD, (g, op.inputs[1]), {'mode': op.get_attr('mode')}), None))


def mirror_pad_grad(g, paddings, mode):
    return apply_op(MIRROR_PAD_GRAD, (g, paddings), {'mode': mode})


def pad(tensor, paddings, mode='CONSTANT', constant_values=0, name=None):
    """Pads with a constant, or mirrors the edges (REFLECT excludes the edge, SYMMETRIC repeats it)."""
    x = to_tensor(tensor, op='pad')
    p = _int_vector(paddings, 'pad', 'paddings')
    mode = str(mode).upper()
    if p.shape.rank not in (None, 2) or p.shape.as_tuple()[-1:] not in ((2,), (None,), ()):
        raise validation.invalid_argument(f'pad: paddings must be a matrix of shape [rank, 2], '
                                          f'got {error_helpers.describe(p)}')
    known, d = _known_ints(p), dims(x)
    if known is not None and d is not None:
        _check_paddings(d, known, mode)
    if mode == 'CONSTANT':
        # TF builds a Pad op (so named) for a Python zero, which pads with the zero of any
        # dtype (False, b''), and a PadV2 for any other value, converted to the input's dtype.
        zero = not isinstance(constant_values, Tensor) and np.ndim(constant_values) == 0 and \
            isinstance(constant_values, (int, float, np.number)) and constant_values == 0
        cv = zeros([], x.dtype) if zero else constant_values if isinstance(
            constant_values, Tensor) else to_tensor(constant_values, dtype=x.dtype,
                                                    name='constant_values', op='pad')
        return apply_op(PAD, (x, p, cv), None, name or ('Pad' if zero else None))
    if mode not in _MIRROR_OFFSET:
        raise ValueError(f'pad: Value of argument `mode` expected to be one of "CONSTANT", '
                         f'"REFLECT", or "SYMMETRIC". Received `mode` = {mode}')
    return apply_op(MIRROR_PAD, (x, p), {'mode': mode}, name)


# ---------------------------------------------------------------- slice / reverse

def _slice_bounds(d, begin, size):
    bounds = []
    for i, (n, b, s) in enumerate(zip(d, begin, size)):
        end = (n if s == -1 else b + s) if n is not None or s != -1 else None
        if b < 0 or (n is not None and end is not None and (end > n or b > n)) or s < -1:
            raise validation.invalid_argument(
                f'Expected begin[{i}] in [0, {n}] and size[{i}] in [0, {n} - {b}], but got '
                f'begin {list(begin)} and size {list(size)} for input shape {list(d)}')
        bounds.append((b, end))
    return bounds


def _slice_kernel(x, begin, size):
    if np.ndim(begin) != 1 or np.shape(begin) != np.shape(size) or len(begin) != np.ndim(x):
        raise errors.InvalidArgumentError(
            f'slice: Expected begin and size arguments to be 1-D tensors of size {np.ndim(x)}, '
            f'but got shapes {list(np.shape(begin))} and {list(np.shape(size))} instead.')
    bounds = _slice_bounds(np.shape(x), [int(b) for b in begin], [int(s) for s in size])
    return x[tuple(builtin_slice(b, e) for b, e in bounds)]


def _slice_infer(x, begin, size):
    d, b, s = dims(x), _known_ints(begin), _known_ints(size)
    if d is None:
        n = begin.shape.as_tuple()
        return x.dtype, None if not n or n[0] is None else (None,) * n[0]
    if b is None or s is None:
        return x.dtype, tuple(None if s is None or s[i] == -1 else s[i] for i in range(len(d)))
    if len(b) != len(d) or len(s) != len(d):
        raise validation.invalid_argument(f'Expected begin and size arguments to be 1-D tensors '
                                          f'of size {len(d)}, but got {len(b)} and {len(s)}')
    if any(n < -1 for n in s):  # TF's shape function checks this much
        raise validation.invalid_argument(f'slice: size {list(s)} may not hold a size below -1')
    try:
        bounds = _slice_bounds(d, b, s)
    except ValueError:  # TF's shape function leaves the bounds to the kernel, at run time
        return x.dtype, tuple(None if n == -1 else n for n in s)
    return x.dtype, tuple(None if e is None else e - a for a, e in bounds)


def _slice_grad(op, g):
    x, begin, _ = op.inputs
    after = shape(x, out_type=begin.dtype) - begin - shape(op.outputs[0], out_type=begin.dtype)
    paddings = stack([begin, after], axis=1)
    return apply_op(PAD, (g, paddings, to_tensor(0, dtype=g.dtype)), None), None, None


SLICE = define_op('Slice', _slice_kernel, _slice_infer, _slice_grad)


def slice(input_, begin, size, name=None):  # noqa: A001 - TF's name
    """The window of `input_` starting at `begin` with extent `size` (-1: to the end)."""
    x = to_tensor(input_, op='slice')
    b = _int_vector(begin, 'slice', 'begin')
    s = size if isinstance(size, Tensor) else to_tensor(size, dtype=b.dtype, op='slice')
    return apply_op(SLICE, (x, b, s), None, name)


REVERSE = define_op('ReverseV2', lambda x, axis: np.flip(x, axis), same_as_first,
                    lambda op, g: reverse(g, op.get_attr('axis')))


def reverse(tensor, axis, name=None):
    """Reverses `tensor` along the dimensions in `axis`.

    Args:
      tensor: A `Tensor`.
      axis: A 1-D int list of dimensions.
      name: A name for the operation (optional).
    """
    x = to_tensor(tensor, op='reverse')
    if isinstance(axis, float):  # converted to an int32 scalar first, as TF does
        raise TypeError(f'reverse: Cannot convert {axis!r} to EagerTensor of dtype int32')
    kind = axis.dtype.kind if isinstance(axis, Tensor) else \
        np.asarray(axis, dtype=object if isinstance(axis, str) else None).dtype.kind
    empty = not isinstance(axis, Tensor) and not np.size(axis)  # [] is an int32 list to TF
    if kind not in 'iu' and not empty:  # ReverseV2's Tidx attr is int32 or int64
        raise validation.dtype_mismatch(
            f"reverse: Value for attr 'Tidx' of {_attr_type_name(axis)} is not in the list of "
            f'allowed values: int32, int64')
    ndim = axis.shape.rank if isinstance(axis, Tensor) else np.ndim(axis)
    if ndim is not None and ndim != 1:
        raise validation.invalid_argument(f"reverse: 'dims' must be 1-dimension, not {ndim}")
    axes = _known_ints(axis if isinstance(axis, Tensor) else np.asarray(axis, np.int32))
    if axes is None:
        raise ValueError('reverse: `axis` must be known while the graph is built')
    r = x.shape.rank
    if r is not None:
        for a in axes:
            if not -r <= a < r:
                raise validation.invalid_argument(
                    f'reverse: axis {a} is out of range for {error_helpers.describe(x)}')
        if len(set(a % r for a in axes)) != len(axes):
            raise validation.invalid_argument(f'reverse: axis {list(axes)} has duplicates')
        axes = tuple(a % r for a in axes)
    return apply_op(REVERSE, (x,), {'axis': tuple(axes)}, name)
