"""tf.image.crop_and_resize (the CropAndResize op: boxes in normalised coordinates sampled
bilinearly or by nearest neighbour, TF's float32 sample positions and extrapolation value) and
tf.image.sobel_edges (a depthwise convolution with the two 3x3 Sobel kernels, as TF writes it).
CropAndResize is differentiable in the image (CropAndResizeGradImage scatters each crop pixel's
gradient back with its sampling weights), not in the boxes (TF's gradient there is a known gap)."""
import numpy as np

from defun.core import dtypes, errors
from defun.core.dispatch import apply_op
from defun.core.registry import define_op
from defun.ops.array.transform import pad, tile
from defun.ops.framework.base_ops import cast, reshape, shape
from defun.ops.array.joining import concat
from defun.ops.nn.compositions import depthwise_conv2d
from defun.ops.image.transforms import image_input
from defun.ops.support.helpers import dims, shape_arg_dims, to_tensor

__all__ = ['crop_and_resize', 'sobel_edges']

_F32 = np.float32


def _positions(start, end, size, crop):
    """Sample positions of one box along one axis (TF's float32 arithmetic)."""
    if crop > 1:
        scale = (end - start) * _F32(size - 1) / _F32(crop - 1)
        return start * _F32(size - 1) + np.arange(crop, dtype=_F32) * scale
    return np.full(crop, _F32(0.5) * (start + end) * _F32(size - 1), _F32)


def _sample(image, ys, xs, method, fill):
    h, w = image.shape[:2]
    out = np.full((len(ys), len(xs), image.shape[2]), fill, _F32)
    y_ok = (ys >= 0) & (ys <= h - 1)
    x_ok = (xs >= 0) & (xs <= w - 1)
    yi, xi = np.nonzero(y_ok)[0], np.nonzero(x_ok)[0]
    y, x = ys[yi], xs[xi]
    if method == 'nearest':
        # C's roundf: halves away from zero (positions here are >= 0)
        rows, cols = np.floor(y + _F32(0.5)).astype(int), np.floor(x + _F32(0.5)).astype(int)
        out[np.ix_(yi, xi)] = image[np.ix_(rows, cols)]
        return out
    top, left = np.floor(y).astype(int), np.floor(x).astype(int)
    bottom, right = np.ceil(y).astype(int), np.ceil(x).astype(int)
    dy, dx = (y - top)[:, None, None], (x - left)[None, :, None]
    img = image.astype(_F32)
    upper = img[np.ix_(top, left)] + (img[np.ix_(top, right)] - img[np.ix_(top, left)]) * dx
    lower = img[np.ix_(bottom, left)] + (img[np.ix_(bottom, right)] - img[np.ix_(bottom, left)]) * dx
    out[np.ix_(yi, xi)] = upper + (lower - upper) * dy
    return out


def _crop_and_resize_kernel(images, boxes, box_indices, crop_size, method, extrapolation_value):
    crop_h, crop_w = (int(v) for v in np.asarray(crop_size).reshape(-1))
    _, h, w, _ = images.shape
    out = np.empty((len(boxes), crop_h, crop_w, images.shape[3]), _F32)
    for i, (box, b) in enumerate(zip(np.asarray(boxes, _F32), np.asarray(box_indices))):
        if not 0 <= b < images.shape[0]:
            raise errors.InvalidArgumentError('box_index has values outside [0, batch_size)')
        ys = _positions(box[0], box[2], h, crop_h)
        xs = _positions(box[1], box[3], w, crop_w)
        out[i] = _sample(images[b], ys, xs, method, _F32(extrapolation_value))
    return out


def _crop_and_resize_infer(images, boxes, box_indices, crop_size, **attrs):
    d, n, size = dims(images), dims(boxes), shape_arg_dims(crop_size)
    size = (None, None) if size is None else size
    return dtypes.float32, (None if n is None else n[0],) + tuple(size) + (
        None if d is None else d[3],)


