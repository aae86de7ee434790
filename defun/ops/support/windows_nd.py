"""Window geometry over channels-last tensors of any spatial rank ([N, d1, ..., dn, C]): TF's
SAME/VALID/explicit output sizes and paddings, padding, strided views of the windows (no copy),
im2col and its adjoint. The 3-D convolution and pooling ops are built on it; the 2-D ops keep
their own tuned forms in windows.py, whose per-dimension rule (`out_and_pads`) both share.
"""
import itertools

import numpy as np
from numpy.lib.stride_tricks import as_strided

from defun.ops.support import validation
from defun.ops.support.windows import out_and_pads


def geometry(spatial, ksize, strides, dilations, padding, pads=None):
    """(output sizes, (before, after) paddings) of the spatial dims."""
    results = [out_and_pads(size, k, s, d, padding, None if pads is None else pads[i])
               for i, (size, k, s, d) in enumerate(zip(spatial, ksize, strides, dilations))]
    return tuple(r[0] for r in results), tuple(r[1] for r in results)


def out_dim(size, k, stride, dilation, padding, pad=None):
    """One dim's static output size (None if unknown); a window larger than the padded input is
    TF's shape-function error."""
    if size is None or k is None:
        return None
    out = out_and_pads(size, k, stride, dilation, padding, pad)[0]
    if out <= 0:
        eff = (k - 1) * dilation + 1
        raise validation.invalid_argument(
            f'Computed output size would be negative: {size - eff} [input size: {size}, '
            f'effective window size: {eff}, stride: {stride}] with padding {padding}')
    return out


def padded(x, pads, value=0):
    """Channels-last x padded with `value` by (before, after) per spatial dim; x itself when
    nothing is added."""
    if not any(sum(pads, ())):
        return x
    shape = (x.shape[0],) + tuple(n + a + b for n, (a, b) in zip(x.shape[1:-1], pads)) \
        + (x.shape[-1],)
    out = np.full(shape, value, dtype=x.dtype)
    out[(slice(None),) + tuple(slice(a, a + n) for n, (a, _) in zip(x.shape[1:-1], pads))] = x
    return out


def cropped(xp, pads, spatial):
    """The inverse of padded: the input's own positions out of a padded array."""
    return xp[(slice(None),) + tuple(slice(a, a + n) for n, (a, _) in zip(spatial, pads))]


def window_view(xp, ksize, out, strides, dilations, writeable=False):
    """A strided view [N, o1..on, k1..kn, C] of the windows over padded xp (no copy)."""
    inner = xp.strides[1:-1]
    steps = tuple(st * s for st, s in zip(inner, strides))
    taps = tuple(st * d for st, d in zip(inner, dilations))
    shape = (xp.shape[0],) + tuple(out) + tuple(ksize) + (xp.shape[-1],)
    return as_strided(xp, shape, (xp.strides[0],) + steps + taps + (xp.strides[-1],),
                      writeable=writeable)


def columns(xp, ksize, out, strides, dilations):
    """im2col: the [N * prod(out), prod(ksize) * C] matrix of windows over padded xp."""
    view = window_view(xp, ksize, out, strides, dilations)
    return view.reshape(xp.shape[0] * int(np.prod(out)), -1)


def taps(ksize, out, strides, dilations):
    """(tap index, view of the padded input at that tap for every output position)."""
    for tap in itertools.product(*[range(k) for k in ksize]):
        yield tap, (slice(None),) + tuple(
            slice(i * d, i * d + s * (o - 1) + 1, s)
            for i, d, s, o in zip(tap, dilations, strides, out)) + (slice(None),)


def add_columns(dxp, cols, ksize, strides, dilations):
    """col2im, the adjoint of columns: adds cols [N, o1..on, k1..kn, C] onto padded dxp."""
    n = len(ksize)
    out = cols.shape[1:1 + n]
    for tap, view in taps(ksize, out, strides, dilations):
        dxp[view] += cols[(slice(None),) * (1 + n) + tap]
    return dxp


def reach(out, ksize, strides, dilations):
    """Per dim, the padded size every tap of every window needs (VALID may leave a remainder
    no window reads; backprops allocate at least this much)."""
    return tuple((k - 1) * d + s * (o - 1) + 1
                 for o, k, s, d in zip(out, ksize, strides, dilations))
