"""tf.image.resize and its ops: ResizeBilinear, ResizeBicubic, ResizeArea, ResizeNearestNeighbor
and ScaleAndTranslate (lanczos, gaussian, mitchell cubic, and antialiased bilinear and bicubic),
with half-pixel centers as TF 2's resize uses them.

Each kernel applies the separable weights of resize_weights.py (rows, then columns) to NHWC
images; nearest neighbour gathers source pixels. Outputs are float32 except nearest neighbour's,
which keeps the image's dtype, as TF's. The gradient of each resize is its `...Grad` op, the
transposed map back to the original image's shape and dtype, whose own gradient is the resize
again (both are linear), so every order of gradient exists. ResizeArea has no gradient, as in TF.
"""
import numpy as np

from defun.core import dtypes, errors
from defun.core.dispatch import apply_op
from defun.core.registry import define_op
from defun.ops.framework.base_ops import cast, shape
from defun.ops.array.expand_squeeze import expand_dims, squeeze
from defun.ops.image import resize_weights
from defun.ops.math.arithmetic import minimum
from defun.ops.math.elementary import round as round_
from defun.ops.support import validation
from defun.ops.support.helpers import dims, int_input, shape_arg_dims, to_tensor

__all__ = ['resize', 'ResizeMethod']


class ResizeMethod:
    """The names tf.image.resize accepts as `method`."""
    BILINEAR = 'bilinear'
    NEAREST_NEIGHBOR = 'nearest'
    BICUBIC = 'bicubic'
    AREA = 'area'
    LANCZOS3 = 'lanczos3'
    LANCZOS5 = 'lanczos5'
    GAUSSIAN = 'gaussian'
    MITCHELLCUBIC = 'mitchellcubic'


def _weights(kind, in_size, out_size, kernel_type, antialias):
    if kind == 'bilinear':
        return resize_weights.bilinear(in_size, out_size)
    if kind == 'bicubic':
        return resize_weights.bicubic(in_size, out_size)
    if kind == 'area':
        return resize_weights.area(in_size, out_size)
    return resize_weights.scale_and_translate(in_size, out_size, kernel_type, antialias)


def _out_size(size):
    out_h, out_w = (int(v) for v in np.asarray(size).reshape(-1))
    if out_h <= 0 or out_w <= 0:
        raise errors.InvalidArgumentError(f'output dimensions must be positive, got '
                                          f'[{out_h}, {out_w}]')
    return out_h, out_w


def _apply(images, rows, cols):
    """rows @ image @ cols^T for every image and channel, accumulated in float64."""
    x = np.asarray(images, np.float64)
    b, h, w, c = x.shape
    out = np.matmul(rows, x.reshape(b, h, w * c)).reshape(b, rows.shape[0], w, c)
    return np.matmul(cols, out)   # (p, w) @ (b, o, w, c): numpy broadcasts the leading dims


def _resize_kernel(images, size, kind, kernel_type='', antialias=False):
    out_h, out_w = _out_size(size)
    _, h, w, _ = images.shape
    if kind == 'nearest':
        rows, cols = resize_weights.nearest_indices(h, out_h), resize_weights.nearest_indices(w, out_w)
        return images[:, rows][:, :, cols]
    rows = _weights(kind, h, out_h, kernel_type, antialias)
    cols = _weights(kind, w, out_w, kernel_type, antialias)
    return _apply(images, rows, cols).astype(np.float32)


def _grad_kernel(grad, original, kind, kernel_type='', antialias=False):
    _, h, w, _ = original.shape
    out_h, out_w = grad.shape[1:3]
    if kind == 'nearest':
        out = np.zeros(original.shape, grad.dtype)
        rows, cols = resize_weights.nearest_indices(h, out_h), resize_weights.nearest_indices(w, out_w)
        np.add.at(out, (slice(None), rows[:, None], cols[None, :]), grad)
        return out
    rows = _weights(kind, h, out_h, kernel_type, antialias)
    cols = _weights(kind, w, out_w, kernel_type, antialias)
    return _apply(grad, rows.T, cols.T).astype(original.dtype)


