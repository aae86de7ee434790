"""The TFRecord file format: each record is its length (uint64, little-endian), the masked CRC-32C
of those 8 bytes (uint32), the data, and the masked CRC-32C of the data, TF's framing bit for bit.
A file is optionally one GZIP or ZLIB stream of such records.

`RecordWriter` writes a file, `read_records` yields the records of one, checking both checksums
(TF's DataLossError when they disagree or a record is cut short).
"""
import gzip
import io
import struct
import zlib

from defun.core import errors
from defun.ops.io.crc32c import crc32c

__all__ = ['crc32c', 'masked_crc32c', 'RecordWriter', 'read_records', 'compression_of', 'decompressed',
           'TFRecordOptions', 'TFRecordWriter']


def masked_crc32c(data):
    """TF's masked CRC: rotated right by 15 bits plus a constant, so that a CRC stored inside the
    data it covers does not make checksums of checksums degenerate."""
    crc = crc32c(data)
    return ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + 0xA282EAD8) & 0xFFFFFFFF


def compression_of(compression_type, op='TFRecord'):
    """'', 'GZIP' or 'ZLIB' from TF's spellings (None, a string, or TFRecordOptions)."""
    value = getattr(compression_type, 'compression_type', compression_type)
    value = '' if value is None else value.decode() if isinstance(value, bytes) else value
    if value not in ('', 'GZIP', 'ZLIB'):
        raise ValueError(f'{op}: unsupported compression type {value!r}: expected "", '
                         f'"GZIP" or "ZLIB"')
    return value


class RecordWriter:
    """Writes TFRecords to a file opened for binary writing, through `compression`."""

    def __init__(self, path, compression=''):
        self._file = open(path, 'wb')
        if compression == 'GZIP':
            self._stream = gzip.GzipFile(fileobj=self._file, mode='wb')
        elif compression == 'ZLIB':
            self._stream = _ZlibWriter(self._file)
        else:
            self._stream = self._file

    def write(self, record):
        header = struct.pack('<Q', len(record))
        self._stream.write(header + struct.pack('<I', masked_crc32c(header)) + record +
                           struct.pack('<I', masked_crc32c(record)))

    def flush(self):
        self._stream.flush()
        self._file.flush()

    def close(self):
        if self._stream is not self._file:
            self._stream.close()
        self._file.close()


class _ZlibWriter:
    """A zlib stream (RFC 1950, as TF's ZLIB option writes) onto a binary file."""

    def __init__(self, file):
        self._file = file
        self._compressor = zlib.compressobj()

    def write(self, data):
        self._file.write(self._compressor.compress(data))

    def flush(self):
        self._file.write(self._compressor.flush(zlib.Z_SYNC_FLUSH))

    def close(self):
        self._file.write(self._compressor.flush())


class TFRecordOptions:
    """tf.io.TFRecordOptions: how a TFRecord file is compressed ('', 'GZIP' or 'ZLIB')."""

    compression_type_map = {'ZLIB': 'ZLIB', 'GZIP': 'GZIP', '': ''}

    def __init__(self, compression_type=None, flush_mode=None, input_buffer_size=None,
                 output_buffer_size=None, window_bits=None, compression_level=None,
                 compression_method=None, mem_level=None, compression_strategy=None):
        self.compression_type = compression_of(compression_type, 'TFRecordOptions')
        self.compression_level = compression_level

    @classmethod
    def get_compression_type_string(cls, options):
        return '' if options is None else compression_of(options)


class TFRecordWriter:
    """tf.io.TFRecordWriter: writes records (bytes, or text as UTF-8) to a TFRecord file."""

    def __init__(self, path, options=None):
        self._writer = RecordWriter(_path(path), compression_of(options))

    def write(self, record):
        array = getattr(record, 'array', None)  # a string scalar tensor
        record = array[()] if array is not None else record
        self._writer.write(record.encode('utf-8') if isinstance(record, str) else bytes(record))

    def flush(self):
        self._writer.flush()

    def close(self):
        self._writer.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()


def _path(path):
    return path.decode('utf-8') if isinstance(path, bytes) else str(path)


def decompressed(handle, compression):
    """A buffered binary reader of the open file `handle` through '', 'GZIP' or 'ZLIB'."""
    if compression == 'GZIP':
        return gzip.GzipFile(fileobj=handle, mode='rb')
    if compression == 'ZLIB':
        return io.BufferedReader(_ZlibReader(handle))
    return handle


class _ZlibReader(io.RawIOBase):
    """The raw bytes of a zlib stream, inflated as they are read."""

    def __init__(self, file):
        super().__init__()
        self._file = file
        self._inflater = zlib.decompressobj()
        self._buffer = b''

    def readable(self):
        return True

    def readinto(self, target):
        while not self._buffer and not self._inflater.eof:
            chunk = self._file.read(1 << 16)
            if not chunk:
                break
            self._buffer = self._inflater.decompress(chunk)
        n = min(len(target), len(self._buffer))
        target[:n] = self._buffer[:n]
        self._buffer = self._buffer[n:]
        return n


def read_records(handle, compression, filename):
    """Yields the records of the open binary file `handle`, checking TF's checksums."""
    stream = decompressed(handle, compression)
    try:
        while True:
            header = stream.read(12)
            if not header:
                return
            if len(header) < 12:
                raise errors.DataLossError(f'truncated record at the end of {filename}')
            length, crc = struct.unpack('<QI', header)
            if masked_crc32c(header[:8]) != crc:
                raise errors.DataLossError(f'corrupted record at the start of a record in '
                                           f'{filename}: length checksum mismatch')
            body = stream.read(length + 4)
            if len(body) < length + 4:
                raise errors.DataLossError(f'truncated record in {filename}')
            data, = struct.unpack_from('<I', body, length)
            record = body[:length]
            if masked_crc32c(record) != data:
                raise errors.DataLossError(f'corrupted record in {filename}: data checksum '
                                           f'mismatch')
            yield record
    except (OSError, EOFError, zlib.error) as exc:
        raise errors.DataLossError(f'{filename}: {exc}') from None