def _grad_image_kernel(grad, boxes, box_indices, image, method):
    out = np.zeros(image.shape, np.float64)
    _, h, w, _ = image.shape
    crop_h, crop_w = grad.shape[1:3]
    for i, (box, b) in enumerate(zip(np.asarray(boxes, _F32), np.asarray(box_indices))):
        ys = _positions(box[0], box[2], h, crop_h)
        xs = _positions(box[1], box[3], w, crop_w)
        yi = np.nonzero((ys >= 0) & (ys <= h - 1))[0]
        xi = np.nonzero((xs >= 0) & (xs <= w - 1))[0]
        g = grad[i][np.ix_(yi, xi)].astype(np.float64)
        y, x = ys[yi], xs[xi]
        if method == 'nearest':
            rows, cols = np.floor(y + _F32(0.5)).astype(int), np.floor(x + _F32(0.5)).astype(int)
            np.add.at(out[b], np.ix_(rows, cols), g)
            continue
        top, left = np.floor(y).astype(int), np.floor(x).astype(int)
        bottom, right = np.ceil(y).astype(int), np.ceil(x).astype(int)
        dy, dx = (y - top)[:, None, None], (x - left)[None, :, None]
        for rows, cols, weight in ((top, left, (1 - dy) * (1 - dx)), (top, right, (1 - dy) * dx),
                                   (bottom, left, dy * (1 - dx)), (bottom, right, dy * dx)):
            np.add.at(out[b], np.ix_(rows, cols), g * weight)
    return out.astype(image.dtype)


def _crop_and_resize_grad(op, grad):
    images, boxes, box_indices, _ = op.inputs
    grad_image = apply_op(CROP_AND_RESIZE_GRAD_IMAGE, (grad, boxes, box_indices, images),
                          {'method': op.get_attr('method')})
    return grad_image, None, None, None


def _grad_of_grad_image(op, grad):
    grad_out = op.inputs[0]
    crop_size = shape(grad_out)[1:3]
    return (apply_op(CROP_AND_RESIZE, (cast(grad, dtypes.float32), op.inputs[1], op.inputs[2],
                                       crop_size),
                     {'method': op.get_attr('method'), 'extrapolation_value': 0.0}),
            None, None, None)


CROP_AND_RESIZE = define_op('CropAndResize', _crop_and_resize_kernel, _crop_and_resize_infer,
                            _crop_and_resize_grad)
CROP_AND_RESIZE_GRAD_IMAGE = define_op(
    'CropAndResizeGradImage', _grad_image_kernel,
    lambda grad, boxes, box_indices, image, method: (image.dtype, dims(image)),
    _grad_of_grad_image,
    inputs=('grads: float', 'boxes: float', 'box_ind: int32'))  # then the image, not its size


def crop_and_resize(image, boxes, box_indices, crop_size, method='bilinear',
                    extrapolation_value=0.0, name=None):
    """Crops of `image` ([batch, h, w, c]) at `boxes` ([n, 4] of y1, x1, y2, x2 in [0, 1]
    coordinates, from images `box_indices`), each resized to `crop_size`, as float32."""
    x, d = image_input(image, 'crop_and_resize', ranks=(4,))
    if method not in ('bilinear', 'nearest'):
        raise ValueError(f"method must be 'bilinear' or 'nearest', got {method!r}")
    inputs = (x, to_tensor(boxes, dtype=dtypes.float32, name='boxes', op='crop_and_resize'),
              to_tensor(box_indices, dtype=dtypes.int32, name='box_indices', op='crop_and_resize'),
              to_tensor(crop_size, dtype=dtypes.int32, name='crop_size', op='crop_and_resize'))
    attrs = {'method': method, 'extrapolation_value': float(extrapolation_value)}
    return apply_op(CROP_AND_RESIZE, inputs, attrs, name)


_SOBEL = np.expand_dims(np.transpose(np.array(
    [[[-1, -2, -1], [0, 0, 0], [1, 2, 1]], [[-1, 0, 1], [-2, 0, 2], [-1, 0, 1]]]), (1, 2, 0)), -2)


def sobel_edges(image):
    """The vertical and horizontal Sobel responses of each channel: [batch, h, w, d, 2]."""
    x, d = image_input(image, 'sobel_edges', ranks=(4,))
    kernels = tile(cast(_SOBEL, x.dtype), [1, 1, shape(x)[-1], 1])
    padded = pad(x, [[0, 0], [1, 1], [1, 1], [0, 0]], mode='REFLECT')
    out = depthwise_conv2d(padded, kernels, [1, 1, 1, 1], 'VALID')
    return reshape(out, concat([shape(x), [2]], 0))
