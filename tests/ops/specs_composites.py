"""Specs for the ops under composite tensors: tf.sparse's kernels (SparseToDense, ...)."""
import numpy as np

import defun as tf
from tests.ops.spec import Spec, rand


def _to_dense_reference(values, default):
    out = np.full((3, 4), default, dtype=values.dtype)
    out[0, 1], out[2, 3] = values
    return out


SPECS = [
    Spec('SparseToDense',
         lambda v, d: tf.sparse.to_dense(tf.SparseTensor([[0, 1], [2, 3]], v, [3, 4]), d),
         [rand(2), np.float64(0.5)], _to_dense_reference),
]
