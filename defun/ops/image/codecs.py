"""tf.io / tf.image image codecs (decode_png, decode_jpeg, decode_gif, decode_bmp, decode_image,
encode_png, encode_jpeg, extract_jpeg_shape, is_jpeg) through Pillow, an optional extra: Pillow
is the well-kept binding of libpng, libjpeg(-turbo) and giflib in Python. PNG pixels are TF's
exactly (colour to grey with libpng's coefficients, as TF asks libpng); JPEG pixels are within a
few levels of TF's, which decodes with libjpeg's fast integer IDCT where Pillow uses the accurate
one. Without Pillow these functions raise NotInDefunError naming the extra. Not differentiable."""
import io

import numpy as np

from defun.core import dtypes, errors
from defun.core.dispatch import apply_op
from defun.core.registry import define_op
from defun.core.unsupported import NotInDefunError
from defun.ops.image.color import convert_image_dtype
from defun.ops.strings.support import scalar_bytes, string_input
from defun.ops.support.helpers import dims, to_tensor

try:  # the optional `image` extra
    from PIL import Image
except ImportError:  # pragma: no cover - CI installs every extra
    Image = None

__all__ = ['decode_png', 'decode_jpeg', 'decode_gif', 'decode_bmp', 'decode_image', 'encode_png',
           'encode_jpeg', 'extract_jpeg_shape', 'is_jpeg']

_MODES = {1: 'L', 2: 'LA', 3: 'RGB', 4: 'RGBA'}
_SIGNATURES = {b'\x89PNG': 'png', b'\xff\xd8\xff': 'jpeg', b'GIF8': 'gif', b'BM': 'bmp'}


def require_pillow(op, namespace='tf.io'):
    """NotInDefunError naming the `image` extra when Pillow is not installed."""
    if Image is None:
        raise NotInDefunError(f'{namespace}.{op} needs the optional image codecs: pip install '
                              f"'defun[image]' (Pillow)")


def _format_of(data):
    return next((f for magic, f in _SIGNATURES.items() if data.startswith(magic)), None)


def _libpng_grey(frame):
    # libpng's rgb_to_gray with TF's 0.299/0.587 (15-bit fixed point, truncated).
    rgb = np.asarray(frame.convert('RGB'), np.int64)
    return ((9797 * rgb[..., 0] + 19234 * rgb[..., 1] + 3737 * rgb[..., 2]) >> 15).astype(np.uint8)


def _frame_array(frame, channels, dtype):
    if channels in (1, 2) and frame.format == 'PNG' and frame.mode not in ('L', 'LA', 'I;16', 'I'):
        grey = _libpng_grey(frame)[:, :, None]
        if channels == 2:
            alpha = np.asarray(frame.convert('RGBA'), np.uint8)[:, :, 3:]
            grey = np.concatenate([grey, alpha], axis=-1)
        return grey.astype(np.uint16) * 257 if dtype == 'uint16' else grey
    if channels == 0:
        channels = {'L': 1, 'LA': 2, 'RGB': 3, 'RGBA': 4, 'I;16': 1, 'I': 1}.get(frame.mode, 3)
    if dtype == 'uint16' and frame.mode in ('I;16', 'I') and channels == 1:
        return np.asarray(frame, np.uint16)[:, :, None]
    array = np.asarray(frame.convert(_MODES[channels]), np.uint8)
    array = array.reshape(array.shape[:2] + (channels,))
    return array.astype(np.uint16) * 257 if dtype == 'uint16' else array


def _decode_kernel(contents, channels, dtype, expected, animations):
    data = scalar_bytes(contents)
    kind = _format_of(data)
    if kind is None or (expected and kind not in expected):
        raise errors.InvalidArgumentError(
            'Unknown image file format. One of JPEG, PNG, GIF, BMP required.' if not expected
            else f'Expected image ({"/".join(expected).upper()}), got {kind or "unknown format"}')
    try:
        image = Image.open(io.BytesIO(data))
        if kind == 'gif' and animations:
            frames = []
            for i in range(getattr(image, 'n_frames', 1)):
                image.seek(i)
                frames.append(_frame_array(image.convert('RGB'), 3, dtype))
            return np.stack(frames)
        if kind == 'jpeg' and channels == 1:
            image.draft('L', image.size)   # libjpeg's own grey output, as TF asks for
        image.load()
    except (OSError, ValueError, SyntaxError) as exc:
        raise errors.InvalidArgumentError(f'Invalid {kind.upper()} data: {exc}') from None
    return _frame_array(image, channels, dtype)


def _decode_infer(contents, channels, dtype, expected, animations):
    rank = 4 if animations and expected == ('gif',) else 3
    return dtypes.as_dtype(dtype), (None,) * (rank - 1) + (channels or None,)


DECODE_IMAGE = define_op('DecodeImage', _decode_kernel, _decode_infer, None)


def _decode(contents, channels, dtype, expected, op, animations=False, name=None):
    require_pillow(op)
    if channels not in (0, 1, 2, 3, 4):
        raise ValueError(f'{op}: channels must be 0, 1, 2, 3 or 4, got {channels}')
    attrs = {'channels': int(channels), 'dtype': dtypes.as_dtype(dtype).name,
             'expected': expected, 'animations': animations}
    return apply_op(DECODE_IMAGE, (string_input(contents, op, 'contents'),), attrs, name)


