"""Specs for defun/ops/linalg/diagonals.py, linalg_solve.py and linalg_decomp.py; references are numpy's
(np.diagonal, np.tril, np.linalg.*). Ops whose gradient assumes a symmetric perturbation (cholesky)
are called on the symmetric part of their input, as TF's own gradient tests do."""
import numpy as np

import defun as tf
from tests.ops.spec import Spec, ints, rand


def _spd(*shape, seed=0):
    """Symmetric positive-definite matrices (batched), well conditioned."""
    b = rand(*shape, seed=seed)
    return b @ np.swapaxes(b, -1, -2) + shape[-1] * np.eye(shape[-1])


def _lower(*shape, seed=0):
    return rand(*shape, seed=seed) + 3.0 * np.eye(shape[-1])


def _sym(a):
    return 0.5 * (a + tf.linalg.matrix_transpose(a))


def _np_sym(a):
    return 0.5 * (a + np.swapaxes(a, -1, -2))


def _np_diag(d, k=0, rows=None, cols=None):
    n = d.shape[-1]
    if rows is None:   # TF's default: the smallest square matrix holding diagonal k
        rows = cols = n + abs(k)
    out = np.zeros(d.shape[:-1] + (rows, cols), d.dtype)
    for i in range(n):
        out[..., i + max(-k, 0), i + max(k, 0)] = d[..., i]
    return out


def _np_set_diag(x, d, k=0):
    out = x.copy()
    for i in range(d.shape[-1]):
        out[..., i + max(-k, 0), i + max(k, 0)] = d[..., i]
    return out


def _np_band(x, lower, upper):
    i, j = np.indices(x.shape[-2:])
    keep = ((lower < 0) | (i - j <= lower)) & ((upper < 0) | (j - i <= upper))
    return np.where(keep, x, 0)


def _np_svd(a, full=False):
    u, s, vh = np.linalg.svd(a, full_matrices=full)
    return s, u, np.swapaxes(vh, -1, -2)


def _np_triangular(a, b, lower=True, adjoint=False):
    t = np.tril(a) if lower else np.triu(a)
    return np.linalg.solve(np.swapaxes(t, -1, -2) if adjoint else t, b)


def _np_lstsq(a, b):
    return np.linalg.lstsq(a, b, rcond=None)[0]


def _svd_input(*shape, seed=0):
    """Matrices with well-separated singular values (finite differences need them distinct)."""
    a = rand(*shape, seed=seed)
    u, _, vh = np.linalg.svd(a, full_matrices=False)
    k = min(shape[-2:])
    return (u * np.linspace(3.0, 1.0, k)) @ vh


def _eigh_input(n, seed=0):
    a = rand(n, n, seed=seed)
    return a + np.diag(np.arange(n) * 2.0)


