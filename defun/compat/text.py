"""tf.compat's text helpers: as_bytes, as_text (as_str), as_str_any and path_to_str, converting
between Python's `str` and `bytes` as TF's do."""
import os

__all__ = ['as_bytes', 'as_text', 'as_str', 'as_str_any', 'path_to_str']


def as_bytes(bytes_or_text, encoding='utf-8'):
    """`bytes_or_text` as bytes: a str is encoded, bytes and bytearray are returned as bytes."""
    if isinstance(bytes_or_text, bytearray):
        return bytes(bytes_or_text)
    if isinstance(bytes_or_text, str):
        return bytes_or_text.encode(encoding)
    if isinstance(bytes_or_text, bytes):
        return bytes_or_text
    raise TypeError(f'Expected binary or unicode string, got {bytes_or_text!r}')


def as_text(bytes_or_text, encoding='utf-8'):
    """`bytes_or_text` as a str: bytes are decoded, a str is returned as it is."""
    if isinstance(bytes_or_text, str):
        return bytes_or_text
    if isinstance(bytes_or_text, bytes):
        return bytes_or_text.decode(encoding)
    raise TypeError(f'Expected binary or unicode string, got {bytes_or_text!r}')


as_str = as_text


def as_str_any(value, encoding='utf-8'):
    """`value` as a str: bytes decoded, anything else through str()."""
    if isinstance(value, bytes):
        return as_str(value, encoding=encoding)
    return str(value)


def path_to_str(path):
    """A path-like object as its string (os.fspath); anything else is returned unchanged."""
    if isinstance(path, os.PathLike):
        return os.fspath(path)
    return path
