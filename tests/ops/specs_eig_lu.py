"""Specs of tf.linalg's Eig and Lu ops: eigenvalues against numpy, with gradients through the
eigenvalues and through |v|^2 (which does not depend on an eigenvector's phase); lu against a
plain Doolittle elimination with partial pivoting written here. Values recorded from TF are
checked in tests/ops/test_eig_lu_tf.py."""
import numpy as np

import defun as tf
from tests.ops.spec import Spec

# Distinct real eigenvalues, so eig is smooth around it.
A = np.array([[4.0, 1.0, 0.5], [0.3, 2.0, 0.2], [0.1, 0.6, -1.0]])


def _doolittle(a):
    a = np.array(a, dtype=np.float64)
    n = a.shape[-1]
    perm = list(range(n))
    for k in range(n):
        p = k + int(np.argmax(np.abs(a[k:, k])))
        a[[k, p]] = a[[p, k]]
        perm[k], perm[p] = perm[p], perm[k]
        for i in range(k + 1, n):
            a[i, k] /= a[k, k]
            a[i, k + 1:] -= a[i, k] * a[k, k + 1:]
    return a, np.array(perm, np.int32)


def _eig_parts(a):
    e, v = tf.linalg.eig(a)
    return tf.math.real(e), tf.math.real(v * tf.math.conj(v))


def _np_eig_parts(a):
    e, v = np.linalg.eig(a)
    order = np.argsort(e)
    return np.sort(e.real), np.abs(v[:, order]) ** 2


def _sorted_parts(a):
    e, v2 = _eig_parts(a)
    order = tf.argsort(e)
    return tf.gather(e, order), tf.gather(v2, order, axis=1)


SPECS = [
    Spec('Eig', _sorted_parts, [A], _np_eig_parts),
    Spec('Eig', lambda a: tf.math.real(tf.linalg.eigvals(a)) ** 2, [A],
         lambda a: np.linalg.eigvals(a).real ** 2, id='eigvals'),
    Spec('Eig', lambda re, im: tf.math.imag(tf.linalg.eigvals(tf.complex(re, im))),
         [A, A.T * 0.5], lambda re, im: np.linalg.eigvals(re + 1j * im).imag, grad=False,
         id='complex'),
    Spec('Lu', lambda a: tuple(tf.linalg.lu(a)), [A.T.copy()], _doolittle, grad=False),
]