SPECS = [
    Spec('MatrixDiagV3', tf.linalg.diag, [rand(3)], _np_diag),
    Spec('MatrixDiagV3', lambda d: tf.linalg.diag(d, k=1), [rand(2, 3)],
         lambda d: _np_diag(d, 1), id='k1-batched'),
    Spec('MatrixDiagV3', lambda d: tf.linalg.diag(d, k=-1, num_rows=3, num_cols=4), [rand(2)],
         lambda d: _np_diag(d, -1, 3, 4), id='rect'),
    Spec('MatrixDiagV3', lambda d: tf.linalg.diag(d, padding_value=9), [ints(3)],
         lambda d: _np_diag(d) + 9 * (1 - np.eye(3, dtype=np.int32)), id='padding'),
    Spec('MatrixDiagPartV3', tf.linalg.diag_part, [rand(3, 4)], lambda x: np.diagonal(x).copy()),
    Spec('MatrixDiagPartV3', lambda x: tf.linalg.diag_part(x, k=-1), [rand(2, 3, 3)],
         lambda x: np.diagonal(x, -1, -2, -1).copy(), id='k-1-batched'),
    Spec('MatrixSetDiagV3', tf.linalg.set_diag, [rand(3, 3), rand(3)], _np_set_diag),
    Spec('MatrixSetDiagV3', lambda x, d: tf.linalg.set_diag(x, d, k=1), [rand(2, 3, 4), rand(2, 3)],
         lambda x, d: _np_set_diag(x, d, 1), id='k1'),
    Spec('Diag', tf.linalg.tensor_diag, [rand(2, 3)],
         lambda x: np.diag(x.ravel()).reshape(2, 3, 2, 3)),
    Spec('DiagPart', tf.linalg.tensor_diag_part, [rand(2, 3, 2, 3)],
         lambda x: np.diag(x.reshape(6, 6)).reshape(2, 3)),
    Spec('MatrixBandPart', lambda x: tf.linalg.band_part(x, 1, 0), [rand(4, 4)],
         lambda x: _np_band(x, 1, 0)),
    Spec('MatrixBandPart', lambda x: tf.linalg.band_part(x, -1, 2), [rand(2, 3, 5)],
         lambda x: _np_band(x, -1, 2), id='upper'),
    Spec('MatrixBandPart', lambda x: tf.linalg.band_part(x, 0, 0), [ints(3, 3)],
         lambda x: _np_band(x, 0, 0), id='int'),
    Spec('Einsum', tf.linalg.matrix_transpose, [rand(2, 3, 4)],
         lambda x: np.swapaxes(x, -1, -2), id='matrix_transpose'),
    Spec('Einsum', tf.linalg.adjoint, [rand(3, 2)], lambda x: x.T.copy(), id='adjoint'),
    Spec('MatrixDiagPartV3', tf.linalg.trace, [rand(2, 3, 3)],
         lambda x: np.trace(x, axis1=-2, axis2=-1), id='trace'),
    Spec('MatMul', tf.linalg.matvec, [rand(2, 3, 4), rand(2, 4)],
         lambda a, b: np.einsum('...ij,...j->...i', a, b), id='matvec'),
    Spec('Cholesky', lambda a: tf.linalg.cholesky(_sym(a)), [_spd(3, 3)],
         lambda a: np.linalg.cholesky(_np_sym(a))),
    Spec('Cholesky', lambda a: tf.linalg.cholesky(_sym(a)), [_spd(2, 3, 3, seed=1)],
         lambda a: np.linalg.cholesky(_np_sym(a)), id='batched'),
    Spec('MatrixTriangularSolve', tf.linalg.triangular_solve, [_lower(3, 3), rand(3, 2)],
         _np_triangular),
    Spec('MatrixTriangularSolve', lambda a, b: tf.linalg.triangular_solve(a, b, lower=False),
         [_lower(2, 3, 3), rand(2, 3, 1)], lambda a, b: _np_triangular(a, b, False), id='upper'),
    Spec('MatrixTriangularSolve', lambda a, b: tf.linalg.triangular_solve(a, b, adjoint=True),
         [_lower(3, 3), rand(3, 2)], lambda a, b: _np_triangular(a, b, True, True), id='adjoint'),
    Spec('MatrixTriangularSolve',
         lambda a, b: tf.linalg.cholesky_solve(tf.linalg.cholesky(_sym(a)), b),
         [_spd(3, 3), rand(3, 2)], lambda a, b: np.linalg.solve(_np_sym(a), b),
         id='cholesky_solve'),
    Spec('Cholesky', lambda a: tf.linalg.logdet(_sym(a)), [_spd(2, 3, 3)],
         lambda a: np.linalg.slogdet(_np_sym(a))[1], id='logdet'),
    Spec('LogMatrixDeterminant', lambda a: tuple(tf.linalg.slogdet(a)), [-_lower(3, 3)],
         lambda a: tuple(np.linalg.slogdet(a))),
    Spec('LogMatrixDeterminant', lambda a: tuple(tf.linalg.slogdet(a)), [_lower(2, 2, 2)],
         lambda a: tuple(np.linalg.slogdet(a)), id='batched'),
    Spec('MatrixTriangularSolve', tf.linalg.lstsq, [rand(4, 2), rand(4, 3)], _np_lstsq,
         id='lstsq-tall'),
    Spec('MatrixTriangularSolve', tf.linalg.lstsq, [rand(2, 4), rand(2, 1)], _np_lstsq,
         id='lstsq-wide'),
    Spec('Qr', lambda a: tuple(tf.linalg.qr(a)), [rand(3, 3)], lambda a: np.linalg.qr(a)),
    Spec('Qr', lambda a: tuple(tf.linalg.qr(a)), [rand(2, 4, 2)], lambda a: np.linalg.qr(a),
         id='tall-batched'),
    Spec('Qr', lambda a: tuple(tf.linalg.qr(a)), [rand(2, 4)], lambda a: np.linalg.qr(a),
         id='wide'),
    Spec('Qr', lambda a: tuple(tf.linalg.qr(a, full_matrices=True)), [rand(2, 3)],
         lambda a: np.linalg.qr(a, 'complete'), id='full-wide'),
    Spec('SelfAdjointEigV2', tf.linalg.eigh, [_eigh_input(3)], np.linalg.eigh),
    Spec('SelfAdjointEigV2', tf.linalg.eigh, [np.stack([_eigh_input(2), _eigh_input(2, 1)])],
         np.linalg.eigh, id='batched'),
    Spec('SelfAdjointEigV2', tf.linalg.eigvalsh, [_eigh_input(3)], np.linalg.eigvalsh,
         id='eigvalsh'),
    Spec('Svd', tf.linalg.svd, [_svd_input(3, 3)], _np_svd),
    Spec('Svd', tf.linalg.svd, [_svd_input(4, 2)], _np_svd, id='tall'),
    Spec('Svd', tf.linalg.svd, [_svd_input(2, 2, 3)], _np_svd, id='wide-batched'),
    Spec('Svd', lambda a: tf.linalg.svd(a, full_matrices=True), [_svd_input(2, 3)],
         lambda a: _np_svd(a, True), id='full'),
    Spec('Svd', lambda a: tf.linalg.svd(a, compute_uv=False), [_svd_input(3, 2)],
         lambda a: np.linalg.svd(a, compute_uv=False), id='values'),
    Spec('Svd', tf.linalg.pinv, [_svd_input(3, 2)], np.linalg.pinv, id='pinv'),
    Spec('Svd', tf.linalg.matrix_rank, [np.array([[1., 2, 3], [2, 4, 6], [1, 0, 1]])],
         lambda a: np.int32(np.linalg.matrix_rank(a)), id='matrix_rank'),
    Spec('Svd', lambda a: tf.norm(a, ord=2, axis=[0, 1]), [_svd_input(3, 2)],
         lambda a: np.linalg.norm(a, 2), id='norm-2'),
    Spec('Svd', lambda a: tf.norm(a, ord=2, axis=[0, 2], keepdims=True), [_svd_input(2, 2, 3)],
         lambda a: np.linalg.norm(np.moveaxis(a, 1, 0), 2, axis=(1, 2))[None, :, None],
         id='norm-2-axes'),
]
