"""tf.strings ops whose results are ragged: split, bytes_split, unicode_decode, unicode_split,
unicode_encode, unicode_transcode and ngrams.

Each kernel works on a flat vector of strings (or of code points) with row splits, as TF's
kernels do; `_rows_of` runs one over a string tensor of any rank (a scalar gives a dense vector,
higher ranks keep their leading dimensions as uniform ragged rows) or over the flat values of a
RaggedTensor. Not differentiable.
"""
import codecs

import numpy as np

from defun.core import dtypes, errors
from defun.core.dispatch import apply_op
from defun.core.registry import define_op
from defun.ops.framework.base_ops import cast, reshape, shape
from defun.ops.ragged.ragged_tensor import RaggedTensor, is_ragged
from defun.ops.array.creation import range as range_
from defun.ops.array.joining import concat
from defun.ops.strings.support import as_array, map_elements, ragged_elementwise, string_input
from defun.ops.support import validation
from defun.ops.support.helpers import dims, to_tensor

__all__ = ['split', 'bytes_split', 'unicode_decode', 'unicode_split', 'unicode_encode',
           'unicode_transcode', 'ngrams', 'unicode_decode_with_offsets',
           'unicode_split_with_offsets']


def _flat_infer(dtype):
    def infer(x, **attrs):
        n = dims(x)
        rows = None if n is None or n[0] is None else n[0] + 1
        return [(dtype, (None,)), (dtypes.int64, (rows,))]
    return infer


def _ragged_output(pieces, dtype=object):
    values = np.empty(sum(len(p) for p in pieces), dtype=dtype)
    splits = np.zeros(len(pieces) + 1, np.int64)
    i = 0
    for r, piece in enumerate(pieces):
        values[i:i + len(piece)] = piece
        i += len(piece)
        splits[r + 1] = i
    return values, splits


def _rows_of(x, op, flat_fn):
    """flat_fn(vector of strings) -> (values, row_splits), over any string input."""
    if is_ragged(x):
        return x.with_flat_values(_rows_of(x.flat_values, op, flat_fn))
    x = string_input(x, op)
    rank = x.shape.rank
    if rank is None:
        raise ValueError(f'{op}: the rank of the input must be known')
    if rank == 0:
        return flat_fn(reshape(x, [1]))[0]
    values, splits = flat_fn(reshape(x, [-1]) if rank > 1 else x)
    result = RaggedTensor.from_row_splits(values, splits, validate=False)
    for axis in range(rank - 1, 0, -1):
        outer = shape(x, dtypes.int64)
        nrows = outer[0]
        for k in range(1, axis):
            nrows = nrows * outer[k]
        result = RaggedTensor.from_uniform_rows(result, nrows, outer[axis])
    return result


# ---------------------------------------------------------------- split and bytes_split

def _split_one(value, sep, maxsplit):
    if sep:
        return value.split(sep, maxsplit)
    return value.split(None, maxsplit)   # runs of ASCII whitespace, none at either end


def _split_kernel(x, sep, maxsplit):
    return _ragged_output([_split_one(v, sep, maxsplit) for v in as_array(x)])


STRING_SPLIT = define_op('RaggedStringSplit', _split_kernel, _flat_infer(dtypes.string), None,
                         num_outputs=2)


def split(input, sep=None, maxsplit=-1, name=None):  # noqa: A002 - TF's argument name
    """Splits each string at `sep` (runs of whitespace when None): a RaggedTensor with one more
    dimension (a vector for a scalar)."""
    sep_bytes = b'' if sep is None else sep.encode('utf-8') if isinstance(sep, str) else sep
    attrs = {'sep': sep_bytes, 'maxsplit': int(maxsplit)}
    return _rows_of(input, 'split', lambda v: apply_op(STRING_SPLIT, (v,), attrs, name))


BYTES_SPLIT = define_op(
    'StringBytesSplit',
    lambda x: _ragged_output([[v[i:i + 1] for i in range(len(v))] for v in as_array(x)]),
    _flat_infer(dtypes.string), None, num_outputs=2)


