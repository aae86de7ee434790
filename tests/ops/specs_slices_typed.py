"""Specs of matmul with an output type (BatchMatMulV3: int8 and uint8 operands, int32 products)
and of the unique-slices raw ops (UniqueV2, UniqueWithCountsV2): numpy references; integer
results, so no gradient checks."""
import numpy as np

import defun as tf
from tests.ops.spec import Spec, ints


def _first_appearance_rows(x):
    seen = {}
    idx = [seen.setdefault(tuple(row), len(seen)) for row in x.tolist()]
    rows = [x[idx.index(j)] for j in range(len(seen))]
    return np.array(rows), np.array(idx, np.int32), np.bincount(idx).astype(np.int32)


ROWS = np.array([[1, 2], [0, 2], [1, 2], [3, 3], [0, 2]], np.int64)

SPECS = [
    Spec('BatchMatMulV3', lambda a, b: tf.matmul(a, b, output_type=tf.int32),
         [ints(2, 3, 4, low=-128, high=128, dtype=np.int8),
          ints(4, 5, low=-128, high=128, dtype=np.int8)],
         lambda a, b: np.matmul(a.astype(np.int32), b.astype(np.int32))),
    Spec('BatchMatMulV3', lambda a, b: tf.matmul(a, b, transpose_b=True, output_type=tf.int32),
         [ints(3, 4, low=0, high=256, dtype=np.uint8), ints(2, 4, low=-128, high=128, dtype=np.int8)],
         lambda a, b: a.astype(np.int32) @ b.astype(np.int32).T, id='uint8_int8'),
    Spec('UniqueV2', lambda x: tuple(tf.raw_ops.UniqueV2(x=x, axis=[0])), [ROWS],
         lambda x: _first_appearance_rows(x)[:2]),
    Spec('UniqueWithCountsV2', lambda x: tuple(tf.raw_ops.UniqueWithCountsV2(x=x, axis=[0])),
         [ROWS], _first_appearance_rows),
]