def _resize_infer(images, size, kind, **attrs):
    d, s = dims(images), shape_arg_dims(size)
    out = (None, None) if s is None else tuple(s)
    dtype = images.dtype if kind == 'nearest' else dtypes.float32
    return dtype, None if d is None else (d[0],) + out + (d[3],)


def _grad_infer(grad, original, **attrs):
    return original.dtype, dims(original)


_TYPES = {'bilinear': 'ResizeBilinear', 'bicubic': 'ResizeBicubic', 'area': 'ResizeArea',
          'nearest': 'ResizeNearestNeighbor', 'scale_and_translate': 'ScaleAndTranslate'}


def _resize_grad(op, grad):
    attrs = _attrs_of(op)
    return apply_op(GRAD_OPS[attrs['kind']], (cast(grad, _grad_dtype(op, attrs)), op.inputs[0]),
                    attrs), None


def _grad_dtype(op, attrs):
    return op.inputs[0].dtype if attrs['kind'] == 'nearest' else dtypes.float32


def _grad_of_grad(op, grad):
    attrs = _attrs_of(op)
    size = shape(op.inputs[0])[1:3]
    return apply_op(RESIZE_OPS[attrs['kind']], (grad, size), attrs), None


def _attrs_of(op):
    attrs = {'kind': op.get_attr('kind')}
    if attrs['kind'] == 'scale_and_translate':
        attrs.update(kernel_type=op.get_attr('kernel_type'), antialias=op.get_attr('antialias'))
    return attrs


RESIZE_OPS, GRAD_OPS = {}, {}
for _kind, _type in _TYPES.items():
    RESIZE_OPS[_kind] = define_op(_type, _resize_kernel, _resize_infer,
                                  None if _kind == 'area' else _resize_grad)
    if _kind != 'area':
        # Every grad op takes (grads, original image); TF's nearest-neighbour one takes a size.
        GRAD_OPS[_kind] = define_op(_type + 'Grad', _grad_kernel, _grad_infer, _grad_of_grad,
                                    inputs=('grads: T',) if _kind == 'nearest' else None)
del _kind, _type

_SCALE_AND_TRANSLATE = {'lanczos3': 'lanczos3', 'lanczos5': 'lanczos5', 'gaussian': 'gaussian',
                        'mitchellcubic': 'mitchellcubic'}


def _method_attrs(method, antialias):
    if method in _SCALE_AND_TRANSLATE:
        return {'kind': 'scale_and_translate', 'kernel_type': method, 'antialias': bool(antialias)}
    if antialias and method in ('bilinear', 'bicubic'):
        return {'kind': 'scale_and_translate', 'antialias': True,
                'kernel_type': 'triangle' if method == 'bilinear' else 'keyscubic'}
    if method in ('bilinear', 'bicubic', 'area', 'nearest'):
        return {'kind': method}
    raise ValueError(f'Resize method is not implemented: [{method}]')


def _size_input(size, images):
    s = int_input(size, 'resize', 'size')
    if s.shape.as_tuple() not in ((2,), None):
        raise ValueError("'size' must be a 1-D Tensor of 2 elements: new_height, new_width")
    return cast(s, dtypes.int32) if s.dtype is not dtypes.int32 else s


def _aspect_preserving(size, images):
    hw = cast(shape(images)[1:3], dtypes.float32)
    factor = minimum(cast(size[0], dtypes.float32) / hw[0], cast(size[1], dtypes.float32) / hw[1])
    return cast(round_(factor * hw), dtypes.int32)


def resize(images, size, method=ResizeMethod.BILINEAR, preserve_aspect_ratio=False,
           antialias=False, name=None):
    """Resizes images ([h, w, c] or [batch, h, w, c]) to `size` = [new_height, new_width]."""
    x = to_tensor(images, name='images', op='resize')
    rank = x.shape.rank
    if rank not in (3, 4, None):
        raise ValueError("'images' must have either 3 or 4 dimensions.")
    validation.element_type(x, 'fiu', 'resize', 'images')
    attrs = _method_attrs(method, antialias)
    size = _size_input(size, x)
    batched = x if rank != 3 else expand_dims(x, 0)
    if preserve_aspect_ratio:
        size = _aspect_preserving(size, batched)
    out = apply_op(RESIZE_OPS[attrs['kind']], (batched, size), attrs, name)
    return squeeze(out, [0]) if rank == 3 else out
