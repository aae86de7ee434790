"""float32 log and sincos with the C library's last bits, and the normals TF draws with them.

Expected values: digests and bit patterns of draws recorded with TensorFlow 2.21
(/work/tfenv/bin/python), and, where the platform's C library is glibc, the library itself."""
import ctypes
import ctypes.util
import hashlib
import platform

import numpy as np
import pytest

import defun as tf
from defun.ops.support import libm_float32


def test_stateless_normal_is_tfs_bit_for_bit():
    # TF 2.21: sha256 of stateless_normal([100000], seed=[1, 2]) as float32 bytes.
    draws = tf.random.stateless_normal([100000], seed=[1, 2]).numpy()
    assert hashlib.sha256(draws.tobytes()).hexdigest() == \
        '58055fa7a704a792a84255ab9f1ae9436276795065ed3cab6269ba3a0313419a'


def test_generator_normal_is_tfs_bit_for_bit():
    # TF 2.21: sha256 of Generator.from_seed(1).normal([100000]).
    draws = tf.random.Generator.from_seed(1).normal([100000]).numpy()
    assert hashlib.sha256(draws.tobytes()).hexdigest() == \
        '7bf17ab8c4e5a1b6de138f73aac55560b8da2536e679aac1b6986eddfc61e9f4'


def test_truncated_normal_is_tfs_bit_for_bit():
    # TF 2.21: sha256 of stateless_truncated_normal([30000], seed=[5, 6]).
    draws = tf.random.stateless_truncated_normal([30000], seed=[5, 6]).numpy()
    assert hashlib.sha256(draws.tobytes()).hexdigest() == \
        '07c8201f5ba3c902a0eed2f6287881fffbc4df6bce0a6490ac9a724d60242cdc'


def test_the_random_guides_values():
    # The random-numbers guide's stateless_normal(shape=[2, 3], seed=[1, 2]), as float32 bits.
    bits = tf.random.stateless_normal(shape=[2, 3], seed=[1, 2]).numpy().view(np.uint32)
    assert bits.tolist() == [[1057704653, 1045715841, 1033283812],
                             [1027486248, 3215366783, 3212062705]]


def _glibc():
    if platform.system() != 'Linux' or platform.libc_ver()[0] != 'glibc':
        return None
    major, minor = (int(p) for p in platform.libc_ver()[1].split('.')[:2])
    if (major, minor) < (2, 28):
        return None  # the algorithms reproduced here came with glibc 2.28
    libm = ctypes.CDLL(ctypes.util.find_library('m'))
    for name in ('logf', 'sinf', 'cosf'):
        getattr(libm, name).restype = ctypes.c_float
        getattr(libm, name).argtypes = [ctypes.c_float]
    return libm


def _unit_floats(n, seed):
    bits = np.random.default_rng(seed).integers(0, 2 ** 23, n).astype(np.uint32)
    return (bits | np.uint32(127 << 23)).view(np.float32) - np.float32(1.0)


@pytest.mark.skipif(_glibc() is None, reason='needs glibc >= 2.28 as the reference')
def test_log_and_sincos_agree_with_glibc():
    libm = _glibc()
    u = np.maximum(_unit_floats(20000, 0), np.float32(1e-7))
    v = np.concatenate([(2.0 * np.pi * _unit_floats(20000, 1).astype(np.float64)).astype(
        np.float32), np.linspace(-119, 119, 2001, dtype=np.float32), np.float32([1e-5, -3e-4])])
    expected_log = np.array([libm.logf(float(x)) for x in u], np.float32)
    expected_sin = np.array([libm.sinf(float(x)) for x in v], np.float32)
    expected_cos = np.array([libm.cosf(float(x)) for x in v], np.float32)
    sin_v, cos_v = libm_float32.sincos(v)
    np.testing.assert_array_equal(libm_float32.log(u), expected_log)
    np.testing.assert_array_equal(sin_v, expected_sin)
    np.testing.assert_array_equal(cos_v, expected_cos)


def test_inputs_outside_the_covered_range_are_close():
    x = np.float32([0.0, -1.0, np.inf, 1e-40, 3.0])
    with np.errstate(all='ignore'):
        np.testing.assert_allclose(libm_float32.log(x), np.log(x.astype(np.float64)), rtol=1e-6)
    big = np.float32([200.0, -1e6, 3.5])
    sin_b, cos_b = libm_float32.sincos(big)
    np.testing.assert_allclose(sin_b, np.sin(big.astype(np.float64)), rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(cos_b, np.cos(big.astype(np.float64)), rtol=1e-6, atol=1e-7)