def bytes_split(input, name=None):  # noqa: A002
    """Each string's bytes, one string each."""
    return _rows_of(input, 'bytes_split', lambda v: apply_op(BYTES_SPLIT, (v,), None, name))


# ---------------------------------------------------------------- unicode

_ENCODINGS = {'UTF-8': 'utf-8', 'UTF-16-BE': 'utf-16-be', 'UTF-32-BE': 'utf-32-be'}


def _codec(encoding, op, output=False):
    """Python's codec for an encoding TF names: outputs are TF's three Unicode encodings,
    inputs any encoding Python knows ('US ASCII', 'ISO-8859-1', 'UTF-16', ...)."""
    if encoding in _ENCODINGS:
        return _ENCODINGS[encoding]
    if not output:
        try:
            return codecs.lookup(encoding.replace(' ', '-')).name
        except LookupError:
            pass
    raise validation.invalid_argument(
        f'{op}: encoding "{encoding}" is not supported'
        + ('; outputs are "UTF-8", "UTF-16-BE" or "UTF-32-BE"' if output else ''))


def _decode_one(value, codec, errors_mode, replacement):
    """(code points, byte offset where each starts) of one string."""
    if errors_mode == 'strict':
        try:
            value.decode(codec)
        except UnicodeDecodeError:
            raise errors.InvalidArgumentError('Invalid formatting on input string') from None
    decoder = codecs.getincrementaldecoder(codec)('surrogateescape')
    points, offsets, position = [], [], 0
    for c in decoder.decode(value, final=True):
        bad = 0xDC80 <= ord(c) <= 0xDCFF   # an undecodable byte
        if not bad or errors_mode == 'replace':
            points.append(replacement if bad else ord(c))
            offsets.append(position)
        position += 1 if bad else len(c.encode(codec, 'surrogatepass'))
    if codec in ('utf-16', 'utf-32') and value[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE):
        offsets = [o + (2 if codec == 'utf-16' else 4) for o in offsets]
    return points, offsets


def _decode_kernel(x, codec, errors_mode, replacement, with_offsets=False):
    decoded = [_decode_one(v, codec, errors_mode, replacement) for v in as_array(x)]
    values, splits = _ragged_output([d[0] for d in decoded], np.int32)
    if with_offsets:
        return splits, values, _ragged_output([d[1] for d in decoded], np.int64)[0]
    return splits, values


def _decode_infer(x, with_offsets=False, **attrs):
    values, splits = _flat_infer(dtypes.int32)(x)
    return [splits, values] + ([(dtypes.int64, (None,))] if with_offsets else [])


UNICODE_DECODE = define_op('UnicodeDecode', _decode_kernel, _decode_infer, None, num_outputs=2)
UNICODE_DECODE_WITH_OFFSETS = define_op('UnicodeDecodeWithOffsets', _decode_kernel, _decode_infer,
                                        None, num_outputs=3)


def _error_mode(errors_mode):
    if errors_mode not in ('replace', 'ignore', 'strict'):
        raise ValueError(f'errors must be one of "strict", "replace" or "ignore", got '
                         f'{errors_mode!r}')
    return errors_mode


def unicode_decode(input, input_encoding, errors='replace', replacement_char=65533,  # noqa: A002
                   replace_control_characters=False, name=None):
    """Each string's Unicode code points (int32), one more (ragged) dimension."""
    attrs = {'codec': _codec(input_encoding, 'unicode_decode'), 'errors_mode': _error_mode(errors),
             'replacement': int(replacement_char)}

    def decode(v):
        splits, values = apply_op(UNICODE_DECODE, (v,), attrs, name)
        return values, splits
    return _rows_of(input, 'unicode_decode', decode)


def unicode_decode_with_offsets(input, input_encoding, errors='replace',  # noqa: A002
                                replacement_char=65533, replace_control_characters=False,
                                name=None):
    """(code points, the byte offset at which each starts), ragged as unicode_decode's."""
    attrs = {'codec': _codec(input_encoding, 'unicode_decode_with_offsets'),
             'errors_mode': _error_mode(errors), 'replacement': int(replacement_char),
             'with_offsets': True}
    found = {}

    def decode(v):
        splits, values, offsets = apply_op(UNICODE_DECODE_WITH_OFFSETS, (v,), attrs, name)
        found['offsets'] = offsets
        return values, splits
    points = _rows_of(input, 'unicode_decode_with_offsets', decode)
    offsets = found['offsets']
    return points, (points.with_flat_values(offsets) if is_ragged(points) else offsets)


