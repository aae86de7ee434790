"""The `tf.raw_ops` namespace: TensorFlow's ops called by their op names, with keyword arguments
only (TF's raw-op calling convention), for the ops defun defines with TF's own inputs and
attributes. Each entry runs the same op as the public function named in its docstring; every
other raw op raises NotInDefunError."""
from defun.core import dtypes, unsupported
from defun.ops.framework.base_ops import cast, identity
from defun.ops.math.arithmetic import add, maximum, minimum, multiply, negative, square
from defun.ops.math.arithmetic import subtract, truediv
from defun.ops.math.bucketize import bucketize
from defun.ops.math.elementary import abs as _abs, exp, log, sigmoid, sqrt, tanh
from defun.ops.math.truncating import unique_with_counts
from defun.ops.array.repeat_unique import unique
from defun.ops.array.unique_slices import unique_v2, unique_with_counts_v2
from defun.ops.linalg.products import matmul
from defun.ops.image.projective import image_projective_transform
from defun.ops.nn.activations import relu
from defun.ops.nn.conv import avg_pool, conv2d, max_pool
from defun.ops.nn.conv3d import conv3d
from defun.ops.nn.pool3d import avg_pool3d, max_pool3d

__all__ = ['Bucketize', 'Unique', 'UniqueWithCounts', 'UniqueV2', 'UniqueWithCountsV2',
           'AddV2', 'Sub', 'Mul', 'RealDiv',
           'Maximum', 'Minimum', 'Square', 'Sqrt', 'Abs', 'Exp', 'Log', 'Neg', 'Relu', 'Sigmoid',
           'Tanh', 'Identity', 'Cast', 'MatMul', 'Conv2D', 'Conv3D', 'MaxPool', 'AvgPool',
           'MaxPool3D', 'AvgPool3D', 'ImageProjectiveTransformV2', 'ImageProjectiveTransformV3']


def ImageProjectiveTransformV3(*, images, transforms, output_shape, fill_value,  # noqa: N802
                               interpolation, fill_mode='CONSTANT', name=None):
    """The images resampled through projective transforms (Keras's rotations, zooms, shifts)."""
    return image_projective_transform(images, transforms, output_shape, fill_value,
                                      interpolation, fill_mode, name)


def ImageProjectiveTransformV2(*, images, transforms, output_shape, interpolation,  # noqa: N802
                               fill_mode='CONSTANT', name=None):
    """ImageProjectiveTransformV3 with a fill value of zero."""
    return image_projective_transform(images, transforms, output_shape, 0.0, interpolation,
                                      fill_mode, name)


def Bucketize(*, input, boundaries, name=None):  # noqa: A002,N802
    """The bucket of each value among sorted float boundaries (int32)."""
    return bucketize(input, boundaries, name)


def Unique(*, x, out_idx=dtypes.int32, name=None):  # noqa: N802
    """tf.unique."""
    return unique(x, out_idx, name)


def UniqueWithCounts(*, x, out_idx=dtypes.int32, name=None):  # noqa: N802
    """tf.unique_with_counts."""
    return unique_with_counts(x, out_idx, name)


def UniqueV2(*, x, axis, out_idx=dtypes.int32, name=None):  # noqa: N802
    """The distinct slices along an axis (no public function in TF)."""
    return unique_v2(x, axis, out_idx, name)


def UniqueWithCountsV2(*, x, axis, out_idx=dtypes.int32, name=None):  # noqa: N802
    """The distinct slices along an axis, with their counts (no public function in TF)."""
    return unique_with_counts_v2(x, axis, out_idx, name)


def AddV2(*, x, y, name=None):  # noqa: N802
    """tf.math.add."""
    return add(x, y, name)


def Sub(*, x, y, name=None):  # noqa: N802
    """tf.math.subtract."""
    return subtract(x, y, name)


def Mul(*, x, y, name=None):  # noqa: N802
    """tf.math.multiply."""
    return multiply(x, y, name)


def RealDiv(*, x, y, name=None):  # noqa: N802
    """tf.math.truediv of floats."""
    return truediv(x, y, name)


