"""Specs for defun/ops/linalg/products.py: einsum (and tensordot, built on it), norm, inv, det, solve."""
import numpy as np

import defun as tf
from tests.ops.spec import Spec, ints, rand


def _well_conditioned(*shape, seed=0):
    """Square matrices (batched over leading dims) far from singular."""
    n = shape[-1]
    return rand(*shape, seed=seed) + 3.0 * np.eye(n)


SPECS = [
    Spec('Einsum', lambda a, b: tf.einsum('ij,jk->ik', a, b), [rand(2, 3), rand(3, 4)],
         lambda a, b: a @ b),
    Spec('Einsum', lambda a, b: tf.einsum('bij,bjk->bik', a, b), [rand(2, 2, 3), rand(2, 3, 2)],
         np.matmul, id='batched'),
    Spec('Einsum', lambda a, b: tf.einsum('ij,kj', a, b), [rand(2, 3), rand(4, 3)],
         lambda a, b: np.einsum('ij,kj', a, b), id='implicit'),
    Spec('Einsum', lambda a: tf.einsum('ij->', a), [rand(2, 3)], lambda a: a.sum(), id='sum'),
    Spec('Einsum', lambda a: tf.einsum('ij->ji', a), [rand(2, 3)], lambda a: a.T, id='transpose'),
    Spec('Einsum', lambda a, b: tf.einsum('...ij,...jk->...ik', a, b),
         [rand(2, 1, 2, 3), rand(4, 3, 2)], lambda a, b: np.matmul(a, b), id='ellipsis-broadcast'),
    # matmul with an output type not both operands' (quantized layers): TF's BatchMatMulV3.
    Spec('BatchMatMulV3', lambda a, b: tf.linalg.matmul(a, b, output_type=tf.int32),
         [ints(2, 3, dtype=np.int8), ints(3, 4, dtype=np.int8)],
         lambda a, b: a.astype(np.int32) @ b.astype(np.int32), grad=False, id='int8'),
    Spec('BatchMatMulV3', lambda a, b: tf.linalg.matmul(a, b, transpose_b=True,
                                                        output_type=tf.int32),
         [ints(2, 2, 3, dtype=np.uint8, low=0), ints(4, 3, dtype=np.int8)],
         lambda a, b: a.astype(np.int32) @ b.astype(np.int32).T, grad=False, id='uint8-int8-T'),
    Spec('Einsum', lambda a, b: tf.einsum('bc...,cd->bd...', a, b),   # Keras's EinsumDense
         [rand(2, 1, 2, 3), rand(1, 4)], lambda a, b: np.einsum('bc...,cd->bd...', a, b),
         id='ellipsis-only-in-one-operand'),
    Spec('Einsum', lambda a, b: tf.einsum('i,j->ij', a, b), [rand(3), rand(2)], np.outer,
         id='outer'),
    Spec('Einsum', lambda a, b, c: tf.einsum('ij,jk,k->i', a, b, c),
         [rand(2, 3), rand(3, 4), rand(4)], lambda a, b, c: a @ b @ c, id='three'),
    Spec('Einsum', lambda a, b: tf.einsum('ij,ij->i', a, b), [rand(1, 3), rand(2, 3)],
         lambda a, b: (a * b).sum(axis=1), id='letter-broadcast'),
    Spec('Einsum', lambda a: tf.einsum('ii->i', a), [rand(3, 3)], np.diag, grad=False,
         id='diagonal'),
    Spec('Einsum', lambda a, b: tf.einsum('ij,jk->ik', a, b), [ints(2, 3), ints(3, 2)],
         lambda a, b: (a @ b).astype(np.int32), id='int'),
    Spec('Einsum', lambda a, b: tf.tensordot(a, b, axes=1), [rand(2, 3), rand(3, 4)],
         lambda a, b: np.tensordot(a, b, axes=1), id='tensordot'),
    Spec('Einsum', lambda a, b: tf.tensordot(a, b, axes=[[0, 2], [2, 1]]),
         [rand(2, 3, 4), rand(5, 4, 2)], lambda a, b: np.tensordot(a, b, axes=[[0, 2], [2, 1]]),
         id='tensordot-pairs'),
    Spec('Einsum', lambda a, b: tf.tensordot(a, b, axes=0), [rand(2), rand(3)],
         lambda a, b: np.tensordot(a, b, axes=0), id='tensordot-outer'),
    Spec('Sqrt', tf.norm, [rand(2, 3)], lambda x: np.sqrt((x * x).sum()), id='norm'),
    Spec('Sqrt', lambda x: tf.norm(x, axis=1, keepdims=True), [rand(2, 3)],
         lambda x: np.linalg.norm(x, axis=1, keepdims=True), id='norm-axis'),
    Spec('Sqrt', lambda x: tf.linalg.norm(x, ord='fro', axis=[0, 1]), [rand(2, 3)],
         lambda x: np.linalg.norm(x, 'fro'), id='norm-fro'),
    Spec('Sum', lambda x: tf.norm(x, ord=1, axis=0), [rand(2, 3)],
         lambda x: np.abs(x).sum(axis=0), id='norm-1'),
    Spec('Max', lambda x: tf.norm(x, ord=np.inf, axis=-1), [rand(2, 3)],
         lambda x: np.abs(x).max(axis=-1), id='norm-inf'),
    Spec('Pow', lambda x: tf.norm(x, ord=3), [rand(4)],
         lambda x: (np.abs(x) ** 3).sum() ** (1 / 3), id='norm-3'),
    Spec('Max', lambda x: tf.norm(x, ord=1, axis=(0, 1)), [rand(3, 2)],
         lambda x: np.linalg.norm(x, 1), id='matrix-norm-1'),
    Spec('Max', lambda x: tf.norm(x, ord=np.inf, axis=(1, 2), keepdims=True), [rand(2, 3, 2)],
         lambda x: np.linalg.norm(x, np.inf, axis=(1, 2), keepdims=True), id='matrix-norm-inf'),
    Spec('MatrixInverse', tf.linalg.inv, [_well_conditioned(3, 3)], np.linalg.inv),
    Spec('MatrixInverse', lambda a: tf.linalg.inv(a, adjoint=True), [_well_conditioned(2, 3, 3)],
         lambda a: np.linalg.inv(np.swapaxes(a, -1, -2)), id='adjoint-batched'),
    Spec('MatrixInverse', tf.linalg.inv, [_well_conditioned(2, 2).astype(np.float32)],
         np.linalg.inv, grad=False, id='f32'),
    Spec('MatrixDeterminant', tf.linalg.det, [_well_conditioned(3, 3)], np.linalg.det),
    Spec('MatrixDeterminant', tf.linalg.det, [_well_conditioned(2, 2, 2)], np.linalg.det,
         id='batched'),
    Spec('MatrixSolve', tf.linalg.solve, [_well_conditioned(3, 3), rand(3, 2)], np.linalg.solve),
    Spec('MatrixSolve', lambda a, b: tf.linalg.solve(a, b, adjoint=True),
         [_well_conditioned(2, 3, 3), rand(2, 3, 1)],
         lambda a, b: np.linalg.solve(np.swapaxes(a, -1, -2), b), id='adjoint-batched'),
]