def unicode_split_with_offsets(input, input_encoding, errors='replace',  # noqa: A002
                               replacement_char=65533, name=None):
    """(each string's characters, the byte offset at which each starts)."""
    points, offsets = unicode_decode_with_offsets(input, input_encoding, errors, replacement_char)
    return _characters(points, input_encoding, name), offsets


def _encode_kernel(values, splits, codec, errors_mode, replacement):
    values, splits = np.asarray(values), np.asarray(splits)
    out = np.empty(max(len(splits) - 1, 0), dtype=object)
    for r in range(len(out)):
        text = []
        for point in values[splits[r]:splits[r + 1]].tolist():
            if 0 <= point <= 0x10FFFF and not 0xD800 <= point <= 0xDFFF:
                text.append(chr(point))
            elif errors_mode == 'strict':
                raise errors.InvalidArgumentError(
                    'Code point is out of range for Unicode, or is a surrogate.')
            elif errors_mode == 'replace':
                text.append(chr(replacement))
        out[r] = ''.join(text).encode(codec)
    return out


UNICODE_ENCODE = define_op(
    'UnicodeEncode', _encode_kernel,
    lambda values, splits, **attrs: (dtypes.string, (None if dims(splits) is None or
                                                      dims(splits)[0] is None else
                                                      dims(splits)[0] - 1,)), None)


def unicode_encode(input, output_encoding, errors='replace', replacement_char=65533,  # noqa: A002
                   name=None):
    """Code points (the innermost dimension, ragged or dense) encoded as strings."""
    attrs = {'codec': _codec(output_encoding, 'unicode_encode', output=True),
             'errors_mode': _error_mode(errors),
             'replacement': int(replacement_char)}
    if is_ragged(input):
        if is_ragged(input.values):
            return input.with_values(unicode_encode(input.values, output_encoding, errors,
                                                    replacement_char))
        values = cast(input.values, dtypes.int32)
        return apply_op(UNICODE_ENCODE, (values, cast(input.row_splits, dtypes.int64)), attrs, name)
    x = to_tensor(input, dtype=dtypes.int32, name='input', op='unicode_encode')
    rank = x.shape.rank
    if rank == 1:
        return reshape(unicode_encode(reshape(x, [1, -1]), output_encoding, errors,
                                      replacement_char), [])
    rows = RaggedTensor.from_tensor(x, ragged_rank=rank - 1) if rank > 1 else None
    if rows is None:
        raise ValueError('unicode_encode: `input` must have rank >= 1')
    return unicode_encode(rows, output_encoding, errors, replacement_char)


def unicode_split(input, input_encoding, errors='replace', replacement_char=65533,  # noqa: A002
                  name=None):
    """Each string split into its characters (as strings)."""
    return _characters(unicode_decode(input, input_encoding, errors, replacement_char),
                       input_encoding, name)


def _characters(decoded, encoding, name):
    """Code points (ragged or a vector) as one-character strings of `encoding`."""
    codec = _codec(encoding, 'unicode_split')
    points = decoded.flat_values if is_ragged(decoded) else decoded
    n = shape(points, dtypes.int64)[0]
    chars = apply_op(UNICODE_ENCODE, (points, range_(n + 1)),
                     {'codec': codec, 'errors_mode': 'replace', 'replacement': 65533}, name)
    return decoded.with_flat_values(chars) if is_ragged(decoded) else chars


def _transcode_kernel(x, source, target, errors_mode, replacement):
    return map_elements(lambda v: _transcode_one(v, source, target, errors_mode, replacement), x)


def _transcode_one(value, source, target, errors_mode, replacement):
    points = _decode_one(value, source, errors_mode, replacement)[0]
    return ''.join(chr(p) for p in points).encode(target)