def Maximum(*, x, y, name=None):  # noqa: N802
    """tf.math.maximum."""
    return maximum(x, y, name)


def Minimum(*, x, y, name=None):  # noqa: N802
    """tf.math.minimum."""
    return minimum(x, y, name)


def Square(*, x, name=None):  # noqa: N802
    """tf.math.square."""
    return square(x, name)


def Sqrt(*, x, name=None):  # noqa: N802
    """tf.math.sqrt."""
    return sqrt(x, name)


def Abs(*, x, name=None):  # noqa: N802
    """tf.math.abs."""
    return _abs(x, name)


def Exp(*, x, name=None):  # noqa: N802
    """tf.math.exp."""
    return exp(x, name)


def Log(*, x, name=None):  # noqa: N802
    """tf.math.log."""
    return log(x, name)


def Neg(*, x, name=None):  # noqa: N802
    """tf.math.negative."""
    return negative(x, name)


def Relu(*, features, name=None):  # noqa: N802
    """tf.nn.relu."""
    return relu(features, name)


def Sigmoid(*, x, name=None):  # noqa: N802
    """tf.math.sigmoid."""
    return sigmoid(x, name)


def Tanh(*, x, name=None):  # noqa: N802
    """tf.math.tanh."""
    return tanh(x, name)


def Identity(*, input, name=None):  # noqa: A002,N802
    """tf.identity."""
    return identity(input, name)


def Cast(*, x, DstT, Truncate=False, name=None):  # noqa: N802,N803
    """tf.cast."""
    return cast(x, DstT, name)


def MatMul(*, a, b, transpose_a=False, transpose_b=False, grad_a=False, grad_b=False,  # noqa: N802
           name=None):
    """tf.linalg.matmul of two matrices."""
    return matmul(a, b, transpose_a=transpose_a, transpose_b=transpose_b, name=name)


def _pairs(padding, explicit_paddings):
    if padding != 'EXPLICIT':
        return padding
    flat = list(explicit_paddings)
    return [flat[i:i + 2] for i in range(0, len(flat), 2)]


def Conv2D(*, input, filter, strides, padding, use_cudnn_on_gpu=True,  # noqa: A002,N802
           explicit_paddings=(), data_format='NHWC', dilations=(1, 1, 1, 1), name=None):
    """tf.nn.conv2d (padding 'EXPLICIT' takes explicit_paddings, TF's flat list of pairs)."""
    return conv2d(input, filter, strides, _pairs(padding, explicit_paddings), data_format,
                  dilations, name)


def Conv3D(*, input, filter, strides, padding, data_format='NDHWC',  # noqa: A002,N802
           dilations=(1, 1, 1, 1, 1), name=None):
    """tf.nn.conv3d."""
    return conv3d(input, filter, list(strides), padding, data_format, list(dilations), name)


def MaxPool(*, input, ksize, strides, padding, explicit_paddings=(),  # noqa: A002,N802
            data_format='NHWC', name=None):
    """tf.nn.max_pool2d."""
    return max_pool(input, ksize, strides, _pairs(padding, explicit_paddings), data_format,
                    name)


def AvgPool(*, value, ksize, strides, padding, data_format='NHWC', name=None):  # noqa: N802
    """tf.nn.avg_pool2d."""
    return avg_pool(value, ksize, strides, padding, data_format, name)


def MaxPool3D(*, input, ksize, strides, padding, data_format='NDHWC',  # noqa: A002,N802
              name=None):
    """tf.nn.max_pool3d."""
    return max_pool3d(input, ksize, strides, padding, data_format, name)


def AvgPool3D(*, input, ksize, strides, padding, data_format='NDHWC',  # noqa: A002,N802
              name=None):
    """tf.nn.avg_pool3d."""
    return avg_pool3d(input, ksize, strides, padding, data_format, name)


__getattr__ = unsupported.missing_names(
    __name__, 'tf.raw_ops', reason='defun provides the raw ops listed in tf.raw_ops.__all__; use '
                                   'the public function that runs the op.')