def decode_png(contents, channels=0, dtype=dtypes.uint8, name=None):
    """A PNG image as a [height, width, channels] uint8 or uint16 tensor."""
    return _decode(contents, channels, dtype, ('png',), 'decode_png', name=name)


def decode_jpeg(contents, channels=0, ratio=1, fancy_upscaling=True, try_recover_truncated=False,
                acceptable_fraction=1, dct_method='', name=None):
    """A JPEG image as a [height, width, channels] uint8 tensor."""
    return _decode(contents, channels, dtypes.uint8, ('jpeg',), 'decode_jpeg', name=name)


def decode_bmp(contents, channels=0, name=None):
    """A BMP image as a [height, width, channels] uint8 tensor."""
    return _decode(contents, channels, dtypes.uint8, ('bmp',), 'decode_bmp', name=name)


def decode_gif(contents, name=None):
    """The frames of a GIF as a [frames, height, width, 3] uint8 tensor."""
    return _decode(contents, 3, dtypes.uint8, ('gif',), 'decode_gif', animations=True, name=name)


def decode_image(contents, channels=None, dtype=dtypes.uint8, name=None, expand_animations=True):
    """A PNG, JPEG, GIF or BMP image, its format read from its first bytes; a float `dtype`
    converts as convert_image_dtype."""
    dtype = dtypes.as_dtype(dtype)
    raw = dtypes.uint16 if dtype is dtypes.uint16 else dtypes.uint8
    image = _decode(contents, channels or 0, raw, (), 'decode_image',
                    animations=expand_animations, name=name)
    return convert_image_dtype(image, dtype) if dtype is not raw else image


def _encode_kernel(image, kind, quality):
    array = np.asarray(image)
    channels = array.shape[-1]
    if array.dtype == np.uint16:
        if channels != 1:
            raise errors.InvalidArgumentError('encode_png: uint16 images must have 1 channel here')
        picture = Image.fromarray(array[:, :, 0].astype('<u2'))   # Pillow's 'I;16' mode
    else:
        picture = Image.fromarray(array.reshape(array.shape[:2]) if channels == 1 else array,
                                  _MODES[channels])
    out = io.BytesIO()
    picture.save(out, format=kind, **({'quality': quality} if kind == 'JPEG' else {}))
    return out.getvalue()


ENCODE_IMAGE = define_op('EncodeImage', _encode_kernel, lambda image, **a: (dtypes.string, ()),
                         None)


def _encode(image, kind, quality, op, name):
    require_pillow(op)
    x = to_tensor(image, name='image', op=op)
    d = dims(x)
    if d is not None and (len(d) != 3 or d[-1] not in (1, 2, 3, 4, None)):
        raise errors.InvalidArgumentError(f'{op}: image must be 3-dimensional [height, width, '
                                          f'channels] with 1 to 4 channels, got shape {x.shape}')
    if x.dtype not in (dtypes.uint8, dtypes.uint16) or (kind == 'JPEG' and x.dtype is not
                                                         dtypes.uint8):
        raise TypeError(f'{op}: image must be uint8{" or uint16" if kind == "PNG" else ""}, '
                        f'got {x.dtype.name}')
    return apply_op(ENCODE_IMAGE, (x,), {'kind': kind, 'quality': int(quality)}, name)


def encode_png(image, compression=-1, name=None):
    """A [height, width, channels] uint8 or uint16 image as PNG bytes."""
    return _encode(image, 'PNG', 0, 'encode_png', name)


def encode_jpeg(image, format='', quality=95, progressive=False, optimize_size=False,  # noqa: A002
                chroma_downsampling=True, density_unit='in', x_density=300, y_density=300,
                xmp_metadata='', name=None):
    """A [height, width, channels] uint8 image as JPEG bytes (at `quality`)."""
    return _encode(image, 'JPEG', quality, 'encode_jpeg', name)


def _is_jpeg_kernel(contents):
    return np.array(scalar_bytes(contents).startswith(b'\xff\xd8\xff'))


IS_JPEG = define_op('IsJpeg', _is_jpeg_kernel, lambda c: (dtypes.bool, ()), None)


def is_jpeg(contents, name=None):
    """Whether the bytes start as a JPEG file does."""
    return apply_op(IS_JPEG, (string_input(contents, 'is_jpeg', 'contents'),), None, name)


def _jpeg_shape_kernel(contents, output_type):
    image = Image.open(io.BytesIO(scalar_bytes(contents)))
    return np.array([image.height, image.width, len(image.getbands())], output_type)


EXTRACT_JPEG_SHAPE = define_op('ExtractJpegShape', _jpeg_shape_kernel,
                               lambda c, output_type: (dtypes.as_dtype(output_type), (3,)), None)


def extract_jpeg_shape(contents, output_type=dtypes.int32, name=None):
    """[height, width, channels] of a JPEG image, without decoding its pixels."""
    require_pillow('extract_jpeg_shape')
    return apply_op(EXTRACT_JPEG_SHAPE, (string_input(contents, 'extract_jpeg_shape', 'contents'),),
                    {'output_type': dtypes.as_dtype(output_type).name}, name)
