"""The byte-string hashes TensorFlow's string ops use, bit for bit, in plain Python integers.

- `fingerprint64`: FarmHash's Fingerprint64 (farmhashna's Hash64), TF's `Fingerprint64`, behind
  `tf.strings.to_hash_bucket_fast`, `StaticVocabularyTable`'s out-of-vocabulary buckets and Keras's
  `Hashing` layer.
- `legacy_hash64`: TF's own MurmurHash64A variant (seed 0xDECAFCAFFE), behind the older
  `tf.strings.to_hash_bucket`.
- `siphash24`: SipHash-2-4 with a 128-bit key given as two uint64 words, TF's `StrongKeyedHash`,
  behind `tf.strings.to_hash_bucket_strong`.

Each takes a bytes object and returns an unsigned 64-bit value as a Python int. Arithmetic is
modulo 2**64, so every product and sum is masked.
"""
import struct

__all__ = ['fingerprint64', 'legacy_hash64', 'siphash24']

_MASK = 0xFFFFFFFFFFFFFFFF
_K0 = 0xc3a5c85c97cb3127
_K1 = 0xb492b66fbe98f273
_K2 = 0x9ae16a3b2f90404f


def _fetch64(s, i):
    return struct.unpack_from('<Q', s, i)[0]


def _fetch32(s, i):
    return struct.unpack_from('<I', s, i)[0]


def _rotate(v, shift):
    return v if shift == 0 else ((v >> shift) | (v << (64 - shift))) & _MASK


def _shift_mix(v):
    return v ^ (v >> 47)


def _hash_len16(u, v, mul):
    a = ((u ^ v) * mul) & _MASK
    a ^= a >> 47
    b = ((v ^ a) * mul) & _MASK
    b ^= b >> 47
    return (b * mul) & _MASK


def _hash_len0to16(s, n):
    if n >= 8:
        mul = _K2 + n * 2
        a = (_fetch64(s, 0) + _K2) & _MASK
        b = _fetch64(s, n - 8)
        c = (_rotate(b, 37) * mul + a) & _MASK
        d = ((_rotate(a, 25) + b) * mul) & _MASK
        return _hash_len16(c, d, mul)
    if n >= 4:
        mul = _K2 + n * 2
        return _hash_len16(n + (_fetch32(s, 0) << 3), _fetch32(s, n - 4), mul)
    if n > 0:
        y = s[0] + (s[n >> 1] << 8)
        z = n + (s[n - 1] << 2)
        return (_shift_mix(((y * _K2) ^ (z * _K0)) & _MASK) * _K2) & _MASK
    return _K2


def _hash_len17to32(s, n):
    mul = _K2 + n * 2
    a = (_fetch64(s, 0) * _K1) & _MASK
    b = _fetch64(s, 8)
    c = (_fetch64(s, n - 8) * mul) & _MASK
    d = (_fetch64(s, n - 16) * _K2) & _MASK
    return _hash_len16((_rotate((a + b) & _MASK, 43) + _rotate(c, 30) + d) & _MASK,
                       (a + _rotate((b + _K2) & _MASK, 18) + c) & _MASK, mul)


def _hash_len33to64(s, n):
    mul = _K2 + n * 2
    a = (_fetch64(s, 0) * _K2) & _MASK
    b = _fetch64(s, 8)
    c = (_fetch64(s, n - 8) * mul) & _MASK
    d = (_fetch64(s, n - 16) * _K2) & _MASK
    y = (_rotate((a + b) & _MASK, 43) + _rotate(c, 30) + d) & _MASK
    z = _hash_len16(y, (a + _rotate((b + _K2) & _MASK, 18) + c) & _MASK, mul)
    e = (_fetch64(s, 16) * mul) & _MASK
    f = _fetch64(s, 24)
    g = ((y + _fetch64(s, n - 32)) * mul) & _MASK
    h = ((z + _fetch64(s, n - 24)) * mul) & _MASK
    return _hash_len16((_rotate((e + f) & _MASK, 43) + _rotate(g, 30) + h) & _MASK,
                       (e + _rotate((f + a) & _MASK, 18) + g) & _MASK, mul)


def _weak_hash_len32_with_seeds(s, i, a, b):
    w, x, y, z = struct.unpack_from('<4Q', s, i)
    a = (a + w) & _MASK
    b = _rotate((b + a + z) & _MASK, 21)
    c = a
    a = (a + x + y) & _MASK
    b = (b + _rotate(a, 44)) & _MASK
    return (a + z) & _MASK, (b + c) & _MASK


def fingerprint64(s):
    """FarmHash Fingerprint64 of bytes `s`."""
    n = len(s)
    if n <= 16:
        return _hash_len0to16(s, n)
    if n <= 32:
        return _hash_len17to32(s, n)
    if n <= 64:
        return _hash_len33to64(s, n)
    return _hash_long(s, n)


