"""Specs for the array ops: creation (creation.py, array.py), rearrangement (transform.py), indexing
(indexing.py) and sorting (sorting.py), including the gradient helper ops, called directly."""
import numpy as np

import defun as tf
from defun.core.dispatch import apply_op
from defun.ops.array import creation, expand_squeeze, gathering, indexing, runtime_axis, transform
from tests.ops.spec import Spec, ints, rand


def _distinct(*shape, seed=0):
    """Values far enough apart that sorting and max are stable under finite differences."""
    n = int(np.prod(shape))
    rng = np.random.default_rng(seed)
    return (rng.permutation(n).reshape(shape) * 0.37 - 1.0).astype(np.float64)


def _np_mirror_grad(g, paddings, mode):
    """Reference for MirrorPadGrad: the adjoint of np.pad, built column by column."""
    n_in = [g.shape[i] - a - b for i, (a, b) in enumerate(paddings)]
    base = np.arange(int(np.prod(n_in))).reshape(n_in)
    padded = np.pad(base, paddings, mode='reflect' if mode == 'REFLECT' else 'symmetric')
    out = np.zeros(int(np.prod(n_in)))
    np.add.at(out, padded.ravel(), g.ravel())
    return out.reshape(n_in)


def _ss_grad(spec, shape):
    return lambda g: apply_op(indexing.STRIDED_SLICE_GRAD, (tf.constant(shape), g),
                              {'spec': spec})


def _np_ss_grad(index, shape):
    def ref(g):
        out = np.zeros(shape, g.dtype)
        out[index] = g
        return out
    return ref


_SPEC_A, _ = indexing.strided_slice_spec((slice(None), slice(1, None, 2), 0))

