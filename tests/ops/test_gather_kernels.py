"""GatherV2 and its gradient kernel, vectorised over batch_dims and with one scatter for all batch
elements, against the per-batch-element reference (np.take and np.add.at one batch element at a
time, as TF defines batch_dims): bit-for-bit equal, duplicate indices summed in index order."""
import numpy as np
import pytest

import defun as tf
from defun.core.dispatch import apply_op
from defun.ops.array import gathering

CASES = [  # (params shape, indices shape, axis, batch_dims); index values are random with repeats
    ((5, 7), (3,), 0, 0),
    ((5, 7), (4, 3), 1, 0),
    ((4, 6, 3), (4,), 1, 1),             # sparse softmax cross-entropy's gather
    ((4, 6, 3), (4, 5), 1, 1),
    ((2, 3, 4, 5), (2, 3, 6), 2, 2),
    ((2, 3, 4, 5), (2, 7), 2, 1),        # a dim between the batch dims and axis
    ((2, 3, 4, 5, 2), (2, 2, 3), 3, 1),  # two dims between, one after
    ((3, 4, 2), (3, 0), 1, 1),           # no indices
]


def per_batch(fn, params, indices, batch_dims):
    """fn(params_b, indices_b) stacked over the flattened leading batch_dims dims."""
    if batch_dims == 0:
        return fn(params, indices)
    n = int(np.prod(params.shape[:batch_dims]))
    flat_p = params.reshape((n,) + params.shape[batch_dims:])
    flat_i = indices.reshape((n,) + indices.shape[batch_dims:])
    return np.stack([fn(p, i) for p, i in zip(flat_p, flat_i)])


@pytest.mark.parametrize('p_shape, i_shape, axis, batch_dims', CASES)
def test_gather_and_its_gradient_equal_the_per_batch_reference(p_shape, i_shape, axis, batch_dims):
    rng = np.random.default_rng(len(p_shape) * 10 + axis)
    params = rng.standard_normal(p_shape).astype(np.float32)
    indices = rng.integers(0, p_shape[axis], i_shape).astype(np.int32)
    inner = axis - batch_dims
    out = tf.gather(params, indices, axis=axis, batch_dims=batch_dims).numpy()
    expected = per_batch(lambda p, i: np.take(p, i, axis=inner), params, indices, batch_dims)
    expected = expected.reshape(p_shape[:axis] + i_shape[batch_dims:] + p_shape[axis + 1:])
    assert out.dtype == np.float32 and np.array_equal(out, expected)

    g = rng.standard_normal(out.shape).astype(np.float32)

    def scatter(shape_b):
        def fn(i, gb):
            r = np.zeros(shape_b, np.float32)
            np.add.at(r, (slice(None),) * inner + (i,), gb)
            return r
        return fn
    grad = apply_op(gathering.GATHER_GRAD, (tf.constant(p_shape), tf.constant(indices),
                                            tf.constant(g)), {'axis': axis, 'batch_dims': batch_dims})
    n = int(np.prod(p_shape[:batch_dims]))
    flat_g = g.reshape((n,) + g.shape[batch_dims:])
    flat_i = indices.reshape((n,) + i_shape[batch_dims:])
    if batch_dims:
        ref = np.stack([scatter(p_shape[batch_dims:])(i, gb) for i, gb in zip(flat_i, flat_g)])
    else:
        ref = scatter(p_shape)(indices, g)
    assert np.array_equal(grad.numpy(), ref.reshape(p_shape))


def test_repeated_indices_sum_their_gradients_in_order():
    # float32 sums that depend on the order: 1e8 + 1 - 1e8 is 0 in index order, not 1.
    g = np.array([1e8, 1.0, -1e8], np.float32)
    grad = apply_op(gathering.GATHER_GRAD, (tf.constant([2]), tf.constant([0, 0, 0]), tf.constant(g)),
                    {'axis': 0, 'batch_dims': 0}).numpy()
    assert grad.tolist() == [0.0, 0.0]


def test_gradient_through_batched_gather_under_a_tape():
    params = tf.Variable(np.arange(12, dtype=np.float32).reshape(3, 4))
    with tf.GradientTape() as tape:
        picked = tf.gather(params, [[1, 1], [0, 3], [2, 2]], axis=1, batch_dims=1)
        loss = tf.reduce_sum(picked * [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    np.testing.assert_array_equal(tape.gradient(loss, params).numpy(),
                                  [[0, 3, 0, 0], [3, 0, 0, 4], [0, 0, 11, 0]])
