"""The window geometry shared by convolution and pooling over NHWC tensors: TF's SAME/VALID output
sizes and paddings, padding without np.pad's overhead, strided views of the windows (no copy), and
im2col / col2im (one copy of the windows as a matrix for one BLAS call, and its adjoint).
"""
import numpy as np
from numpy.lib.stride_tricks import as_strided

from defun.ops.support import validation


def out_and_pads(size, k, stride, dilation, padding, pad=None):
    """Output size and (before, after) padding of one spatial dim, as TF computes them; `pad` is
    the dim's (before, after) pair when padding is 'EXPLICIT'."""
    eff = (k - 1) * dilation + 1
    if pad is not None:
        return max((size + pad[0] + pad[1] - eff) // stride + 1, 0), (pad[0], pad[1])
    if padding == 'VALID':
        return max((size - eff) // stride + 1, 0), (0, 0)
    out = -(-size // stride)
    total = max((out - 1) * stride + eff - size, 0)
    return out, (total // 2, total - total // 2)


def explicit_pair(padding, explicit_paddings, dim):
    """Spatial dim `dim`'s (before, after) pair out of TF's flat NHWC explicit_paddings list, or
    None unless padding is 'EXPLICIT'."""
    if padding != 'EXPLICIT':
        return None
    return tuple(explicit_paddings[2 * dim + 2:2 * dim + 4])


def geometry(in_shape, kh, kw, strides, dilations, padding, explicit_paddings=()):
    oh, ph = out_and_pads(in_shape[1], kh, strides[0], dilations[0], padding,
                          explicit_pair(padding, explicit_paddings, 0))
    ow, pw = out_and_pads(in_shape[2], kw, strides[1], dilations[1], padding,
                          explicit_pair(padding, explicit_paddings, 1))
    return oh, ow, ph, pw


def taps(kh, kw, oh, ow, strides, dilations):
    """(i, j, window view index) for each filter tap over the padded input."""
    sh, sw = strides
    dh, dw = dilations
    for i in range(kh):
        for j in range(kw):
            yield i, j, (slice(None), slice(i * dh, i * dh + sh * (oh - 1) + 1, sh),
                         slice(j * dw, j * dw + sw * (ow - 1) + 1, sw), slice(None))


def padded(x, ph, pw, value=0):
    """x padded with `value` by ph/pw (before, after) rows/columns; x itself when nothing is added
    (np.pad would copy anyway, and costs more than the copy)."""
    if not any(ph + pw):
        return x
    n, h, w, c = x.shape
    out = np.full((n, h + sum(ph), w + sum(pw), c), value, dtype=x.dtype)
    out[:, ph[0]:ph[0] + h, pw[0]:pw[0] + w] = x
    return out


# Below this many input channels im2col gathers tap-major: each copied run then spans output
# columns rather than a handful of channels (measured 1.5-2x faster for 1-3 channels).
FEW_CHANNELS = 4


def window_view(xp, shape_order, kh, kw, oh, ow, strides, dilations, writeable=False):
    """A strided view (no copy) of the kh x kw windows over padded NHWC xp, with its axes in
    `shape_order` ('nowc' = [N, oh, ow, kh, kw, C], 'kn' = [kh, kw, C, N, oh, ow]). The padded
    input always holds every tap (geometry's padding), so the view stays inside xp."""
    sn, sh, sw, sc = xp.strides
    n, c = xp.shape[0], xp.shape[3]
    steps, taps = (sh * strides[0], sw * strides[1]), (sh * dilations[0], sw * dilations[1])
    if shape_order == 'kn':
        return as_strided(xp, (kh, kw, c, n, oh, ow), taps + (sc, sn) + steps, writeable=writeable)
    return as_strided(xp, (n, oh, ow, kh, kw, c), (sn,) + steps + taps + (sc,), writeable=writeable)


def columns(xp, kh, kw, oh, ow, strides, dilations):
    """im2col: the [N*oh*ow, kh*kw*C] matrix of windows over padded xp (one copy; BLAS takes it
    in either memory order)."""
    n, c = xp.shape[0], xp.shape[3]
    if c < FEW_CHANNELS:
        view = window_view(xp, 'kn', kh, kw, oh, ow, strides, dilations)
        return view.reshape(kh * kw * c, n * oh * ow).T
    return window_view(xp, 'nowc', kh, kw, oh, ow, strides, dilations).reshape(n * oh * ow, -1)


def add_columns(dxp, cols, strides, dilations):
    """col2im, the adjoint of columns: adds cols ([N, oh, ow, kh, kw, C]) onto padded dxp, each
    window's column back where it was read from."""
    _, oh, ow, kh, kw, _ = cols.shape
    if strides[0] >= (kh - 1) * dilations[0] + 1 and strides[1] >= (kw - 1) * dilations[1] + 1:
        # Disjoint windows: one add through a writable view, no element written twice.
        window_view(dxp, 'nowc', kh, kw, oh, ow, strides, dilations, writeable=True)[...] += cols
        return dxp
    for i, j, view in taps(kh, kw, oh, ow, strides, dilations):
        dxp[view] += cols[:, :, :, i, j]
    return dxp


def out_dim(size, k, stride, dilation, padding, pad=None):
    if size is None or k is None:
        return None
    out = out_and_pads(size, k, stride, dilation, padding, pad)[0]
    if out <= 0:  # a VALID window larger than the input (TF's shape function refuses it)
        raise validation.invalid_argument(
            f'Computed output size would be negative: {size - ((k - 1) * dilation + 1)} '
            f'[input size: {size}, effective window size: {(k - 1) * dilation + 1}, stride: '
            f'{stride}] with padding {padding}')
    return out