SPECS = [
    # creation
    Spec('Range', lambda a, b, d: tf.range(a, b, d), [np.int32(1), np.int32(10), np.int32(3)],
         lambda a, b, d: np.arange(a, b, d, dtype=np.int32)),
    Spec('Range', lambda a, b: tf.range(a, b, 0.5), [np.float64(1), np.float64(3)],
         lambda a, b: np.arange(a, b, 0.5), grad=False, id='float'),
    Spec('LinSpace', lambda a, b: tf.linspace(a, b, 5), [np.float64(-1.0), np.float64(2.0)],
         lambda a, b: np.linspace(a, b, 5)),
    Spec('Rank', tf.rank, [rand(2, 3, 1)], lambda x: np.int32(3)),
    Spec('SumAxes', lambda x: creation.sum_axes(x, (0, 2)), [rand(2, 3, 4)],
         lambda x: x.sum(axis=(0, 2))),
    Spec('SumAxes', creation.sum_axes, [rand(2, 3)], lambda x: np.sum(x), id='all'),
    # rearranging
    Spec('ExpandDims', lambda x: tf.expand_dims(x, 1), [rand(2, 3)],
         lambda x: x[:, None]),
    Spec('ExpandDims', lambda x: tf.expand_dims(x, -1), [rand(2, 3)],
         lambda x: x[..., None], id='neg'),
    Spec('Squeeze', tf.squeeze, [rand(1, 3, 1)], np.squeeze),
    Spec('Squeeze', lambda x: tf.squeeze(x, [2]), [rand(1, 3, 1)],
         lambda x: np.squeeze(x, 2), id='axis'),
    Spec('Transpose', tf.transpose, [rand(2, 3)], np.transpose),
    Spec('Transpose', lambda x: tf.transpose(x, [1, 2, 0]), [rand(2, 3, 4)],
         lambda x: np.transpose(x, [1, 2, 0]), id='perm'),
    Spec('Transpose', lambda re, im: tf.math.imag(tf.transpose(tf.complex(re, im), conjugate=True)),
         [rand(2, 3), rand(2, 3)], lambda re, im: -im.T, id='conjugate'),
    Spec('Tile', lambda x: tf.tile(x, [2, 3]), [rand(2, 3)], lambda x: np.tile(x, (2, 3))),
    Spec('PadV2', lambda x: tf.pad(x, [[1, 0], [2, 1]]), [rand(2, 3)],
         lambda x: np.pad(x, [[1, 0], [2, 1]])),
    Spec('PadV2', lambda x: tf.pad(x, [[0, 1], [1, 1]], constant_values=-1), [ints(2, 2)],
         lambda x: np.pad(x, [[0, 1], [1, 1]], constant_values=-1), id='int-cv'),
    Spec('MirrorPad', lambda x: tf.pad(x, [[1, 1], [2, 0]], mode='REFLECT'), [rand(3, 4)],
         lambda x: np.pad(x, [[1, 1], [2, 0]], mode='reflect')),
    Spec('MirrorPad', lambda x: tf.pad(x, [[2, 1]], mode='symmetric'), [rand(3)],
         lambda x: np.pad(x, [[2, 1]], mode='symmetric'), id='symmetric'),
    Spec('MirrorPadGrad', lambda g: transform.mirror_pad_grad(g, tf.constant([[1, 1], [2, 0]]),
                                                              'REFLECT'),
         [rand(5, 6)], lambda g: _np_mirror_grad(g, [(1, 1), (2, 0)], 'REFLECT')),
    Spec('MirrorPadGrad', lambda g: transform.mirror_pad_grad(g, tf.constant([[2, 1]]),
                                                              'SYMMETRIC'),
         [rand(6)], lambda g: _np_mirror_grad(g, [(2, 1)], 'SYMMETRIC'), id='symmetric'),
    Spec('Slice', lambda x: tf.slice(x, [1, 0], [1, -1]), [rand(3, 4)], lambda x: x[1:2, 0:]),
    Spec('ReverseV2', lambda x: tf.reverse(x, [1]), [rand(2, 3)], lambda x: x[:, ::-1]),
    Spec('ReverseV2', lambda x: tf.reverse(x, [0, -1]), [rand(2, 3)], lambda x: x[::-1, ::-1],
         id='two'),
    # indexing
    Spec('StridedSlice', lambda x: x[1], [rand(3, 4)], lambda x: x[1]),
    Spec('StridedSlice', lambda x: x[:, 1:, ::2], [rand(2, 3, 4)], lambda x: x[:, 1:, ::2],
         id='slices'),
    Spec('StridedSlice', lambda x: x[..., ::-1, None, -1], [rand(2, 3, 4)],
         lambda x: x[..., ::-1, None, -1], id='ellipsis-rev-newaxis'),
    Spec('StridedSlice', lambda x: x[-1, -2], [rand(3, 4)], lambda x: x[-1, -2], id='scalar'),
    Spec('StridedSlice', lambda x, i: x[i, 1:], [rand(3, 4), np.int32(2)],
         lambda x, i: x[i, 1:], id='tensor-index'),
    Spec('StridedSliceGrad', _ss_grad(_SPEC_A, [3, 4, 2]), [rand(3, 2)],
         _np_ss_grad((slice(None), slice(1, None, 2), 0), (3, 4, 2))),
    Spec('GatherV2', lambda p, i: tf.gather(p, i), [rand(4, 3), ints(2, 2, low=0, high=4)],
         lambda p, i: p[i]),
    Spec('GatherV2', lambda p, i: tf.gather(p, i, axis=1), [rand(2, 4, 3), ints(5, low=0, high=4)],
         lambda p, i: np.take(p, i, axis=1), id='axis'),
    Spec('GatherV2', lambda p, i: tf.gather(p, i, axis=1, batch_dims=1),
         [rand(2, 4, 3), ints(2, 5, low=0, high=4)],
         lambda p, i: np.stack([p[0][i[0]], p[1][i[1]]]), id='batch'),
    Spec('GatherV2Grad', lambda g, i: apply_op(gathering.GATHER_GRAD, (tf.constant([4, 2]), i, g),
                                               {'axis': 0, 'batch_dims': 0}),
         [rand(3, 2), np.array([1, 3, 1], np.int32)],
         lambda g, i: np.array([np.zeros(2), g[0] + g[2], np.zeros(2), g[1]])),
    Spec('GatherNd', lambda p, i: tf.gather_nd(p, i), [rand(3, 4), np.array([[0, 1], [2, 3]],
                                                                                np.int32)],
         lambda p, i: p[i[:, 0], i[:, 1]]),
    Spec('GatherNd', lambda p, i: tf.gather_nd(p, i), [rand(3, 4), np.array([[2], [0]], np.int32)],
         lambda p, i: p[i[:, 0]], id='rows'),
    Spec('GatherNd', lambda p, i: tf.gather_nd(p, i, batch_dims=1),
         [rand(2, 3, 4), np.array([[1], [2]], np.int32)],
         lambda p, i: np.stack([p[0, 1], p[1, 2]]), id='batch'),
    Spec('ScatterNd', lambda i, u: tf.scatter_nd(i, u, [4, 2]),
         [np.array([[1], [3], [1]], np.int32), rand(3, 2)],
         lambda i, u: np.array([np.zeros(2), u[0] + u[2], np.zeros(2), u[1]])),
    Spec('TensorScatterAdd', lambda t, i, u: tf.tensor_scatter_nd_add(t, i, u),
         [rand(4, 2), np.array([[1], [3], [1]], np.int32), rand(3, 2)],
         lambda t, i, u: t + np.array([np.zeros(2), u[0] + u[2], np.zeros(2), u[1]])),
    Spec('TensorScatterAdd', lambda t, i, u: tf.tensor_scatter_nd_sub(t, i, u),
         [rand(3, 2), np.array([[0, 1], [2, 0]], np.int32), rand(2)],
         lambda t, i, u: t - np.array([[0, u[0]], [0, 0], [u[1], 0]]), id='sub'),
    Spec('TensorScatterUpdate', lambda t, i, u: tf.tensor_scatter_nd_update(t, i, u),
         [rand(4, 2), np.array([[3], [0]], np.int32), rand(2, 2)],
         lambda t, i, u: np.array([u[1], t[1], t[2], u[0]])),
    Spec('BooleanMask', lambda x, m: tf.boolean_mask(x, m),
         [rand(4, 2), np.array([True, False, True, True])], lambda x, m: x[m]),
    Spec('BooleanMask', lambda x, m: tf.boolean_mask(x, m, axis=1),
         [rand(2, 3, 2), np.array([[True, False], [False, True], [True, True]])],
         lambda x, m: x[:, m], id='axis'),
    Spec('BooleanMaskGrad', lambda g, m: apply_op(gathering.BOOLEAN_MASK_GRAD,
                                                  (tf.constant([3, 2]), m, g), {'axis': 0}),
         [rand(2, 2), np.array([True, False, True])],
         lambda g, m: np.array([g[0], np.zeros(2), g[1]])),
    # sorting
    Spec('ArgSort', tf.argsort, [_distinct(3, 4)], lambda x: np.argsort(x, -1).astype(np.int32)),
    Spec('ArgSort', lambda x: tf.argsort(x, axis=0, direction='DESCENDING'),
         [np.array([3, 1, 3, 2], np.int32)], lambda x: np.array([0, 2, 3, 1], np.int32),
         id='desc-ties'),
    Spec('GatherV2', tf.sort, [_distinct(3, 4)], lambda x: np.sort(x, -1), id='sort'),
    Spec('GatherV2', lambda x: tf.sort(x, axis=0, direction='DESCENDING'), [_distinct(3, 2)],
         lambda x: -np.sort(-x, 0), id='sort-axis0'),
    Spec('TopKV2', lambda x: tf.nn.top_k(x, 2), [_distinct(3, 5)],
         lambda x: (-np.sort(-x, -1)[:, :2], np.argsort(-x, -1)[:, :2].astype(np.int32))),
]


