"""CRC-32C (Castagnoli), the checksum of TFRecord files, fast enough for large records in numpy.

The CRC register is linear over GF(2): with a zero start, a message's CRC is the XOR of each
byte's contribution, which depends only on the byte and its distance from the end. So a block of
BLOCK bytes is checksummed by one table gather and an XOR reduction, and blocks are chained by the
linear map "append BLOCK zero bytes", applied through four byte tables. Short messages (most
serialized Examples) take the plain byte loop, which is faster for them than numpy's overhead.
"""
import functools

import numpy as np

__all__ = ['crc32c']

_POLY = 0x82F63B78   # Castagnoli's polynomial, bit-reflected
BLOCK = 4096
_SHORT = 512


def _byte_table():
    table = np.arange(256, dtype=np.uint32)
    for _ in range(8):
        table = np.where(table & 1, (table >> 1) ^ np.uint32(_POLY), table >> 1).astype(np.uint32)
    return table


_TABLE = _byte_table()
_TABLE_LIST = tuple(int(v) for v in _TABLE)


def _zero_byte(register):
    """The register after one more zero byte."""
    return (register >> np.uint32(8)) ^ _TABLE[register & np.uint32(0xFF)]


@functools.lru_cache(maxsize=1)
def _tables():
    """(contributions[distance * 256 + byte] for distances 0..BLOCK-1, flat for one gather; the
    four tables that append BLOCK zero bytes to a register, one per register byte, as tuples)."""
    contributions = np.empty((BLOCK, 256), np.uint32)
    contributions[0] = _TABLE
    for k in range(1, BLOCK):
        contributions[k] = _zero_byte(contributions[k - 1])
    shifts = []
    for m in range(4):
        register = np.arange(256, dtype=np.uint32) << np.uint32(8 * m)
        for _ in range(BLOCK):
            register = _zero_byte(register)
        shifts.append(tuple(int(v) for v in register))
    return contributions.reshape(-1), shifts


def _short(data, crc):
    table = _TABLE_LIST
    for byte in data:
        crc = table[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc


def crc32c(data):
    """CRC-32C of bytes `data`."""
    if len(data) < _SHORT:
        return _short(data, 0xFFFFFFFF) ^ 0xFFFFFFFF
    contributions, shifts = _tables()
    array = np.frombuffer(data, np.uint8).copy()
    array[:4] ^= 0xFF   # a start of all ones is the same as inverting the first four bytes
    head = len(array) % BLOCK
    register = 0
    if head:
        offsets = np.arange(head - 1, -1, -1) * 256
        register = int(np.bitwise_xor.reduce(contributions[offsets + array[:head]]))
    blocks = array[head:].reshape(-1, BLOCK)
    if len(blocks):
        offsets = np.arange(BLOCK - 1, -1, -1, dtype=np.int32) * 256
        sums = np.bitwise_xor.reduce(contributions[blocks + offsets], axis=1).tolist()
        s0, s1, s2, s3 = shifts
        for block_sum in sums:
            register = (s0[register & 0xFF] ^ s1[(register >> 8) & 0xFF] ^
                        s2[(register >> 16) & 0xFF] ^ s3[register >> 24] ^ block_sum)
    return register ^ 0xFFFFFFFF
