"""tf.io's byte encodings and file matching: encode_base64 / decode_base64 (web-safe alphabet,
padding optional, as TF's), decode_compressed (GZIP or ZLIB strings) and matching_files (glob).
Not differentiable."""
import base64
import glob
import gzip
import re
import zlib

import numpy as np

from defun.core import dtypes, errors
from defun.core.dispatch import apply_op
from defun.core.registry import define_op
from defun.ops.io.records import compression_of
from defun.ops.strings.support import as_array, map_elements, string_input
from defun.ops.support.helpers import dims, same_as_first

__all__ = ['encode_base64', 'decode_base64', 'decode_compressed', 'matching_files']


_WEB_SAFE = re.compile(rb'[A-Za-z0-9_-]*')


def _encode(value, pad):
    text = base64.urlsafe_b64encode(value)
    return text if pad else text.rstrip(b'=')


def _decode(value):
    body = value.rstrip(b'=')
    if not _WEB_SAFE.fullmatch(body) or len(body) % 4 == 1:
        raise errors.InvalidArgumentError('Invalid character found in base64.')
    return base64.urlsafe_b64decode(body + b'=' * (-len(body) % 4))


ENCODE_BASE64 = define_op('EncodeBase64', lambda x, pad: map_elements(lambda v: _encode(v, pad), x),
                          lambda x, pad: same_as_first(x), None)
DECODE_BASE64 = define_op('DecodeBase64', lambda x: map_elements(_decode, x), same_as_first, None)


def encode_base64(input, pad=False, name=None):  # noqa: A002 - TF's argument name
    """Each string in web-safe base64 ('-' and '_'), '=' padded only with `pad`."""
    return apply_op(ENCODE_BASE64, (string_input(input, 'encode_base64'),), {'pad': bool(pad)},
                    name)


def decode_base64(input, name=None):  # noqa: A002
    """Each web-safe base64 string decoded (padding optional)."""
    return apply_op(DECODE_BASE64, (string_input(input, 'decode_base64'),), None, name)


def _decompress(value, compression):
    try:
        if compression == 'GZIP':
            return gzip.decompress(value)
        return zlib.decompress(value) if compression == 'ZLIB' else value
    except (OSError, EOFError, zlib.error) as exc:
        raise errors.DataLossError(f'decode_compressed: {exc}') from None


DECODE_COMPRESSED = define_op(
    'DecodeCompressed', lambda x, compression: map_elements(lambda v: _decompress(v, compression),
                                                            x),
    lambda x, compression: same_as_first(x), None)


def decode_compressed(bytes, compression_type='', name=None):  # noqa: A002
    """Each string decompressed from GZIP or ZLIB ('' leaves it as it is)."""
    x = string_input(bytes, 'decode_compressed', 'bytes')
    attrs = {'compression': compression_of(compression_type, 'decode_compressed')}
    return apply_op(DECODE_COMPRESSED, (x,), attrs, name)


def _matching_kernel(pattern):
    names = sorted({n for p in as_array(pattern).reshape(-1)
                    for n in glob.glob(p.decode('utf-8'))})
    out = np.empty(len(names), dtype=object)
    out[:] = [n.encode('utf-8') for n in names]
    return out


MATCHING_FILES = define_op('MatchingFiles', _matching_kernel,
                           lambda pattern: (dtypes.string, (None,)), None, stateful=True)


def matching_files(pattern, name=None):
    """The sorted file names matching the glob `pattern` (a string or a vector of them)."""
    p = string_input(pattern, 'matching_files', 'pattern')
    if dims(p) not in ((), None) and len(dims(p)) > 1:
        raise errors.InvalidArgumentError('matching_files: `pattern` must be a scalar or a vector')
    return apply_op(MATCHING_FILES, (p,), None, name)