def _reverse_sequence_ref(x, seq_axis, batch_axis, lengths):
    out = x.copy()
    moved = np.moveaxis(out, (batch_axis, seq_axis), (0, 1))
    for i, n in enumerate(lengths):
        moved[i, :n] = moved[i, :n][::-1]
    return out


SPECS += [
    Spec('ReverseSequence', lambda x: tf.reverse_sequence(x, [2, 4], seq_axis=2, batch_axis=0),
         [rand(2, 3, 4)], lambda x: _reverse_sequence_ref(x, 2, 0, [2, 4])),
    Spec('ReverseSequence', lambda x: tf.reverse_sequence(x, tf.constant([1, 2, 0]), 0, 1),
         [rand(2, 3)], lambda x: _reverse_sequence_ref(x, 0, 1, [1, 2, 0]), id='int32-lengths'),
    # TF 2.21: hypothesis [1, 2, 3] against truth [2, 4] is 2 edits, 1.0 normalized
    Spec('EditDistance', lambda: tf.edit_distance(
        tf.SparseTensor([[0, 0], [0, 1], [0, 2]], [1, 2, 3], (1, 3)),
        tf.SparseTensor([[0, 1], [0, 2]], [2, 4], (1, 3))), [],
         lambda: np.array([1.0], np.float32), grad=False),
]

# The run-time-axis forms, called directly (through the public API an eager axis is a constant).
SPECS += [
    Spec('GatherV2RuntimeAxis', lambda p, i, a: apply_op(runtime_axis.GATHER_AXIS, (p, i, a),
                                                         {'batch_dims': 0}),
         [rand(2, 4, 3), ints(5, low=0, high=4), np.array(-2, np.int32)],
         lambda p, i, a: np.take(p, i, axis=1)),
    Spec('GatherV2RuntimeAxisGrad', lambda g, i, a: apply_op(
        runtime_axis.GATHER_AXIS_GRAD, (tf.constant([2, 4]), i, g, a), {'batch_dims': 0}),
         [rand(2, 3), np.array([1, 3, 1], np.int32), np.array(1, np.int32)],
         lambda g, i, a: np.stack([np.zeros(2), g[:, 0] + g[:, 2], np.zeros(2), g[:, 1]], 1)),
    Spec('ConcatV2RuntimeAxis', lambda a, x, y: apply_op(runtime_axis.CONCAT_AXIS, (a, x, y), {}),
         [np.array(1, np.int32), rand(2, 3), rand(2, 2)],
         lambda a, x, y: np.concatenate([x, y], 1)),
    Spec('ConcatV2RuntimeAxisGrad', lambda g, a: apply_op(
        runtime_axis.CONCAT_AXIS_GRAD, (g, a, tf.constant([2, 3]), tf.constant([2, 2])), {}),
         [rand(2, 5), np.array(-1, np.int32)], lambda g, a: (g[:, :3], g[:, 3:])),
    Spec('ExpandDimsRuntimeAxis', lambda x, a: apply_op(expand_squeeze.EXPAND_DIMS_AXIS, (x, a), {}),
         [rand(2, 3), np.array(-2, np.int32)], lambda x, a: x[:, None]),
]
