"""tf.strings.to_hash_bucket_fast / _strong / to_hash_bucket: each string's hash modulo the number
of buckets, with TF's exact hashes (fingerprints.py), so buckets agree with TF's (Keras's Hashing
and StringLookup layers and saved vocabularies depend on that). Not differentiable."""
import numpy as np

from defun.core import dtypes, errors
from defun.core.dispatch import apply_op
from defun.core.registry import define_op
from defun.ops.support import validation
from defun.ops.support.helpers import dims
from defun.ops.strings.fingerprints import fingerprint64, legacy_hash64, siphash24
from defun.ops.strings.support import map_elements, ragged_elementwise, string_input

__all__ = ['to_hash_bucket_fast', 'to_hash_bucket_strong', 'to_hash_bucket']


def _bucket_infer(x, num_buckets, **attrs):
    return dtypes.int64, dims(x)


def _buckets(hash_fn, x, num_buckets):
    return map_elements(lambda v: hash_fn(v) % num_buckets, x, np.int64)


TO_HASH_BUCKET_FAST = define_op(
    'StringToHashBucketFast', lambda x, num_buckets: _buckets(fingerprint64, x, num_buckets),
    _bucket_infer, None)
TO_HASH_BUCKET = define_op(
    'StringToHashBucket', lambda x, num_buckets: _buckets(legacy_hash64, x, num_buckets),
    _bucket_infer, None)
TO_HASH_BUCKET_STRONG = define_op(
    'StringToHashBucketStrong',
    lambda x, num_buckets, key: _buckets(lambda v: siphash24(key[0], key[1], v), x, num_buckets),
    _bucket_infer, None)


def _num_buckets(value, op):
    n = validation.python_int(value, op, 'num_buckets', attr=True)
    if n < 1:
        raise validation.invalid_argument(
            f"{op}: Value for attr 'num_buckets' of {n} must be at least minimum 1")
    return n


@ragged_elementwise
def to_hash_bucket_fast(input, num_buckets, name=None):  # noqa: A002 - TF's argument name
    """FarmHash Fingerprint64 of each string modulo `num_buckets` (TF's recommended hash)."""
    x = string_input(input, 'to_hash_bucket_fast')
    return apply_op(TO_HASH_BUCKET_FAST, (x,),
                    {'num_buckets': _num_buckets(num_buckets, 'to_hash_bucket_fast')}, name)


@ragged_elementwise
def to_hash_bucket(string_tensor, num_buckets, name=None):
    """TF's older Hash64 (MurmurHash64A) of each string modulo `num_buckets`."""
    x = string_input(string_tensor, 'to_hash_bucket', 'string_tensor')
    return apply_op(TO_HASH_BUCKET, (x,),
                    {'num_buckets': _num_buckets(num_buckets, 'to_hash_bucket')}, name)


@ragged_elementwise
def to_hash_bucket_strong(input, num_buckets, key, name=None):  # noqa: A002
    """SipHash-2-4 of each string under the 128-bit `key` (two ints) modulo `num_buckets`."""
    x = string_input(input, 'to_hash_bucket_strong')
    words = list(np.ravel(np.asarray(key, dtype=object)))
    if len(words) != 2:
        raise errors.InvalidArgumentError('to_hash_bucket_strong: Key must have 2 elements')
    attrs = {'num_buckets': _num_buckets(num_buckets, 'to_hash_bucket_strong'),
             'key': tuple(int(w) % 2 ** 64 for w in words)}
    return apply_op(TO_HASH_BUCKET_STRONG, (x,), attrs, name)