def _hash_long(s, n):
    seed = 81
    x = seed
    y = (seed * _K1 + 113) & _MASK
    z = (_shift_mix((y * _K2 + 113) & _MASK) * _K2) & _MASK
    v = w = (0, 0)
    x = (x * _K2 + _fetch64(s, 0)) & _MASK
    end = ((n - 1) // 64) * 64
    last64 = end + ((n - 1) & 63) - 63
    for i in range(0, end, 64):
        x, y, z, v, w = _long_round(s, i, x, y, z, v, w, _K1, 1)
    mul = (_K1 + ((z & 0xff) << 1)) & _MASK
    w = ((w[0] + ((n - 1) & 63)) & _MASK, w[1])
    v = ((v[0] + w[0]) & _MASK, v[1])
    w = ((w[0] + v[0]) & _MASK, w[1])
    x, y, z, v, w = _long_round(s, last64, x, y, z, v, w, mul, 9)
    return _hash_len16((_hash_len16(v[0], w[0], mul) + _shift_mix(y) * _K0 + z) & _MASK,
                       (_hash_len16(v[1], w[1], mul) + x) & _MASK, mul)


def _long_round(s, i, x, y, z, v, w, mul, nine):
    # One 64-byte round of the long-input loop; the final round uses `mul` and the factor 9.
    x = (_rotate((x + y + v[0] + _fetch64(s, i + 8)) & _MASK, 37) * mul) & _MASK
    y = (_rotate((y + v[1] + _fetch64(s, i + 48)) & _MASK, 42) * mul) & _MASK
    x ^= (w[1] * nine) & _MASK
    y = (y + v[0] * nine + _fetch64(s, i + 40)) & _MASK
    z = (_rotate((z + w[0]) & _MASK, 33) * mul) & _MASK
    v = _weak_hash_len32_with_seeds(s, i, (v[1] * mul) & _MASK, (x + w[0]) & _MASK)
    w = _weak_hash_len32_with_seeds(s, i + 32, (z + w[1]) & _MASK, (y + _fetch64(s, i + 16)) & _MASK)
    return z, y, x, v, w   # x and z trade places after every round


_MURMUR_M = 0xc6a4a7935bd1e995


def legacy_hash64(s, seed=0xDECAFCAFFE):
    """TF's Hash64: MurmurHash64A over little-endian 8-byte words."""
    n = len(s)
    h = (seed ^ (n * _MURMUR_M)) & _MASK
    whole = n - n % 8
    for i in range(0, whole, 8):
        k = (_fetch64(s, i) * _MURMUR_M) & _MASK
        k = ((k ^ (k >> 47)) * _MURMUR_M) & _MASK
        h = ((h ^ k) * _MURMUR_M) & _MASK
    if n % 8:
        h ^= int.from_bytes(s[whole:], 'little')
        h = (h * _MURMUR_M) & _MASK
    h = ((h ^ (h >> 47)) * _MURMUR_M) & _MASK
    return h ^ (h >> 47)


def _sip_round(v0, v1, v2, v3):
    v0 = (v0 + v1) & _MASK
    v1 = _rotate(v1, 64 - 13) ^ v0
    v0 = _rotate(v0, 32)
    v2 = (v2 + v3) & _MASK
    v3 = _rotate(v3, 64 - 16) ^ v2
    v0 = (v0 + v3) & _MASK
    v3 = _rotate(v3, 64 - 21) ^ v0
    v2 = (v2 + v1) & _MASK
    v1 = _rotate(v1, 64 - 17) ^ v2
    v2 = _rotate(v2, 32)
    return v0, v1, v2, v3


def siphash24(key0, key1, s):
    """SipHash-2-4 of bytes `s` under the key (key0, key1)."""
    v0 = key0 ^ 0x736f6d6570736575
    v1 = key1 ^ 0x646f72616e646f6d
    v2 = key0 ^ 0x6c7967656e657261
    v3 = key1 ^ 0x7465646279746573
    n = len(s)
    whole = n - n % 8
    for i in range(0, whole, 8):
        m = _fetch64(s, i)
        v3 ^= m
        v0, v1, v2, v3 = _sip_round(*_sip_round(v0, v1, v2, v3))
        v0 ^= m
    m = ((n & 0xff) << 56) | int.from_bytes(s[whole:], 'little')
    v3 ^= m
    v0, v1, v2, v3 = _sip_round(*_sip_round(v0, v1, v2, v3))
    v0 ^= m
    v2 ^= 0xff
    for _ in range(4):
        v0, v1, v2, v3 = _sip_round(v0, v1, v2, v3)
    return v0 ^ v1 ^ v2 ^ v3