UNICODE_TRANSCODE = define_op('UnicodeTranscode', _transcode_kernel,
                              lambda x, **attrs: (dtypes.string, dims(x)), None)


@ragged_elementwise
def unicode_transcode(input, input_encoding, output_encoding, errors='replace',  # noqa: A002
                      replacement_char=65533, replace_control_characters=False, name=None):
    """Each string re-encoded from `input_encoding` to `output_encoding`."""
    x = string_input(input, 'unicode_transcode')
    attrs = {'source': _codec(input_encoding, 'unicode_transcode'),
             'target': _codec(output_encoding, 'unicode_transcode', output=True),
             'errors_mode': _error_mode(errors), 'replacement': int(replacement_char)}
    return apply_op(UNICODE_TRANSCODE, (x,), attrs, name)


# ---------------------------------------------------------------- ngrams

def _ngrams_row(row, widths, separator, left, right, pad_width, preserve_short):
    out = []
    for width in widths:
        pad = (width - 1 if pad_width < 0 else min(pad_width, width - 1)) if left or right else 0
        padded = [left] * pad + list(row) + [right] * pad
        out.extend(separator.join(padded[i:i + width]) for i in range(len(padded) - width + 1))
    if not out and preserve_short and row:
        out.append(separator.join(row))
    return out


def _ngrams_kernel(data, splits, widths, separator, left, right, pad_width, preserve_short):
    data, splits = as_array(data), np.asarray(splits)
    rows = [_ngrams_row(data[splits[r]:splits[r + 1]], widths, separator, left, right,
                        pad_width, preserve_short) for r in range(len(splits) - 1)]
    return _ragged_output(rows)


STRING_NGRAMS = define_op('StringNGrams', _ngrams_kernel,
                          lambda data, splits, **attrs: [(dtypes.string, (None,)),
                                                         (dtypes.int64, dims(splits))], None,
                          num_outputs=2)


def _pads(pad_values):
    if pad_values is None:
        return b'', b''
    if isinstance(pad_values, (tuple, list)):
        left, right = pad_values
    else:
        left = right = pad_values
    return tuple(v.encode('utf-8') if isinstance(v, str) else v for v in (left, right))


def ngrams(data, ngram_width, separator=' ', pad_values=None, padding_width=None,
           preserve_short_sequences=False, name=None):
    """The n-grams of the innermost dimension of `data` (ragged or dense), joined by
    `separator`, for each width of `ngram_width`, optionally padded at both ends."""
    widths = tuple(int(w) for w in (ngram_width if isinstance(ngram_width, (tuple, list))
                                    else [ngram_width]))
    if any(w < 1 for w in widths):
        raise ValueError(f'All ngram_widths must be greater than 0. Got {list(widths)}')
    if padding_width is not None and padding_width < 1:
        raise ValueError('padding_width must be greater than 0.')
    left, right = _pads(pad_values)
    attrs = {'widths': widths, 'separator': separator.encode('utf-8'), 'left': left,
             'right': right, 'pad_width': -1 if padding_width is None else int(padding_width),
             'preserve_short': bool(preserve_short_sequences)}
    if is_ragged(data):
        if is_ragged(data.values):
            return data.with_values(ngrams(data.values, ngram_width, separator, pad_values,
                                           padding_width, preserve_short_sequences))
        values, splits = apply_op(STRING_NGRAMS, (data.values, cast(data.row_splits,
                                                                    dtypes.int64)), attrs, name)
        return RaggedTensor.from_row_splits(values, splits, validate=False)
    x = string_input(data, 'ngrams', 'data')
    if x.shape.rank == 1:
        n = shape(x, dtypes.int64)[0]
        ends = concat([cast([0], dtypes.int64), reshape(n, [1])], 0)
        return apply_op(STRING_NGRAMS, (x, ends), attrs, name)[0]
    rows = RaggedTensor.from_tensor(x, ragged_rank=x.shape.rank - 1)
    grams = ngrams(rows, ngram_width, separator, pad_values, padding_width,
                   preserve_short_sequences)
    # Rows of one length give n-gram rows of one length: back to a dense tensor.
    return reshape(grams.flat_values, concat([shape(x)[:-1], [-1]], 0))
